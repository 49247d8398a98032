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
// Filters (openclfilter.go) become selects of the map-reduce skeleton
// when nothing of their kept elements is materialised, and the filter
// skeleton (skel.Filter) when their kept elements are. Captured slices
// are read-only device buffers; [][]T inputs and slice results run one
// work-item per row (openclrows.go), the SOACs nested in the lambda as
// its loops. A StreamRed whose chunk function makes a row of a length
// known before the launch, or returns a number or struct, runs on the
// stream-reduce skeleton (openclstream.go); a StreamMap whose chunk
// function makes its row, on the stream-map skeleton (openclstreammap.go),
// and one whose output later members read, as that kernel then theirs
// (openclstreamthen.go). It does not render other streams, nor a kernel
// nested in another's lambda on its own (refused with a reason: it falls
// back). Arrays that only later kernels read stay on the device between
// kernels (openclresident.go).

import (
	"errors"
	"fmt"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/lower"
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
	f     *hostgo.Func
	next  backend.Next // the rest of the chain: the run-time fallback
	lk    *lower.Kernel
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
	// (it runs on skel.Filter, which compacts its outputs), or lower.Root
	// when it materialises none (skel.Redomap, folds as selects).
	compact int
}

// clArg is a captured variable passed to the kernel: by value, or a
// slice as read-only device buffers and its length; or (obj nil) an
// argument of a [][]T input or of a map's slice results (openclrows.go).
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
	// taken where the member is written (fusion.Kernel.Copies): the
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

// clRed is a fold of the kernel.
type clRed struct {
	clParam
	op, neutral string
	cast        string // prefix that reads a translated struct as the skeleton's
	// commutative lets the skeleton fold elements in any order (the
	// interleaved, coalesced layout on GPUs): lower.Member.Commutative.
	commutative bool
	// all marks a fold of every element in a filter kernel, whose
	// skeleton folds the kept elements otherwise (skel.Reduction.All).
	all bool
	// start, when not nil, is the start of a Reduce that is not its
	// operator's neutral element (lower.Member.StartNotNeutral): the
	// device folds from the operator's own (neutral), and the host
	// combines start startOp result, startOf being the Reduce.
	start   *ir.Operand
	startOp token.Token
	startOf *ir.SOAC
	// first, when not "", is the kernel argument holding the start of a
	// float fold that is not its operator's neutral element: element 0
	// combines it with its value (lower.Member.StartNotNeutral).
	first, firstCall string // the argument, and the call combining it
	// startIdem, when not "", is the idempotent operator (lower.Member.
	// IdemStart: "max", "min", "|" or "&") the host combines start with
	// the result by, in place of startOp.
	startIdem string
}

// startCombined returns the result v of fold r combined once with its
// start, when r has one that the device does not fold (clRed.start).
func startCombined(f *hostgo.Func, r clRed, v *jen.Statement) *jen.Statement {
	switch {
	case r.start == nil:
		return v
	case r.startIdem == "max" || r.startIdem == "min":
		return jen.Id(r.startIdem).Call(f.OperandCode(r.startOf, r.start), v)
	case r.startIdem != "":
		return jen.Parens(f.OperandCode(r.startOf, r.start)).Op(r.startIdem).Add(v)
	}
	return jen.Parens(f.OperandCode(r.startOf, r.start)).Op(r.startOp.String()).Add(v)
}

// idemIdentity returns the C literal, of skel type sk, of the identity
// of idempotent operator op ("max", "min", "|", "&") on integer type t:
// its type's least value for max, greatest for min, 0 for |, every bit
// set for &.
func idemIdentity(op string, t types.Type, sk string) string {
	b := t.Underlying().(*types.Basic)
	bits := uint(goSizes.Sizeof(t) * 8)
	signed := b.Info()&types.IsUnsigned == 0
	one := constant.MakeInt64(1)
	top := constant.Shift(one, token.SHL, bits) // 2^bits
	if signed {
		top = constant.Shift(one, token.SHL, bits-1)
	}
	least, greatest := constant.MakeInt64(0), constant.BinaryOp(top, token.SUB, one)
	if signed {
		least = constant.UnaryOp(token.SUB, top, 0)
	}
	switch op {
	case "max":
		return cLiteral(least, sk)
	case "min":
		return cLiteral(greatest, sk)
	case "&":
		if signed {
			return cLiteral(constant.MakeInt64(-1), sk)
		}
		return cLiteral(greatest, sk)
	}
	return cLiteral(constant.MakeInt64(0), sk)
}

