package soac_test

// Fuzz tests of the functions with index arithmetic. go test runs only the
// seeds; run a fuzzer with, for example,
//
//	go test -run XXX -fuzz FuzzStreamMap -fuzztime 20s ./runtime/soac/

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// maxFuzzLen bounds generated inputs to a few chunks: enough to cross every
// kind of chunk boundary while keeping each fuzz iteration fast.
const maxFuzzLen = 4*soac.ChunkSize + 3

// seedLens are the lengths every fuzzer is seeded with: the empty and
// singleton inputs and both sides of the first two chunk boundaries.
var seedLens = []int{0, 1, 2, 3, soac.ChunkSize - 1, soac.ChunkSize, soac.ChunkSize + 1,
	2*soac.ChunkSize - 1, 2 * soac.ChunkSize, 2*soac.ChunkSize + 1}

// fuzzInts returns n pseudo-random ints determined by seed.
func fuzzInts(n int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 3))
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(1<<20) - 1<<19
	}
	return xs
}

// fuzzLen maps an arbitrary fuzzed length into [0, maxFuzzLen].
func fuzzLen(n uint16) int { return int(n) % (maxFuzzLen + 1) }

func FuzzStreamMap(f *testing.F) {
	for _, n := range seedLens {
		f.Add(uint16(n), uint64(n))
	}
	f.Fuzz(func(t *testing.T, n16 uint16, seed uint64) {
		xs := fuzzInts(fuzzLen(n16), seed)
		next := 0 // the offset in xs the next chunk must start at
		got := soac.StreamMap(xs, func(c []int) []int {
			if len(c) == 0 {
				t.Fatalf("f called on an empty chunk")
			}
			if len(c) > soac.ChunkSize || cap(c) != len(c) {
				t.Fatalf("chunk len %d cap %d, want len <= %d = cap", len(c), cap(c), soac.ChunkSize)
			}
			if &c[0] != &xs[next] {
				t.Fatalf("chunk does not start at offset %d", next)
			}
			next += len(c)
			out := make([]int, len(c))
			for i, x := range c {
				out[i] = 3*x + 1
			}
			return out
		})
		if next != len(xs) {
			t.Fatalf("chunks cover %d of %d elements", next, len(xs))
		}
		if want := soac.Map(xs, func(x int) int { return 3*x + 1 }); got == nil || !slices.Equal(got, want) {
			t.Fatalf("StreamMap != Map for len %d", len(xs))
		}
		if len(xs) == 0 {
			return
		}
		// A chunk function that drops the last element of the chunk at
		// offset bad panics with that chunk's bounds.
		bad := (int(seed%uint64(len(xs))) / soac.ChunkSize) * soac.ChunkSize
		hi := min(bad+soac.ChunkSize, len(xs))
		want := fmt.Sprintf("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d", bad, hi, hi-bad, hi-bad-1)
		mustPanic(t, want, func() {
			soac.StreamMap(xs, func(c []int) []int {
				if &c[0] == &xs[bad] {
					return c[:len(c)-1]
				}
				return c
			})
		})
	})
}

func FuzzStreamRed(f *testing.F) {
	for _, n := range seedLens {
		f.Add(uint16(n), uint64(n))
	}
	f.Fuzz(func(t *testing.T, n16 uint16, seed uint64) {
		xs := fuzzInts(fuzzLen(n16), seed)
		fs := soac.Map(xs, func(x int) affine { return affine{x%3 - 1, x % 7} })
		compose := func(c []affine) affine { return soac.Reduce(c, idAffine, then) }
		var bounds []int // the partition StreamRed used, from its calls of f
		next := 0
		got := soac.StreamRed(fs, then, func(c []affine) affine {
			if bounds == nil {
				if len(c) != 0 {
					t.Fatalf("first call of f has %d elements, want 0", len(c))
				}
				bounds = []int{0}
				return compose(c)
			}
			if len(c) == 0 || len(c) > soac.ChunkSize || &c[0] != &fs[next] {
				t.Fatalf("bad chunk of len %d at offset %d", len(c), next)
			}
			next += len(c)
			bounds = append(bounds, next)
			return compose(c)
		})
		if next != len(fs) {
			t.Fatalf("chunks cover %d of %d elements", next, len(fs))
		}
		if want := streamRedWith(fs, bounds, then, compose); got != want {
			t.Fatalf("StreamRed = %v, formula = %v", got, want)
		}
		if want := compose(fs); got != want {
			t.Fatalf("StreamRed = %v, Reduce = %v", got, want)
		}
		r := rand.New(rand.NewPCG(seed, 4))
		if want := streamRedWith(fs, randPartition(r, len(fs)), then, compose); got != want {
			t.Fatalf("StreamRed = %v, formula on a random partition = %v", got, want)
		}
	})
}

