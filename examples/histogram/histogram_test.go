package histogram

import (
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestHistogramKnown(t *testing.T) {
	xs := []float64{0, 0.1, 0.5, 0.99, -3, 7, 0.25}
	if got, want := histogramSpec(xs, 0, 1, 4), []int{3, 1, 1, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("histogramSpec = %v, want %v", got, want)
	}
}

const nbins = 37 // not a power of two, and not dividing ChunkSize

func TestHistogram(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		// Some values fall outside [-1, 1), to test the clamping.
		xs := extest.Floats(extest.Rand(11, n), n, -1.1, 1.1)
		same := extest.Unchanged(xs)
		want := histogramSpec(xs, -1, 1, nbins)
		total := 0
		for _, c := range want {
			total += c
		}
		if len(want) != nbins || total != n {
			t.Fatalf("n=%d: spec gives %v, which does not count every value once", n, want)
		}
		for _, im := range impls[1:] {
			if got := im.fn(xs, -1, 1, nbins); !reflect.DeepEqual(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
		if !same() {
			t.Errorf("n=%d: an implementation wrote its input", n)
		}
	}
}
