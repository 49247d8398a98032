package launch

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// prefix is a scan kernel: the running sum of int32 elements as int32.
func prefix() *Scan {
	return &Scan{At: "s.go:1:1", Spec: skel.Scan{
		Name:   "prefix",
		Inputs: []skel.Param{{Name: "in0", Type: skel.Int32}},
		Op:     skel.Reduction{Name: "s", Type: skel.Int32, Op: "r = a + b;", Neutral: "0", Commutative: true},
		Body:   "s = in0;",
	}}
}

// TestScanRunOn: a scan's output kept on the device is read there by a
// later run (no download, no upload) and downloaded once by Host; a
// downloaded output holds the scan; its buffers go back to the pool.
func TestScanRunOn(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	sc, k := prefix(), double("")
	xs := []int32{1, -2, 3, 40, 5}
	call := func() {
		var s Session
		defer s.Release()
		var a *Array[int32]
		up, down := moved(func() {
			if !sc.RunOn(&s, nil, []Input{Unwritten(&s, xs)}, Keep(&a)) || a == nil || a.Len() != 5 {
				t.Fatalf("kept scan: %v", a)
			}
			if ok, out, sum := runOn(k, &s, Dev(a, nil), 5, nil); !ok || fmt.Sprint(out) != "[2 -2 4 84 94]" || sum != 1+(-1)+2+42+47 {
				t.Fatalf("run on the kept scan = %v, %v, %d", ok, out, sum)
			}
			out := make([]int32, 5)
			if !sc.RunOn(&s, nil, []Input{Unwritten(&s, xs)}, Download(out)) || fmt.Sprint(out) != "[1 -1 2 42 47]" {
				t.Fatalf("downloaded scan = %v", out)
			}
		})
		if up != 1 || down != 2 {
			t.Errorf("%d uploads and %d downloads, want 1 and 2", up, down)
		}
		if h := a.Host(); fmt.Sprint(h) != "[1 -1 2 42 47]" {
			t.Errorf("Host = %v", h)
		}
		a.Release()
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
	var s Session
	defer s.Release()
	var a *Array[int32]
	if sc.RunOn(&s, nil, []Input{Host([]int32{})}, Keep(&a)) || a != nil {
		t.Errorf("a scan of no elements ran")
	}
	if sc.RunOn(&s, nil, []Input{Host([]int32{1, 2})}, Download(make([]int32, 3))) {
		t.Errorf("a scan into an output of another length ran")
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestFilterRunOn: a filter's kept elements stay on the device as an
// Array of the kept count, read there by a later run; downloaded ones
// are the kept prefix; the folds are the kept elements'; a panic flag
// keeps nothing; KeepOnDevice false downloads at once.
func TestFilterRunOn(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	f, k := odds(""), double("")
	xs := []int32{1, -2, 3, 40, 5, -7}
	var s Session
	defer s.Release()
	var a *Array[int32]
	var sum [1]int32
	up, down := moved(func() {
		kept, ok := f.RunOn(&s, nil, []Input{Host(xs)}, []Output{Keep(&a)}, []skel.HostSlice{skel.Slice(sum[:])})
		if !ok || kept != 4 || a == nil || a.Len() != 4 || sum[0] != 2 {
			t.Fatalf("kept filter = %d, %v, %v, %d", kept, ok, a, sum[0])
		}
		if ok, out, s2 := runOn(k, &s, Dev(a, nil), 4, nil); !ok || fmt.Sprint(out) != "[6 18 30 -42]" || s2 != 3+9+15-21 {
			t.Fatalf("run on the kept elements = %v, %v, %d", ok, out, s2)
		}
	})
	if up != 1 || down != 1 {
		t.Errorf("%d uploads and %d downloads, want 1 and 1", up, down)
	}
	if h := a.Host(); fmt.Sprint(h) != "[3 9 15 -21]" {
		t.Errorf("Host = %v", h)
	}
	out := make([]int32, len(xs))
	if kept, ok := f.RunOn(&s, nil, []Input{Host(xs)}, []Output{Download(out)}, []skel.HostSlice{skel.Slice(sum[:])}); !ok || fmt.Sprint(out[:kept]) != "[3 9 15 -21]" {
		t.Errorf("downloaded filter = %v, %v", ok, out[:kept])
	}
	var none *Array[int32]
	if kept, ok := f.RunOn(&s, nil, []Input{Host([]int32{2, 4})}, []Output{Keep(&none)}, []skel.HostSlice{skel.Slice(sum[:])}); !ok || kept != 0 || none.Len() != 0 || len(none.Host()) != 0 {
		t.Errorf("a filter keeping nothing = %d, %v", kept, ok)
	}
	p := odds("out0 = in0;\nred0 = in0;\nk__err = in0 == 4 ? 2 : 0;\nkeep = (in0 & 1) != 0 || k__err != 0;")
	held := len(s.held)
	var b *Array[int32]
	if _, ok := p.RunOn(&s, nil, []Input{Host([]int32{1, 4, 3})}, []Output{Keep(&b)}, []skel.HostSlice{skel.Slice(sum[:])}); ok || b != nil || len(s.held) != held {
		t.Errorf("a filter with a panic flag = %v, kept %v", ok, b)
	}
	KeepOnDevice = false
	defer func() { KeepOnDevice = true }()
	var c *Array[int32]
	_, down = moved(func() {
		if _, ok := f.RunOn(&s, nil, []Input{Host(xs)}, []Output{Keep(&c)}, []skel.HostSlice{skel.Slice(sum[:])}); !ok || fmt.Sprint(c.Host()) != "[3 9 15 -21]" {
			t.Errorf("KeepOnDevice false: %v", ok)
		}
	})
	if down != 1 {
		t.Errorf("KeepOnDevice false: %d downloads, want 1", down)
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}
