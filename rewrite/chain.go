package rewrite

// This file runs the fallback chain at each kernel's position: the first
// backend of the spec's chain (backend.Chain) that renders the kernel's
// lowered form generates it, else its members run as calls of the
// reference runtime. Every step down is a warning naming the kernel's
// position and the reason, and a note in the fusion report
// (report.Generated). It does not decide a kernel's shape (the lowering
// does) nor render one (each backend does).

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/backend/cpu"
	"github.com/soacgen/soacgen/rewrite/backend/opencl"
	"github.com/soacgen/soacgen/rewrite/backend/parallel"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	"github.com/soacgen/soacgen/rewrite/vector"
)

// backends are the backends built into soacgen, by name.
var backends = map[string]backend.Backend{
	backend.CPU:      cpu.Backend{},
	backend.Parallel: parallel.Backend{},
	backend.OpenCL:   opencl.Backend{},
}

// refuseHook, when set (by tests), makes every backend refuse a kernel
// of spec fn with the reason it returns (when not "").
var refuseHook func(fn *ir.Function, lk *lowered.Kernel) string

// chain generates the kernels of one spec and records which backend
// generated each. It is the hostgo.Kernels of the spec's generation.
type chain struct {
	low *lowered.Function
	// asked is the backend the spec asks for, names its chain.
	asked string
	names []string
	// f generates the spec; specs are the chain's backends' generations
	// of it (backend.Backend.Begin), by name.
	f     *hostgo.Func
	specs map[string]backend.Spec
	// outcomes are the backend and fallbacks of each kernel generated.
	outcomes map[*lowered.PlanKernel]report.Generated
	// rendering are the backends rendering the kernels whose code is
	// being generated, outermost first: a kernel nested in a lambda is
	// generated while its parent's backend renders the parent.
	rendering []string
}

// newChain returns the chain of the spec of low, which asks for backend
// asked.
func newChain(low *lowered.Function, asked string) *chain {
	return &chain{low: low, asked: asked, names: backend.Chain(asked), outcomes: map[*lowered.PlanKernel]report.Generated{}}
}

// begin starts every backend of the chain on the spec f generates.
func (ch *chain) begin(f *hostgo.Func) hostgo.Kernels {
	ch.f, ch.specs = f, map[string]backend.Spec{}
	for _, name := range ch.names {
		if b := backends[name]; b != nil {
			ch.specs[name] = b.Begin(f, ch.low, ch.asked)
		}
	}
	return ch
}

// Kernel emits lk at its position (hostgo.Kernels): the first backend of
// the chain that renders it, else the reference calls.
func (ch *chain) Kernel(c *hostgo.Stmts, lk *lowered.Kernel) error {
	f, k := ch.f, lk.Src
	defer ch.generatedAll(lk)
	var outs map[*ir.Var]string
	if lk.Form != lowered.Call {
		outs = f.DeclareOutputs(c, k)
	}
	var falls []report.Fallback
	for i, name := range ch.names {
		next := backend.Reference
		if i+1 < len(ch.names) {
			next = ch.names[i+1]
		}
		why := "it is not built into this soacgen yet"
		if ch.specs[name] != nil {
			var fc hostgo.Stmts
			if fc, why = ch.render(name, lk, outs, ch.names[i+1:]); why == "" {
				c.Add(ch.hostInputs(name, lk)...)
				f.EmitGuarded(c, lk, fc, outs)
				ch.generated(k, name, falls)
				ch.vector(name, lk)
				return nil
			}
		}
		falls = append(falls, report.Fallback{Pos: k.At.Pos(), Backend: name, Next: next, Reason: why})
	}
	c.Add(ch.hostInputs(backend.Reference, lk)...)
	f.Reference(c, lk, outs)
	ch.generated(k, backend.Reference, falls)
	return nil
}

// hostInputs returns the statements that make the arrays lk reads hold
// their elements in Go memory before the code of backend name reads
// them: those of every other backend of the chain, which may have left
// them elsewhere (a device).
func (ch *chain) hostInputs(name string, lk *lowered.Kernel) hostgo.Stmts {
	var c hostgo.Stmts
	for _, other := range ch.names {
		if s := ch.specs[other]; s != nil && other != name {
			c.Add(s.HostInputs(lk)...)
		}
	}
	return c
}

