package wordlen

import (
	"strings"
	"unicode/utf8"
)

// wordStatsHand is wordStatsSpec with one loop over the words, counting each
// word's runes once.
func wordStatsHand(text string, minLen int) (longest int, long []string) {
	words := strings.Fields(text)
	long = make([]string, 0, len(words))
	for _, w := range words {
		n := utf8.RuneCountInString(w)
		longest = max(longest, n)
		if n > minLen {
			long = append(long, w)
		}
	}
	return longest, long
}
