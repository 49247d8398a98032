package skel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

// affineRows is a stream reduction whose rows are affine maps v ↦ a·v + b
// of uint64 (row [a, b]), composed left to right: associative, not
// commutative, and exact (wrapping), so any combination out of chunk
// order gives another result. Element x is the map v ↦ 3v + x. An
// element 42 sets the panic flag (site 7).
var affineRows = StreamRed{
	Name:   "affine_rows",
	Inputs: []Param{{"x", Uint64}},
	Row:    Uint64,
	Args:   []Arg{{Name: "mul", Decl: "const ulong mul"}},
	Chunk: `ulong a = 1, b = 0;
for (long i = soac_lo; i < soac_hi; i++) {
	if (in_x[i] == 42) soac_err = 7;
	a = a * mul; b = b * mul + in_x[i];
}
soac_row[0] = a; soac_row[1] = b;
for (long i = 2; i < soac_room; i++) soac_row[i] = i;`,
	Combine: `soac_out[0] = soac_a[0] * soac_b[0];
soac_out[1] = soac_a[1] * soac_b[0] + soac_b[1];
for (long i = 2; i < soac_room; i++) soac_out[i] = soac_a[i];`,
}

// affineSeq is the reduction sequentially on the host.
func affineSeq(xs []uint64, room int) []uint64 {
	a, b := uint64(1), uint64(0)
	for _, x := range xs {
		a, b = a*3, b*3+x
	}
	row := []uint64{a, b}
	for i := 2; i < room; i++ {
		row = append(row, uint64(i))
	}
	return row
}

// TestStreamRed checks that the rows are combined in chunk order, on
// sizes of one chunk, a partial last chunk and several combine levels,
// and that a panic flag is reported.
func TestStreamRed(t *testing.T) {
	d := testkit.Device(t)
	k, err := affineRows.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 31, 32, 33, 1000, 32*33*32 + 5, 1 << 20} {
		for _, room := range []int{2, 5} {
			xs := make([]uint64, n)
			for i := range xs {
				xs[i] = r.Uint64() | 1<<63 // never 42
			}
			got := make([]uint64, room)
			panicked, _, err := k.RunArgs([]any{uint64(3)}, []HostSlice{Slice(xs)}, Slice(got))
			if err != nil || panicked {
				t.Fatalf("n=%d room=%d: panicked %v, %v", n, room, panicked, err)
			}
			if want := affineSeq(xs, room); !slices.Equal(got, want) {
				t.Errorf("n=%d room=%d: %v, want %v", n, room, got, want)
			}
			if n > 1 {
				xs[n/2] = 42
				panicked, _, err = k.RunArgs([]any{uint64(3)}, []HostSlice{Slice(xs)}, Slice(got))
				if err != nil || !panicked {
					t.Errorf("n=%d room=%d: a work-item's panic is not reported (panicked %v, %v)", n, room, panicked, err)
				}
			}
		}
	}
	if _, _, err := k.RunArgs([]any{uint64(3)}, []HostSlice{Slice([]uint64{})}, Slice(make([]uint64, 2))); err == nil {
		t.Error("an empty input ran")
	}
	if !k.Fits(1) || !k.Fits(streamRedRowBytes/16) || k.Fits(streamRedRowBytes/16+1) || k.Fits(0) {
		t.Error("Fits: rows of 1 and of half the budget fit, longer and empty rows do not")
	}
}

// TestStreamRedChunk checks the chunking rule: at least the minimum
// chunk, at most the most chunks, rows within the budget.
func TestStreamRedChunk(t *testing.T) {
	for _, c := range []struct{ n, room, size, want int }{
		{1, 8, 8, streamRedMinChunk},
		{1 << 20, 8, 8, streamRedMinChunk},
		{1 << 24, 8, 8, 256},
		{1 << 24, 1 << 20, 8, 1 << 21},
	} {
		if got := StreamRedChunk(c.n, c.room, c.size); got != c.want {
			t.Errorf("StreamRedChunk(%d, %d, %d) = %d, want %d", c.n, c.room, c.size, got, c.want)
		}
	}
}
