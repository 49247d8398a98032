package launch

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestPackRows packs rows of random lengths (empty ones included) in
// amounts that run one goroutine and several, at several GOMAXPROCS, and
// compares with the rows appended one after another.
func TestPackRows(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range []struct{ rows, maxLen int }{
		{0, 0}, {1, 0}, {1, 5}, {3, 1}, {7, 1 << 18}, {2048, 2048}, {5000, 40}, {2, 1 << 20},
	} {
		xss := make([][]float64, shape.rows)
		var want []float64
		for i := range xss {
			n := 0
			if shape.maxLen > 0 && r.IntN(8) != 0 {
				n = r.IntN(shape.maxLen + 1)
			}
			xss[i] = make([]float64, n)
			for j := range xss[i] {
				xss[i][j] = r.Float64()
			}
			want = append(want, xss[i]...)
		}
		for _, procs := range []int{1, 3, 16} {
			runtime.GOMAXPROCS(procs)
			spans, got := Flatten(xss)
			if !slices.Equal(got, want) {
				t.Fatalf("rows %d, max %d, GOMAXPROCS %d: packed elements differ", shape.rows, shape.maxLen, procs)
			}
			for i, sp := range spans {
				if sp.Len != int64(len(xss[i])) || !slices.Equal(got[sp.Start:sp.Start+sp.Len], xss[i]) {
					t.Fatalf("rows %d, GOMAXPROCS %d: span %d is %+v", shape.rows, procs, i, sp)
				}
			}
			v := Rows(xss).(view)
			if len(v.data) != 8*len(want) || v.n != int64(len(xss)) || v.off[len(xss)] != int64(len(want)) {
				t.Fatalf("rows %d, GOMAXPROCS %d: Rows gives %d bytes, %d rows, total %d", shape.rows, procs, len(v.data), v.n, v.off[len(xss)])
			}
		}
	}
}

// TestPackSlabs packs rows into lent slabs (Go memory standing in for
// page-locked memory): a released run returns its slab, a second run of
// the same arguments repacks into a slab of its own, and a slab lent to
// one call's arguments is never another's while they are in use.
func TestPackSlabs(t *testing.T) {
	d, err := device.Default()
	if err != nil {
		t.Skipf("no OpenCL device: %v", err)
	}
	old := allocSlab
	allocSlab = func(_ *device.Device, n int) ([]byte, bool) { return make([]byte, n), true }
	slabsMu.Lock()
	saved := slabsByDev[d]
	slabsByDev[d] = nil
	slabsMu.Unlock()
	defer func() {
		allocSlab = old
		slabsMu.Lock()
		slabsByDev[d] = saved
		slabsMu.Unlock()
	}()
	rows := func(v float64) [][]float64 {
		xss := make([][]float64, 512)
		for i := range xss {
			xss[i] = make([]float64, 512)
			for j := range xss[i] {
				xss[i][j] = v + float64(i*512+j)
			}
		}
		return xss
	}
	flat := func(xss [][]float64) []float64 {
		var out []float64
		for _, r := range xss {
			out = append(out, r...)
		}
		return out
	}
	a, b := rows(0), rows(1e7)
	va := Rows(a).(view)
	if va.slab == nil {
		t.Fatal("2 MB of rows were not packed into a slab")
	}
	args := []any{va}
	u := uploads{d: d}
	if len(u.slabs) != 0 {
		t.Fatal("fresh uploads hold slabs")
	}
	// expand uploads the rows; read returns what the device holds.
	read := func(vals []any) []float64 {
		got := make([]float64, 512*512)
		if _, err := skel.Read(d, vals[0].(*cl.MemObject), cl.Bytes(got)); err != nil {
			t.Fatal(err)
		}
		return got
	}
	vals, err := u.expand(args)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(read(vals), flat(a)) {
		t.Fatal("the device holds other rows than a's")
	}
	first := va.slab.b
	u.release()
	// Another call takes the returned slab and fills it with its rows.
	vb := Rows(b).(view)
	if &vb.data[0] != &first[0] {
		t.Fatal("the returned slab was not lent again")
	}
	// The first call's arguments, run again (a kernel tried after
	// another), must upload a's rows, not the second call's.
	u2 := uploads{d: d}
	vals, err = u2.expand(args)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(read(vals), flat(a)) {
		t.Fatal("a second run of the arguments uploaded rows of another call")
	}
	if len(u2.slabs) != 1 || u2.slabs[0] == vb.slab {
		t.Fatal("a second run of the arguments holds a slab lent to another call")
	}
	u2.release()
	uploadsB := uploads{d: d, slabs: []*slabRef{vb.slab}}
	uploadsB.release()
	uploadsB.release() // a second release returns nothing twice
	p := slabsByDev[d]
	p.mu.Lock()
	n := len(p.free)
	p.mu.Unlock()
	if n != 2 {
		t.Fatalf("%d slabs free after every call released, want 2", n)
	}
}
