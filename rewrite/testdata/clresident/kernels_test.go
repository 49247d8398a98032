package clresident

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests' swapping of a spec's kernels: each kernel variable holds
// the generated kernel, which runs on the device, or a copy whose build
// fails, so that the spec runs that kernel's CPU code; a mask says which
// (bit i: the i-th variable on the CPU). The tests compare each mask's
// results with the spec's and what it moved with what the mask should
// move, and check that every kernel left on the device ran there.

// notC is the element code of the broken copies.
const notC = "this is not OpenCL C;"

// failing returns b, a copy of a kernel whose build fails, after
// checking that it does (kernel builds it), with launch's log lines
// silenced until t ends.
func failing[K, B any](t *testing.T, b *K, kernel func(*K) *B) *K {
	quiet(t)
	if kernel(b) != nil {
		t.Fatal("the broken kernel built")
	}
	return b
}

// brokenRedomap, brokenGrid, brokenScan, brokenFilter and brokenStream
// return copies of k whose build fails: their specs run the kernel's
// CPU code.
func brokenRedomap(t *testing.T, k *launch.Redomap) *launch.Redomap {
	b := &launch.Redomap{At: k.At, FP64: k.FP64, Spec: k.Spec}
	b.Spec.Name, b.Spec.Body = k.Spec.Name+"Broken", notC
	return failing(t, b, (*launch.Redomap).Kernel)
}

func brokenGrid(t *testing.T, k *launch.Grid) *launch.Grid {
	b := &launch.Grid{At: k.At, FP64: k.FP64, Spec: k.Spec}
	b.Spec.Name, b.Spec.Body, b.Spec.Dot = k.Spec.Name+"Broken", notC, nil
	return failing(t, b, (*launch.Grid).Kernel)
}

func brokenScan(t *testing.T, k *launch.Scan) *launch.Scan {
	b := &launch.Scan{At: k.At, FP64: k.FP64, Spec: k.Spec}
	b.Spec.Name, b.Spec.Body = k.Spec.Name+"Broken", notC
	return failing(t, b, (*launch.Scan).Kernel)
}

func brokenFilter(t *testing.T, k *launch.Filter) *launch.Filter {
	b := &launch.Filter{At: k.At, FP64: k.FP64, Spec: k.Spec}
	b.Spec.Name, b.Spec.Body = k.Spec.Name+"Broken", notC
	return failing(t, b, (*launch.Filter).Kernel)
}

func brokenStream(t *testing.T, k *launch.StreamRed) *launch.StreamRed {
	b := &launch.StreamRed{At: k.At, FP64: k.FP64, Spec: k.Spec}
	b.Spec.Name, b.Spec.Chunk = k.Spec.Name+"Broken", notC
	return failing(t, b, (*launch.StreamRed).Kernel)
}

// kernelVar is a spec's package-level kernel variable (or several,
// swapped together: group).
type kernelVar struct {
	built func() bool                       // whether its kernels run on the device
	swap  func(t *testing.T) func(cpu bool) // makes the broken copies; the result installs them or the kernels
}

// varOf is the kernel variable *p of a kernel type K, built by kernel
// and copied broken by broken.
func varOf[K, B any](p **K, kernel func(*K) *B, broken func(*testing.T, *K) *K) kernelVar {
	k := *p
	return kernelVar{
		built: func() bool { return kernel(k) != nil },
		swap: func(t *testing.T) func(bool) {
			b := broken(t, k)
			return func(cpu bool) {
				*p = k
				if cpu {
					*p = b
				}
			}
		},
	}
}

// redomapVar, gridVar, scanVar, filterVar and streamVar are the kernel
// variable *p of each kernel type.
func redomapVar(p **launch.Redomap) kernelVar {
	return varOf(p, (*launch.Redomap).Kernel, brokenRedomap)
}

func gridVar(p **launch.Grid) kernelVar { return varOf(p, (*launch.Grid).Kernel, brokenGrid) }

func scanVar(p **launch.Scan) kernelVar { return varOf(p, (*launch.Scan).Kernel, brokenScan) }

func filterVar(p **launch.Filter) kernelVar {
	return varOf(p, (*launch.Filter).Kernel, brokenFilter)
}

func streamVar(p **launch.StreamRed) kernelVar {
	return varOf(p, (*launch.StreamRed).Kernel, brokenStream)
}

// group is vs swapped together, as one bit of a mask.
func group(vs ...kernelVar) kernelVar {
	return kernelVar{
		built: func() bool {
			for _, v := range vs {
				if !v.built() {
					return false
				}
			}
			return true
		},
		swap: func(t *testing.T) func(bool) {
			sets := make([]func(bool), len(vs))
			for i, v := range vs {
				sets[i] = v.swap(t)
			}
			return func(cpu bool) {
				for _, set := range sets {
					set(cpu)
				}
			}
		},
	}
}

// kernels are a spec's kernel variables, each on the device or forced
// to the CPU by a mask (bit i: the i-th variable on the CPU).
type kernels struct {
	t    *testing.T
	sets []func(cpu bool)
}

// swapped returns the kernels of vs, skipping t unless every kernel
// runs on the device; when t ends the kernels are back in their
// variables.
func swapped(t *testing.T, vs ...kernelVar) kernels {
	for _, v := range vs {
		if !v.built() {
			t.Skip("no usable OpenCL device")
		}
	}
	ks := kernels{t: t}
	for _, v := range vs {
		ks.sets = append(ks.sets, v.swap(t))
	}
	t.Cleanup(func() { ks.set(0) })
	return ks
}

// set installs the kernels of mask; set(0) the generated ones.
func (ks kernels) set(mask int) {
	for i, set := range ks.sets {
		set(mask>>i&1 != 0)
	}
}

// check runs call (which returns a printable result) with each mask's
// kernels and compares its result with want and what it moved with
// moves[mask] (moves nil: not compared); no launch of a kernel left on
// the device may fall back to the CPU (launch.Fallbacks). name starts
// the error messages.
func (ks kernels) check(name string, want string, call func() string, moves []traffic) {
	ks.t.Helper()
	for mask := range 1 << len(ks.sets) {
		ks.set(mask)
		var got string
		var tr traffic
		noFallback(ks.t, func() { tr = measure(func() { got = call() }) }, "%s, kernels %0*b on the CPU", name, len(ks.sets), mask)
		if got != want {
			ks.t.Errorf("%s, kernels %0*b on the CPU: %s, want %s", name, len(ks.sets), mask, got, want)
		}
		if moves != nil && tr != moves[mask] {
			ks.t.Errorf("%s, kernels %0*b on the CPU: moved %+v, want %+v", name, len(ks.sets), mask, tr, moves[mask])
		}
	}
}

// noFallback runs f and fails t, its message made of format and args,
// when a launch during f returned false once its kernel was built
// (launch.Fallbacks): a kernel that should run on the device ran its
// CPU code.
func noFallback(t *testing.T, f func(), format string, args ...any) {
	t.Helper()
	n0 := launch.Fallbacks()
	f()
	if n := launch.Fallbacks() - n0; n != 0 {
		t.Errorf(format+": %d launches fell back to the CPU, the last: %s", append(args, n, launch.LastFallback())...)
	}
}
