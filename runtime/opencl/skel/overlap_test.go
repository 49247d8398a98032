package skel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// overlapSpec is a map-reduce with two outputs (one reading soac_index,
// so a wrong piece base shows), an order-sensitive reduction (affine
// composition), an exact one and a float32 sum.
func overlapSpec(t *testing.T, name string, lay Layout) Redomap {
	return Redomap{
		Name:    name,
		Inputs:  []Param{{"x", Float32}, {"a", Uint32}, {"b", Uint32}},
		Outputs: []Param{{"z", Float32}, {"w", Int64}},
		Reductions: []Reduction{
			{Name: "f", Type: affineType(t), Op: affineOp, Neutral: "{1u, 0u}"},
			{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true},
			{Name: "m", Type: Uint64, Op: "r = a + b;", Neutral: "0", Commutative: true},
		},
		Body:   "z = 2.0f * x + 1.0f; w = (long)a * 3 - (long)soac_index; f.A = a | 1u; f.B = b; s = x * x; m = (ulong)b * 2654435761u + (ulong)soac_index;",
		Layout: lay,
	}
}

// overlapResult is what one run of overlapSpec returns.
type overlapResult struct {
	z []float32
	w []int64
	f Affine
	s float32
	m uint64
	t Timing
}

func runOverlap(t *testing.T, k *RedomapKernel, x []float32, a, b []uint32) overlapResult {
	t.Helper()
	n := len(x)
	o := overlapResult{z: make([]float32, n), w: make([]int64, n)}
	for i := range o.z {
		o.z[i], o.w[i] = float32(math.NaN()), -1 // poison
	}
	f, s, m := make([]Affine, 1), make([]float32, 1), make([]uint64, 1)
	tm, err := k.Run([]HostSlice{Slice(x), Slice(a), Slice(b)}, []HostSlice{Slice(o.z), Slice(o.w)},
		[]HostSlice{Slice(f), Slice(s), Slice(m)})
	if err != nil {
		t.Fatalf("n=%d: %v", n, err)
	}
	o.f, o.s, o.m, o.t = f[0], s[0], m[0], tm
	return o
}

// tracePieces records the commands of pipelined runs until the returned
// function is called, which returns them.
func tracePieces(t *testing.T) func() []pieceEvent {
	var evs []pieceEvent
	pieceTrace = func(e pieceEvent) { evs = append(evs, e) }
	t.Cleanup(func() { pieceTrace = nil })
	return func() []pieceEvent {
		pieceTrace = nil
		return evs
	}
}

