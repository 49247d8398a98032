package parallel

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// TestStreamMapOr: a right chunk function gives StreamMap's result; a
// wrong length in some chunk gives the reference's result or panic (its
// message names the reference's chunk bounds), for inputs that split
// into several chunks; an empty input calls the reference.
func TestStreamMapOr(t *testing.T) {
	const n, grain = 100_001, 1000
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	double := func(c []int) []int {
		out := make([]int, len(c))
		for i, x := range c {
			out[i] = 2 * x
		}
		return out
	}
	ref := func(f func([]int) []int) func() []int { return func() []int { return soac.StreamMap(xs, f) } }
	refCalled := false
	got := StreamMapOr(xs, grain, double, func() []int { refCalled = true; return nil })
	if refCalled || !slices.Equal(got, soac.StreamMap(xs, double)) {
		t.Fatalf("StreamMapOr with a right chunk function: reference called %v", refCalled)
	}
	// Drops the last element of any chunk holding 50_000.
	short := func(c []int) []int {
		out := double(c)
		if slices.Contains(c, 50_000) {
			return out[:len(out)-1]
		}
		return out
	}
	want := panicValue(func() { soac.StreamMap(xs, short) })
	if want == nil {
		t.Fatal("the reference does not panic")
	}
	if got := panicValue(func() { StreamMapOr(xs, grain, short, ref(short)) }); got != want {
		t.Errorf("StreamMapOr panics with %v, want the reference's %v", got, want)
	}
	// A chunk function that is wrong only for chunks longer than the
	// reference's: the reference returns normally, and so must the call.
	long := func(c []int) []int {
		out := double(c)
		if len(c) > soac.ChunkSize {
			return out[:1]
		}
		return out
	}
	if got := StreamMapOr(xs, 3*soac.ChunkSize, long, ref(long)); !slices.Equal(got, soac.StreamMap(xs, long)) {
		t.Errorf("StreamMapOr differs from the reference when only its own chunks are wrong")
	}
	empty := xs[:0]
	if got := StreamMapOr(empty, grain, double, func() []int { return soac.StreamMap(empty, double) }); got == nil || len(got) != 0 {
		t.Errorf("StreamMapOr(empty) has length %d (nil %v), want empty non-nil", len(got), got == nil)
	}
}

func panicValue(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}