// generatedAll tells every backend that lk's code is complete.
func (ch *chain) generatedAll(lk *lowered.Kernel) {
	for _, name := range ch.names {
		if s := ch.specs[name]; s != nil {
			s.Generated(lk)
		}
	}
}

// Prologue returns the statements the backends' code needs at the start
// of the generated function (hostgo.Kernels), in chain order.
func (ch *chain) Prologue() hostgo.Stmts {
	var c hostgo.Stmts
	for _, name := range ch.names {
		if s := ch.specs[name]; s != nil {
			c.Add(s.Prologue()...)
		}
	}
	return c
}

// render asks backend name for lk's code; its next renders lk with the
// backends named in rest, else the reference calls.
func (ch *chain) render(name string, lk *lowered.Kernel, outs map[*ir.Var]string, rest []string) (hostgo.Stmts, string) {
	if refuseHook != nil {
		if why := refuseHook(ch.f.Spec(), lk); why != "" {
			return nil, why
		}
	}
	next := func() (hostgo.Stmts, string) {
		for i, nb := range rest {
			if ch.specs[nb] != nil {
				if c, why := ch.render(nb, lk, outs, rest[i+1:]); why == "" {
					return c, nb
				}
			}
		}
		return hostgo.Stmts{ch.f.Unfused(lk.Src, outs)}, backend.Reference
	}
	ch.rendering = append(ch.rendering, name)
	defer func() { ch.rendering = ch.rendering[:len(ch.rendering)-1] }()
	return ch.specs[name].Kernel(lk, outs, next)
}

// onDevice reports whether a kernel generated now is nested in the lambda
// of a kernel the opencl backend renders: the device kernel runs it as
// its work-items' loops (rewrite/clc translates nested SOACs so), and
// the code generated here is its parent's CPU fallback, not a fallback
// of its own.
func (ch *chain) onDevice(k *lowered.PlanKernel) bool {
	return k.Depth > 0 && slices.Contains(ch.rendering, backend.OpenCL)
}

// generated records which backend generated kernel k and the refusals
// before it. A kernel generated twice (inside a lambda body copied into
// a loop and into the unfused fallback) keeps its first record. A kernel
// that runs inside its parent's device kernel is recorded as opencl's,
// with no fallback of its own (onDevice).
func (ch *chain) generated(k *lowered.PlanKernel, name string, falls []report.Fallback) {
	if _, ok := ch.outcomes[k]; ok {
		return
	}
	if ch.onDevice(k) {
		name, falls = backend.OpenCL, nil
	}
	ch.outcomes[k] = report.Generated{Backend: name, Fallbacks: falls}
}

// vectorizer is a backend spec that reports what the vector translator
// did with the loops it generated (the cpu backend's).
type vectorizer interface {
	Vector(lk *lowered.Kernel) (vector.Outcome, bool)
}

// vector records in k's outcome what the vector translator did with lk,
// which backend name generated.
func (ch *chain) vector(name string, lk *lowered.Kernel) {
	v, ok := ch.specs[name].(vectorizer)
	if !ok {
		return
	}
	vo, ok := v.Vector(lk)
	if !ok {
		return
	}
	o := ch.outcomes[lk.Src]
	if o.Vector == nil {
		o.Vector = &report.Vector{Widths: vo.Widths, Reason: vo.Reason, Notes: vo.Notes}
		ch.outcomes[lk.Src] = o
	}
}

// warnings returns the warning of each fallback of spec fn's kernels, in
// plan order: "file:line:col: spec: backend B does not generate this
// kernel: reason; it falls back to N".
func (ch *chain) warnings(fset *token.FileSet, fn *ir.Function) []string {
	var ws []string
	who := specLabel(fn)
	for _, lk := range ch.low.Kernels {
		for _, fb := range ch.outcomes[lk.Src].Fallbacks {
			ws = append(ws, fmt.Sprintf("%s: %s: %s", fset.Position(fb.Pos), who, fn.UserText(fset, fb.Note())))
		}
	}
	return ws
}

// specLabel names the generated function fn in a warning: the spec's
// name, followed by the directive's NAME when the spec has several (each
// directive's fallbacks are its own).
func specLabel(fn *ir.Function) string {
	if len(fn.Fuses) > 1 {
		return fn.Name + " (" + fn.Fuse.Name + ")"
	}
	return fn.Name
}
