package wordlen

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestWordStatsKnown(t *testing.T) {
	longest, long := wordStatsSpec("  der Bär  läuft\tüber   die Straße\n", 4)
	if longest != 6 {
		t.Errorf("longest = %d, want 6 (Straße: 7 bytes, 6 runes)", longest)
	}
	if want := []string{"läuft", "Straße"}; !reflect.DeepEqual(long, want) {
		t.Errorf("long = %q, want %q", long, want)
	}
}

// vocabulary mixes ASCII words with words whose byte and rune counts differ.
var vocabulary = strings.Fields(`a an the of to in is was soac fusion
	stream reduce filter über straße naïve café 日本語 ελληνικά кириллица
	array combinator associative commutative`)

var spaces = []string{" ", " ", " ", "  ", "\t", "\n", " \u00a0"}

// randText returns a text of n words drawn from the vocabulary, separated by
// random white space (including a no-break space, which strings.Fields
// counts as space).
func randText(n int) string {
	r := extest.Rand(15, n)
	var sb strings.Builder
	pick := func(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }
	for range n {
		sb.WriteString(pick(r, spaces))
		sb.WriteString(pick(r, vocabulary))
	}
	return sb.String()
}

func TestWordStats(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		text := randText(n)
		wantLongest, wantLong := wordStatsSpec(text, 5)
		if wantLong == nil {
			t.Fatalf("n=%d: spec returned nil", n)
		}
		for _, im := range impls[1:] {
			longest, long := im.fn(text, 5)
			if longest != wantLongest || !reflect.DeepEqual(long, wantLong) {
				t.Errorf("n=%d %s = %d, %d long words (nil=%v), want %d, %d",
					n, im.name, longest, len(long), long == nil, wantLongest, len(wantLong))
			}
		}
	}
}
