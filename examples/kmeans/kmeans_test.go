package kmeans

import (
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/soac"
)

func TestClusterSizesKnown(t *testing.T) {
	centres := []Point{{0, 0}, {10, 0}, {0, 10}}
	ps := []Point{{1, 1}, {9, 1}, {1, 9}, {2, 0}, {5, 0}} // {5,0} ties: lowest index
	if got, want := clusterSizesSpec(ps, centres), []int{3, 1, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("clusterSizesSpec = %v, want %v", got, want)
	}
}

func randPoints(seed uint64, n int) []Point {
	r := extest.Rand(seed, n)
	ps := make([]Point, n)
	for i := range ps {
		ps[i] = Point{r.NormFloat64(), r.NormFloat64()}
	}
	return ps
}

// centres are k = 8 fixed centres, so every size has several clusters.
var centres = randPoints(99, 8)

func TestClusterSizes(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		ps := randPoints(3, n)
		same := extest.Unchanged(ps)
		want := clusterSizesSpec(ps, centres)
		total := 0
		for _, c := range want {
			total += c
		}
		if len(want) != len(centres) || total != n {
			t.Fatalf("n=%d: spec gives %v, which does not count every point once", n, want)
		}
		for _, im := range impls[1:] {
			if got := im.fn(ps, centres); !reflect.DeepEqual(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
		if !same() {
			t.Errorf("n=%d: an implementation wrote its input", n)
		}
	}
	// No centres and no points: an empty, non-nil count vector everywhere.
	for _, im := range impls {
		if got := im.fn(nil, nil); got == nil || len(got) != 0 {
			t.Errorf("%s(nil, nil) = %#v, want []int{}", im.name, got)
		}
	}
}

// TestClusterSizesChunking checks the caller's promise on which fusion
// relies: the spec's chunk function and operator give the same counts for
// every partition of the points, whatever the chunk size.
func TestClusterSizesChunking(t *testing.T) {
	ps := randPoints(4, 10_000)
	want := clusterSizesHand(ps, centres)
	k := len(centres)
	op := func(x, y []int) []int { return soac.Map2(x, y, func(a, b int) int { return a + b }) }
	f := func(chunk []Point) []int {
		counts := make([]int, k)
		for _, p := range chunk {
			counts[nearest(p, centres)]++
		}
		return counts
	}
	for _, size := range []int{1, 3, 1000, 4096, 10_000} {
		acc := f(nil)
		for lo := 0; lo < len(ps); lo += size {
			part := f(ps[lo:min(lo+size, len(ps))])
			accSame, partSame := extest.Unchanged(acc), extest.Unchanged(part)
			next := op(acc, part)
			if !accSame() || !partSame() {
				t.Fatalf("chunks of %d: op wrote an argument", size)
			}
			acc = next
		}
		if !reflect.DeepEqual(acc, want) {
			t.Errorf("chunks of %d: %v, want %v", size, acc, want)
		}
	}
}
