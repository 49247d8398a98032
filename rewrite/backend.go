package rewrite

// This file holds the backends and the fallback chain between them. A
// backend renders a lowered kernel (package rewrite/lower) or refuses it
// with a reason; a refused kernel moves down the chain (opencl ->
// parallel -> cpu -> reference calls), and every step down is a warning
// naming the kernel's position and the reason, and a note in the fusion
// report (report.Generated). It does not decide a kernel's shape (the
// lowering does) nor render one (each backend does).

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// The backend names: those of CONTRACT.md's directive and -backend flag,
// and Reference, the report's name for a kernel every backend refused,
// whose members run as calls of runtime/soac.
const (
	CPU       = "cpu"
	Parallel  = "parallel"
	OpenCL    = "opencl"
	Auto      = "auto"
	Reference = "reference"
)

// Chain returns the backends tried, in order, for a kernel whose spec
// asks for backend b (CPU for an empty or unknown b). Every chain ends
// with CPU; after it come the reference calls, which never refuse.
func Chain(b string) []string {
	switch b {
	case OpenCL, Auto:
		return []string{OpenCL, Parallel, CPU}
	case Parallel:
		return []string{Parallel, CPU}
	}
	return []string{CPU}
}

// A Backend renders lowered kernels for one target, or refuses one with a
// reason. A backend renders through the host generator (fgen): the
// kernel's inputs, operands and lambdas are the spec's, named and
// inlined as the surrounding generated code has them.
type Backend interface {
	// Name is the backend's name in directives, flags and the report.
	Name() string
	// render returns the code of lk, which assigns the kernel's
	// materialised outputs to outs, or the reason it cannot ("" when it
	// can). A refusal may leave fresh names taken; it emits nothing.
	render(f *Func, lk *lower.Kernel, outs map[*ir.Var]string) (Stmts, string)
}

// backends are the backends built into soacgen, by name (parallel:
// parallel.go; opencl: opencl.go).
var backends = map[string]Backend{CPU: cpuBackend{}, Parallel: parallelBackend{}, OpenCL: openclBackend{}}

// refuseHook, when set (by tests), makes the cpu, parallel and opencl
// backends refuse a kernel of spec fn with the reason it returns (when
// not "").
var refuseHook func(fn *ir.Function, lk *lower.Kernel) string

// cpuBackend renders a kernel as one sequential loop (fused.go), a chunk
// loop (kernel.go, chunkloop.go), or a runtime call for a lone stream.
type cpuBackend struct{}

func (cpuBackend) Name() string { return CPU }

func (cpuBackend) render(f *Func, lk *lower.Kernel, outs map[*ir.Var]string) (Stmts, string) {
	if refuseHook != nil {
		if why := refuseHook(f.fn, lk); why != "" {
			return nil, why
		}
	}
	var st *jen.Statement
	why := ""
	switch lk.Form {
	case lower.Call:
		m := lk.Src.SOACs[0]
		var c Stmts
		f.Assign(&c, m.Out, f.Call(m, true))
		return c, ""
	case lower.Loop:
		st, why = f.Loop(lk, outs)
	case lower.Chunked:
		st, why = f.FusedStream(lk, outs)
	default:
		return nil, "its members do not run as one loop: " + lk.Reason
	}
	if why != "" {
		return nil, why
	}
	return Stmts{st}, ""
}

// kernel emits kernel k at its position: the first backend of the chain
// that renders its lowered form, else the reference calls.
func (f *Func) kernel(c *Stmts, k *fusion.Kernel) error {
	lk := f.low.Of[k]
	var outs map[*ir.Var]string
	if lk.Form != lower.Call {
		outs = f.DeclareOutputs(c, k)
	}
	chain := Chain(f.backend)
	var falls []report.Fallback
	for i, name := range chain {
		next := Reference
		if i+1 < len(chain) {
			next = chain[i+1]
		}
		b := backends[name]
		why := "it is not built into this soacgen yet"
		if b != nil {
			var fc Stmts
			if fc, why = b.render(f, lk, outs); why == "" {
				f.EmitGuarded(c, lk, fc, outs)
				f.generated(k, name, falls)
				return f.err
			}
		}
		falls = append(falls, report.Fallback{Pos: k.At.Pos(), Backend: name, Next: next, Reason: why})
	}
	if lk.Form == lower.Call {
		m := k.SOACs[0]
		f.Assign(c, m.Out, f.Call(m, true))
	} else {
		c.Add(f.Unfused(k, outs))
	}
	f.generated(k, Reference, falls)
	return f.err
}

// EmitGuarded emits a backend's code fc for lk. When two members may
// panic, the fused code could meet the second's panic before the first's:
// on a panic the members run again unfused, in the spec's order, and
// panic as the spec does.
func (f *Func) EmitGuarded(c *Stmts, lk *lower.Kernel, fc Stmts, outs map[*ir.Var]string) {
	if !lk.Rerun || lk.Form == lower.Call {
		c.Add(fc...)
		return
	}
	e := f.Fresh("e")
	rerun := jen.If(Define(e, jen.Recover()), jen.Id(e).Op("!=").Nil()).Add(Block(Stmts{f.Unfused(lk.Src, outs), jen.Panic(Id(e))}))
	deferred := jen.Defer().Func().Params().Add(Block(Stmts{rerun})).Call()
	c.Add(jen.Func().Params().Add(Block(append(Stmts{deferred}, fc...))).Call())
}

// generated records which backend generated kernel k and the refusals
// before it. A kernel generated twice (inside a lambda body copied into
// a loop and into the unfused fallback) keeps its first record.
func (f *Func) generated(k *fusion.Kernel, backend string, falls []report.Fallback) {
	if _, ok := f.outcomes[k]; ok {
		return
	}
	f.outcomes[k] = report.Generated{Backend: backend, Fallbacks: falls}
}

// fallbackWarnings returns the warning of each fallback of the spec's
// kernels, in plan order: "file:line:col: spec: backend B does not
// generate this kernel: reason; it falls back to N".
func (f *Func) fallbackWarnings() []string {
	var ws []string
	for _, k := range f.plan.Kernels {
		for _, fb := range f.outcomes[k].Fallbacks {
			ws = append(ws, fmt.Sprintf("%s: %s: %s", f.fset.Position(fb.Pos), f.fn.Name, fb.Note()))
		}
	}
	return ws
}
