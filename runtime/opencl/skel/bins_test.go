package skel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

// modBins counts element x into bin x mod m, adding x/m+1 (a 64-bit
// amount that wraps); an element 1<<40 has bin -1 (out of range), an
// element 42 sets the panic flag (site 7).
func modBins(bin Type) Bins {
	return Bins{
		Name:   "mod_bins",
		Inputs: []Param{{"x", Int64}},
		Bin:    bin,
		Args:   []Arg{{Name: "m", Decl: "const long m"}},
		Elem: `const long x = in_x[soac_index];
if (x == 42) soac_err = 7;
soac_bin = x == (1L << 40) ? -1 : x % m;
soac_add = x / m + 1;`,
	}
}

// modSeq is modBins on the host.
func modSeq[T int64 | uint32](xs []int64, m, room int) []T {
	row := make([]T, room)
	for _, x := range xs {
		row[x%int64(m)] += T(x/int64(m) + 1)
	}
	return row
}

// TestBins checks the bins skeleton against the host, 64- and 32-bit,
// on rows in local memory (few copies and many) and in global memory,
// on one element, odd lengths and more elements than work-items; and
// that a panic and a bin out of range set the flag.
func TestBins(t *testing.T) {
	d := testkit.Device(t)
	k64, err := modBins(Int64).Build(d)
	if err != nil {
		t.Fatal(err)
	}
	k32, err := modBins(Uint32).Build(d)
	if err != nil {
		t.Fatal(err)
	}
	big := int(d.Info.LocalMemSize)/4 + 3 // past local memory: global atomics
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 1001, 1<<20 + 3} {
		for _, room := range []int{1, 37, 4096, big} {
			xs := make([]int64, n)
			for i := range xs {
				xs[i] = r.Int64N(1 << 35)
				if xs[i] == 42 {
					xs[i] = 43
				}
			}
			got := make([]int64, room)
			panicked, _, err := k64.RunArgs([]any{int64(room)}, []HostSlice{Slice(xs)}, Slice(got))
			if err != nil || panicked {
				t.Fatalf("n=%d room=%d: panicked %v, %v", n, room, panicked, err)
			}
			if want := modSeq[int64](xs, room, room); !slices.Equal(got, want) {
				t.Errorf("int64, n=%d room=%d: %v, want %v", n, room, got[:min(room, 8)], want[:min(room, 8)])
			}
			got32 := make([]uint32, room)
			if panicked, _, err := k32.RunArgs([]any{int64(room)}, []HostSlice{Slice(xs)}, Slice(got32)); err != nil || panicked {
				t.Fatalf("uint32, n=%d room=%d: panicked %v, %v", n, room, panicked, err)
			}
			if want := modSeq[uint32](xs, room, room); !slices.Equal(got32, want) {
				t.Errorf("uint32, n=%d room=%d: %v, want %v", n, room, got32[:min(room, 8)], want[:min(room, 8)])
			}
			for _, bad := range []int64{42, 1 << 40} {
				xs[n/2] = bad
				if panicked, _, err := k64.RunArgs([]any{int64(room)}, []HostSlice{Slice(xs)}, Slice(got)); err != nil || !panicked {
					t.Errorf("n=%d room=%d: element %d sets no flag (panicked %v, %v)", n, room, bad, panicked, err)
				}
			}
		}
	}
	if _, _, err := k64.RunArgs([]any{int64(3)}, []HostSlice{Slice([]int64{})}, Slice(make([]int64, 2))); err == nil {
		t.Error("an empty input ran")
	}
}
