package launch

// This file runs generated grid kernels (package skel's Grid): a map
// over the rows of a [][]T whose lambda returns a map over a captured
// slice, one work-item per element of the [][]R result, which the host
// gets as one flat buffer (Out) cut into rows (Chop).

import "github.com/soacgen/soacgen/runtime/opencl/skel"

// Grid is one generated grid kernel.
type Grid struct {
	// At is the kernel's position in its spec, for log lines.
	At string
	// FP64 reports whether the program uses float64.
	FP64 bool
	Spec skel.Grid
	// Auto is set for backend=auto: Use then asks the cost model with
	// Cost.
	Auto bool
	Cost GridCost

	b built[skel.GridKernel]
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line per cause in the process, the first time) when it cannot
// run there; FallbackList counts the calls.
func (g *Grid) Kernel() *skel.GridKernel {
	return g.b.get(g.At, g.Spec.Name, g.FP64, g.Spec.Build)
}

// Run runs the kernel over rows × cols elements with inner length k
// (RowLen, for a Dot kernel) and the values of its Args (Arg, View, Rows,
// Out). It reports whether the Out buffers hold the kernel's results;
// false means the caller runs its CPU code: the kernel is unavailable,
// rows or cols is 0 or k negative (the CPU code handles these as the
// spec does), a launch failed (logged once per cause; later calls are
// not tried, unless it failed for this call's sizes: errclass.go), or a
// work-item's panic flag is set.
func (g *Grid) Run(rows, cols, k int, args []any) bool {
	if rows <= 0 || cols <= 0 || k < 0 {
		return false
	}
	kern := g.Kernel()
	if kern == nil {
		return false
	}
	u := uploads{d: g.b.d}
	defer u.release()
	return g.run(kern, &u, rows, cols, k, args)
}

// RunOn is Run within session s, whose arguments may include a result
// kept on the device (KeepRows): after a run that succeeds it is the
// session's Matrix; after false nothing was kept.
func (g *Grid) RunOn(s *Session, rows, cols, k int, args []any) bool {
	if rows <= 0 || cols <= 0 || k < 0 {
		return false
	}
	kern := g.Kernel()
	if kern == nil {
		return false
	}
	s.on(g.b.d)
	u := uploads{d: g.b.d, s: s}
	defer u.release()
	if !g.run(kern, &u, rows, cols, k, args) {
		return false
	}
	u.keepAll()
	return true
}

// run runs kern over rows×cols with k and the values of args, through
// u (which uploads and downloads them), counting its timing and the
// arrays downloaded. It reports whether the run succeeded without a
// work-item's panic flag; a failed launch is logged once per cause and
// later calls are not tried, unless it failed for this call's sizes.
func (g *Grid) run(kern *skel.GridKernel, u *uploads, rows, cols, k int, args []any) bool {
	vals, err := u.expand(args)
	var flag int32
	var t skel.Timing
	if err == nil {
		flag, t, err = kern.Run(rows, cols, k, vals)
	}
	if err == nil && flag == 0 {
		err = u.download()
	}
	if err != nil {
		return fellBack(g.At, g.Spec.Name, g.b.fail(g.At, g.Spec.Name, err))
	}
	count(t)
	if flag != 0 {
		return fellBack(g.At, g.Spec.Name, whyFlag)
	}
	downloadN.Add(int64(len(u.outs)))
	return true
}

// RowLen returns the length every row of a and of b has, or -1 when two
// rows differ (a dot product of a row of a with a row of b then panics in
// the spec: the CPU code raises it). Empty a and b give 0.
func RowLen[T, U any](a [][]T, b [][]U) int {
	k := -1
	for _, r := range a {
		if k >= 0 && len(r) != k {
			return -1
		}
		k = len(r)
	}
	for _, r := range b {
		if k >= 0 && len(r) != k {
			return -1
		}
		k = len(r)
	}
	return max(k, 0)
}

// Chop returns the rows of a grid kernel's result: row i is
// flat[i*cols:(i+1)*cols], capped there so that an append to one row
// cannot reach the next.
func Chop[T any](flat []T, rows, cols int) [][]T {
	out := make([][]T, rows)
	for i := range out {
		lo := i * cols
		out[i] = flat[lo : lo+cols : lo+cols]
	}
	return out
}
