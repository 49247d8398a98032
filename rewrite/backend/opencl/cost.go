package opencl

// This file estimates what one element of an OpenCL kernel costs, for
// backend=auto's run-time cost model (runtime/opencl/launch.Worth): the
// bytes moved between host and device, and the arithmetic of the
// lambdas. It does not decide anything: the generated code does, at run
// time, with the length of the call.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// The weights of the arithmetic estimate: a call (a math function, or a
// function whose body is not counted) counts as callOps simple
// operations, a call of a builtin (len, min, make, ...) or of one of
// cheapMath as one, and the body of a loop of unknown trip count as
// loopTrips iterations; calls of the package's own functions count their
// bodies, followed to callDepth levels. callOps is a math function's
// cost against runtime/opencl/launch's cpuOps (4 simple operations a ns):
// rewrite/backend/parallel's BenchmarkOpCosts measured 10-18 ns for Exp,
// Log and Erf on the 16-core host, and a Black-Scholes price (four of
// them and some 20 operations) took 113 ns on one core there (launch's
// auto.go cites the figures); loopTrips is a round guess of a short loop
// (k-means' 8-16 centres). The model only needs the order of magnitude
// that separates streaming kernels from arithmetic-heavy ones.
const (
	callOps   = 60
	loopTrips = 16
	callDepth = 4
)

// cheapMath are the functions of package math that compile to an
// instruction or a few (BenchmarkOpCosts: Sqrt and Abs under 1 ns).
var cheapMath = map[string]bool{
	"Sqrt": true, "Abs": true, "Copysign": true, "Signbit": true, "IsNaN": true, "IsInf": true,
	"Float64bits": true, "Float64frombits": true, "Float32bits": true, "Float32frombits": true,
}

// bytes returns the bytes one element moves: its inputs and outputs.
func (ck *clKernel) bytes() int {
	sizes := types.SizesFor("gc", "amd64")
	n := 0
	for _, ps := range [][]clParam{ck.ins, ck.outs} {
		for _, p := range ps {
			n += int(sizes.Sizeof(p.goElem))
		}
	}
	return n
}

// sizeof returns the bytes of a value of type t on the 64-bit targets.
func sizeof(t types.Type) int {
	return int(types.SizesFor("gc", "amd64").Sizeof(t))
}

// ops returns the estimated arithmetic of one element: the operators of
// every member's lambdas, with calls and loops weighted.
func (ck *clKernel) ops() int {
	n := 0
	for _, m := range ck.lk.Members {
		if m.Role == lowered.Gen {
			continue
		}
		for _, l := range m.SOAC.Lambdas() {
			n += ck.lambdaOps(l)
		}
	}
	return max(n, 1)
}

// lambdaOps estimates the operations of one call of l.
func (ck *clKernel) lambdaOps(l *ir.Lambda) int {
	var body *ast.BlockStmt
	switch {
	case l.Lit != nil:
		body = l.Lit.Body
	case l.Func != nil:
		if d := ck.f.FuncDecl(l.Func); d != nil {
			body = d.Body
		}
	}
	if body == nil {
		return callOps
	}
	return ck.counter().node(body, 0)
}

// opCounter counts the operations of Go syntax for the cost model.
type opCounter struct {
	info *types.Info
	decl func(*types.Func) *ast.FuncDecl // the package's functions, nil when none
}

// counter returns ck's operation counter.
func (ck *clKernel) counter() opCounter {
	return opCounter{info: ck.f.Info(), decl: ck.f.FuncDecl}
}

// node counts the operators under n, a call as call does and a loop's
// body loopTrips times; depth is how many calls deep n is.
func (c opCounter) node(n ast.Node, depth int) int {
	ops := 0
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr, *ast.IncDecStmt:
			ops++
		case *ast.AssignStmt:
			if x.Tok != token.ASSIGN && x.Tok != token.DEFINE {
				ops++
			}
		case *ast.CallExpr:
			ops += c.call(x, depth)
		case *ast.ForStmt:
			ops += loopTrips * c.node(x.Body, depth)
			return false
		case *ast.RangeStmt:
			ops += loopTrips * c.node(x.Body, depth)
			return false
		}
		return true
	})
	return ops
}

// call counts one call (not its arguments, which node counts): a
// conversion or a builtin as one operation, a function of the package
// as its body (callDepth levels deep at most), any other as callOps.
func (c opCounter) call(x *ast.CallExpr, depth int) int {
	if tv, ok := c.info.Types[x.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return 1
	}
	if fn, ok := typeutil.Callee(c.info, x).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "math" && cheapMath[fn.Name()] {
		return 1
	}
	if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && c.decl != nil && depth < callDepth {
		if fn, ok := c.info.Uses[id].(*types.Func); ok {
			if d := c.decl(fn); d != nil && d.Body != nil {
				return 1 + c.node(d.Body, depth+1)
			}
		}
	}
	return callOps
}

