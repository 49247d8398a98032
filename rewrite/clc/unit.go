package clc

// This file holds the translation unit: the OpenCL C program that the
// lambdas of one kernel share, with the typedefs, helpers and translated
// functions each emitted once, in dependency order, and the description
// of what the kernel must pass in (captures) and what the host must know
// (panic sites, fp64, build options). It does not generate kernels: the
// backend wraps the functions it gets from here in its skeletons.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Resolver returns the declaration of a function and the type information
// of its package, or nil when its source is not available (a function of
// another package loaded without syntax), in which case calls of it are
// refused.
type Resolver func(fn *types.Func) (*ast.FuncDecl, *types.Info)

// PackageResolver resolves the functions declared in files, which info
// describes (one type-checked package).
func PackageResolver(files []*ast.File, info *types.Info) Resolver {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
					decls[obj] = fd
				}
			}
		}
	}
	return func(fn *types.Func) (*ast.FuncDecl, *types.Info) {
		if d, ok := decls[fn.Origin()]; ok {
			return d, info
		}
		return nil, nil
	}
}

// Unit is one OpenCL C program under construction. Translate the lambdas
// of a kernel into one Unit so that the functions they call and the types
// they use are emitted once. A Unit is not safe for concurrent use.
type Unit struct {
	fset    *token.FileSet
	resolve Resolver
	types   *typeTable
	outs    []*Type // element types of writable result views
	helpers []string
	helped  map[string]bool
	funcs   []string              // translated functions, callees first
	byObj   map[*types.Func]*Func // declared functions, translated once
	busy    map[*types.Func]bool  // being translated (recursion)
	names   map[string]bool       // C function names taken
	sites   []Site
	fp64    token.Pos // first use of float64, NoPos if none
	f32div  bool      // float32 division or square root used
}

// NewUnit starts an empty program. fset positions every refusal and panic
// site; resolve finds the declarations of called functions.
func NewUnit(fset *token.FileSet, resolve Resolver) *Unit {
	if resolve == nil {
		resolve = func(*types.Func) (*ast.FuncDecl, *types.Info) { return nil, nil }
	}
	return &Unit{fset: fset, resolve: resolve, types: newTypeTable(), helped: map[string]bool{},
		byObj: map[*types.Func]*Func{}, busy: map[*types.Func]bool{}, names: map[string]bool{}}
}

// Func is a translated function: an OpenCL C function
//
//	static R Name(params..., captures..., [out,] int *soac__err)
//
// Params are the Go parameters in order. Captures (lambdas only) are the
// variables of enclosing Go code the body reads, passed by value, slices
// as read-only views; the kernel gets each from its arguments (see
// Capture). When Result is a slice, the caller passes a writable view
// (soac__out_E: pointer and capacity) of room for the result; the
// function writes the elements and returns the view with its length set.
// soac__err points at the work-item's panic flag: 0, or the ID of the
// first panic site reached (see Unit.Sites); the flag must be 0 on entry.
type Func struct {
	Name   string
	Pos    token.Position
	Params []Param
	// Reads are the parameters holding the elements of the index reads
	// LambdaReads was given, one per array, after Params: Call's args
	// are the arguments of Params and then of Reads.
	Reads    []Param
	Result   *Type
	Captures []Capture
	Proto    string // the C prototype, without the trailing semicolon
}

// Call returns the C call of f on the C expressions args of its Params,
// the kernel's capture arguments (Capture.Arg of each, in order), out (a
// writable view expression when Result is a slice, else ignored) and
// errPtr (an int * to the work-item's panic flag).
func (f *Func) Call(args []string, out, errPtr string) string {
	return f.CallWith(args, nil, out, errPtr)
}