// TestPiecesEqualUncut: a run cut into pieces (directly, and through
// staging buffers of an odd chunk size) writes the outputs and folds the
// order-sensitive and exact reductions as the uncut run does, the float
// sum within rounding of the reference and bit-identical from run to
// run; the number of pieces is the policy's.
func TestPiecesEqualUncut(t *testing.T) {
	d := testkit.Device(t)
	r := rand.New(rand.NewPCG(131, 13))
	for _, lay := range []Layout{Auto, Chunked, Tiled} {
		k, err := overlapSpec(t, "overlap"+lay.String(), lay).Build(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range sizes {
			x := randF32(r, n)
			a, b := make([]uint32, n), make([]uint32, n)
			for i := range a {
				a[i], b[i] = r.Uint32(), r.Uint32()
			}
			restore := SetPieces(0, 0)
			base := runOverlap(t, k, x, a, b)
			restore()
			want := Affine{1, 0}
			var ws, abs float64
			var wm uint64
			for i := range x {
				if wz, ww := 2*x[i]+1, int64(a[i])*3-int64(i); base.z[i] != wz || base.w[i] != ww {
					t.Fatalf("%v uncut n=%d i=%d: %v %v, want %v %v", lay, n, i, base.z[i], base.w[i], wz, ww)
				}
				want = composeAffine(want, Affine{a[i] | 1, b[i]})
				ws += float64(x[i] * x[i])
				abs += float64(x[i] * x[i])
				wm += uint64(b[i])*2654435761 + uint64(i)
			}
			if base.f != want || base.m != wm {
				t.Fatalf("%v uncut n=%d: %v %d, want %v %d", lay, n, base.f, base.m, want, wm)
			}
			for _, staged := range []bool{false, true} {
				restore := SetPieces(8, 64)
				if staged {
					stageOverride = &stagePolicy{on: true, chunk: 12347, min: 1}
				}
				events := tracePieces(t)
				got := runOverlap(t, k, x, a, b)
				again := runOverlap(t, k, x, a, b)
				evs := events()
				stageOverride = nil
				restore()
				what := map[bool]string{false: "direct", true: "staged"}[staged]
				if !slices.Equal(got.z, base.z) || !slices.Equal(got.w, base.w) {
					t.Fatalf("%v %s n=%d: outputs differ from the uncut run's", lay, what, n)
				}
				if got.f != base.f || got.m != base.m {
					t.Errorf("%v %s n=%d: reductions %v %d, uncut %v %d", lay, what, n, got.f, got.m, base.f, base.m)
				}
				if !closeSum(float64(got.s), ws, abs, n, eps32) {
					t.Errorf("%v %s n=%d: sum %v, want %v", lay, what, n, got.s, ws)
				}
				if math.Float32bits(again.s) != math.Float32bits(got.s) || again.f != got.f || !slices.Equal(again.w, got.w) {
					t.Errorf("%v %s n=%d: two cut runs differ: sums %v and %v", lay, what, n, got.s, again.s)
				}
				size := runPieceLen(piecePolicy{on: true, bytes: 8, most: 64}, n, k.leastElem())
				want := 0
				if size > 0 {
					want = 2 * ((n + size - 1) / size)
				}
				kernels := 0
				for _, e := range evs {
					if e.kind == "kernel" {
						kernels++
					}
				}
				if kernels != want {
					t.Errorf("%v %s n=%d: %d piece kernels in two runs, want %d", lay, what, n, kernels, want)
				}
				if size > 0 && (got.t.Up <= 0 || got.t.Down <= 0 || got.t.Transfer != got.t.Up+got.t.Down) {
					t.Errorf("%v %s n=%d: timing %+v", lay, what, n, got.t)
				}
			}
		}
	}
}

// TestPieceEvents: in a cut run, piece i's kernel waits for every upload
// of piece i, and each download of piece i waits for piece i's kernel;
// piece i+1's uploads and kernel are enqueued before piece i's
// downloads (the overlap). A missing wait or a serialised order fails.
func TestPieceEvents(t *testing.T) {
	d := testkit.Device(t)
	k, err := overlapSpec(t, "overlap_events", Auto).Build(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, staged := range []bool{false, true} {
		n := 5000
		x := randF32(rand.New(rand.NewPCG(1, 1)), n)
		a, b := make([]uint32, n), make([]uint32, n)
		restore := SetPieces(2048, 64)
		if staged {
			stageOverride = &stagePolicy{on: true, chunk: 4000, min: 1}
		}
		events := tracePieces(t)
		runOverlap(t, k, x, a, b)
		evs := events()
		stageOverride = nil
		restore()
		ups := map[int][]*cl.Event{}
		kernels := map[int]*cl.Event{}
		at := map[string]int{} // first position of "kind piece"
		pieces := 0
		for pos, e := range evs {
			key := e.kind + string(rune('0'+e.piece))
			if _, ok := at[key]; !ok {
				at[key] = pos
			}
			switch e.kind {
			case "up":
				ups[e.piece] = append(ups[e.piece], e.ev)
			case "kernel":
				kernels[e.piece] = e.ev
				pieces = max(pieces, e.piece+1)
				for _, u := range ups[e.piece] {
					if !slices.Contains(e.wait, u) {
						t.Errorf("staged=%v: kernel of piece %d does not wait for its upload", staged, e.piece)
					}
				}
				if len(ups[e.piece]) != 3 {
					t.Errorf("staged=%v: piece %d: %d uploads before its kernel, want 3", staged, e.piece, len(ups[e.piece]))
				}
			case "down":
				if len(e.wait) != 1 || e.wait[0] != kernels[e.piece] {
					t.Errorf("staged=%v: a download of piece %d does not wait for its kernel", staged, e.piece)
				}
			}
		}
		if pieces < 3 {
			t.Fatalf("staged=%v: %d pieces, want several", staged, pieces)
		}
		for i := 0; i+1 < pieces; i++ {
			k1, d0 := at["kernel"+string(rune('0'+i+1))], at["down"+string(rune('0'+i))]
			if k1 > d0 {
				t.Errorf("staged=%v: piece %d's kernel enqueued after piece %d's downloads", staged, i+1, i)
			}
		}
	}
}

// TestPieceFlagLast: a panic-flag reduction set by the last element only
// reaches the result of a cut run (any piece's flag is the run's).
func TestPieceFlagLast(t *testing.T) {
	d := testkit.Device(t)
	k, err := Redomap{Name: "overlap_flag", Inputs: []Param{{"x", Int32}}, Outputs: []Param{{"y", Int32}},
		Reductions: []Reduction{{Name: "e", Type: Int32, Op: "r = max(a, b);", Neutral: "0", Commutative: true}},
		Body:       "y = x + 1; e = x == 7 ? 3 : 0;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	defer SetPieces(64, 64)()
	for _, n := range []int{1000, 12345, 1<<17 + 1} {
		x := make([]int32, n)
		for _, at := range []int{-1, 0, n / 2, n - 1} {
			if at >= 0 {
				x[at] = 7
			}
			y, e := make([]int32, n), []int32{-1}
			if _, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, []HostSlice{Slice(e)}); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int32{false: 0, true: 3}[at >= 0]; e[0] != want {
				t.Errorf("n=%d, 7 at %d: flag %d, want %d", n, at, e[0], want)
			}
			if at >= 0 {
				x[at] = 0
			}
		}
	}
}

// TestRunPieceLen: the pieces depend on n, the smallest moved element
// and the policy only: none below two pieces' worth, at most the
// policy's count, never on CPU devices by default.
func TestRunPieceLen(t *testing.T) {
	on := piecePolicy{on: true, bytes: PieceBytes, most: MaxPieces}
	for _, c := range []struct {
		pol        piecePolicy
		n, elem, w int
	}{
		{on, 2 << 20, 8, 0},                                  // 16 MiB: one piece's worth
		{on, 4 << 20, 8, 2 << 20},                            // 32 MiB: two pieces
		{on, 4<<20 + 1, 8, 2<<20 + 1},                        // the last piece shorter
		{on, 1 << 30, 4, 1 << 25},                            // 4 GiB: MaxPieces of 128 MiB
		{on, 10, 0, 0},                                       // nothing moves
		{piecePolicy{}, 1 << 30, 8, 0},                       // off
		{piecePolicy{on: true}, 100, 8, 0},                   // no size
		{piecePolicy{on: true, bytes: 8, most: 64}, 7, 4, 3}, // 3 pieces
	} {
		if got := runPieceLen(c.pol, c.n, c.elem); got != c.w {
			t.Errorf("runPieceLen(%+v, %d, %d) = %d, want %d", c.pol, c.n, c.elem, got, c.w)
		}
	}
}

// TestRunDeviceHost: inputs uploaded by the run and inputs on the device
// already, outputs downloaded by the run and outputs left on the device,
// cut into pieces and not: the same outputs and reductions, and the
// kept output holds the kernel's on the device.
func TestRunDeviceHost(t *testing.T) {
	d := testkit.Device(t)
	k, err := overlapSpec(t, "overlap_devhost", Auto).Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 77))
	for _, n := range sizes[1:] {
		x := randF32(r, n)
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = r.Uint32(), r.Uint32()
		}
		base := runOverlap(t, k, x, a, b)
		for _, cut := range []int{0, 8} {
			restore := SetPieces(cut, 64)
			events := tracePieces(t)
			dev, _, err := Upload(d, Slice(a)) // a is on the device already
			if err != nil {
				t.Fatal(err)
			}
			var bufs []*cl.MemObject
			for _, size := range []int{4, 4, 4, 8, 8, 4, 8} {
				buf, err := d.Buffer(n * size)
				if err != nil {
					t.Fatal(err)
				}
				bufs = append(bufs, buf)
			}
			z := make([]float32, n)
			ins := []*cl.MemObject{bufs[0], dev, bufs[1]}
			outs := []*cl.MemObject{bufs[2], bufs[3]}
			res := bufs[4:]
			_, err = k.RunDeviceHost(n, nil, ins, []HostSlice{Slice(x), {}, Slice(b)}, outs, []HostSlice{Slice(z), {}}, res)
			if err != nil {
				t.Fatal(err)
			}
			evs := events()
			restore()
			w := make([]int64, n)
			f, s, m := make([]Affine, 1), make([]float32, 1), make([]uint64, 1)
			for _, c := range []struct {
				b *cl.MemObject
				h HostSlice
			}{{bufs[3], Slice(w)}, {res[0], Slice(f)}, {res[1], Slice(s)}, {res[2], Slice(m)}} {
				if _, err := Download(d, c.b, c.h); err != nil {
					t.Fatal(err)
				}
			}
			d.Recycle(append(bufs, dev)...)
			if !slices.Equal(z, base.z) || !slices.Equal(w, base.w) || f[0] != base.f || m[0] != base.m {
				t.Fatalf("cut=%d n=%d: results differ from Run's", cut, n)
			}
			if cut == 0 && math.Float32bits(s[0]) != math.Float32bits(base.s) {
				t.Errorf("n=%d: uncut sum %v, Run's %v", n, s[0], base.s)
			}
			ups, downs := 0, 0
			for _, e := range evs {
				ups += map[bool]int{true: 1}[e.kind == "up"]
				downs += map[bool]int{true: 1}[e.kind == "down"]
			}
			if cut > 0 && n >= 1000 && (ups == 0 || ups != 2*downs) {
				t.Errorf("cut n=%d: %d piece uploads, %d downloads; want two uploads a download", n, ups, downs)
			}
		}
	}
}