// split counts body as node does, but apart: the operations outside its
// top-level loops (once per call) and those of one trip of each of them
// (summed): the body of a stream's chunk function runs its loops once
// per element of the chunk, and a grid element's once per element of a
// row.
func (c opCounter) split(body *ast.BlockStmt) (once, perTrip int) {
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.ForStmt:
			perTrip += c.node(st.Body, 0)
			if st.Cond != nil {
				perTrip += c.node(st.Cond, 0)
			}
		case *ast.RangeStmt:
			perTrip += c.node(st.Body, 0)
		default:
			once += c.node(st, 0)
		}
	}
	return once, perTrip
}

// fn counts one call of the function e names (a literal, or a function
// of the package), else callOps.
func (c opCounter) fn(e ast.Expr) int {
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return c.node(x.Body, 0)
	case *ast.Ident:
		if fn, ok := c.info.Uses[x].(*types.Func); ok && c.decl != nil {
			if d := c.decl(fn); d != nil && d.Body != nil {
				return c.node(d.Body, 0)
			}
		}
	}
	return callOps
}

// gridCost returns the cost of grid kernel gk for launch.GridCost: the
// bytes of an element of the result, of a row of the rows input and of
// the inner Map's slice, and the operations of one element: those done
// once, and those per step of the inner length (launch.Inner, the length
// of a row, at run time). A dot product does its two lambdas once per
// step; a general element's top-level loops are taken to run over the
// row (their bodies per step, the rest once).
func (ck *clKernel) gridCost(gk *gridKernel) (out, row, col int, colRows bool, once, perStep int) {
	g := gk.shape
	out = sizeof(g.rt)
	row = sizeof(elemOf(elemOf(g.in.Type)))
	xe := elemOf(g.xs.Type())
	if e := elemOf(xe); e != nil {
		col, colRows = sizeof(e), true
	} else {
		col = sizeof(xe)
	}
	c := ck.counter()
	if gk.dot != nil {
		_, red := soacCall(c.info, singleReturn(g.inner.Body))
		_, zip := soacCall(c.info, red.Args[0])
		return out, row, col, colRows, 1, max(c.fn(zip.Args[2])+c.fn(red.Args[2]), 1)
	}
	once, perStep = c.split(g.inner.Body)
	return out, row, col, colRows, max(once, 1), perStep
}

// streamOps returns the operations of one element of stream kernel s:
// its fused maps' lambdas and one trip of the chunk function's
// top-level loops, which run once per element of the chunk (what the
// chunk function does once, making its row, and the operator's rows are
// per chunk, not per element, and left out).
func (s *clStream) streamOps() int {
	c := s.counter()
	n := 0
	for _, m := range s.lk.Members[:len(s.lk.Members)-1] {
		for _, l := range m.SOAC.Lambdas() {
			n += s.lambdaOps(l)
		}
	}
	if lit := s.st.Chunk.Lit; lit != nil {
		_, perTrip := c.split(lit.Body)
		n += perTrip
	}
	return max(n, 1)
}

// groupCost returns the bytes and operations per element for backend=auto
// of ck's kernel together with the later kernels that read the arrays it
// leaves on the device (lastOf: each kept output and shared input with
// its last reader; keep: the kept outputs): their arithmetic added to
// its own, and every array moved once: a kept output is not downloaded,
// a shared input uploaded once, and a later kernel's other inputs and its
// array outputs counted as it moves them. Those later kernels run on the
// device exactly when this one did (emit.go), so the model decides
// for them all here; alone (nothing kept or shared) it is bytes and ops.
func (ck *clKernel) groupCost(lastOf map[*ir.Var]*lowered.PlanKernel, keep map[*ir.Var]string) (bytes, ops int) {
	bytes, ops = ck.bytes(), ck.ops()
	if len(lastOf) == 0 {
		return bytes, ops
	}
	src := ck.lk.Src
	stmts := src.Block.Stmts
	from := slices.Index(stmts, src.At)
	onDev := map[*ir.Var]int{} // each array on the device, to the index of its last reader
	for v, last := range lastOf {
		onDev[v] = slices.Index(stmts, last.At)
	}
	for _, p := range ck.outs {
		if keep[p.v] != "" {
			bytes -= sizeof(p.goElem)
		}
	}
	for _, lk := range ck.f.fn.Kernels {
		k := lk.Src
		at := slices.Index(stmts, k.At)
		reads := func(v *ir.Var) bool { to, ok := onDev[v]; return ok && at <= to }
		// A reader of an array left there as an input or as its
		// lambdas' capture (captured.go).
		if k == src || k.Depth != 0 || k.Block != src.Block || at <= from || !slices.ContainsFunc(k.Inputs, reads) && !slices.ContainsFunc(capturedVars(k), reads) {
			continue
		}
		for _, v := range k.Inputs {
			if e := elemOf(v.Type); e != nil && !reads(v) {
				bytes += sizeof(e)
			}
		}
		for _, v := range k.Outputs {
			if e := elemOf(v.Type); e != nil {
				bytes += sizeof(e)
			}
		}
		for _, m := range k.SOACs {
			for _, l := range m.Lambdas() {
				ops += ck.lambdaOps(l)
			}
		}
	}
	return max(bytes, 1), ops
}
