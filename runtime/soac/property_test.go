package soac_test

// Property tests of the algebra that soacgen's fusion rules rely on. Each
// property states an equation between a pipeline and the fused form a rule
// produces; the tests check it on seeded random inputs and random lambdas
// (integer arithmetic, so equal means bit-identical).

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// propIters is the number of random cases per property: enough to hit every
// length class of randLen many times while keeping go test fast.
const propIters = 300

// newRand returns a deterministic generator for the named test, so failures
// reproduce.
func newRand(t *testing.T) *rand.Rand {
	var h uint64 = 14695981039346656037
	for _, c := range []byte(t.Name()) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(h, 2))
}

// randLen returns a length that is often an edge case: 0, 1, around
// ChunkSize or a few chunks, and otherwise small.
func randLen(r *rand.Rand) int {
	switch r.IntN(6) {
	case 0:
		return r.IntN(2)
	case 1:
		return soac.ChunkSize - 2 + r.IntN(5)
	case 2:
		return r.IntN(4*soac.ChunkSize + 3)
	default:
		return r.IntN(40)
	}
}

func randInts(r *rand.Rand, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(2001) - 1000
	}
	return xs
}

// randAffine returns x -> a*x + b for random a, b (wrapping int arithmetic).
func randAffine(r *rand.Rand) func(int) int {
	a, b := r.IntN(19)-9, r.IntN(201)-100
	return func(x int) int { return a*x + b }
}

// randPred returns a random predicate that keeps roughly 1/m of the values.
func randPred(r *rand.Rand) func(int) bool {
	m, k := 1+r.IntN(4), r.IntN(7)
	return func(x int) bool { return (x+k)%m == 0 }
}

// affine is x -> a*x + b. Composition (then) is associative but not
// commutative with neutral element {1, 0}, so it catches re-ordering as well
// as re-association mistakes.
type affine struct{ a, b int }

var idAffine = affine{1, 0}

// then returns the map that applies f first and g second.
func then(f, g affine) affine { return affine{g.a * f.a, g.a*f.b + g.b} }

// randPartition returns chunk boundaries 0 = b0 < b1 < ... < bk = n of an
// arbitrary partition of n elements into non-empty chunks (k = 0 when n = 0).
func randPartition(r *rand.Rand, n int) []int {
	bounds := []int{0}
	for lo := 0; lo < n; {
		var size int
		switch r.IntN(4) {
		case 0:
			size = 1
		case 1:
			size = 1 + r.IntN(2*soac.ChunkSize)
		default:
			size = 1 + r.IntN(16)
		}
		lo = min(lo+size, n)
		bounds = append(bounds, lo)
	}
	return bounds
}

// streamMapWith evaluates StreamMap's defining formula, f(c1) ++ ... ++ f(ck),
// for the partition bounds.
func streamMapWith[T, U any](xs []T, bounds []int, f func([]T) []U) []U {
	out := []U{}
	for i := 1; i < len(bounds); i++ {
		out = append(out, f(xs[bounds[i-1]:bounds[i]:bounds[i]])...)
	}
	return out
}

// streamRedWith evaluates StreamRed's defining formula,
// f(empty) ⊕ f(c1) ⊕ ... ⊕ f(ck), for the partition bounds.
func streamRedWith[T, A any](xs []T, bounds []int, op func(A, A) A, f func([]T) A) A {
	acc := f(xs[:0:0])
	for i := 1; i < len(bounds); i++ {
		acc = op(acc, f(xs[bounds[i-1]:bounds[i]:bounds[i]]))
	}
	return acc
}

func TestPropMapMap(t *testing.T) {
	r := newRand(t)
	for range propIters {
		xs := randInts(r, randLen(r))
		f, g := randAffine(r), randAffine(r)
		got := soac.Map(soac.Map(xs, f), g)
		want := soac.Map(xs, func(x int) int { return g(f(x)) })
		if !slices.Equal(got, want) {
			t.Fatalf("Map(Map(xs, f), g) != Map(xs, g∘f) for len %d", len(xs))
		}
	}
}

func TestPropReduceMap(t *testing.T) {
	r := newRand(t)
	for range propIters {
		xs := randInts(r, randLen(r))
		f := randAffine(r)
		ne := 0
		op := func(a, b int) int { return a + b }
		if r.IntN(2) == 0 {
			ne, op = -1<<63, func(a, b int) int { return max(a, b) }
		}
		got := soac.Reduce(soac.Map(xs, f), ne, op)
		want := ne // the fused redomap: one fold applying f
		for _, x := range xs {
			want = op(want, f(x))
		}
		if got != want {
			t.Fatalf("Reduce(Map(xs, f)) = %d, fold with f = %d (len %d)", got, want, len(xs))
		}
	}
}

func TestPropFilterFilter(t *testing.T) {
	r := newRand(t)
	for range propIters {
		xs := randInts(r, randLen(r))
		p, q := randPred(r), randPred(r)
		got := soac.Filter(soac.Filter(xs, p), q)
		want := soac.Filter(xs, func(x int) bool { return p(x) && q(x) })
		if !slices.Equal(got, want) {
			t.Fatalf("Filter(Filter(xs, p), q) != Filter(xs, p && q) for len %d", len(xs))
		}
	}
}

func TestPropReduceFilter(t *testing.T) {
	r := newRand(t)
	for range propIters {
		xs := randInts(r, randLen(r))
		p := randPred(r)
		add := func(a, b int) int { return a + b }
		got := soac.Reduce(soac.Filter(xs, p), 0, add)
		want := 0 // the fused form: a select inside the fold, no filtered slice
		for _, x := range xs {
			y := 0
			if p(x) {
				y = x
			}
			want = add(want, y)
		}
		if got != want {
			t.Fatalf("Reduce(Filter(xs, p)) = %d, fold with select = %d (len %d)", got, want, len(xs))
		}
	}
}

