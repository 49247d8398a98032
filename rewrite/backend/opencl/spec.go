package opencl

// This file is the opencl backend's generation of one spec (Begin): the
// whole-spec analyses run once (residency.go: which arrays stay on the
// device and which inputs later kernels share; unwritten.go: which
// arrays are uploaded once per call), the arrays that code generated so
// far left on the device, and the launch.Session that holds them, which
// the generated function declares first.

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Begin returns the opencl backend's generation of the spec of fn, which
// f generates: asked is the backend the spec asks for (auto adds the
// cost model's choice to every launch).
func (Backend) Begin(f *hostgo.Func, fn *lowered.Function, asked string) backend.Spec {
	return &spec{Func: f, fn: fn, auto: asked == backend.Auto, res: analyseResidency(fn), once: analyseUnwritten(fn.Func)}
}

// spec is the opencl backend's generation of one spec. It embeds the
// spec's host generator, through which every kernel renders.
type spec struct {
	*hostgo.Func
	fn *lowered.Function
	// auto reports that the spec asks for backend auto.
	auto bool
	// res and once are the whole-spec analyses.
	res  *residency
	once *unwrittenVars
	// onDevice are the arrays that the code generated so far may have
	// left on the device (keep), until the code of their last reader.
	onDevice map[*ir.Var]*deviceArray
	// session names the function's launch.Session once a kernel needs
	// it; prologue declares it.
	session  string
	prologue hostgo.Stmts
}

// A deviceArray is an array that the backend's code may leave on the
// device instead of in its Go variable: only kernels read it, and the
// kernels that run on the host get it through Host.
type deviceArray struct {
	// Handle is the variable of the generated code that holds the
	// device's copy.
	Handle string
	// Host, when not nil, returns the statements that make the array's
	// Go variable hold its elements (a no-op when the kernel that writes
	// it ran on the host), naming the variable as the code generated at
	// the call does: a reader's code comes after the statement that
	// assigns the variable, whose code may have computed the array into
	// a temporary (a tuple assignment), so the name where the array was
	// written may no longer be the variable's.
	Host func() hostgo.Stmts
	// Release frees the device's copy, after Last, the last kernel that
	// reads the array, has run.
	Release hostgo.Stmts
	Last    *lowered.PlanKernel
}

// HostCode returns the statements of Host, or none.
func (d *deviceArray) HostCode() hostgo.Stmts {
	if d == nil || d.Host == nil {
		return nil
	}
	return d.Host()
}

// setDeviceArray records that code generated from now on, until the
// code of d.Last, may find v on the device; a nil d forgets v.
func (f *spec) setDeviceArray(v *ir.Var, d *deviceArray) {
	if d == nil {
		delete(f.onDevice, v)
		return
	}
	if f.onDevice == nil {
		f.onDevice = map[*ir.Var]*deviceArray{}
	}
	f.onDevice[v] = d
}

// deviceArrayOf returns what setDeviceArray recorded of v, or nil.
func (f *spec) deviceArrayOf(v *ir.Var) *deviceArray { return f.onDevice[v] }

// Kernel renders lk as a skeleton launch whose fallback is next's code,
// or says why lk does not translate (render, opencl.go).
func (f *spec) Kernel(lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	return render(f, lk, outs, next)
}

// HostInputs returns the statements that make lk's inputs and captures
// that may be on the device hold their elements in their Go variables
// (lk at the top level), then free the device's copies that lk reads
// last: the code of a kernel that reads its inputs from Go memory comes
// after them.
func (f *spec) HostInputs(lk *lowered.Kernel) hostgo.Stmts {
	k := lk.Src
	if k.Depth > 0 {
		// Inside a lambda: the enclosing kernel's code downloaded what
		// its lambdas read (its captures), and writing the Go variable
		// here would race between the work-items of a parallel loop.
		return nil
	}
	vs := slices.Clone(k.Inputs)
	for _, v := range capturedVars(k) {
		if !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	var c hostgo.Stmts
	for _, v := range vs {
		if d := f.onDevice[v]; d != nil {
			c.Add(d.HostCode()...)
			if d.Last == k {
				c.Add(d.Release...)
			}
		}
	}
	return c
}

// Generated forgets the device arrays whose last reader is lk, once its
// code is generated: its code released them, and their handles are
// declared in the block of the kernel that wrote them, which a later
// kernel reading the same Var (after a loop or branch holding both, in
// the next round of a loop) may be outside of. Such a kernel reads the
// Go variable, which holds the array wherever one of its readers may
// run later (the residency analysis keeps on the device only arrays
// whose every reader runs until the last).
func (f *spec) Generated(lk *lowered.Kernel) {
	for v, d := range f.onDevice {
		if d.Last == lk.Src {
			delete(f.onDevice, v)
		}
	}
}

// Prologue declares the function's launch.Session, when a kernel needs
// one, and releases it on return.
func (f *spec) Prologue() hostgo.Stmts { return f.prologue }

// newSession returns the name of the call's launch.Session, declared
// (and released on return) in the function's prologue.
func (f *spec) newSession() string {
	if f.session == "" {
		f.session = f.Fresh("cls")
		f.prologue = hostgo.Stmts{
			hostgo.VarDecl(f.session, f.Qual(launchPath, "launch", "Session"), nil),
			jen.Defer().Id(f.session).Dot("Release").Call(),
		}
	}
	return f.session
}
