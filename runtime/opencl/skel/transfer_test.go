package skel

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

// TestStagedTransfers runs a map, a filter and a scan end to end with
// staging forced on and chunks of an odd byte count, so that chunks split
// elements and both staging buffers are reused many times.
func TestStagedTransfers(t *testing.T) {
	d := testkit.Device(t)
	stageOverride = &stagePolicy{on: true, chunk: 12347, min: 1}
	defer func() { stageOverride = nil }()
	m, err := Redomap{Name: "staged_map", Inputs: []Param{{"x", Int32}}, Outputs: []Param{{"y", Int32}},
		Reductions: []Reduction{{Name: "x", Type: Int32, Op: "r = max(a, b);", Neutral: "INT_MIN", Commutative: true}},
		Body:       "y = 3 * x + 1;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Filter{Name: "staged_filter", Inputs: []Param{{"x", Int32}}, Outputs: []Param{{"x", Int32}},
		Body: "keep = (x & 1) != 0;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Scan{Name: "staged_scan", Inputs: []Param{{"x", Int32}}, Body: "s = x;",
		Op: Reduction{Name: "s", Type: Int32, Op: "r = a + b;", Neutral: "0", Commutative: true}}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range sizes {
		x := make([]int32, n)
		for i := range x {
			x[i] = r.Int32N(1<<20) - 1<<19
		}
		y, mx := make([]int32, n), []int32{0}
		tm, err := m.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, []HostSlice{Slice(mx)})
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 && tm.Transfer <= 0 {
			t.Errorf("n=%d: no transfer time recorded", n)
		}
		want := int32(-1 << 31)
		for i, v := range x {
			want = max(want, v)
			if y[i] != 3*v+1 {
				t.Fatalf("map n=%d: y[%d] = %d, want %d", n, i, y[i], 3*v+1)
			}
		}
		if mx[0] != want {
			t.Fatalf("map n=%d: max %d, want %d", n, mx[0], want)
		}
		odd := make([]int32, n)
		kept, _, err := f.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(odd)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		j := 0
		for _, v := range x {
			if v&1 != 0 {
				if j >= kept || odd[j] != v {
					t.Fatalf("filter n=%d: element %d wrong or missing", n, j)
				}
				j++
			}
		}
		if j != kept {
			t.Fatalf("filter n=%d: kept %d, want %d", n, kept, j)
		}
		sc := make([]int32, n)
		if _, err := s.Run([]HostSlice{Slice(x)}, Slice(sc)); err != nil {
			t.Fatal(err)
		}
		var acc int32
		for i, v := range x {
			acc += v
			if sc[i] != acc {
				t.Fatalf("scan n=%d: out[%d] = %d, want %d", n, i, sc[i], acc)
			}
		}
	}
}

func TestParallelCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for _, n := range []int{0, 1, copyPart - 1, 2 * copyPart, 5*copyPart + 3} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		dst := make([]byte, n)
		parallelCopy(dst, src, 3)
		if !bytes.Equal(dst, src) {
			t.Fatalf("n=%d: copy differs", n)
		}
	}
}

// TestWriteRead moves bytes to a device buffer and back with Write and
// Read, staged (chunks of an odd size) and not.
func TestWriteRead(t *testing.T) {
	d := testkit.Device(t)
	r := rand.New(rand.NewPCG(25, 26))
	for _, staged := range []bool{false, true} {
		if staged {
			stageOverride = &stagePolicy{on: true, chunk: 12347, min: 1}
		}
		for _, n := range []int{1, 12347, 100003} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			b, err := d.Buffer(n)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Write(d, b, src); err != nil {
				t.Fatal(err)
			}
			dst := make([]byte, n)
			if _, err := Read(d, b, dst); err != nil {
				t.Fatal(err)
			}
			d.Recycle(b)
			if !bytes.Equal(dst, src) {
				t.Errorf("staged %v, n=%d: read back differs", staged, n)
			}
		}
		stageOverride = nil
	}
}

// TestPieceLen checks the staged pieces: an eighth of the transfer,
// rounded up to a page, between the policy's least piece and its chunk.
// A transfer that fits in one chunk must still be cut (the copy of one
// piece overlaps the DMA of the one before), and pieces never outgrow
// the staging buffers.
func TestPieceLen(t *testing.T) {
	pol := stagePolicy{on: true, chunk: stageChunk, min: stageMin, pieceMin: stagePieceMin}
	for _, c := range []struct{ total, want int }{
		{4 << 20, 16 << 20},
		{32 << 20, 16 << 20},
		{128 << 20, 16 << 20},
		{200<<20 + 1, 25<<20 + 4096},
		{256 << 20, 32 << 20},
		{1 << 30, 32 << 20},
	} {
		if got := pol.pieceLen(c.total); got != c.want {
			t.Errorf("pieceLen(%d) = %d, want %d", c.total, got, c.want)
		}
	}
	small := stagePolicy{on: true, chunk: 12347, min: 1}
	if got := small.pieceLen(49380); got != 8192 {
		t.Errorf("pieceLen(49380) with 12347-byte chunks = %d, want 8192", got)
	}
	if got := small.pieceLen(1 << 20); got != 12347 {
		t.Errorf("pieceLen(1 MiB) with 12347-byte chunks = %d, want 12347", got)
	}
}
