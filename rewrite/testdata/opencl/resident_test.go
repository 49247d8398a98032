package opencl

import (
	"fmt"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of arrays kept on the device between a spec's kernels
// (rewrite's differential test runs them beside the generated file; the
// differential test there compares every spec with its own on random
// inputs).

// moved returns the arrays uploaded and downloaded by generated kernels
// during f.
func moved(f func()) (up, down int64) {
	u0, d0 := launch.Transfers()
	f()
	u1, d1 := launch.Transfers()
	return u1 - u0, d1 - d0
}

// fallbacks returns the launches of generated kernels that returned
// false during f once their kernel was built (launch.Fallbacks): 0 says
// every kernel f launched ran on the device.
func fallbacks(f func()) int64 {
	n0 := launch.Fallbacks()
	f()
	return launch.Fallbacks() - n0
}

// onDevice skips t unless every kernel runs on the device.
func onDevice(t *testing.T, ks ...*launch.Redomap) {
	for _, k := range ks {
		if k.Kernel() == nil {
			t.Skip("no usable OpenCL device")
		}
	}
}

// broken returns a copy of k whose build fails, logging nothing (TestMain
// fails on a logged build failure): its spec runs k's CPU code.
func broken(t *testing.T, k *launch.Redomap) *launch.Redomap {
	old := launch.Logf
	launch.Logf = func(string, ...any) {}
	t.Cleanup(func() { launch.Logf = old })
	spec := k.Spec
	spec.Name += "Broken"
	spec.Body = "this is not OpenCL C;"
	b := &launch.Redomap{At: k.At, FP64: k.FP64, Spec: spec}
	if b.Kernel() != nil {
		t.Fatal("the broken kernel built")
	}
	return b
}

func ints(n int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(i*7919%201) - 100
	}
	return xs
}

// TestKeptTwiceTransfers: KeptTwice uploads xs once for its first and
// third kernels, keeps the squares on the device for the second and
// third, and downloads its two results: one upload and two downloads
// per call; each kernel moving its own arrays takes four and three.
func TestKeptTwiceTransfers(t *testing.T) {
	onDevice(t, soacgenCLKeptTwice, soacgenCLKeptTwice2, soacgenCLKeptTwice3)
	xs := ints(1001)
	want1, want2 := keptTwiceSpec(xs)
	for _, c := range []struct {
		keep     bool
		up, down int64
	}{{true, 1, 2}, {false, 4, 3}} {
		launch.KeepOnDevice = c.keep
		var got1, got2 []int64
		var up, down int64
		fb := fallbacks(func() { up, down = moved(func() { got1, got2 = KeptTwice(xs) }) })
		launch.KeepOnDevice = true
		if fb != 0 {
			t.Errorf("keep %v: %d launches fell back to the CPU, the last: %s", c.keep, fb, launch.LastFallback())
		}
		if up != c.up || down != c.down {
			t.Errorf("keep %v: %d uploads and %d downloads, want %d and %d", c.keep, up, down, c.up, c.down)
		}
		if !slices.Equal(got1, want1) || !slices.Equal(got2, want2) {
			t.Errorf("keep %v: results differ from the spec's", c.keep)
		}
	}
}

// TestKeptTwiceFallbacks: with any of KeptTwice's kernels unable to run
// on the device (a failed build), the results are the spec's: a kernel
// on the CPU downloads what the device kept, a kernel on the device
// uploads what the CPU computed, and runs there.
func TestKeptTwiceFallbacks(t *testing.T) {
	ks := []**launch.Redomap{&soacgenCLKeptTwice, &soacgenCLKeptTwice2, &soacgenCLKeptTwice3}
	onDevice(t, *ks[0], *ks[1], *ks[2])
	good := []*launch.Redomap{*ks[0], *ks[1], *ks[2]}
	bad := []*launch.Redomap{broken(t, good[0]), broken(t, good[1]), broken(t, good[2])}
	defer func() {
		for i, k := range ks {
			*k = good[i]
		}
	}()
	for _, n := range []int{1, 2, 7, 4097} {
		xs := ints(n)
		want1, want2 := keptTwiceSpec(xs)
		for mask := range 8 {
			for i, k := range ks {
				*k = good[i]
				if mask&(1<<i) != 0 {
					*k = bad[i]
				}
			}
			var got1, got2 []int64
			if fb := fallbacks(func() { got1, got2 = KeptTwice(xs) }); fb != 0 {
				t.Errorf("n=%d, kernels %03b on the CPU: %d launches fell back to the CPU, the last: %s", n, mask, fb, launch.LastFallback())
			}
			if !slices.Equal(got1, want1) || !slices.Equal(got2, want2) {
				t.Errorf("n=%d, kernels %03b on the CPU: results differ from the spec's", n, mask)
			}
		}
	}
}

// catch returns f's result, or the text of its panic.
func catch(f func() []int64) (r []int64, p string) {
	defer func() {
		if e := recover(); e != nil {
			p = fmt.Sprint(e)
		}
	}()
	return f(), ""
}

// TestQuotientsKeptPanic: where QuotientsKept's second kernel divides by
// zero on the device, its CPU code, on the x+1 downloaded from the
// device, raises the spec's panic; elsewhere the integers are the spec's.
// Also with the first kernel on the CPU.
func TestQuotientsKeptPanic(t *testing.T) {
	onDevice(t, soacgenCLQuotientsKept, soacgenCLQuotientsKept2)
	first := soacgenCLQuotientsKept
	defer func() { soacgenCLQuotientsKept = first }()
	for _, k := range []*launch.Redomap{first, broken(t, first)} {
		soacgenCLQuotientsKept = k
		for _, n := range []int{1, 2, 7, 1000, 100001} {
			for _, at := range []int{-1, 0, n - 1, n / 2} {
				xs := ints(n)
				for i := range xs {
					if xs[i] == -1 {
						xs[i] = 5
					}
				}
				if at >= 0 {
					xs[at] = -1
				}
				want, wantP := catch(func() []int64 { return quotientsKeptSpec(xs) })
				got, gotP := catch(func() []int64 { return QuotientsKept(xs) })
				if gotP != wantP || !slices.Equal(got, want) {
					t.Fatalf("n=%d, -1 at %d: panic %q, want %q (results equal: %v)", n, at, gotP, wantP, slices.Equal(got, want))
				}
			}
		}
	}
}