// CallWith is Call with the captures in bound passed as the C
// expressions they map to instead of their kernel arguments: a lambda
// nested in another reads the outer one's parameters, which a kernel
// running the inner lambda alone computes itself (a row of a matrix).
func (f *Func) CallWith(args []string, bound map[*types.Var]string, out, errPtr string) string {
	all := append([]string(nil), args...)
	for _, c := range f.Captures {
		if b, ok := bound[c.Var]; ok {
			all = append(all, b)
			continue
		}
		all = append(all, c.Arg())
	}
	if f.Result != nil && f.Result.Kind == Slice {
		all = append(all, out)
	}
	return fmt.Sprintf("%s(%s)", f.Name, strings.Join(append(all, errPtr), ", "))
}

// Param is a parameter of a translated function.
type Param struct {
	Name string // Go name
	C    string
	Type *Type
}

// Capture is a variable of the enclosing Go function that a lambda reads.
// Scalars, structs and arrays are kernel arguments by value, with Go's
// layout (a bool is a uchar: one byte, 0 or 1). A []T is a read-only
// device buffer of the elements and its length (an empty slice still
// needs a buffer, of any size: OpenCL has no empty ones); a [][]T is one
// buffer of all rows' elements back to back, a buffer of len+1 long row
// offsets (row i is data[off[i]:off[i+1]]) and the length.
type Capture struct {
	Var  *types.Var
	C    string // the parameter's C name
	Type *Type
	Pos  token.Position // the first use
}

// KernelParams returns the kernel parameter declarations that carry the
// capture.
func (c Capture) KernelParams() []string {
	switch c.Type.Kind {
	case Slice:
		return []string{fmt.Sprintf("__global const %s *restrict %s__p", c.Type.Elem.C, c.C), fmt.Sprintf("const long %s__n", c.C)}
	case Slice2:
		return []string{fmt.Sprintf("__global const %s *restrict %s__p", c.Type.Elem.C, c.C),
			fmt.Sprintf("__global const long *restrict %s__off", c.C), fmt.Sprintf("const long %s__n", c.C)}
	}
	return []string{fmt.Sprintf("const %s %s", c.Type.C, c.C)}
}

// Arg returns the C expression, over the kernel parameters KernelParams
// declares, to pass for the capture.
func (c Capture) Arg() string {
	switch c.Type.Kind {
	case Slice:
		return fmt.Sprintf("%s__mk(%s__p, %s__n)", c.Type.C, c.C, c.C)
	case Slice2:
		return fmt.Sprintf("%s__mk(%s__p, %s__off, %s__n)", c.Type.C, c.C, c.C, c.C)
	}
	return c.C
}

// Site is a place where the Go code would panic: the ID a work-item's
// flag holds after reaching it, the position and what the panic is.
type Site struct {
	ID   int
	Pos  token.Position
	What string // "index out of range", "integer divide by zero", ...
}

// Sites returns the panic sites of the program, by ID (the first is 1).
func (u *Unit) Sites() []Site { return append([]Site(nil), u.sites...) }

// site registers a panic site and returns its ID.
func (u *Unit) site(pos token.Pos, what string) int {
	u.sites = append(u.sites, Site{ID: len(u.sites) + 1, Pos: u.fset.Position(pos), What: what})
	return len(u.sites)
}

// NeedsFP64 reports whether the program uses float64 (double), which a
// device without cl_khr_fp64 cannot run, and where it first does.
func (u *Unit) NeedsFP64() (bool, token.Position) {
	if u.fp64 == token.NoPos {
		return false, token.Position{}
	}
	return true, u.fset.Position(u.fp64)
}

// BuildOptions returns the options to build the program with: float32
// division and square root must be correctly rounded, as in Go (OpenCL
// allows them 2.5 and 3 ULP by default).
func (u *Unit) BuildOptions() string {
	if u.f32div {
		return "-cl-fp32-correctly-rounded-divide-sqrt"
	}
	return ""
}

// Type translates a Go type, for the backend's element and kernel
// argument types; the typedefs it needs become part of Source.
func (u *Unit) Type(t types.Type) (*Type, error) {
	ct, bad := u.types.of(t)
	if bad != "" {
		return nil, fmt.Errorf("type %s: %s is not translatable", t, bad)
	}
	return ct, nil
}

