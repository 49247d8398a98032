package wordlen

import (
	"strings"
	"unicode/utf8"

	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func(text string, minLen int) (int, []string)
}{
	{"spec", wordStatsSpec},
	{"fused", WordStats},
	{"hand", wordStatsHand},
	{"lo", wordStatsLo},
	{"iter", wordStatsIter},
}

// wordStatsLo uses lo.Max over lo.Map and lo.Filter.
func wordStatsLo(text string, minLen int) (int, []string) {
	words := strings.Fields(text)
	longest := lo.Max(lo.Map(words, func(w string, _ int) int { return utf8.RuneCountInString(w) }))
	long := lo.Filter(words, func(w string, _ int) bool { return utf8.RuneCountInString(w) > minLen })
	return longest, long
}

// wordStatsIter needs two chains, since the words have two consumers.
func wordStatsIter(text string, minLen int) (int, []string) {
	words := strings.Fields(text)
	longest := seq.Reduce(seq.Map(seq.Values(words), utf8.RuneCountInString), 0, func(a, b int) int { return max(a, b) })
	long := make([]string, 0, len(words))
	for w := range seq.Filter(seq.Values(words), func(w string) bool { return utf8.RuneCountInString(w) > minLen }) {
		long = append(long, w)
	}
	return longest, long
}
