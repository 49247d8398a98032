// Package backend defines what a backend of the generator is: a Backend
// renders a lowered kernel (package rewrite/lowered) as Go code through
// the host generator (package rewrite/hostgo), or refuses it with a
// reason; Chain says which backends a spec's kernels try, in order. The
// backends built into soacgen are its subpackages (cpu, parallel,
// opencl); package rewrite runs the chain. It holds no backend itself.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): Backend (Name;
// Begin(f *hostgo.Func, lowered function, asked backend) → a Spec that
// owns the backend's decisions for one spec), Spec (Kernel(lk, outs,
// next) → statements or a refusal's reason, next rendering the rest of
// the chain for a backend that falls back at run time; HostInputs,
// Generated and Prologue for a backend that keeps arrays off the host),
// Chain (opencl → parallel → cpu), the backend names.
package backend

import (
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// The backend names: those of docs/contract.md's directive and -backend
// flag (the list is ir.Backends), and Reference, the report's name for a kernel every backend refused,
// whose members run as calls of runtime/soac.
const (
	CPU       = ir.BackendCPU
	Parallel  = ir.BackendParallel
	OpenCL    = ir.BackendOpenCL
	Auto      = ir.BackendAuto
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
	// Begin starts the generation of one spec: f generates it, fn is its
	// lowered plan, asked the backend the spec asks for (its directive's,
	// else the package's default). The Spec it returns holds every
	// decision the backend makes for the spec as a whole; whole-spec
	// analyses run here, once.
	Begin(f *hostgo.Func, fn *lowered.Function, asked string) Spec
}

// A Spec is a backend's generation of one spec: the chain asks it for
// each kernel's code in turn, in the order the kernels' code is
// generated.
type Spec interface {
	// Kernel returns the code of lk, which assigns the kernel's
	// materialised outputs to outs (their names in the generated
	// function), or the reason it cannot ("" when it can). A refusal may
	// leave fresh names taken; it emits nothing. next renders the kernel
	// with the rest of the chain, for a backend whose code falls back at
	// run time (opencl); a backend that does not need it ignores it.
	Kernel(lk *lowered.Kernel, outs map[*ir.Var]string, next Next) (hostgo.Stmts, string)
	// HostInputs returns the statements that code of another backend
	// runs before lk's code: those that make the arrays lk reads, which
	// this backend's code may have left elsewhere (on a device), hold
	// their elements in Go memory.
	HostInputs(lk *lowered.Kernel) hostgo.Stmts
	// Generated says that lk's code, whichever backend rendered it, is
	// complete.
	Generated(lk *lowered.Kernel)
	// Prologue returns the statements the generated function runs
	// before its body, once every kernel is generated.
	Prologue() hostgo.Stmts
}

// Next renders a kernel with the backends after the current one in its
// chain: their code and the name of the backend that rendered it, or the
// reference calls and Reference.
type Next func() (hostgo.Stmts, string)

// HostOnly is the part of a Spec of a backend whose code keeps every
// array in Go memory and needs no prologue: embedded in its Spec, it
// supplies HostInputs, Generated and Prologue.
type HostOnly struct{}

// HostInputs returns nothing: the backend's code leaves no array
// elsewhere.
func (HostOnly) HostInputs(*lowered.Kernel) hostgo.Stmts { return nil }

// Generated does nothing.
func (HostOnly) Generated(*lowered.Kernel) {}

// Prologue returns nothing.
func (HostOnly) Prologue() hostgo.Stmts { return nil }