func TestPropScanLastIsReduce(t *testing.T) {
	r := newRand(t)
	for range propIters {
		fs := make([]affine, randLen(r))
		for i := range fs {
			fs[i] = affine{r.IntN(5) - 2, r.IntN(11) - 5}
		}
		s := soac.Scan(fs, idAffine, then)
		red := soac.Reduce(fs, idAffine, then)
		if len(fs) == 0 {
			if len(s) != 0 {
				t.Fatalf("Scan of empty has length %d", len(s))
			}
			continue
		}
		if s[len(s)-1] != red {
			t.Fatalf("last of Scan = %v, Reduce = %v (len %d)", s[len(s)-1], red, len(fs))
		}
		i := r.IntN(len(fs))
		if want := soac.Reduce(fs[:i+1], idAffine, then); s[i] != want {
			t.Fatalf("Scan[%d] = %v, Reduce of prefix = %v", i, s[i], want)
		}
	}
}

// TestPropStreamRedPartition checks that StreamRed gives the formula's value
// for every partition when the caller's promise holds (f is a homomorphism
// from concatenation to op).
func TestPropStreamRedPartition(t *testing.T) {
	r := newRand(t)
	compose := func(c []affine) affine { return soac.Reduce(c, idAffine, then) }
	for range propIters {
		fs := make([]affine, randLen(r))
		for i := range fs {
			fs[i] = affine{r.IntN(5) - 2, r.IntN(11) - 5}
		}
		want := soac.StreamRed(fs, then, compose)
		bounds := randPartition(r, len(fs))
		if got := streamRedWith(fs, bounds, then, compose); got != want {
			t.Fatalf("StreamRed = %v, formula on partition %v = %v (len %d)", want, bounds, got, len(fs))
		}
		if red := soac.Reduce(fs, idAffine, then); red != want {
			t.Fatalf("StreamRed = %v, Reduce = %v (len %d)", want, red, len(fs))
		}
	}
}

// TestPropStreamMapPartition checks StreamMap of a chunk-wise map against Map
// and against the formula on a random partition.
func TestPropStreamMapPartition(t *testing.T) {
	r := newRand(t)
	for range propIters {
		xs := randInts(r, randLen(r))
		f := randAffine(r)
		chunkMap := func(c []int) []int { return soac.Map(c, f) }
		got := soac.StreamMap(xs, chunkMap)
		if want := soac.Map(xs, f); !slices.Equal(got, want) {
			t.Fatalf("StreamMap(xs, chunk-wise map f) != Map(xs, f) for len %d", len(xs))
		}
		bounds := randPartition(r, len(xs))
		if want := streamMapWith(xs, bounds, chunkMap); !slices.Equal(got, want) {
			t.Fatalf("StreamMap != formula on partition %v (len %d)", bounds, len(xs))
		}
	}
}

func TestPropMap2OfMap(t *testing.T) {
	r := newRand(t)
	for range propIters {
		n := randLen(r)
		xs, ys := randInts(r, n), randInts(r, n)
		f, h := randAffine(r), randAffine(r)
		g := func(x, y int) int { return 3*x - y }
		got := soac.Map2(soac.Map(xs, f), soac.Map(ys, h), g)
		want := soac.Map2(xs, ys, func(x, y int) int { return g(f(x), h(y)) })
		if !slices.Equal(got, want) {
			t.Fatalf("Map2(Map(xs, f), Map(ys, h), g) != Map2 with composed lambda for len %d", n)
		}
		got3 := soac.Map3(soac.Map(xs, f), ys, soac.Map2(xs, ys, g), func(a, b, c int) int { return a + b*c })
		want3 := soac.Map2(xs, ys, func(x, y int) int { return f(x) + y*g(x, y) })
		if !slices.Equal(got3, want3) {
			t.Fatalf("Map3 of Map and Map2 != Map2 with composed lambda for len %d", n)
		}
	}
}

// TestPartitionHelpers checks the helpers the properties above rely on, so
// that a broken helper cannot make them pass vacuously.
func TestPartitionHelpers(t *testing.T) {
	r := newRand(t)
	for range propIters {
		n := randLen(r)
		b := randPartition(r, n)
		if b[0] != 0 || b[len(b)-1] != n {
			t.Fatalf("partition %v of %d does not span it", b, n)
		}
		for i := 1; i < len(b); i++ {
			if b[i] <= b[i-1] {
				t.Fatalf("partition %v has an empty chunk", b)
			}
		}
	}
	xs := []int{1, 2, 3, 4, 5}
	var chunks [][]int
	streamRedWith(xs, []int{0, 2, 3, 5}, func(a, b int) int { return a + b }, func(c []int) int {
		chunks = append(chunks, c)
		return 0
	})
	if len(chunks) != 4 || len(chunks[0]) != 0 || !slices.Equal(chunks[1], []int{1, 2}) ||
		!slices.Equal(chunks[2], []int{3}) || !slices.Equal(chunks[3], []int{4, 5}) {
		t.Fatalf("streamRedWith chunks = %v", chunks)
	}
	got := streamMapWith(xs, []int{0, 4, 5}, func(c []int) []int { return []int{len(c), len(c)}[:len(c)%3] })
	if !slices.Equal(got, []int{4, 1}) {
		t.Fatalf("streamMapWith = %v, want [4 1]", got)
	}
}
