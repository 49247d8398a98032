package skel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

// indexedMap is a stream map whose output element i is mul·x[i] + i: the
// chunk writes its row at the chunk's offset, so a row written at the
// wrong offset, or a chunk skipped, gives another output. An element 42
// sets the panic flag (site 5).
var indexedMap = StreamMap{
	Name:   "indexed_map",
	Inputs: []Param{{"x", Uint64}},
	Out:    Uint64,
	Args:   []Arg{{Name: "mul", Decl: "const ulong mul"}},
	Chunk: `for (long i = 0; i < soac_room; i++) {
	const ulong x = in_x[soac_lo + i];
	if (x == 42) soac_err = 5;
	soac_row[i] = x * mul + (ulong)(soac_lo + i);
}`,
}

// TestStreamMap checks that every chunk writes its row at its offset,
// on sizes of one chunk, a partial last chunk and more chunks than the
// most (longer chunks), and that a panic flag is reported.
func TestStreamMap(t *testing.T) {
	d := testkit.Device(t)
	k, err := indexedMap.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 15, 16, 17, 1000, streamMapMaxChunks*streamMapMinChunk + 3} {
		xs := make([]uint64, n)
		want := make([]uint64, n)
		for i := range xs {
			xs[i] = r.Uint64() | 1<<63 // never 42
			want[i] = xs[i]*3 + uint64(i)
		}
		got := make([]uint64, n)
		panicked, _, err := k.RunArgs([]any{uint64(3)}, []HostSlice{Slice(xs)}, Slice(got))
		if err != nil || panicked {
			t.Fatalf("n=%d: panicked %v, %v", n, panicked, err)
		}
		if !slices.Equal(got, want) {
			i := 0
			for got[i] == want[i] {
				i++
			}
			t.Errorf("n=%d: element %d is %d, want %d", n, i, got[i], want[i])
		}
		xs[n-1] = 42
		panicked, _, err = k.RunArgs([]any{uint64(3)}, []HostSlice{Slice(xs)}, Slice(got))
		if err != nil || !panicked {
			t.Errorf("n=%d: a work-item's panic is not reported (panicked %v, %v)", n, panicked, err)
		}
	}
	if _, _, err := k.RunArgs([]any{uint64(3)}, []HostSlice{Slice([]uint64{})}, Slice([]uint64{})); err == nil {
		t.Error("an empty input ran")
	}
	if _, _, err := k.RunArgs([]any{uint64(3)}, []HostSlice{Slice([]uint64{1, 2})}, Slice([]uint64{0})); err == nil {
		t.Error("an output shorter than the input ran")
	}
}

// TestStreamMapChunk checks the chunking rule: at least the minimum
// chunk, at most the most chunks.
func TestStreamMapChunk(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, streamMapMinChunk},
		{streamMapMaxChunks * streamMapMinChunk, streamMapMinChunk},
		{streamMapMaxChunks*streamMapMinChunk + 1, streamMapMinChunk + 1},
		{1 << 26, 64},
	} {
		if got := StreamMapChunk(c.n); got != c.want {
			t.Errorf("StreamMapChunk(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
