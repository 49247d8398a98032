package prefixsum

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestPrefixSumsPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Ints(extest.Rand(13, n), n, -1000, 1000)
		want := prefixSumsSpec(xs)
		got := extest.AcrossProcs(t, func() []int { return PrefixSumsPar(xs) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: PrefixSumsPar: %s", n, d)
		}
	}
}

func TestPrefixSqrtsPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(14, n), n, 0, 10)
		want := prefixSqrtsSpec(xs)
		got := extest.AcrossProcs(t, func() []float64 { return PrefixSqrtsPar(xs) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: PrefixSqrtsPar: %s", n, d)
		}
	}
}

func TestHalfSqrtsPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(15, n), n, 0, 10)
		want := halfSqrtsSpec(xs)
		if d := extest.Same(HalfSqrts(xs), want); d != "" {
			t.Fatalf("n=%d: HalfSqrts differs from the spec: %s", n, d)
		}
		got := extest.AcrossProcs(t, func() []float64 { return HalfSqrtsPar(xs) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: HalfSqrtsPar: %s", n, d)
		}
	}
}

func TestChunkedSumsPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Ints(extest.Rand(16, n), n, -1000, 1000)
		want := chunkedSumsSpec(xs)
		if d := extest.Same(prefixSumsSpec(xs), want); d != "" {
			t.Fatalf("n=%d: the stream's spec differs from PrefixSums': %s", n, d)
		}
		if d := extest.Same(ChunkedSums(xs), want); d != "" {
			t.Fatalf("n=%d: ChunkedSums differs from the spec: %s", n, d)
		}
		got := extest.AcrossProcs(t, func() []int { return ChunkedSumsPar(xs) })
		if d := extest.Same(got, want); d != "" {
			t.Errorf("n=%d: ChunkedSumsPar: %s", n, d)
		}
	}
}
