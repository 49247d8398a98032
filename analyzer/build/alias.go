package build

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// sources returns the Vars whose memory the value of e may share, and
// whether it may share memory the builder cannot trace to a Var (the result
// of a function not known to be pure, a value received from a channel).
// Values of types that hold no references share nothing.
func (b *builder) sources(e ast.Expr) (vs []*ir.Var, unknown bool) {
	if e == nil {
		return nil, false
	}
	if v := b.exprVar[e]; v != nil {
		return []*ir.Var{v}, false
	}
	t := b.info.TypeOf(e)
	if t != nil && !hasRefs(t) {
		return nil, false
	}
	add := func(e ast.Expr) {
		s, u := b.sources(e)
		vs = append(vs, s...)
		unknown = unknown || u
	}
	switch e := e.(type) {
	case *ast.Ident:
		if obj := b.info.Uses[e]; obj != nil {
			if v, ok := obj.(*types.Var); ok && !v.IsField() {
				if r := b.env[obj]; r != nil {
					vs = append(vs, r)
				} else if isPackageLevel(obj) {
					vs = append(vs, b.lookup(obj))
				}
			}
		}
	case *ast.ParenExpr:
		add(e.X)
	case *ast.SelectorExpr:
		if sel := b.info.Selections[e]; sel != nil {
			if sel.Kind() != types.MethodExpr {
				add(e.X)
			}
		} else if v, ok := b.info.Uses[e.Sel].(*types.Var); ok && isPackageLevel(v) {
			vs = append(vs, b.lookup(v))
		}
	case *ast.IndexExpr:
		if _, ok := b.info.Instances[calleeIdent(e)]; !ok {
			add(e.X)
		}
	case *ast.IndexListExpr:
	case *ast.SliceExpr:
		add(e.X)
	case *ast.StarExpr:
		add(e.X)
	case *ast.TypeAssertExpr:
		add(e.X)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.AND:
			if id := valueRoot(b.info, e.X); id != nil {
				if r := b.lookup(b.info.ObjectOf(id)); r != nil {
					vs = append(vs, r)
				}
			} else {
				add(e.X)
			}
		case token.ARROW:
			unknown = true
		}
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			add(el)
		}
	case *ast.KeyValueExpr:
		if _, isField := e.Key.(*ast.Ident); !isField || b.info.Uses[e.Key.(*ast.Ident)] == nil {
			add(e.Key)
		} else if v, ok := b.info.Uses[e.Key.(*ast.Ident)].(*types.Var); !ok || !v.IsField() {
			add(e.Key)
		}
		add(e.Value)
	case *ast.FuncLit:
		for _, obj := range b.capturedObjs(e) {
			if r := b.lookup(obj); r != nil && hasRefs(r.Type) {
				vs = append(vs, r)
			}
		}
	case *ast.CallExpr:
		return b.callSources(e, t)
	}
	return vs, unknown
}

// callSources is sources for the call e, whose value has type t: a
// conversion and the builtins append, min and max share what their
// arguments share, the other builtins nothing, and so do the calls
// described below.
func (b *builder) callSources(e *ast.CallExpr, t types.Type) (vs []*ir.Var, unknown bool) {
	add := func(e ast.Expr) {
		s, u := b.sources(e)
		vs = append(vs, s...)
		unknown = unknown || u
	}
	if tv, ok := b.info.Types[e.Fun]; ok && tv.IsType() {
		for _, a := range e.Args {
			add(a)
		}
		return vs, unknown
	}
	switch bi := b.builtin(e); bi {
	case "":
	case "append":
		for _, a := range e.Args {
			add(a)
		}
		return vs, unknown
	case "min", "max":
		for _, a := range e.Args {
			add(a)
		}
		return vs, unknown
	default: // make, new, len, ...: fresh or scalar
		return vs, unknown
	}
	// A pure call whose result the callee allocates itself
	// (slices.Clone, soac.Map, a helper returning what it made)
	// shares nothing when its elements hold no references.
	if ce := b.pur.Call(e); ce.Purity.Pure && slices.Contains(ce.FreshResults, 0) && refFreeElems(t) {
		return vs, unknown
	}
	// Any other call: its result may share memory with every argument
	// and the receiver, and, unless the callee is known pure, with
	// anything at all.
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
		if s := b.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			add(sel.X)
		}
	} else if _, ok := b.info.Uses[calleeIdent(e.Fun)].(*types.Func); !ok {
		add(e.Fun) // a function value: its captures
	}
	for _, a := range e.Args {
		add(a)
	}
	if !b.pur.Call(e).Purity.Pure {
		unknown = true
	}
	return vs, unknown
}

// joinAll joins v with every source; unknown makes v's class global.
func (b *builder) joinAll(v *ir.Var, srcs []*ir.Var, unknown bool) {
	if !hasRefs(v.Type) {
		return
	}
	for _, s := range srcs {
		b.join(v, s)
	}
	if unknown {
		b.markGlobal(v)
	}
}

// joinRef joins x and y when x's type can hold references.
func (b *builder) joinRef(x, y *ir.Var) {
	if x != nil && y != nil && hasRefs(x.Type) {
		b.join(x, y)
	}
}

// hasRefs reports whether values of type t may refer to memory shared with
// other values: pointers, slices, maps, channels, functions, interfaces,
// type parameters, and structs and arrays holding any of these. Strings are
// immutable and do not count.
func hasRefs(t types.Type) bool { return hasRefsSeen(t, nil) }

func hasRefsSeen(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Kind() == types.UntypedNil
	case *types.Struct:
		if seen[t] {
			return false
		}
		if seen == nil {
			seen = make(map[types.Type]bool)
		}
		seen[t] = true
		for i := 0; i < u.NumFields(); i++ {
			if hasRefsSeen(u.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	case *types.Array:
		return hasRefsSeen(u.Elem(), seen)
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if hasRefsSeen(u.At(i).Type(), seen) {
				return true
			}
		}
		return false
	}
	return true
}

// capturedObjs returns the variables a function literal refers to that are
// declared outside it, in order of first reference.
func (b *builder) capturedObjs(lit *ast.FuncLit) []types.Object {
	if objs, ok := b.captures[lit]; ok {
		return objs
	}
	var objs []types.Object
	seen := make(map[types.Object]bool)
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := b.info.Uses[id].(*types.Var)
		if !ok || v.IsField() || seen[v] || within(v.Pos(), lit) {
			return true
		}
		seen[v] = true
		objs = append(objs, v)
		return true
	})
	b.captures[lit] = objs
	return objs
}

// refFreeElems reports whether everything a value of type t refers to is
// its own memory holding no further references: a slice, array, pointer
// or map of values without references. Fresh memory of such a type
// shares nothing with any other value.
func refFreeElems(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return !hasRefs(u.Elem())
	case *types.Array:
		return !hasRefs(u.Elem())
	case *types.Pointer:
		return !hasRefs(u.Elem())
	case *types.Map:
		return !hasRefs(u.Key()) && !hasRefs(u.Elem())
	}
	return !hasRefs(t)
}