// Render renders lk as a skeleton launch whose fallback is next's code,
// or says why lk does not translate.
func (Backend) Render(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	k := lk.Src
	if lk.Form == lower.Call || lk.Form == lower.Chunked {
		if isStreamMap(lk) {
			return renderStreamMap(f, lk, outs, next) // openclstreammap.go
		}
		return renderStream(f, lk, outs, next) // openclstream.go
	}
	if lk.Form == lower.ChunkedThen {
		return renderStreamThen(f, lk, outs, next) // openclstreamthen.go
	}
	if lk.Form != lower.Loop {
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
		// One work-item per element (openclgrid.go); when the grid does
		// not translate, the row form below says why, or renders it.
		gk := newKernel()
		if k, why := gk.grid(g); why == "" {
			return gk.emitGrid(k, outs), ""
		}
	}
	if at := splitScan(lk, outs); at >= 0 && len(k.Inputs) > 0 {
		// A scan and the members after it: two launches (openclsplit.go).
		return renderSplit(f, lk, outs, next, at)
	}
	ck := newKernel()
	ck.copies = true
	if why := ck.translate(outs); why != "" {
		return nil, why
	}
	if len(ck.ins) == 0 && (ck.scan || ck.compact != lower.Root) {
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
func generatedSpace(f *hostgo.Func, lk *lower.Kernel) string {
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
		return fmt.Sprintf("it reads no array, and the length of %s is not a constant, a variable, len of one or arithmetic of those: the host evaluates it before the launch and in the CPU code", soacPos(f, g))
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
func soacPos(f *hostgo.Func, m *ir.SOAC) string {
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

// skelScalar returns the name of skel's type for the element type t, or
// "" when skel has none.
func skelScalar(t types.Type) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	switch b.Kind() {
	case types.Float32:
		return "Float32"
	case types.Float64:
		return "Float64"
	case types.Int32:
		return "Int32"
	case types.Int64, types.Int:
		return "Int64"
	case types.Uint32:
		return "Uint32"
	case types.Uint64, types.Uint:
		return "Uint64"
	case types.Int8:
		return "Int8"
	case types.Uint8:
		return "Uint8"
	case types.Int16:
		return "Int16"
	case types.Uint16:
		return "Uint16"
	case types.Bool:
		return "Bool"
	}
	return ""
}

// elemOf returns the element type of a slice type.
func elemOf(t types.Type) types.Type {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return nil
}

// translate fills ck from the kernel's members, or returns why it cannot.
func (ck *clKernel) translate(outs map[*ir.Var]string) string {
	f, lk := ck.f, ck.lk
	for i, v := range lk.Src.Inputs {
		e := elemOf(v.Type)
		p := clParam{c: fmt.Sprintf("in__%d", i), v: v, goElem: e}
		if e != nil {
			p.skel = skelScalar(e)
		}
		ck.cname[v] = p.c
		if p.skel == "" && ck.rowsInput(&p) {
			ck.ins = append(ck.ins, p)
			continue
		}
		if p.skel == "" {
			ct := ck.structInput(e)
			if ct == nil {
				return fmt.Sprintf("input %s has type %s: the skeletons take slices of bool, sized integers, int, uint, float32 and float64, of structs of those, and of slices of those", v.Name, v.Type)
			}
			p.fields = ck.fieldTypes(e)
			ck.fp64 = ck.fp64 || slices.Contains(p.fields, "Float64")
			// The skeleton's struct has the translated struct's layout:
			// the element code reads it as that type.
			ck.cname[v] = fmt.Sprintf("(*(const %s *)&%s)", ct.C, p.c)
		}
		ck.ins = append(ck.ins, p)
		ck.fp64 = ck.fp64 || p.skel == "Float64"
	}
	if why := ck.compaction(outs); why != "" {
		return why
	}
	// The operators first: they run without a panic flag, so none may
	// reach a panic site (a helper translated for a map lambda before
	// would not show its sites again).
	for i, m := range lk.Members {
		if m.Role == lower.Scan {
			if why := ck.scanShape(i, outs); why != "" {
				return why
			}
		} else if m.Role != lower.Fold {
			continue
		}
		if why := ck.fold(m.SOAC, outs); why != "" {
			return why
		}
	}
	if len(ck.unit.Sites()) > 0 {
		s := ck.unit.Sites()[0]
		return fmt.Sprintf("a reduction operator may panic (%s at %s:%d:%d): the skeletons' combine has no panic flag", s.What, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column)
	}
	ck.body.WriteString("int k__e = 0;\n")
	for _, m := range lk.Members {
		var why string
		switch m.Role {
		case lower.Map:
			why = ck.mapMember(m, outs)
		case lower.Gen:
			why = ck.gen(m, outs)
		case lower.Filter:
			why = ck.filterMember(m, outs)
		case lower.Fold, lower.Scan:
			why = ck.foldElement(m)
		default:
			why = fmt.Sprintf("%s: %ss are not rendered by the opencl backend yet", soacPos(f, m.SOAC), m.Role)
		}
		if why != "" {
			return why
		}
	}
	if fp, _ := ck.unit.NeedsFP64(); fp {
		ck.fp64 = true
	}
	if ck.compact != lower.Root {
		return ck.filterShape()
	}
	for _, r := range ck.reds {
		if r.first != "" {
			// The operators cannot panic (checked above).
			fmt.Fprintf(&ck.body, "if (soac_index == 0) {\nint e = 0;\n%s = %s;\n}\n", r.c, r.firstCall)
		}
	}
	if !ck.scan {
		fmt.Fprintf(&ck.body, "k__err = k__e;\n")
		return ""
	}
	// The scan skeleton has no panic flag.
	if len(ck.unit.Sites()) > 0 {
		s := ck.unit.Sites()[0]
		return fmt.Sprintf("a lambda of the scan's kernel may panic (%s at %s:%d:%d): the scan skeleton has no panic flag", s.What, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column)
	}
	if len(ck.outs) > 0 {
		return fmt.Sprintf("it materialises %s beside the scan: the scan skeleton writes the scan only", ck.outs[0].v.Name)
	}
	return ""
}

// scanShape checks that scan member i is the kernel's last member, its
// only fold or scan, and materialised: what the scan skeleton computes.
func (ck *clKernel) scanShape(i int, outs map[*ir.Var]string) string {
	lk := ck.lk
	m := lk.Members[i].SOAC
	if len(lk.Spaces) > 1 {
		return fmt.Sprintf("%s shares its kernel with a filter: the scan skeleton scans every element", soacPos(ck.f, m))
	}
	if i != len(lk.Members)-1 {
		return fmt.Sprintf("%s is not the last member of its kernel: the scan skeleton ends with the scan", soacPos(ck.f, m))
	}
	for _, o := range lk.Members[:i] {
		if o.Role == lower.Fold || o.Role == lower.Scan {
			return fmt.Sprintf("%s shares its kernel with %s: the scan skeleton computes one scan", soacPos(ck.f, m), soacPos(ck.f, o.SOAC))
		}
	}
	if n := outs[m.Out]; n == "" || n == "_" || lk.Members[i].Store != lower.Indexed {
		return fmt.Sprintf("%s: its result is not stored at the index", soacPos(ck.f, m))
	}
	ck.scan = true
	return ""
}

// structInput returns the translated type of struct element type e when
// its fields, or those of the structs among them, flattened, have
// skeleton types and e's layout (flatFields), else nil.
func (ck *clKernel) structInput(e types.Type) *clc.Type {
	if e == nil {
		return nil
	}
	if _, ok := e.Underlying().(*types.Struct); !ok {
		return nil
	}
	if flatFields(e) == nil {
		return nil
	}
	ct, err := ck.unit.Type(e)
	if err != nil || ct.Kind != clc.Struct {
		return nil
	}
	return ct
}

// goSizes is the layout of Go's structs on 64-bit targets, which the
// translated types (rewrite/clc) and the skeletons' structs share.
var goSizes = types.SizesFor("gc", "amd64")

// flatFields returns the skeleton types of the scalar fields of struct
// type t in order, the fields of a struct field flattened into its
// place, when a struct of those fields alone has t's layout (the same
// offsets and size: the skeleton's struct then holds t's bytes, which
// the element code reads as t); else nil.
func flatFields(t types.Type) []string {
	var fs []string
	var vars []*types.Var
	var offs []int64
	var walk func(t types.Type, base int64) bool
	walk = func(t types.Type, base int64) bool {
		st, ok := t.Underlying().(*types.Struct)
		if !ok || st.NumFields() == 0 {
			return false
		}
		var fields []*types.Var
		for i := range st.NumFields() {
			fields = append(fields, st.Field(i))
		}
		at := goSizes.Offsetsof(fields)
		for i, f := range fields {
			if s := skelScalar(f.Type()); s != "" {
				fs = append(fs, s)
				vars = append(vars, types.NewField(token.NoPos, nil, fmt.Sprintf("f%d", len(vars)), f.Type(), false))
				offs = append(offs, base+at[i])
				continue
			}
			if !walk(f.Type(), base+at[i]) {
				return false
			}
		}
		return true
	}
	if !walk(t, 0) {
		return nil
	}
	if !slices.Equal(goSizes.Offsetsof(vars), offs) || goSizes.Sizeof(types.NewStruct(vars, nil)) != goSizes.Sizeof(t) {
		return nil
	}
	return fs
}

// redIndex returns the index of fold m among ck.reds.
func (ck *clKernel) redIndex(m *ir.SOAC) int {
	for i, r := range ck.reds {
		if r.v == m.Out {
			return i
		}
	}
	panic("internal error: fold without a reduction")
}

// lambda translates l, refusing captures and lambdas written other than
// as a function literal or a named function.
func (ck *clKernel) lambda(m *ir.SOAC, l *ir.Lambda) (*clc.Func, string) {
	var fn *clc.Func
	var err error
	var reads [][]*ast.IndexExpr // index reads (fusion.Kernel.Gathers): elements the kernel computes
	for _, g := range ck.lk.Src.Gathers {
		if g.SOAC == m && g.Lambda == l {
			reads = append(reads, g.Reads)
		}
	}
	switch {
	case l.Lit != nil && reads != nil:
		fn, err = ck.unit.LambdaReads(l.Lit, ck.f.Info(), reads)
	case l.Lit != nil:
		fn, err = ck.unit.Lambda(l.Lit, ck.f.Info())
	case l.Kind == ir.NamedFunc && l.Func != nil:
		fn, err = ck.unit.Declared(l.Func)
	case l.Kind == ir.MethodValue && l.Func != nil && l.Recv != nil:
		// The receiver is a capture, passed by value.
		id, _ := ast.Unparen(l.Recv.Expr).(*ast.Ident)
		recv, _ := ck.f.Info().Uses[id].(*types.Var)
		if id == nil || recv == nil {
			return nil, fmt.Sprintf("the lambda of %s is a method value whose receiver %s is not a variable", soacPos(ck.f, m), types.ExprString(l.Recv.Expr))
		}
		fn, err = ck.unit.MethodValue(l.Func, recv, l.Expr.Pos())
	default:
		return nil, fmt.Sprintf("the lambda of %s is a function value, not a literal or a named function", soacPos(ck.f, m))
	}
	if err != nil {
		var r *clc.Refusal
		if errors.As(err, &r) {
			// Positions as base names: reasons are the same on every
			// machine.
			return nil, fmt.Sprintf("the lambda of %s is not translated to OpenCL C: %s at %s:%d:%d: %s", soacPos(ck.f, m), r.Construct, filepath.Base(r.Pos.Filename), r.Pos.Line, r.Pos.Column, r.Reason)
		}
		return nil, fmt.Sprintf("the lambda of %s is not translated to OpenCL C: %v", soacPos(ck.f, m), err)
	}
	renamed := false
	caps := fn.Captures
	for i, c := range fn.Captures {
		name, why := ck.captureAs(m, c)
		if why != "" {
			return nil, why
		}
		if name != c.C {
			if !renamed {
				caps, renamed = slices.Clone(caps), true
			}
			caps[i].C = name
		}
	}
	if renamed {
		// The call passes the copy's kernel argument where the
		// function takes the capture (its parameter keeps its name).
		cp := *fn
		cp.Captures = caps
		fn = &cp
	}
	return fn, ""
}

// capture makes c a kernel argument, once per variable (captureAs,
// for a caller passing c.C).
func (ck *clKernel) capture(m *ir.SOAC, c clc.Capture) string {
	_, why := ck.captureAs(m, c)
	return why
}

// captureAs makes c a kernel argument, once per variable, and returns
// the name of the argument the lambda's call passes for it: c.C, or,
// where m reads a copy of c taken where m is written (fusion.Kernel.
// Copies: the variable is reassigned before the kernel runs) and
// ck.copies, an argument of its own holding the copy (clArg.copyOf).
func (ck *clKernel) captureAs(m *ir.SOAC, c clc.Capture) (string, string) {
	at := fmt.Sprintf("%s:%d:%d", filepath.Base(c.Pos.Filename), c.Pos.Line, c.Pos.Column)
	// A pointer is captured only as the receiver of a method value
	// (clc.Unit.MethodValue): the value it points at is passed.
	_, deref := c.Var.Type().(*types.Pointer)
	if deref && !ck.copies {
		return "", fmt.Sprintf("the lambda of %s is a method value of the pointer %s: only a map-reduce, scan or filter kernel passes the value it points at", soacPos(ck.f, m), c.Var.Name())
	}
	for _, cp := range ck.lk.Src.Copies {
		if cp.SOAC != m || cp.Var.Obj != types.Object(c.Var) {
			continue
		}
		if !ck.copies || c.Type.IsView() || deref {
			return "", fmt.Sprintf("the lambda of %s reads a copy of %s taken where it is written (%s is reassigned before the kernel runs): kernel arguments are the values of variables where the kernel runs, and a copy is passed only for a number or struct of a map-reduce, scan or filter kernel", soacPos(ck.f, m), c.Var.Name(), c.Var.Name())
		}
		for _, a := range ck.args {
			if a.copyOf == cp.Var {
				return a.name, ""
			}
		}
		name := fmt.Sprintf("%s__cp%d", c.C, len(ck.args))
		r := c
		r.C = name
		ck.args = append(ck.args, clArg{obj: c.Var, name: name, params: r.KernelParams(), kind: c.Type.Kind, copyOf: cp.Var})
		return name, ""
	}
	for _, a := range ck.args {
		if a.name == c.C {
			if a.obj != c.Var {
				return "", fmt.Sprintf("the lambda of %s captures %s (at %s), a different variable of the name of another capture", soacPos(ck.f, m), c.Var.Name(), at)
			}
			return c.C, ""
		}
	}
	if ck.f.LookupAt(c.Var.Name(), ck.lk.Src.At.Pos()) != types.Object(c.Var) {
		return "", fmt.Sprintf("the lambda of %s captures %s (at %s), which another variable shadows where the kernel runs", soacPos(ck.f, m), c.Var.Name(), at)
	}
	ck.args = append(ck.args, clArg{obj: c.Var, name: c.C, params: c.KernelParams(), kind: c.Type.Kind, deref: deref})
	return c.C, ""
}

// fold adds the reduction of fold m.
func (ck *clKernel) fold(m *ir.SOAC, outs map[*ir.Var]string) string {
	op := m.Op.(*ir.Screma)
	operator := op.Reduce
	if operator == nil {
		operator = op.Scan
	}
	if op.Map != nil || operator == nil {
		return fmt.Sprintf("%s: a fold or scan with a map lambda is not rendered", soacPos(ck.f, m))
	}
	mem := ck.lk.Members[slices.IndexFunc(ck.lk.Members, func(x lower.Member) bool { return x.SOAC == m })]
	t := m.TypeArgs[0]
	r := clRed{clParam: clParam{c: fmt.Sprintf("red__%d", len(ck.reds)), skel: skelScalar(t), v: m.Out, goElem: t}, commutative: op.Reduce != nil && mem.Commutative}
	startPure := operator.Neutral != nil && pureExpr(ck.f.Info(), operator.Neutral.Expr)
	float := r.skel == "Float32" || r.skel == "Float64"
	// first makes the start a kernel argument that element 0 combines
	// with its value (clRed.first): the start is leftmost, as in the
	// spec, whose association a fold by one work-item keeps.
	first := func() string {
		name := fmt.Sprintf("start__%d", len(ck.args))
		ct, err := ck.unit.Type(t)
		if err != nil {
			return fmt.Sprintf("%s folds %s: %v", soacPos(ck.f, m), t, err)
		}
		ck.args = append(ck.args, clArg{name: name, params: []string{fmt.Sprintf("const %s %s", ct.C, name)}, start: operator.Neutral, startOf: m})
		r.first = name
		return ""
	}
	switch {
	case mem.StartNotNeutral:
		// The device folds from the operator's own neutral element: 0,
		// 1, or -0 for a float sum (x + -0 == x for every x). The start
		// is combined once: by the host with a Reduce's result, where +,
		// * and ^ commute and wrap alike in Go on integers; by element 0
		// for a float Reduce (reassociated, docs/contract.md: within
		// rounding) and for a scan (every element holds it).
		if r.skel == "" || !startPure || float && op.Reduce != nil && ck.compact != lower.Root {
			return fmt.Sprintf("%s: its start is not provably its operator's neutral element: every work-group would combine it again (the start is combined once when it is a number given by an expression without effects, and, for a float Reduce, not in a filter kernel)", soacPos(ck.f, m))
		}
		r.neutral = cLiteral(constant.MakeInt64(map[token.Token]int64{token.ADD: 0, token.MUL: 1, token.XOR: 0}[mem.StartOp]), r.skel)
		if float && mem.StartOp == token.ADD {
			r.neutral = "(-" + r.neutral + ")"
		}
		if !float && op.Reduce != nil {
			r.start, r.startOp, r.startOf = operator.Neutral, mem.StartOp, m
			break
		}
		if why := first(); why != "" {
			return why
		}
	case mem.IdemStart != "" && op.Scan != nil && r.skel != "" && startPure:
		// A scan of max, min, | or & on integers from a variable: from
		// the operator's identity, element 0 combining the start.
		r.neutral = idemIdentity(mem.IdemStart, t, r.skel)
		if why := first(); why != "" {
			return why
		}
	case mem.IdemStart != "" && op.Reduce != nil && r.skel != "" && startPure && (mem.IdemStart == "|" || mem.IdemStart == "&" || ck.f.LookupAt(mem.IdemStart, ck.lk.Src.At.Pos()) == types.Universe.Lookup(mem.IdemStart)):
		// A Reduce of max, min, | or & on integers from a variable: the
		// device folds from the operator's identity, the host combines
		// the start once (exact: the operator is associative,
		// commutative and idempotent).
		r.neutral, r.start, r.startIdem, r.startOf = idemIdentity(mem.IdemStart, t, r.skel), operator.Neutral, mem.IdemStart, m
	}
	var ct *clc.Type // the translated struct type, for a struct fold
	if r.skel == "" {
		if ct = ck.structInput(t); ct == nil {
			return fmt.Sprintf("%s folds %s: the skeletons reduce float32, float64, int32, int64, int, uint32, uint64, uint, and structs of those (of structs of those too, where their fields, flattened, keep the struct's layout)", soacPos(ck.f, m), t)
		}
		r.fields = ck.fieldTypes(t)
	}
	ne := operator.Neutral
	switch {
	case r.start != nil || r.first != "":
	case ct != nil && zeroLiteral(ne):
		r.neutral = "{0}"
	case ct != nil:
		// A composite literal of constants: an initializer of the
		// skeleton's struct, its fields flattened.
		if r.neutral = ck.structNeutral(ne, t); r.neutral == "" {
			return fmt.Sprintf("%s: its neutral element is not the zero value %s{} nor a literal of constant fields (the skeletons build it into the program)", soacPos(ck.f, m), t)
		}
	case ne == nil || ne.Const == nil || ne.Const.Value == nil:
		return fmt.Sprintf("%s: its neutral element is not a constant (the skeletons build it into the program)", soacPos(ck.f, m))
	default:
		if r.neutral = cLiteral(ne.Const.Value, r.skel); r.neutral == "" {
			return fmt.Sprintf("%s: its neutral element %s is not a %s constant", soacPos(ck.f, m), ne.Const.Value, t)
		}
	}
	fn, why := ck.lambda(m, operator.Op)
	if why != "" {
		return why
	}
	if len(fn.Captures) > 0 {
		return fmt.Sprintf("the operator of %s captures %s: the skeletons' combine takes no arguments", soacPos(ck.f, m), fn.Captures[0].Var.Name())
	}
	if r.first != "" {
		r.firstCall = fn.Call([]string{r.first, r.c}, "", "&e")
	}
	if ct == nil {
		r.op = fmt.Sprintf("int e = 0;\nr = %s;", fn.Call([]string{"a", "b"}, "", "&e"))
	} else {
		// The skeleton's struct and the translated one have one layout.
		r.op = fmt.Sprintf("int e = 0;\n%[1]s t = %[2]s;\nr = *(%[3]s *)&t;", ct.C, fn.Call([]string{fmt.Sprintf("*(const %s *)&a", ct.C), fmt.Sprintf("*(const %s *)&b", ct.C)}, "", "&e"), r.c+"__t")
		r.cast = "*(const " + r.c + "__t *)&"
	}
	ck.reds = append(ck.reds, r)
	ck.fp64 = ck.fp64 || r.skel == "Float64" || slices.Contains(r.fields, "Float64")
	return ""
}

// structNeutral returns the C initializer, of the skeleton's struct of
// the flattened fields (flatFields), of a struct fold's neutral element
// ne of type t written as a composite literal whose fields are constants
// or math.Inf of a constant (an omitted field being zero, a struct
// field a literal of those too); "" for any other expression.
func (ck *clKernel) structNeutral(ne *ir.Operand, t types.Type) string {
	if ne == nil || len(ne.Uses) > 0 {
		return ""
	}
	info := ck.f.Info()
	var vals []string
	var walk func(e ast.Expr, t types.Type) bool
	walk = func(e ast.Expr, t types.Type) bool {
		st := t.Underlying().(*types.Struct)
		var cl *ast.CompositeLit
		if e != nil {
			var ok bool
			if cl, ok = ast.Unparen(e).(*ast.CompositeLit); !ok {
				return false
			}
		}
		elts := make([]ast.Expr, st.NumFields())
		if cl != nil {
			for i, el := range cl.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					elts[i] = el
					continue
				}
				for j := range st.NumFields() {
					if id, ok := kv.Key.(*ast.Ident); ok && st.Field(j).Name() == id.Name {
						elts[j] = kv.Value
					}
				}
			}
		}
		for i := range st.NumFields() {
			ft := st.Field(i).Type()
			sk := skelScalar(ft)
			if sk == "" {
				if !walk(elts[i], ft) {
					return false
				}
				continue
			}
			v := scalarNeutral(info, elts[i], sk)
			if v == "" {
				return false
			}
			vals = append(vals, v)
		}
		return true
	}
	if !walk(ne.Expr, t) {
		return ""
	}
	return "{" + strings.Join(vals, ", ") + "}"
}

// scalarNeutral returns the C literal of a field e of skeleton type sk in
// a struct's neutral element: 0 when e is nil (omitted), a constant, or
// ±infinity for math.Inf of a constant (converted to the field's type or
// not); "" otherwise.
func scalarNeutral(info *types.Info, e ast.Expr, sk string) string {
	if e == nil {
		if sk == "Float32" || sk == "Float64" {
			return cLiteral(constant.MakeInt64(0), sk)
		}
		return "0"
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.Bool {
			if constant.BoolVal(tv.Value) {
				return "1"
			}
			return "0"
		}
		return cLiteral(tv.Value, sk)
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || sk != "Float32" && sk != "Float64" {
		return ""
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if skelScalar(tv.Type) == sk {
			return scalarNeutral(info, call.Args[0], sk) // float32(math.Inf(-1))
		}
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	arg, ok2 := info.Types[call.Args[0]]
	if !ok || !ok2 || fn.Pkg() == nil || fn.Pkg().Path() != "math" || fn.Name() != "Inf" || arg.Value == nil {
		return ""
	}
	if constant.Sign(arg.Value) >= 0 {
		return "INFINITY"
	}
	return "(-INFINITY)"
}

// zeroLiteral reports whether ne is written T{}: a struct's zero value.
func zeroLiteral(ne *ir.Operand) bool {
	if ne == nil {
		return false
	}
	cl, ok := ast.Unparen(ne.Expr).(*ast.CompositeLit)
	return ok && len(cl.Elts) == 0
}

// fieldTypes returns the skeleton types of the fields of struct type t,
// flattened (structInput has checked that flatFields has them).
func (ck *clKernel) fieldTypes(t types.Type) []string {
	return flatFields(t)
}

// mapMember computes the element of map m from its inputs' elements.
func (ck *clKernel) mapMember(m lower.Member, outs map[*ir.Var]string) string {
	op := m.SOAC.Op.(*ir.Screma)
	if op.Map == nil || op.Scan != nil || op.Reduce != nil {
		return fmt.Sprintf("%s is not a plain map", soacPos(ck.f, m.SOAC))
	}
	fn, why := ck.lambda(m.SOAC, op.Map)
	if why != "" {
		return why
	}
	e := elemOf(m.SOAC.Out.Type)
	if fn.Result != nil && fn.Result.Kind == clc.Slice && e != nil {
		return ck.rowsOutput(m, op.Map, fn, outs)
	}
	if fn.Result == nil || !(fn.Result.IsScalar() || fn.Result.Kind == clc.Struct) || e == nil {
		return fmt.Sprintf("%s returns %s: only scalar and struct elements are rendered", soacPos(ck.f, m.SOAC), m.SOAC.Out.Type)
	}
	args, why := ck.elements(m)
	if why != "" {
		return why
	}
	return ck.define(m, fn.Result.C, fn.Call(args, "", "&k__e"), e, outs)
}

// gen computes the element of generator m: the index of an Iota, the
// value of a Replicate (a kernel argument, evaluated where the kernel
// runs and again by its CPU code, so an expression without effects).
func (ck *clKernel) gen(m lower.Member, outs map[*ir.Var]string) string {
	r, ok := m.SOAC.Op.(*ir.Replicate)
	if !ok {
		return ck.define(m, "long", "soac_index", elemOf(m.SOAC.Out.Type), outs)
	}
	e := elemOf(m.SOAC.Out.Type)
	ct, err := ck.unit.Type(e)
	if err != nil || ct.IsView() || !ct.IsScalar() && ct.Kind != clc.Struct {
		return fmt.Sprintf("%s replicates %s: only numbers, booleans and structs of them are kernel arguments", soacPos(ck.f, m.SOAC), e)
	}
	if r.Value == nil || !pureExpr(ck.f.Info(), r.Value.Expr) {
		return fmt.Sprintf("%s: its value is not a constant, a variable or arithmetic of those: the host passes it to the kernel and to the CPU code", soacPos(ck.f, m.SOAC))
	}
	name := fmt.Sprintf("rep__%d", len(ck.args))
	ck.args = append(ck.args, clArg{name: name, params: []string{fmt.Sprintf("const %s %s", ct.C, name)}, rep: m.SOAC})
	ck.fp64 = ck.fp64 || ct.UsesFP64()
	return ck.define(m, ct.C, name, e, outs)
}

// define declares the C value of member m's element and, when its output
// is materialised, stores it.
func (ck *clKernel) define(m lower.Member, ctype, value string, e types.Type, outs map[*ir.Var]string) string {
	c := fmt.Sprintf("k__v%d", len(ck.cname))
	ck.cname[m.SOAC.Out] = c
	ck.space[m.SOAC.Out] = m.Space
	if m.Space == lower.Root {
		fmt.Fprintf(&ck.body, "const %s %s = %s;\n", ctype, c, value)
	} else {
		// Only a kept element computes its value (the lambda may panic
		// on the others); a dropped one holds zero, which nothing keeps.
		fmt.Fprintf(&ck.body, "%s %s = {0};\nif (%s) {\n%s = %s;\n}\n", ctype, c, ck.keep[m.Space], c, value)
	}
	if !stored(m, outs) {
		return ""
	}
	return ck.store(m, c, e)
}

// stored reports whether member m's output is materialised.
func stored(m lower.Member, outs map[*ir.Var]string) bool {
	n, ok := outs[m.SOAC.Out]
	return ok && n != "_" && m.Store != lower.NoStore
}

// store writes the C value c of member m's element, of Go type e, to a
// new output: at the index in the root space of a map-reduce kernel, or
// among the kept elements of the compacted space of a filter kernel.
func (ck *clKernel) store(m lower.Member, c string, e types.Type) string {
	space := ck.space[m.SOAC.Out]
	switch {
	case space == lower.Root && m.Store == lower.Indexed && ck.compact == lower.Root:
	case space == ck.compact && space != lower.Root && (m.Store == lower.AtCount || m.Store == lower.Appended):
	case space == lower.Root && m.Store == lower.Indexed:
		return fmt.Sprintf("%s: its output is stored at the index beside the kept elements the kernel stores: the filter skeleton compacts every output", soacPos(ck.f, m.SOAC))
	default:
		return fmt.Sprintf("%s: its output is stored %s in space %d, which the opencl backend does not render", soacPos(ck.f, m.SOAC), m.Store, space)
	}
	p := clParam{c: fmt.Sprintf("out__%d", len(ck.outs)), skel: skelScalar(e), v: m.SOAC.Out, goElem: e}
	cast := ""
	if p.skel == "" {
		if ck.structInput(e) == nil {
			return fmt.Sprintf("%s produces %s: the skeletons write slices of float32, float64, int32, int64, int, uint32, uint64, uint, and of structs of those", soacPos(ck.f, m.SOAC), m.SOAC.Out.Type)
		}
		p.fields = ck.fieldTypes(e)
		ck.fp64 = ck.fp64 || slices.Contains(p.fields, "Float64")
		// The skeleton's struct has the translated struct's layout.
		cast = "*(const " + p.c + "__t *)&"
	}
	ck.outs = append(ck.outs, p)
	ck.fp64 = ck.fp64 || p.skel == "Float64"
	fmt.Fprintf(&ck.body, "%s = %s%s;\n", p.c, cast, c)
	return ""
}

// cLiteral returns the OpenCL C literal of constant v as skel type st, or
// "" when v is not representable.
func cLiteral(v constant.Value, st string) string {
	switch st {
	case "Float32", "Float64":
		x, ok := constant.Float64Val(constant.ToFloat(v))
		if !ok && constant.ToFloat(v).Kind() != constant.Float {
			return ""
		}
		if st == "Float32" {
			x = float64(float32(x))
			return strconv.FormatFloat(x, 'x', -1, 32) + "f"
		}
		return strconv.FormatFloat(x, 'x', -1, 64)
	}
	iv := constant.ToInt(v)
	if iv.Kind() != constant.Int {
		return ""
	}
	switch st {
	case "Int32", "Int64":
		x, ok := constant.Int64Val(iv)
		if !ok || st == "Int32" && int64(int32(x)) != x {
			return ""
		}
		// -x-1 spelled so that the most negative value is no overflow.
		if x < 0 {
			return fmt.Sprintf("(-%dL-1)", -(x + 1))
		}
		return fmt.Sprintf("%dL", x)
	default:
		x, ok := constant.Uint64Val(iv)
		if !ok || st == "Uint32" && uint64(uint32(x)) != x {
			return ""
		}
		return fmt.Sprintf("%dUL", x)
	}
}
