package parallel

// This file estimates the work per element of a kernel, for the parallel
// backend's grain (parallel.Grain): a static count over the lambdas'
// syntax, weighted by costs measured on this kind of CPU — the math
// functions by BenchmarkOpCosts (cost_bench_test.go), a map loop's
// time per element less the bare loop's. Calls of functions of the same
// package count their bodies (to a bounded depth), and a call only where
// Go's compiler does not inline them (inlining.go). It also says when the
// count is unreliable (a nested SOAC or a loop of unknown length), so
// that a map can time its first element instead (parallel.ForMeasured).
// The estimate only decides how many elements a chunk needs before the
// runtime splits the work; it does not decide a kernel's shape, and the
// threshold it feeds (parallel.MinChunkNanos) is measured too.

import (
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Weights, in units of half a nanosecond (an add, a compare, an indexed
// load in cache on a ~3 GHz core with some overlap). unitsLoop cannot be
// measured statically: maps with a loop time their first element instead
// (ForMeasured); for streams and reductions a short loop is assumed, as
// k-means' loop over 8 centres (17-27 ns a point on the 16-core host):
// 200 units made its 1e3-point StreamRed split, at 0.59x of cpu.
const (
	unitsOp       = 1    // arithmetic, comparison, indexing
	unitsDiv      = 2    // integer or float division, remainder: under 1 ns measured (throughput)
	unitsMathCall = 28   // a math function not in mathNanos: the median of those measured
	unitsCall     = 10   // a call the compiler does not inline (inlining.go)
	unitsLoop     = 40   // a loop of unknown trip count in a lambda: guessed (a short loop); see below
	unitsNested   = 2000 // a SOAC call in a lambda: a whole array per element
	unitsPerNanos = 2
	// costDepth bounds how deep calls of the package's own functions
	// are followed (recursion counts as a plain call).
	costDepth = 4
)

// mathNanos are the costs of math functions in nanoseconds per call:
// BenchmarkOpCosts on a quiet 16-core host, 2026-11-23 (Intel
// Xeon, Go 1.26, GOAMD64=v1; medians of 3, the bare loop subtracted,
// examples/bench/parallel-opcosts-16core.txt), rounded up to 1 ns. The
// same benchmark on the loaded 2-core VM measured 1.5-2.5x these (the
// load inflates every figure). Sqrt and Abs compile to one instruction
// when called directly.
var mathNanos = map[string]int{
	"Abs": 1, "Sqrt": 1, "Floor": 3, "Ceil": 3, "Trunc": 3, "Hypot": 4,
	"Tan": 8, "Exp": 10, "Atan2": 10, "Atan": 10, "Log": 11, "Log1p": 12,
	"Tanh": 13, "Sin": 14, "Cos": 14, "Log10": 15, "Log2": 15, "Cbrt": 16,
	"Erf": 18, "Erfc": 18, "Exp2": 18, "Mod": 33, "Pow": 89,
}

// costs counts the work of lambdas of one function's kernels.
type costs struct {
	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl // the package's functions with bodies
	// uncertain is set once a counted body holds a nested SOAC or a loop
	// of unknown length.
	uncertain bool
	// inl keeps inlineCost's answers (inlining.go).
	inl map[*types.Func]inlineResult
	// unseenCall is set while inlineCost counts a body that calls a
	// function whose body it cannot see (inlineResult.unseen).
	unseenCall bool
	// boundLits are the function literals variables are defined as
	// (f := func...), for the inline cost of a call of f.
	boundLits map[types.Object]*ast.FuncLit
}

// costsOf returns a counter that follows calls into the functions of
// f's package.
func costsOf(f *hostgo.Func) *costs {
	return newCosts(f.Info(), f.Files())
}

// newCosts returns a counter that follows calls into the functions
// declared in files (info their types; nil counts every call as one).
func newCosts(info *types.Info, files []*ast.File) *costs {
	c := &costs{info: info, decls: map[*types.Func]*ast.FuncDecl{}, inl: map[*types.Func]inlineResult{}, boundLits: map[types.Object]*ast.FuncLit{}}
	if info == nil {
		return c
	}
	for _, file := range files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	return c
}

// kernelNanos estimates the nanoseconds of one element of lk's loop: one
// unit per member (its store or fold) plus its lambdas.
func (c *costs) kernelNanos(lk *lowered.Kernel) int {
	u := 0
	for _, m := range lk.Members {
		u += unitsOp
		for _, l := range m.SOAC.Lambdas() {
			u += c.lambdaUnits(l, false)
		}
	}
	return max(1, u/unitsPerNanos)
}

// lambdaNanos estimates the nanoseconds of one application of l (of one
// element of its chunk when chunk is set: its loops run over the chunk).
func (c *costs) lambdaNanos(l *ir.Lambda, chunk bool) int {
	return max(1, c.lambdaUnits(l, chunk)/unitsPerNanos)
}

// lambdaUnits counts l's body in units; a named function of the package
// counts its body, and a call unless the compiler inlines it
// (callOverhead) or it is a chunk function (called once per chunk); any
// other function that is not a literal one call.
func (c *costs) lambdaUnits(l *ir.Lambda, chunk bool) int {
	switch {
	case l == nil:
		return unitsCall
	case l.Lit != nil:
		return c.bodyUnits(l.Lit.Body, chunk, 0, nil)
	case l.Func != nil && c.decls[l.Func] != nil:
		call := unitsCall
		switch {
		case chunk:
			call = 0 // a chunk function: one call per chunk, not per element
		case l.Kind == ir.NamedFunc:
			call = c.callOverhead(l.Func) // called by name: the compiler may inline it
		}
		return call + c.bodyUnits(c.decls[l.Func].Body, chunk, 1, map[*types.Func]bool{l.Func: true})
	}
	return unitsCall
}

// bodyUnits counts the units of body, at call depth depth, following
// calls of the package's functions not on the stack of callers (seen).
func (c *costs) bodyUnits(body ast.Node, chunk bool, depth int, seen map[*types.Func]bool) int {
	u := 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.QUO || n.Op == token.REM {
				u += unitsDiv
			} else {
				u += unitsOp
			}
		case *ast.UnaryExpr, *ast.IndexExpr:
			u += unitsOp
		case *ast.CallExpr:
			u += c.callUnits(n, chunk, depth, seen)
		case *ast.ForStmt, *ast.RangeStmt:
			if !chunk {
				u += unitsLoop
				c.uncertain = true
			}
		}
		return true
	})
	return u
}

