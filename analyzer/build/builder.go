package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// builder builds the IR of one function. Its environment maps each Go
// variable to the Var that reaches the statement being built; compound
// statements clone it for their blocks and merge the results.
type builder struct {
	fset *token.FileSet
	info *types.Info
	pur  purity.Result
	fn   *ir.Function
	sc   *scan

	cur *ir.Block                // the block statements are appended to
	env map[types.Object]*ir.Var // the Var reaching the current point
	// order numbers Go objects in the order the builder first meets them,
	// so that merges create Vars deterministically.
	order map[types.Object]int

	soacN, tmpN, nSOAC int
	// exprVar maps each SOAC call and hoisted expression built so far to
	// the Var holding its value.
	exprVar map[ast.Expr]*ir.Var
	// labels maps each labelled statement to its label.
	labels map[ast.Stmt]*types.Label
	// captures caches the free variables of function literals.
	captures map[*ast.FuncLit][]types.Object

	// Alias classes under construction: a union-find over Vars whose roots
	// carry whether the class may reach package-level memory. Joins are
	// replayed into fn.Alias when the function is done.
	ufParent map[*ir.Var]*ir.Var
	ufGlobal map[*ir.Var]bool
	joins    [][2]*ir.Var

	// noSOAC, when non-empty, is why no SOAC call of the function can be
	// modelled (the function uses goto).
	noSOAC string
	// internal collects violations of the builder's own assumptions; tests
	// require it to stay empty.
	internal []string
}

func buildFunc(fset *token.FileSet, info *types.Info, pur purity.Result, fd *ast.FuncDecl, obj *types.Func) *ir.Function {
	fn := &ir.Function{Name: fd.Name.Name, Decl: fd, Obj: obj, Info: info}
	b := &builder{
		fset: fset, info: info, pur: pur, fn: fn,
		sc:       scanFunc(info, fd),
		env:      make(map[types.Object]*ir.Var),
		order:    make(map[types.Object]int),
		exprVar:  make(map[ast.Expr]*ir.Var),
		captures: make(map[*ast.FuncLit][]types.Object),
		labels:   make(map[ast.Stmt]*types.Label),
		ufParent: make(map[*ir.Var]*ir.Var),
		ufGlobal: make(map[*ir.Var]bool),
	}
	if b.sc.gotoPos.IsValid() {
		b.noSOAC = b.gotoReason(b.sc.gotoPos)
	}
	var fields []*ast.Field
	if fd.Recv != nil {
		fields = append(fields, fd.Recv.List...)
	}
	fields = append(fields, fd.Type.Params.List...)
	if fd.Type.Results != nil {
		fields = append(fields, fd.Type.Results.List...)
	}
	for _, f := range fields {
		for _, id := range f.Names {
			if obj := info.Defs[id]; obj != nil {
				v := b.define(obj, nil, id.Pos())
				fn.Params = append(fn.Params, v)
			}
		}
	}
	for _, g := range b.sc.globals {
		b.define(g, nil, g.Pos())
	}
	fn.Body = &ir.Block{}
	b.cur = fn.Body
	b.stmtList(fd.Body.List)
	b.finishAliases()
	fixGlobalWrites(fn)
	if internalHook != nil {
		internalHook(fn, b.internal)
	}
	return fn
}

// internalHook, when set (by tests), receives the violations of the
// builder's own assumptions found while building each function.
var internalHook func(fn *ir.Function, msgs []string)

// gotoReason says why no SOAC of a body using goto is modelled.
func (b *builder) gotoReason(pos token.Pos) string {
	return fmt.Sprintf("the function uses goto (at %s), whose control flow the IR does not model", b.position(pos))
}

// enterLit starts building the body of lit: if that body uses goto, none of
// its SOAC calls is modelled. The returned function restores the state.
func (b *builder) enterLit(lit *ast.FuncLit) func() {
	saved := b.noSOAC
	if pos, ok := b.sc.litGoto[lit]; ok && saved == "" {
		b.noSOAC = b.gotoReason(pos)
	}
	return func() { b.noSOAC = saved }
}

// position formats pos for messages.
func (b *builder) position(pos token.Pos) string {
	p := b.fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", baseName(p.Filename), p.Line, p.Column)
}

func baseName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == '\\' {
			return path[i+1:]
		}
	}
	return path
}