// TestPiecesConcurrent: cut runs of two kernels from several goroutines
// at once share the transfer queues and staging buffers without mixing
// their data or deadlocking.
func TestPiecesConcurrent(t *testing.T) {
	d := testkit.Device(t)
	var ks [2]*RedomapKernel
	for i := range ks {
		k, err := Redomap{Name: "overlap_conc" + string(rune('a'+i)), Inputs: []Param{{"x", Int32}}, Outputs: []Param{{"y", Int32}},
			Reductions: []Reduction{{Name: "s", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}},
			Body:       "y = x * " + string(rune('2'+i)) + "; s = (long)x;"}.Build(d)
		if err != nil {
			t.Fatal(err)
		}
		ks[i] = k
	}
	defer SetPieces(256, 64)()
	stageOverride = &stagePolicy{on: true, chunk: 3001, min: 1000}
	defer func() { stageOverride = nil }()
	errs := make(chan string, 8)
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			r := rand.New(rand.NewPCG(uint64(g), 5))
			k, mul := ks[g%2], int32(2+g%2)
			for range 5 {
				n := 1000 + r.IntN(50000)
				x := make([]int32, n)
				var want int64
				for i := range x {
					x[i] = r.Int32N(1000)
					want += int64(x[i])
				}
				y, s := make([]int32, n), []int64{0}
				if _, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, []HostSlice{Slice(s)}); err != nil {
					errs <- err.Error()
					return
				}
				for i := range x {
					if y[i] != mul*x[i] {
						errs <- "wrong output"
						return
					}
				}
				if s[0] != want {
					errs <- "wrong sum"
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestPiecesPinnedOnly: the GPU policy (pinnedOnly) cuts a run only when
// every host slice it moves is pinned memory of the device: over pinned
// inputs and outputs the run is cut, with the uncut run's results; one
// Go slice among them (an input, or an output) leaves it uncut.
func TestPiecesPinnedOnly(t *testing.T) {
	d := testkit.Device(t)
	k, err := overlapSpec(t, "overlap_pinned_only", Auto).Build(d)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	x, freeX := pinned.MakeOn[float32](d, n)
	defer freeX()
	a, freeA := pinned.MakeOn[uint32](d, n)
	defer freeA()
	b, freeB := pinned.MakeOn[uint32](d, n)
	defer freeB()
	z, freeZ := pinned.MakeOn[float32](d, n)
	defer freeZ()
	w, freeW := pinned.MakeOn[int64](d, n)
	defer freeW()
	if !pinned.Is(x) || !pinned.Is(w) {
		t.Skip("pinned.MakeOn gave Go memory on this device")
	}
	copy(x, randF32(rand.New(rand.NewPCG(3, 1)), n))
	for i := range a {
		a[i], b[i] = uint32(i*7), uint32(i*13)
	}
	goX, goZ := slices.Clone(x), make([]float32, n)
	old := pieceOverride
	pieceOverride = &piecePolicy{on: true, bytes: 2048, most: 64, pinnedOnly: true}
	defer func() { pieceOverride = old }()
	run := func(x, z []float32) (zs []float32, ws []int64, kernels int) {
		events := tracePieces(t)
		s, m := make([]float32, 1), make([]uint64, 1)
		f := make([]Affine, 1)
		if _, err := k.Run([]HostSlice{Slice(x), Slice(a), Slice(b)}, []HostSlice{Slice(z), Slice(w)},
			[]HostSlice{Slice(f), Slice(s), Slice(m)}); err != nil {
			t.Fatal(err)
		}
		for _, e := range events() {
			if e.kind == "kernel" {
				kernels++
			}
		}
		return slices.Clone(z), slices.Clone(w), kernels
	}
	pz, pw, pk := run(x, z)
	if pk < 2 {
		t.Errorf("pinned inputs and outputs: %d piece kernels, want a cut run", pk)
	}
	gz, gw, gk := run(goX, z)
	if gk != 0 {
		t.Errorf("a Go input: %d piece kernels, want an uncut run", gk)
	}
	_, _, ok := run(x, goZ)
	if ok != 0 {
		t.Errorf("a Go output: %d piece kernels, want an uncut run", ok)
	}
	if !slices.Equal(pz, gz) || !slices.Equal(pw, gw) || !slices.Equal(goZ, gz) {
		t.Errorf("cut and uncut runs wrote different outputs")
	}
}