// helper adds a helper definition once, keyed by name.
func (u *Unit) helper(name, code string) {
	if !u.helped[name] {
		u.helped[name] = true
		u.helpers = append(u.helpers, code)
	}
}

// funcName returns a fresh C function name based on base.
func (u *Unit) funcName(base string) string {
	n := base
	for i := 2; u.names[n]; i++ {
		n = fmt.Sprintf("%s_%d", base, i)
	}
	u.names[n] = true
	return n
}

// needOut records that e needs a writable result view.
func (u *Unit) needOut(e *Type) {
	for _, o := range u.outs {
		if o == e {
			return
		}
	}
	u.outs = append(u.outs, e)
}

// Source returns the whole program: pragmas, typedefs, helpers and
// functions, deterministic for the same translations in the same order.
func (u *Unit) Source() string {
	var w writer
	w.line("// Code generated by soacgen from Go source. DO NOT EDIT.")
	if u.fp64 != token.NoPos {
		w.line("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
	}
	// Go never contracts a*b+c into a fused multiply-add on amd64.
	w.line("#pragma OPENCL FP_CONTRACT OFF")
	sort.SliceStable(u.outs, func(i, j int) bool { return u.outs[i].C < u.outs[j].C })
	u.types.emit(&w, u.outs)
	for _, t := range u.types.order {
		if t.IsView() {
			if t.Kind == Slice {
				w.line("static inline %[1]s %[1]s__mk(__global const %[2]s *p, long n) { %[1]s r; r.p = p; r.n = n; return r; }", t.C, t.Elem.C)
			} else {
				w.line("static inline %[1]s %[1]s__mk(__global const %[2]s *p, __global const long *off, long n) { %[1]s r; r.p = p; r.off = off; r.n = n; return r; }", t.C, t.Elem.C)
			}
		}
	}
	for _, o := range u.outs {
		w.line("static inline %[1]s %[1]s__mk(__global %[2]s *p, long n) { %[1]s r; r.p = p; r.n = n; return r; }", outView(o), o.C)
	}
	for _, h := range u.helpers {
		w.raw(h)
	}
	for _, f := range u.funcs {
		w.raw(f)
	}
	return w.String()
}

// refuse builds a Refusal at pos.
func (u *Unit) refuse(pos token.Pos, construct, reason string) *Refusal {
	return &Refusal{Pos: u.fset.Position(pos), Construct: construct, Reason: reason}
}

// Lambda translates a function literal, typed by info. Its free variables
// become the Func's Captures.
func (u *Unit) Lambda(lit *ast.FuncLit, info *types.Info) (*Func, error) {
	sig, _ := info.TypeOf(lit).(*types.Signature)
	if sig == nil {
		return nil, u.refuse(lit.Pos(), "function literal", "has no type information")
	}
	f := newFn(u, info, nil, sig, lit.Pos(), lit.End(), true)
	return f.translate(u.funcName("soac__lambda"), lit.Type, lit.Body)
}

// LambdaReads is Lambda for a literal that reads arrays only at its
// iteration index (the fusion engine's index reads, ys[p] with p the
// element of an Iota of ys's length), where the kernel computes each
// array's element itself: reads holds, per array, every such read of the
// literal (not of a literal nested in it). Each array becomes a
// parameter of its element type (Func.Reads), the value of each of its
// reads, instead of a capture, so the caller passes the element it
// computed and the array is never on the device. The reads must be the
// literal's only uses of the arrays.
func (u *Unit) LambdaReads(lit *ast.FuncLit, info *types.Info, reads [][]*ast.IndexExpr) (*Func, error) {
	sig, _ := info.TypeOf(lit).(*types.Signature)
	if sig == nil {
		return nil, u.refuse(lit.Pos(), "function literal", "has no type information")
	}
	f := newFn(u, info, nil, sig, lit.Pos(), lit.End(), true)
	f.indexReads = reads
	return f.translate(u.funcName("soac__lambda"), lit.Type, lit.Body)
}

// Declared translates a declared (top-level, non-generic) function or a
// method with a value receiver, and the functions it calls.
func (u *Unit) Declared(fn *types.Func) (*Func, error) {
	return u.declared(fn, token.NoPos)
}

func (u *Unit) declared(fn *types.Func, at token.Pos) (*Func, error) {
	if f, ok := u.byObj[fn]; ok {
		return f, nil
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "math" {
		return u.mathFunc(fn, at)
	}
	pos := at
	if pos == token.NoPos {
		pos = fn.Pos()
	}
	name := fn.FullName()
	if u.busy[fn] {
		return nil, u.refuse(pos, "recursive call of "+name, "OpenCL C has no recursion")
	}
	sig := fn.Signature()
	if sig.TypeParams().Len() > 0 || fn.Origin() != fn {
		return nil, u.refuse(pos, "call of generic function "+name, "generic functions are not translated")
	}
	decl, info := u.resolve(fn)
	if decl == nil || decl.Body == nil {
		return nil, u.refuse(pos, "call of "+name, "its source is not available to translate (not a translatable math function, and not declared in a package loaded with syntax)")
	}
	if sig.Recv() != nil {
		if _, ok := sig.Recv().Type().(*types.Pointer); ok {
			return nil, u.refuse(pos, "call of "+name, "methods with pointer receivers are not translated")
		}
	}
	u.busy[fn] = true
	defer delete(u.busy, fn)
	f := newFn(u, info, nil, sig, decl.Pos(), decl.End(), false)
	base := mangleGlobal(fn.Pkg().Name(), fn.Name())
	if r := sig.Recv(); r != nil {
		tn := r.Type()
		if n, ok := tn.(*types.Named); ok {
			base = mangleGlobal(fn.Pkg().Name(), n.Obj().Name()+"__"+fn.Name())
		}
		f.recv = decl.Recv
	}
	out, err := f.translate(u.funcName(base), decl.Type, decl.Body)
	if err != nil {
		if at != token.NoPos {
			return nil, fmt.Errorf("%v: call of %s: %w", u.fset.Position(at), name, err)
		}
		return nil, err
	}
	u.byObj[fn] = out
	return out, nil
}

// proto returns a function's C prototype.
func proto(name string, res *Type, params []string) string {
	r := "void"
	if res != nil {
		r = res.C
		if res.Kind == Slice {
			r = outView(res.Elem)
		}
	}
	return fmt.Sprintf("static %s %s(%s)", r, name, strings.Join(params, ", "))
}

// mathFunc wraps a math function used as a lambda (soac.Map(xs,
// math.Sqrt)) in a translated function.
func (u *Unit) mathFunc(fn *types.Func, at token.Pos) (*Func, error) {
	pos := at
	if pos == token.NoPos {
		pos = fn.Pos()
	}
	sig := fn.Signature()
	f := newFn(u, nil, nil, sig, pos, pos, false)
	var params, args []string
	out := &Func{Name: u.funcName("soac__math_" + fn.Name()), Pos: u.fset.Position(pos)}
	var vs []val
	for i := range sig.Params().Len() {
		t := f.typ(sig.Params().At(i).Type(), pos)
		c := fmt.Sprintf("x%d", i)
		out.Params = append(out.Params, Param{Name: sig.Params().At(i).Name(), C: c, Type: t})
		params = append(params, t.C+" "+c)
		args = append(args, c)
		vs = append(vs, val{c, t})
	}
	if sig.Results().Len() != 1 {
		return nil, u.refuse(pos, "lambda math."+fn.Name(), "only functions of one result are translated")
	}
	out.Result = f.typ(sig.Results().At(0).Type(), pos)
	body := f.mathApply(fn.Name(), vs, pos)
	if f.failed() {
		return nil, f.w.err
	}
	params = append(params, "int *soac__err")
	out.Proto = proto(out.Name, out.Result, params)
	u.funcs = append(u.funcs, fmt.Sprintf("%s { return %s; }\n", out.Proto, body.c))
	u.byObj[fn] = out
	return out, nil
}