// newVar adds a Var to the function.
func (b *builder) newVar(obj types.Object, name string, typ types.Type, def ir.Stmt, pos token.Pos) *ir.Var {
	v := &ir.Var{ID: len(b.fn.Vars), Name: name, Obj: obj, Type: typ, Def: def, Pos: pos}
	if obj != nil && isPackageLevel(obj) {
		v.Global = true
		b.ufGlobal[v] = true
	}
	b.fn.Vars = append(b.fn.Vars, v)
	return v
}

// define creates a new Var for the Go variable obj, defined by def, and
// makes it the one reaching what follows.
func (b *builder) define(obj types.Object, def ir.Stmt, pos token.Pos) *ir.Var {
	v := b.newVar(obj, obj.Name(), obj.Type(), def, pos)
	b.setEnv(obj, v)
	return v
}

func (b *builder) setEnv(obj types.Object, v *ir.Var) {
	if _, ok := b.order[obj]; !ok {
		b.order[obj] = len(b.order)
	}
	b.env[obj] = v
}

// temp creates a temporary: "_soacN" for SOAC results, "_tmpN" for hoisted
// expressions.
func (b *builder) temp(soac bool, typ types.Type, def ir.Stmt, pos token.Pos) *ir.Var {
	var name string
	if soac {
		b.soacN++
		name = fmt.Sprintf("_soac%d", b.soacN)
	} else {
		b.tmpN++
		name = fmt.Sprintf("_tmp%d", b.tmpN)
	}
	return b.newVar(nil, name, typ, def, pos)
}

// lookup returns the Var of obj reaching the current point, or nil if obj is
// not a variable the IR tracks (a field, a constant, a function).
func (b *builder) lookup(obj types.Object) *ir.Var {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if r := b.env[obj]; r != nil {
		return r
	}
	if isPackageLevel(obj) {
		// Not seen by the scan (it cannot happen for identifiers of the
		// function); define it like the others.
		return b.define(obj, nil, obj.Pos())
	}
	b.internal = append(b.internal, fmt.Sprintf("%s: variable %s used before any definition", b.position(obj.Pos()), obj.Name()))
	return b.define(obj, nil, obj.Pos())
}

// sortedObjs returns the keys of set in the order the builder met them.
func (b *builder) sortedObjs(set map[types.Object]bool) []types.Object {
	objs := make([]types.Object, 0, len(set))
	for o := range set {
		objs = append(objs, o)
	}
	sort.Slice(objs, func(i, j int) bool { return b.order[objs[i]] < b.order[objs[j]] })
	return objs
}

func cloneEnv(m map[types.Object]*ir.Var) map[types.Object]*ir.Var {
	c := make(map[types.Object]*ir.Var, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// emit appends s to the current block.
func (b *builder) emit(s ir.Stmt) { b.cur.Stmts = append(b.cur.Stmts, s) }

// --- alias classes ---

func (b *builder) find(v *ir.Var) *ir.Var {
	for {
		p, ok := b.ufParent[v]
		if !ok {
			return v
		}
		v = p
	}
}

// join records that x and y may share memory. A class that holds a
// package-level Var may reach package-level memory: every member becomes
// Global when the function is done.
func (b *builder) join(x, y *ir.Var) {
	if x == nil || y == nil || x == y {
		return
	}
	b.joins = append(b.joins, [2]*ir.Var{x, y})
	rx, ry := b.find(x), b.find(y)
	if rx == ry {
		return
	}
	if ry.ID < rx.ID {
		rx, ry = ry, rx
	}
	b.ufParent[ry] = rx
	if b.ufGlobal[ry] {
		b.ufGlobal[rx] = true
	}
}

// isGlobal reports whether v may reach package-level memory.
func (b *builder) isGlobal(v *ir.Var) bool { return v.Global || b.ufGlobal[b.find(v)] }

// markGlobal records that v may reach package-level memory.
func (b *builder) markGlobal(v *ir.Var) { b.ufGlobal[b.find(v)] = true }

func (b *builder) finishAliases() {
	for _, j := range b.joins {
		b.fn.Alias.Join(j[0], j[1])
	}
	for _, v := range b.fn.Vars {
		if b.isGlobal(v) {
			v.Global = true
		}
	}
}

// fixGlobalWrites sets WritesGlobal on every statement that writes a Var
// that turned out to reach package-level memory.
func fixGlobalWrites(fn *ir.Function) {
	var walk func(blk *ir.Block)
	walk = func(blk *ir.Block) {
		ir.Walk(blk, func(s ir.Stmt) bool {
			e := s.Effects()
			for _, w := range e.Writes {
				if w.Global {
					e.WritesGlobal = true
				}
			}
			return true
		})
	}
	walk(fn.Body)
}
