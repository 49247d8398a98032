package launch

// This file is the generated filter kernel: a kernel that materialises
// the kept elements of a filter runs on package skel's Filter, which
// writes them compacted, in order. It does not decide what is kept (the
// element code's keep flag does).

import "github.com/soacgen/soacgen/runtime/opencl/skel"

// Filter is one generated filter kernel (package skel's Filter, whose
// reductions end with ErrFlagReduction). Its element code sets keep also
// for an element whose panic flag is set, so that the flag is folded.
type Filter struct {
	At   string
	FP64 bool
	Spec skel.Filter
	Auto bool
	Cost Cost

	b built[skel.FilterKernel]
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line per cause in the process, the first time) when it cannot
// run there; FallbackList counts the calls.
func (f *Filter) Kernel() *skel.FilterKernel {
	return f.b.get(f.At, f.Spec.Name, f.FP64, f.Spec.Build)
}

// Use is Redomap.Use for a filter.
func (f *Filter) Use(n int) bool {
	return !f.Auto || autoUse(Worth(f.Cost, n))
}

// Run filters inputs (all of one length n > 0) into the first kept
// elements of outputs (n elements each) and folds the kept elements into
// results (one element each, without the panic flag), with the values
// of its Args (as for Redomap.Run). It returns the number kept and
// whether the outputs and results hold the kernel's; false means the
// caller runs its CPU code, as for Redomap.Run.
func (f *Filter) Run(args []any, inputs, outputs, results []skel.HostSlice) (int, bool) {
	if !sameLength(inputs, outputs) {
		return 0, false
	}
	k := f.Kernel()
	if k == nil {
		return 0, false
	}
	var flag [1]int32
	res := append(append([]skel.HostSlice(nil), results...), skel.Slice(flag[:]))
	u := uploads{d: f.b.d}
	defer u.release()
	vals, err := u.expand(args)
	var kept int
	var t skel.Timing
	if err == nil {
		kept, t, err = k.RunArgs(vals, inputs, outputs, res)
	}
	if err != nil {
		return 0, fellBack(f.At, f.Spec.Name, f.b.fail(f.At, f.Spec.Name, err))
	}
	count(t)
	countRun(len(inputs), len(outputs))
	return kept, flag[0] == 0 || fellBack(f.At, f.Spec.Name, whyFlag)
}
