package launch

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// sumRows is a stream reduction summing int64 elements into a row of
// one (element 42 sets the panic flag, site 7).
func sumRows() *StreamRed {
	return &StreamRed{At: "t.go:2:1", Spec: skel.StreamRed{
		Name:   "sum_rows",
		Inputs: []skel.Param{{Name: "x", Type: skel.Int64}},
		Row:    skel.Int64,
		Chunk: `long s = 0;
for (long i = soac_lo; i < soac_hi; i++) { if (in_x[i] == 42) soac_err = 7; s += in_x[i]; }
soac_row[0] = s;`,
		Combine: `soac_out[0] = soac_a[0] + soac_b[0];`,
	}}
}

// runSum runs sumRows within s on in.
func runSum(k *StreamRed, s *Session, in Input) (bool, int64) {
	var r [1]int64
	ok := k.RunOn(s, nil, []Input{in}, len(r), Download(r[:]))
	return ok, r[0]
}

// TestUnwritten: an input the generator proved unwritten is uploaded by
// the first run of the session that reads it, whatever the kernel, and
// read there by every later run (three rounds of two kernels: one
// upload); another slice of the same memory (a shorter length) is
// another upload; a new session uploads again; the buffers go back to
// the pool when the session is released (later calls allocate none).
func TestUnwritten(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k, red := double(""), sumRows()
	xs := []int32{1, -2, 3, 40, 5}
	ys := []int64{1, 2, 3, 4, 5, 6, 7}
	call := func() {
		var s Session
		defer s.Release()
		up, _ := moved(func() {
			for range 3 {
				if ok, out, sum := runOn(k, &s, Unwritten(&s, xs), len(xs), nil); !ok || fmt.Sprint(out) != "[2 -4 6 80 10]" || sum != 47 {
					t.Fatalf("Redomap run = %v, %v, %d", ok, out, sum)
				}
				if ok, sum := runSum(red, &s, Unwritten(&s, ys)); !ok || sum != 28 {
					t.Fatalf("StreamRed run = %v, %d", ok, sum)
				}
			}
			if ok, sum := runSum(red, &s, Unwritten(&s, ys[:3])); !ok || sum != 6 {
				t.Fatalf("StreamRed run on a prefix = %v, %d", ok, sum)
			}
		})
		if up != 3 || s.Uploads() != 3 {
			t.Errorf("%d uploads, %d held, want 3 and 3", up, s.Uploads())
		}
	}
	call()
	d, _ := openDevice()
	before := d.BuffersAllocated()
	for range 3 {
		call()
	}
	if after := d.BuffersAllocated(); after != before {
		t.Errorf("%d buffers allocated by three more calls, want 0 (pooled)", after-before)
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestUnwrittenPanic: a call that panics after its runs (the spec's
// panic, raised by its CPU code) returns the session's buffers through
// its deferred Release: later calls allocate no buffer.
func TestUnwrittenPanic(t *testing.T) {
	needDevice(t)
	red := sumRows()
	ys := []int64{1, 2, 3}
	call := func() (p any) {
		defer func() { p = recover() }()
		var s Session
		defer s.Release()
		for range 2 {
			if ok, sum := runSum(red, &s, Unwritten(&s, ys)); !ok || sum != 6 {
				t.Fatalf("run = %v, %d", ok, sum)
			}
		}
		panic("the spec's panic")
	}
	call()
	d, _ := openDevice()
	before := d.BuffersAllocated()
	for range 3 {
		if p := call(); p != "the spec's panic" {
			t.Fatalf("panic %v", p)
		}
	}
	if after := d.BuffersAllocated(); after != before {
		t.Errorf("%d buffers allocated by three more calls, want 0 (released on panic)", after-before)
	}
}

// TestUnwrittenFlag: a run whose panic flag is set returns false; the
// input it uploaded stays cached (it holds the slice), and the next run
// reads it there.
func TestUnwrittenFlag(t *testing.T) {
	needDevice(t)
	red := sumRows()
	ys := []int64{1, 42, 3}
	var s Session
	defer s.Release()
	up, _ := moved(func() {
		for range 2 {
			if ok, _ := runSum(red, &s, Unwritten(&s, ys)); ok {
				t.Errorf("a run with a panic flag = true")
			}
		}
	})
	if up != 1 {
		t.Errorf("%d uploads, want 1", up)
	}
	if ok, _ := runSum(red, &s, Unwritten(&s, []int64{})); ok {
		t.Errorf("a run on no elements = true")
	}
}

// TestUnwrittenOff: with KeepOnDevice false every run uploads.
func TestUnwrittenOff(t *testing.T) {
	needDevice(t)
	KeepOnDevice = false
	defer func() { KeepOnDevice = true }()
	red := sumRows()
	ys := []int64{1, 2}
	var s Session
	defer s.Release()
	up, _ := moved(func() {
		for range 2 {
			if ok, sum := runSum(red, &s, Unwritten(&s, ys)); !ok || sum != 3 {
				t.Fatalf("run = %v, %d", ok, sum)
			}
		}
	})
	if up != 2 || s.Uploads() != 0 {
		t.Errorf("%d uploads, %d held, want 2 and 0", up, s.Uploads())
	}
}

// TestViewUnwritten: a captured slice no statement writes is uploaded
// once per session, whichever kernel reads it and also when an input of
// the same memory was cached first (one buffer); a new session uploads
// it again, and its buffers go back to the pool.
func TestViewUnwritten(t *testing.T) {
	needDevice(t)
	red := &StreamRed{At: "t.go:3:1", Spec: skel.StreamRed{
		Name:   "weighted_rows",
		Inputs: []skel.Param{{Name: "x", Type: skel.Int64}},
		Row:    skel.Int64,
		Args:   []skel.Arg{{Name: "cap__w__p", Decl: "__global const long *restrict cap__w__p"}, {Name: "cap__w__n", Decl: "const long cap__w__n"}},
		Chunk: `long s = 0;
for (long i = soac_lo; i < soac_hi; i++) s += in_x[i] * cap__w__p[i % cap__w__n];
soac_row[0] = s;`,
		Combine: `soac_out[0] = soac_a[0] + soac_b[0];`,
	}}
	xs := []int64{1, 2, 3, 4, 5}
	ws := []int64{10, 100}
	call := func() {
		var s Session
		defer s.Release()
		c0 := CapturedUploads()
		up, _ := moved(func() {
			for range 3 {
				var r [1]int64
				if ok := red.RunOn(&s, []any{ViewUnwritten(&s, ws)}, []Input{Unwritten(&s, xs)}, len(r), Download(r[:])); !ok || r[0] != 1*10+2*100+3*10+4*100+5*10 {
					t.Fatalf("run = %v, %d", ok, r[0])
				}
				// xs as a captured slice too: its input's buffer.
				if ok := red.RunOn(&s, []any{ViewUnwritten(&s, xs)}, []Input{Unwritten(&s, xs)}, len(r), Download(r[:])); !ok || r[0] != 1+4+9+16+25 {
					t.Fatalf("run on xs captured = %v, %d", ok, r[0])
				}
			}
		})
		if c := CapturedUploads() - c0; up != 1 || c != 1 || s.Uploads() != 2 {
			t.Errorf("%d input uploads, %d captured uploads, %d held; want 1, 1 and 2", up, c, s.Uploads())
		}
	}
	call()
	d, _ := openDevice()
	before := d.BuffersAllocated()
	for range 3 {
		call()
	}
	if after := d.BuffersAllocated(); after != before {
		t.Errorf("%d buffers allocated by three more calls, want 0 (pooled)", after-before)
	}
	KeepOnDevice = false
	defer func() { KeepOnDevice = true }()
	var s Session
	defer s.Release()
	c0 := CapturedUploads()
	var r [1]int64
	if ok := red.RunOn(&s, []any{ViewUnwritten(&s, ws)}, []Input{Host(xs)}, len(r), Download(r[:])); !ok || CapturedUploads() != c0 || s.Uploads() != 0 {
		t.Errorf("KeepOnDevice false: %v, %d captured uploads, %d held; want true, 0, 0", ok, CapturedUploads()-c0, s.Uploads())
	}
}
