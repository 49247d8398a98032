package launch

import (
	"errors"
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// moved returns the arrays uploaded and downloaded during f.
func moved(f func()) (up, down int64) {
	u0, d0 := Transfers()
	f()
	u1, d1 := Transfers()
	return u1 - u0, d1 - d0
}

// runOn runs k (double's shape) within s on in, keeping its output in
// *keep when keep is not nil, else downloading it; it returns whether
// the run succeeded, the downloaded output and the sum.
func runOn(k *Redomap, s *Session, in Input, n int, keep **Array[int32]) (bool, []int32, int32) {
	var sum [1]int32
	var out []int32
	o := Keep(keep)
	if keep == nil {
		out = make([]int32, n)
		o = Download(out)
	}
	ok := k.RunOn(s, nil, []Input{in}, []Output{o}, []skel.HostSlice{skel.Slice(sum[:])})
	return ok, out, sum[0]
}

// TestRunOnKeep: an output kept on the device is read there by a later
// run (no download, no upload), downloaded once by Host, and its buffer
// goes back to the pool on Release: the same number of buffers serves
// every later call.
func TestRunOnKeep(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := double("")
	xs := []int32{1, -2, 3, 40, 5}
	call := func() {
		var s Session
		defer s.Release()
		var a *Array[int32]
		up, down := moved(func() {
			if ok, _, sum := runOn(k, &s, Host(xs), len(xs), &a); !ok || a == nil || a.Len() != 5 || sum != 47 {
				t.Fatalf("first run: %v, %v, %d", ok, a, sum)
			}
			ok, out, sum := runOn(k, &s, Dev(a, nil), len(xs), nil)
			if !ok || fmt.Sprint(out) != "[4 -8 12 160 20]" || sum != 94 {
				t.Fatalf("second run = %v, %v, %d; want true, [4 -8 12 160 20], 94", ok, out, sum)
			}
		})
		if up != 1 || down != 1 {
			t.Errorf("%d uploads and %d downloads, want 1 and 1", up, down)
		}
		_, down = moved(func() {
			for range 2 {
				if h := a.Host(); fmt.Sprint(h) != "[2 -4 6 80 10]" {
					t.Errorf("Host = %v", h)
				}
			}
		})
		if down != 1 {
			t.Errorf("two Hosts downloaded %d times, want once", down)
		}
		a.Release()
		a.Release() // twice is harmless
		if Len(a, nil) != 5 {
			t.Errorf("Len = %d after Release", Len(a, nil))
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

// TestRunOnShare: an input shared by two runs is uploaded once; its
// Array's host copy is the slice itself.
func TestRunOnShare(t *testing.T) {
	needDevice(t)
	k := double("")
	xs := []int32{3, 4}
	var s Session
	defer s.Release()
	var a *Array[int32]
	up, _ := moved(func() {
		for range 2 {
			if ok, out, _ := runOn(k, &s, Share(&a, xs), 2, nil); !ok || fmt.Sprint(out) != "[6 8]" {
				t.Fatalf("run = %v, %v", ok, out)
			}
		}
		if ok, out, _ := runOn(k, &s, Dev(a, xs), 2, nil); !ok || fmt.Sprint(out) != "[6 8]" {
			t.Fatalf("run on Dev = %v, %v", ok, out)
		}
	})
	if up != 1 {
		t.Errorf("%d uploads, want 1", up)
	}
	if a == nil || &a.Host()[0] != &xs[0] {
		t.Errorf("the shared Array's host copy is not xs")
	}
}

// TestRunOnPanicFlag: a run whose panic flag is set keeps nothing.
func TestRunOnPanicFlag(t *testing.T) {
	needDevice(t)
	k := double("out0 = in0;\nred0 = in0;\nk__err = in0 == 7 ? 3 : 0;")
	var s Session
	defer s.Release()
	var a *Array[int32]
	if ok, _, _ := runOn(k, &s, Host([]int32{1, 7}), 2, &a); ok || a != nil {
		t.Errorf("run with a panic flag = %v, kept %v; want false, nil", ok, a)
	}
	if len(s.held) != 0 {
		t.Errorf("the session holds %d buffers after a failed run", len(s.held))
	}
}

// TestRunOnRefuses: lengths that differ or are 0 are left to the CPU
// code; so is everything without a device (nothing kept, nothing moved).
func TestRunOnRefuses(t *testing.T) {
	needDevice(t)
	k := double("")
	var s Session
	defer s.Release()
	if ok, _, _ := runOn(k, &s, Host([]int32{}), 0, nil); ok {
		t.Errorf("run on no elements = true")
	}
	if ok, _, _ := runOn(k, &s, Host([]int32{1, 2}), 3, nil); ok {
		t.Errorf("run with an output of another length = true")
	}
}

func TestRunOnNoDevice(t *testing.T) {
	lines := logs(t)
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	k := double("")
	var s Session
	defer s.Release()
	var a *Array[int32]
	up, down := moved(func() {
		if ok, _, _ := runOn(k, &s, Share(&a, []int32{1}), 1, &a); ok || a != nil {
			t.Errorf("run without a device = %v, kept %v", ok, a)
		}
	})
	if up+down != 0 || len(lines()) != 1 {
		t.Errorf("%d uploads, %d downloads, log %q", up, down, lines())
	}
	// A nil Array is the Go variable's array.
	if Len[int32](nil, []int32{1, 2}) != 2 || Dev[int32](nil, []int32{1, 2}).n != 2 {
		t.Errorf("Len or Dev of a nil Array do not read the slice")
	}
	a.Release()
}

// TestKeepOnDeviceOff: with KeepOnDevice false a kept output is
// downloaded at once and uploaded again by the next run.
func TestKeepOnDeviceOff(t *testing.T) {
	needDevice(t)
	KeepOnDevice = false
	defer func() { KeepOnDevice = true }()
	k := double("")
	var s Session
	defer s.Release()
	var a *Array[int32]
	up, down := moved(func() {
		if ok, _, _ := runOn(k, &s, Host([]int32{1, 2}), 2, &a); !ok {
			t.Fatal("first run failed")
		}
		if ok, out, _ := runOn(k, &s, Dev(a, nil), 2, nil); !ok || fmt.Sprint(out) != "[4 8]" {
			t.Fatalf("second run = %v, %v", ok, out)
		}
	})
	if up != 2 || down != 2 {
		t.Errorf("%d uploads and %d downloads, want 2 and 2", up, down)
	}
}
