// Package backend defines what a backend of the generator is: a Backend
// renders a lowered kernel (package rewrite/lower) as Go code through
// the host generator (package rewrite/hostgo), or refuses it with a
// reason; Chain says which backends a spec's kernels try, in order. The
// backends built into soacgen are its subpackages (cpu, parallel,
// opencl); package rewrite runs the chain. It holds no backend itself.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): Backend (Name;
// Render(f *hostgo.Func, lk, outs, next) → statements or a refusal's
// reason; next renders the rest of the chain, for a backend that falls
// back at run time), Chain (opencl → parallel → cpu), the backend names.
package backend

import (
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// The backend names: those of docs/contract.md's directive and -backend flag,
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
// reason. It renders through the host generator: the kernel's inputs,
// operands and lambdas are the spec's, named and inlined as the
// surrounding generated code has them.
type Backend interface {
	// Name is the backend's name in directives, flags and the report.
	Name() string
	// Render returns the code of lk, which assigns the kernel's
	// materialised outputs to outs (their names in f), or the reason it
	// cannot ("" when it can). A refusal may leave fresh names taken; it
	// emits nothing. next renders the kernel with the rest of the chain,
	// for a backend whose code falls back at run time (opencl); a
	// backend that does not need it ignores it.
	Render(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string, next Next) (hostgo.Stmts, string)
}

// Next renders a kernel with the backends after the current one in its
// chain: their code and the name of the backend that rendered it, or the
// reference calls and Reference.
type Next func() (hostgo.Stmts, string)