// callUnits is the weight of a call by its callee: math.X from the
// measured table, soac.X (a nested SOAC), a function of the package (its
// body, and a call where it is not inlined), a conversion-like builtin,
// or any other call.
func (c *costs) callUnits(call *ast.CallExpr, chunk bool, depth int, seen map[*types.Func]bool) int {
	var id *ast.Ident
	switch fun := call.Fun.(type) {
	case *ast.SelectorExpr:
		if pkg, ok := fun.X.(*ast.Ident); ok {
			switch pkg.Name {
			case "math":
				if ns, ok := mathNanos[fun.Sel.Name]; ok {
					return ns * unitsPerNanos
				}
				return unitsMathCall
			case "soac":
				c.uncertain = true
				return unitsNested
			}
		}
	case *ast.Ident:
		id = fun
		switch id.Name {
		case "len", "cap", "float64", "float32", "int", "int64", "int32", "uint", "uint64", "uint32", "min", "max":
			return unitsOp
		}
	}
	if id != nil && c.info != nil && depth < costDepth {
		if fn, ok := c.info.Uses[id].(*types.Func); ok && c.decls[fn.Origin()] != nil && !seen[fn.Origin()] {
			fn = fn.Origin() // a generic function's declaration
			inner := map[*types.Func]bool{fn: true}
			for k := range seen {
				inner[k] = true
			}
			return c.callOverhead(fn) + c.bodyUnits(c.decls[fn].Body, false, depth+1, inner)
		}
	}
	return unitsCall
}
