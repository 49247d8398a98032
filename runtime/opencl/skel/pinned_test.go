package skel

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// TestPinnedRun runs a map-reduce with its input and output in pinned
// memory, staging forced on with odd chunks: both move directly (two
// direct transfers a run), the result (Go memory) does not, and every
// value equals the reference; sub-slices of the pinned slices too.
func TestPinnedRun(t *testing.T) {
	d := testkit.Device(t)
	stageOverride = &stagePolicy{on: true, chunk: 12347, min: 1}
	defer func() { stageOverride = nil }()
	m, err := Redomap{Name: "pinned_map", Inputs: []Param{{"x", Int32}}, Outputs: []Param{{"y", Int32}},
		Reductions: []Reduction{{Name: "x", Type: Int32, Op: "r = max(a, b);", Neutral: "INT_MIN", Commutative: true}},
		Body:       "y = 3 * x + 1;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(31, 32))
	for _, n := range sizes {
		if n == 0 {
			continue
		}
		x, freeX := pinned.MakeOn[int32](d, n)
		y, freeY := pinned.MakeOn[int32](d, n)
		for i := range x {
			x[i] = r.Int32N(1<<20) - 1<<19
		}
		for _, part := range [][2]int{{0, n}, {n / 3, n - n/5}} {
			xs, ys := x[part[0]:part[1]], y[part[0]:part[1]]
			if len(xs) == 0 {
				continue
			}
			clear(ys)
			mx := []int32{0}
			before := DirectTransfers()
			if _, err := m.Run([]HostSlice{Slice(xs)}, []HostSlice{Slice(ys)}, []HostSlice{Slice(mx)}); err != nil {
				t.Fatal(err)
			}
			if got := DirectTransfers() - before; got != 2 {
				t.Errorf("n=%d %v: %d direct transfers, want 2 (input and output)", n, part, got)
			}
			want := int32(-1 << 31)
			for i, v := range xs {
				want = max(want, v)
				if ys[i] != 3*v+1 {
					t.Fatalf("n=%d %v: y[%d] = %d, want %d", n, part, i, ys[i], 3*v+1)
				}
			}
			if mx[0] != want {
				t.Fatalf("n=%d %v: max %d, want %d", n, part, mx[0], want)
			}
		}
		freeX()
		freeY()
	}
}

// TestPinnedWriteRead moves bytes with Write and Read (the path of
// launch's captured slices and outputs) from and into pinned memory,
// staged and not: a pinned slice and its sub-slices move directly; a
// slice crossing the region's end, one of another device's context, Go
// memory, and the same bytes after free take the other paths, all with
// the same bytes arriving.
func TestPinnedWriteRead(t *testing.T) {
	d := testkit.Device(t)
	d2, err := device.Open(d.CL)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(33, 34))
	const n = 100003 // not a multiple of the page: the region ends inside one
	for _, staged := range []bool{false, true} {
		if staged {
			stageOverride = &stagePolicy{on: true, chunk: 12347, min: 1}
		}
		src, freeSrc := pinned.MakeOn[byte](d, n)
		dst, freeDst := pinned.MakeOn[byte](d, n)
		other, freeOther := pinned.MakeOn[byte](d2, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		copy(other, src)
		goSrc := append([]byte(nil), src...)
		crossing := unsafe.Slice(&src[n-100], 200) // 100 bytes inside, 100 past the end
		for _, c := range []struct {
			name   string
			src    []byte
			dst    []byte
			direct int64
		}{
			{"pinned both ways", src, dst, 2},
			{"pinned sub-slices", src[5 : n-7], dst[9 : n-3], 2},
			{"crossing the end", crossing, dst[:200], 1},
			{"other device", other, dst, 1},
			{"go memory", goSrc, make([]byte, n), 0},
		} {
			b, err := d.Buffer(len(c.src))
			if err != nil {
				t.Fatal(err)
			}
			before := DirectTransfers()
			if _, err := Write(d, b, c.src); err != nil {
				t.Fatal(err)
			}
			clear(c.dst)
			if _, err := Read(d, b, c.dst); err != nil {
				t.Fatal(err)
			}
			d.Recycle(b)
			if got := DirectTransfers() - before; got != c.direct {
				t.Errorf("staged %v, %s: %d direct transfers, want %d", staged, c.name, got, c.direct)
			}
			if !bytes.Equal(c.dst, c.src[:len(c.dst)]) {
				t.Errorf("staged %v, %s: read back differs", staged, c.name)
			}
		}
		// After free, the same memory is no longer pinned: a new
		// allocation at whatever address takes the direct path again,
		// and Go memory of the same contents the other.
		freeSrc()
		freeSrc()
		again, freeAgain := pinned.MakeOn[byte](d, n)
		copy(again, goSrc)
		b, err := d.Buffer(n)
		if err != nil {
			t.Fatal(err)
		}
		before := DirectTransfers()
		if _, err := Write(d, b, again); err != nil {
			t.Fatal(err)
		}
		freeAgain()
		out := make([]byte, n)
		if _, err := Read(d, b, out); err != nil {
			t.Fatal(err)
		}
		d.Recycle(b)
		if got := DirectTransfers() - before; got != 1 || !bytes.Equal(out, goSrc) {
			t.Errorf("staged %v, after free: %d direct transfers (want 1), equal %v", staged, got, bytes.Equal(out, goSrc))
		}
		freeDst()
		freeOther()
		stageOverride = nil
	}
}
