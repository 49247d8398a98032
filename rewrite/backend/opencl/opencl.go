package opencl

// This file is the opencl backend: it renders a lowered kernel whose
// members run over one iteration space (maps, zips, folds, Iota) into a
// map-reduce skeleton of runtime/opencl/skel, with the element code the
// spec's lambdas translated to OpenCL C (package rewrite/clc), held in a
// package-level runtime/opencl/launch value of the generated file. The
// generated function runs the kernel when the device can (one upload of
// the inputs, one download of the outputs and results per call, except
// for arrays kept on the device), and the
// next backend's code otherwise: no OpenCL, a failed build, a device
// without fp64, unequal or empty lengths, or a work-item that reached a
// panic (the CPU code then raises the spec's panic).
//
// Filters (filter.go) become selects of the map-reduce skeleton
// when nothing of their kept elements is materialised, and the filter
// skeleton (skel.Filter) when their kept elements are. Captured slices
// are read-only device buffers; [][]T inputs and slice results run one
// work-item per row (rows.go), the SOACs nested in the lambda as
// its loops. A StreamRed whose chunk function makes a row of a length
// known before the launch, or returns a number or struct, runs on the
// stream-reduce skeleton (stream.go); a StreamMap whose chunk
// function makes its row, on the stream-map skeleton (streammap.go),
// and one whose output later members read, as that kernel then theirs
// (streamthen.go). It does not render other streams, nor a kernel
// nested in another's lambda on its own (refused with a reason: it falls
// back). Arrays that only later kernels read stay on the device between
// kernels (residency.go). translate.go translates the members of a
// kernel, fold.go its folds.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// The import paths of the runtime the generated code calls.
const (
	launchPath = "github.com/soacgen/soacgen/runtime/opencl/launch"
	skelPath   = "github.com/soacgen/soacgen/runtime/opencl/skel"
)

// Backend is the opencl backend: it renders kernels as OpenCL
// skeletons, with the next backend's code as their run-time fallback.
type Backend struct{}

var _ backend.Backend = Backend{}

// Name returns backend.OpenCL.
func (Backend) Name() string { return backend.OpenCL }

// clKernel is one kernel being translated. The C names it makes (in__0,
// out__0, red__0, k__v1, k__e) contain a double underscore, as the
// translator's do, so that no captured Go variable's name collides with
// them.
type clKernel struct {
	f     *spec
	next  backend.Next // the rest of the chain: the run-time fallback
	lk    *lowered.Kernel
	unit  *clc.Unit
	cname map[*ir.Var]string // the C value of each element
	body  strings.Builder
	ins   []clParam
	outs  []clParam // materialised map outputs
	reds  []clRed
	fp64  bool
	args  []clArg
	scan  bool // the kernel ends with a scan (skel.Scan); reds holds it
	// keep is the C name of each space's keep flag (an int, set when
	// the element is in the space); "" for the root, always kept.
	keep []string
	// space is the space of each element's C value (cname).
	space map[*ir.Var]int
	// copies lets a lambda read a copy of a capture taken where its
	// member is written (clArg.copyOf): the map-reduce, scan and filter
	// kernels pass it (emit), not the grid's.
	copies bool
	// compact is the space whose kept elements the kernel materialises
	// (it runs on skel.Filter, which compacts its outputs), or lowered.Root
	// when it materialises none (skel.Redomap, folds as selects).
	compact int
}

// clArg is a captured variable passed to the kernel: by value, or a
// slice as read-only device buffers and its length; or (obj nil) an
// argument of a [][]T input or of a map's slice results (rows.go).
type clArg struct {
	obj    *types.Var
	name   string   // C
	params []string // the kernel parameters' declarations (C)
	kind   clc.Kind // clc.Slice or clc.Slice2 for a slice
	// With obj nil, exactly one is set: the [][]T input whose elements
	// the argument passes, or the map whose slice results it holds (the
	// flat buffer they are written to, and their room per row), or the
	// Replicate whose value it is.
	rowsIn, rowsOut, rowCap *ir.Var
	rep                     *ir.SOAC
	// copyOf, with obj set, is the copy of obj that a member reads,
	// taken where the member is written (lowered.PlanKernel.Copies): the
	// argument passes the copy (hostgo.Func.Name of it).
	copyOf *ir.Var
	// start, with obj nil, is the start of fold startOf that the
	// argument passes (clRed.first).
	start   *ir.Operand
	startOf *ir.SOAC
	// deref passes the value obj points at (the receiver of a method
	// value, clc.Unit.MethodValue).
	deref bool
}

// clParam is a kernel input or output: its C name, skel type and Go
// variable.
type clParam struct {
	c, skel string
	v       *ir.Var
	goElem  types.Type
	fields  []string // the skel types of a struct input's fields (skel is "")
	// rows is the translated type of the row of a [][]T input or of a
	// map's slice results: the skeleton's element is then the row's
	// launch.Span (input) or length (output).
	rows *clc.Type
	// capIn or capObj gives the room of each row of slice results: the
	// longest row of input capIn, or the length of captured capObj.
	capIn  *ir.Var
	capObj *types.Var
}

