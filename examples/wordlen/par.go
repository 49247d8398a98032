package wordlen

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import (
	"strings"
	"unicode/utf8"

	"github.com/soacgen/soacgen/runtime/soac"
)

// wordStatsParSpec is wordStatsSpec for the parallel backend.
//
//soac:fuse WordStatsPar backend=parallel
func wordStatsParSpec(text string, minLen int) (longest int, long []string) {
	words := strings.Fields(text)
	lens := soac.Map(words, utf8.RuneCountInString)
	longest = soac.Reduce(lens, 0, func(a, b int) int { return max(a, b) })
	long = soac.Filter(words, func(w string) bool { return utf8.RuneCountInString(w) > minLen })
	return longest, long
}