func FuzzScan(f *testing.F) {
	for _, n := range seedLens {
		f.Add(uint16(n), uint64(n), 0)
	}
	f.Add(uint16(5), uint64(9), -17)
	f.Fuzz(func(t *testing.T, n16 uint16, seed uint64, ne int) {
		xs := fuzzInts(fuzzLen(n16), seed)
		got := soac.Scan(xs, ne, func(a, b int) int { return a + b })
		if got == nil || len(got) != len(xs) {
			t.Fatalf("Scan has length %d (nil %v), want %d", len(got), got == nil, len(xs))
		}
		acc := ne
		for i, x := range xs {
			acc += x
			if got[i] != acc {
				t.Fatalf("Scan[%d] = %d, want %d", i, got[i], acc)
			}
		}
		if len(xs) > 0 && got[len(got)-1] != soac.Reduce(xs, ne, func(a, b int) int { return a + b }) {
			t.Fatalf("last of Scan != Reduce")
		}
	})
}

func FuzzFilter(f *testing.F) {
	for _, n := range seedLens {
		f.Add(uint16(n), uint64(n), uint8(2))
	}
	f.Add(uint16(3), uint64(1), uint8(0))
	f.Add(uint16(9), uint64(1), uint8(1))
	f.Fuzz(func(t *testing.T, n16 uint16, seed uint64, m uint8) {
		xs := fuzzInts(fuzzLen(n16), seed)
		p := func(x int) bool { return m != 0 && x%int(m) == 0 }
		orig := slices.Clone(xs)
		got := soac.Filter(xs, p)
		if got == nil {
			t.Fatalf("Filter returned nil")
		}
		j := 0
		for _, x := range xs {
			if !p(x) {
				continue
			}
			if j >= len(got) || got[j] != x {
				t.Fatalf("Filter result %d is wrong or missing", j)
			}
			j++
		}
		if j != len(got) {
			t.Fatalf("Filter kept %d elements, want %d", len(got), j)
		}
		for i := range got {
			got[i]++
		}
		if !slices.Equal(xs, orig) {
			t.Fatalf("writing Filter's result changed its input")
		}
	})
}

func FuzzMapLengths(f *testing.F) {
	for _, n := range seedLens {
		f.Add(uint16(n), uint16(n), uint16(n))
		f.Add(uint16(n), uint16(n+1), uint16(n))
		f.Add(uint16(n), uint16(n), uint16(max(n-1, 0)))
	}
	f.Fuzz(func(t *testing.T, a, b, c uint16) {
		xs, ys, zs := fuzzInts(fuzzLen(a), 1), fuzzInts(fuzzLen(b), 2), fuzzInts(fuzzLen(c), 3)
		calls := 0
		if len(xs) != len(ys) {
			mustPanic(t, soac.LengthError("Map2", len(xs), len(ys)), func() {
				soac.Map2(xs, ys, func(x, y int) int { calls++; return x - y })
			})
		} else {
			got := soac.Map2(xs, ys, func(x, y int) int { calls++; return x - y })
			if got == nil || len(got) != len(xs) || calls != len(xs) {
				t.Fatalf("Map2: len %d, %d calls, want %d", len(got), calls, len(xs))
			}
			for i := range got {
				if got[i] != xs[i]-ys[i] {
					t.Fatalf("Map2[%d] wrong", i)
				}
			}
		}
		calls2 := calls
		if len(xs) != len(ys) || len(xs) != len(zs) {
			mustPanic(t, soac.LengthError("Map3", len(xs), len(ys), len(zs)), func() {
				soac.Map3(xs, ys, zs, func(x, y, z int) int { calls++; return x - y + z })
			})
			if calls != calls2 {
				t.Fatalf("Map3 called f before panicking")
			}
		} else {
			got := soac.Map3(xs, ys, zs, func(x, y, z int) int { calls++; return x - y + z })
			if got == nil || len(got) != len(xs) {
				t.Fatalf("Map3: len %d, want %d", len(got), len(xs))
			}
			for i := range got {
				if got[i] != xs[i]-ys[i]+zs[i] {
					t.Fatalf("Map3[%d] wrong", i)
				}
			}
		}
		if len(xs) != len(ys) && calls != 0 {
			t.Fatalf("Map2 called f before panicking")
		}
	})
}