// Render renders lk as a skeleton launch whose fallback is next's code,
// or says why lk does not translate.
func render(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	k := lk.Src
	if lk.Form == lowered.Call || lk.Form == lowered.Chunked {
		if isStreamMap(lk) {
			return renderStreamMap(f, lk, outs, next) // streammap.go
		}
		return renderStream(f, lk, outs, next) // stream.go
	}
	if lk.Form == lowered.ChunkedThen {
		return renderStreamThen(f, lk, outs, next) // streamthen.go
	}
	if lk.Form != lowered.Loop {
		return nil, fmt.Sprintf("its form is %s: only single loops become OpenCL kernels", lk.Form)
	}
	if why := nestedIn(k.At); why != "" {
		return nil, why
	}
	if len(k.Inputs) == 0 {
		// A generated space: the work-items compute their elements from
		// the index alone (launch.Redomap.RunN over the Iota's length).
		if why := generatedSpace(f, lk); why != "" {
			return nil, why
		}
	}
	newKernel := func() *clKernel {
		return &clKernel{f: f, next: next, lk: lk, unit: clc.NewUnit(f.Fset(), clc.PackageResolver(f.Files(), f.Info())),
			cname: map[*ir.Var]string{}, space: map[*ir.Var]int{}, keep: make([]string, len(lk.Spaces))}
	}
	if g := gridOf(f, lk, outs); g != nil && len(k.Gathers) == 0 && len(k.Inputs) > 0 {
		// One work-item per element (grid.go); when the grid does
		// not translate, the row form below says why, or renders it.
		gk := newKernel()
		if k, why := gk.grid(g); why == "" {
			return gk.emitGrid(k, outs), ""
		}
	}
	if at := splitScan(lk, outs); at >= 0 && len(k.Inputs) > 0 {
		// A scan and the members after it: two launches (split.go).
		return renderSplit(f, lk, outs, next, at)
	}
	ck := newKernel()
	ck.copies = true
	if why := ck.translate(outs); why != "" {
		return nil, why
	}
	if len(ck.ins) == 0 && (ck.scan || ck.compact != lowered.Root) {
		return nil, "it reads no array (a generated space) and ends with a scan or stores a filter's kept elements: the scan and filter skeletons need an input"
	}
	return ck.emit(outs), ""
}

// generatedSpace returns why kernel lk, which reads no array, cannot
// run over the space its Iota or Replicate generates, or "": the
// work-items compute every element from the index, and the host
// evaluates the generator's
// length, again in the CPU code when the kernel does not run, so the
// length must be an expression without effects.
func generatedSpace(f *spec, lk *lowered.Kernel) string {
	g := lk.Length.Gen
	if g == nil {
		return "it reads no array and generates none: the skeletons need a length"
	}
	var n *ir.Operand
	switch op := g.Op.(type) {
	case *ir.Iota:
		n = op.N
	case *ir.Replicate:
		n = op.N
	}
	if n == nil || !pureExpr(f.Info(), n.Expr) {
		return fmt.Sprintf("it reads no array, and the length of %s is not a constant, a variable, len of one or arithmetic of those: the host evaluates it before the launch and in the CPU code; assign the length to a variable first", soacPos(f, g))
	}
	return ""
}

// pureExpr reports whether e is made of constants, variables, len,
// conversions and composite literals by arithmetic: evaluating it twice
// has no effect.
func pureExpr(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		switch info.Uses[e].(type) {
		case *types.Var, *types.Const:
			return true
		}
	case *ast.BinaryExpr:
		return pureExpr(info, e.X) && pureExpr(info, e.Y)
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.ADD || e.Op == token.XOR) && pureExpr(info, e.X)
	case *ast.SelectorExpr:
		_, isConst := info.Uses[e.Sel].(*types.Const)
		return isConst
	case *ast.CompositeLit:
		if _, isStruct := info.TypeOf(e).Underlying().(*types.Struct); !isStruct {
			return false
		}
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if !pureExpr(info, el) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		if len(e.Args) != 1 || !pureExpr(info, e.Args[0]) {
			return false
		}
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
			return true
		}
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "len"
	}
	return false
}

// soacPos names m and its position for reasons.
func soacPos(f *spec, m *ir.SOAC) string {
	p := f.Fset().Position(m.Pos())
	return fmt.Sprintf("%s at %s:%d:%d", m.Name, filepath.Base(p.Filename), p.Line, p.Column)
}

// nestedIn returns why a kernel at s cannot launch on the device: it runs
// inside the lambda of another SOAC (once per element of that one), or "".
func nestedIn(s ir.Stmt) string {
	for b := s.Block(); b != nil && b.Parent != nil; b = b.Parent.Block() {
		if m, ok := b.Parent.(*ir.SOAC); ok {
			return fmt.Sprintf("it is nested in the lambda of %s: it would launch once per element", m.Name)
		}
	}
	return ""
}
