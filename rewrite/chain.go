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

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/backend/cpu"
	"github.com/soacgen/soacgen/rewrite/backend/opencl"
	"github.com/soacgen/soacgen/rewrite/backend/parallel"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// backends are the backends built into soacgen, by name.
var backends = map[string]backend.Backend{
	backend.CPU:      cpu.Backend{},
	backend.Parallel: parallel.Backend{},
	backend.OpenCL:   opencl.Backend{},
}

// refuseHook, when set (by tests), makes every backend refuse a kernel
// of spec fn with the reason it returns (when not "").
var refuseHook func(fn *ir.Function, lk *lower.Kernel) string

// chain generates the kernels of one spec and records which backend
// generated each.
type chain struct {
	outcomes map[*fusion.Kernel]report.Generated
	// rendering are the backends rendering the kernels whose code is
	// being generated, outermost first: a kernel nested in a lambda is
	// generated while its parent's backend renders the parent.
	rendering []string
}

func newChain() *chain { return &chain{outcomes: map[*fusion.Kernel]report.Generated{}} }

// kernel emits kernel k of f's spec at its position (a
// hostgo.KernelFunc): the first backend of the chain that renders its
// lowered form, else the reference calls.
func (ch *chain) kernel(f *hostgo.Func, c *hostgo.Stmts, k *fusion.Kernel) error {
	lk := f.Lowered(k)
	var outs map[*ir.Var]string
	if lk.Form != lower.Call {
		outs = f.DeclareOutputs(c, k)
	}
	names := backend.Chain(f.Backend())
	var falls []report.Fallback
	for i, name := range names {
		next := backend.Reference
		if i+1 < len(names) {
			next = names[i+1]
		}
		b := backends[name]
		why := "it is not built into this soacgen yet"
		if b != nil {
			var fc hostgo.Stmts
			if fc, why = ch.render(f, b, lk, outs, names[i+1:]); why == "" {
				if name != backend.OpenCL {
					// Its code reads its inputs from Go memory: those a
					// device kernel left on the device are downloaded.
					f.HostInputs(c, k)
				}
				f.EmitGuarded(c, lk, fc, outs)
				ch.generated(k, name, falls)
				return nil
			}
		}
		falls = append(falls, report.Fallback{Pos: k.At.Pos(), Backend: name, Next: next, Reason: why})
	}
	f.HostInputs(c, k)
	if lk.Form == lower.Call {
		m := k.SOACs[0]
		f.Assign(c, m.Out, f.Call(m, true))
	} else {
		c.Add(f.Unfused(k, outs))
	}
	ch.generated(k, backend.Reference, falls)
	return nil
}

// render asks backend b for lk's code; its next renders lk with the
// backends named in rest, else the reference calls.
func (ch *chain) render(f *hostgo.Func, b backend.Backend, lk *lower.Kernel, outs map[*ir.Var]string, rest []string) (hostgo.Stmts, string) {
	if refuseHook != nil {
		if why := refuseHook(f.Spec(), lk); why != "" {
			return nil, why
		}
	}
	next := func() (hostgo.Stmts, string) {
		for i, name := range rest {
			if nb := backends[name]; nb != nil {
				if c, why := ch.render(f, nb, lk, outs, rest[i+1:]); why == "" {
					return c, name
				}
			}
		}
		return hostgo.Stmts{f.Unfused(lk.Src, outs)}, backend.Reference
	}
	ch.rendering = append(ch.rendering, b.Name())
	defer func() { ch.rendering = ch.rendering[:len(ch.rendering)-1] }()
	return b.Render(f, lk, outs, next)
}

// onDevice reports whether a kernel generated now is nested in the lambda
// of a kernel the opencl backend renders: the device kernel runs it as
// its work-items' loops (rewrite/clc translates nested SOACs so), and
// the code generated here is its parent's CPU fallback, not a fallback
// of its own.
func (ch *chain) onDevice(k *fusion.Kernel) bool {
	return k.Depth > 0 && slices.Contains(ch.rendering, backend.OpenCL)
}

// generated records which backend generated kernel k and the refusals
// before it. A kernel generated twice (inside a lambda body copied into
// a loop and into the unfused fallback) keeps its first record. A kernel
// that runs inside its parent's device kernel is recorded as opencl's,
// with no fallback of its own (onDevice).
func (ch *chain) generated(k *fusion.Kernel, name string, falls []report.Fallback) {
	if _, ok := ch.outcomes[k]; ok {
		return
	}
	if ch.onDevice(k) {
		name, falls = backend.OpenCL, nil
	}
	ch.outcomes[k] = report.Generated{Backend: name, Fallbacks: falls}
}

// warnings returns the warning of each fallback of spec fn's kernels, in
// plan order: "file:line:col: spec: backend B does not generate this
// kernel: reason; it falls back to N".
func (ch *chain) warnings(fset *token.FileSet, fn *ir.Function, plan *fusion.Plan) []string {
	var ws []string
	who := specLabel(fn)
	for _, k := range plan.Kernels {
		for _, fb := range ch.outcomes[k].Fallbacks {
			ws = append(ws, fmt.Sprintf("%s: %s: %s", fset.Position(fb.Pos), who, fb.Note()))
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
