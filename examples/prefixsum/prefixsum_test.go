package prefixsum

import (
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestPrefixKnown(t *testing.T) {
	if got, want := prefixSumsSpec([]int{0, 1, -2, 5}), []int{1, 5, 0, 16}; !reflect.DeepEqual(got, want) {
		t.Errorf("prefixSumsSpec = %v, want %v", got, want)
	}
	if d := extest.DiffFloats(prefixSqrtsSpec([]float64{4, 9, 0, 16}), []float64{2, 5, 5, 9}); d != "" {
		t.Errorf("prefixSqrtsSpec: %s", d)
	}
}

func TestPrefixSums(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Ints(extest.Rand(13, n), n, -1000, 1000)
		want := prefixSumsSpec(xs)
		for _, im := range intImpls[1:] {
			if got := im.fn(xs); !reflect.DeepEqual(got, want) {
				t.Errorf("n=%d %s differs from the spec (len %d, want %d)", n, im.name, len(got), len(want))
			}
		}
	}
	for _, im := range intImpls {
		if got := im.fn(nil); got == nil || len(got) != 0 {
			t.Errorf("%s(nil) = %#v, want []int{}", im.name, got)
		}
	}
}

func TestPrefixSqrts(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(14, n), n, 0, 10)
		want := prefixSqrtsSpec(xs)
		for _, im := range floatImpls[1:] {
			if d := extest.DiffFloats(im.fn(xs), want); d != "" {
				t.Errorf("n=%d %s: %s", n, im.name, d)
			}
		}
	}
	for _, im := range floatImpls {
		if got := im.fn(nil); got == nil || len(got) != 0 {
			t.Errorf("%s(nil) = %#v, want []float64{}", im.name, got)
		}
	}
}
