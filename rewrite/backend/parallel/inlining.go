package parallel

// This file says whether Go's compiler will inline a call of one of the
// package's own functions, for cost.go: an inlined call costs its
// body and no call. It approximates cmd/compile's inliner
// (cmd/compile/internal/inline, Go 1.26) from the callee's syntax; it
// does not decide what the generated code calls, and it is not the
// compiler's exact count (TestInlineRuleMatchesCompiler compares it
// with go build -gcflags=-m).
//
// The rule: a function inlines when nothing in its body refuses
// inlining (inlineRefusals) and its body costs at most inlineBudget,
// counting about one per node of the compiler's IR (nodeCost): an
// operator, a name, a constant, a statement, an index; types, blocks
// and parentheses cost nothing. A call adds the inline cost of a
// function that inlines in turn, or inlineCallCost for one that does
// not (one the rule cannot see, or a recursive call: a small
// self-recursive function inlines one level, as the compiler does), or
// inlineParamCallCost for a call through a variable. A function literal
// costs inlineClosureCost, its body counted where it is called at once.
//
// It errs towards inlining: the compiler's IR has nodes the syntax does
// not show (implicit conversions, temporaries), so the count here is a
// few nodes lower (TestInlineRuleOnExamples: at most inlineSlack below,
// never above, on the examples' and test packages' functions). That is
// the safe way for a grain: a call wrongly taken as inlined is one call
// (5 ns) left out of a body of at least the compiler's budget (80 nodes,
// tens of nanoseconds), a grain a little too large, so the cpu code runs
// a little longer; a call wrongly charged is 5 ns added to a body of a
// few nanoseconds, a grain several times too small, chunks whose fixed
// costs (a result each, the combine) weigh as much as their elements
// (examples/histogram's bin: 11 ns counted, 2.2 measured, 2-core VM,
// 2026-11-26). Inlining into a
// function of more than 5000 nodes (cost at most 20 there) and
// profile-guided budgets are not modelled: chunk functions are small,
// and soacgen builds no profiles. Other packages' bodies are not seen:
// a call of another package's function costs inlineCallCost
// (genericCallCost if generic) unless otherCalls lists it; a small
// method the compiler inlines (math/rand/v2's (*Rand).IntN) then counts
// too much, and the rule errs the other way for its caller (one call
// charged, as before the rule; inlineResult.unseen marks such costs).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// The inliner's budget parameters (cmd/compile/internal/inline/inl.go).
const (
	// inlineBudget is the largest cost of a function the compiler
	// inlines (inlineMaxBudget).
	inlineBudget = 80
	// inlineCallCost is what a call the compiler does not inline adds
	// to its caller's cost (inlineExtraCallCost).
	inlineCallCost = 57
	// inlineParamCallCost is what a call through a parameter adds
	// (inlineParamCallCost); the rule charges it for any call through a
	// variable, which the compiler charges the same or, for a variable
	// bound to a literal, the literal's cost.
	inlineParamCallCost = 17
	// inlineClosureCost is what a function literal adds besides its
	// own node (the OCLOSURE case of hairyVisitor.doNode).
	inlineClosureCost = 15
	// inlinePanicCost is what a panic adds besides its node
	// (inlineExtraPanicCost).
	inlinePanicCost = 1
)

// inlineRefusals are the constructs that keep the compiler from
// inlining a function whatever its cost (Go 1.26: "unhandled op GO",
// "unhandled op DEFER", "call to recover"; a //go:noinline directive is
// checked by the name of the directive). select, labels, goto and
// function literals no longer refuse (since Go 1.16-1.22), nor do loops.
var inlineRefusals = []struct {
	why   string
	match func(n ast.Node, info *types.Info) bool
}{
	{"a go statement", func(n ast.Node, _ *types.Info) bool { _, ok := n.(*ast.GoStmt); return ok }},
	{"a defer statement", func(n ast.Node, _ *types.Info) bool { _, ok := n.(*ast.DeferStmt); return ok }},
	{"a call of recover", func(n ast.Node, info *types.Info) bool { return isBuiltinCall(n, info, "recover") }},
}

// noinlineDirective is the comment that keeps a function from being
// inlined.
const noinlineDirective = "//go:noinline"

// otherCalls are what a call of another package's function adds to its
// node, where it is not inlineCallCost: go build -gcflags=-m=2 of
// "return math.F(x)" on Go 1.26 for amd64, less that statement's own
// nodes (4, and one per further argument; intrinsics add nothing;
// math.Sqrt, Abs and the rest inline as small bodies). A function not
// listed costs inlineCallCost: the compiler's math.Exp, Log, Erf and Pow
// inline as wrappers of one call that cost 4-6 more.
var otherCalls = map[string]map[string]int{
	"math": {"Floor": 0, "Ceil": 0, "Trunc": 0, "FMA": 0, "Float64bits": 3, "Float64frombits": 3,
		"Sqrt": 4, "IsNaN": 4, "Signbit": 10, "Abs": 14, "Inf": 21, "Copysign": 23, "IsInf": 35},
	"math/bits": {"OnesCount64": 0, "Len64": 0, "LeadingZeros64": 6},
}

// genericCallCost is what a call of another package's generic function
// adds: the compiler calls it through its shape with a dictionary, for
// 3 nodes less than inlineCallCost (soac.Map), or inlines it (soac.Reduce:
// 8 less, soac.Scan: 6 more); the rule takes the lowest.
const genericCallCost = inlineCallCost - 8

// defineCost is what each variable a := statement or a range clause
// declares adds (its declaration and name, beside the assignment).
const defineCost = 2

// varCost is what each variable of a var declaration costs: its
// declaration and an assignment, of its value or its zero value.
const varCost = 4

// defined counts the identifiers of lhs that declare a variable.
func (c *costs) defined(lhs ...ast.Expr) int {
	k := 0
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" && c.info.Defs[id] != nil {
			k++
		}
	}
	return k
}

// isLenOf reports whether e is len(x), x the same name as x.
func isLenOf(e, x ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn, ok := call.Fun.(*ast.Ident)
	a, ok2 := call.Args[0].(*ast.Ident)
	b, ok3 := x.(*ast.Ident)
	return ok && ok2 && ok3 && fn.Name == "len" && a.Name == b.Name
}

// inlineCost returns the compiler's cost of inlining fn, approximated,
// and whether the compiler inlines calls of it (false for a function
// without a body in the package, one over the budget, or one that holds
// an inlineRefusals construct). The answers are kept.
func (c *costs) inlineCost(fn *types.Func) (int, bool) {
	if r, ok := c.inl[fn]; ok {
		return r.cost, r.ok
	}
	fd := c.decls[fn]
	if fd == nil || c.info == nil {
		return 0, false
	}
	// While fn's body is counted, a call of fn (recursion, directly or
	// through another function) counts as a call it cannot inline.
	c.inl[fn] = inlineResult{why: "recursive"}
	outer := c.unseenCall
	c.unseenCall = false
	cost, why := 0, "marked "+noinlineDirective
	if !hasNoinline(fd) {
		cost, why = c.nodeCost(fd.Body)
	}
	if why == "" && cost > inlineBudget {
		why = fmt.Sprintf("cost %d over the budget %d", cost, inlineBudget)
	}
	// A generic function's shapes read its dictionary: nodes the
	// syntax does not show.
	c.unseenCall = c.unseenCall || fd.Type.TypeParams != nil
	c.inl[fn] = inlineResult{cost: cost, ok: why == "", why: why, unseen: c.unseenCall}
	c.unseenCall = outer || c.unseenCall
	return cost, why == ""
}

// inlineResult is a kept answer of inlineCost.
type inlineResult struct {
	cost int
	ok   bool
	why  string // why the compiler does not inline it, when it does not
	// unseen is set when the cost counts a call of another package's
	// function that otherCalls does not list, directly or through the
	// package's functions: its body is not seen, and the compiler may
	// inline it for less than inlineCallCost (math/rand/v2's
	// (*Rand).IntN), or for more than genericCallCost (soac.Scan); or
	// when fn is generic (its shapes' dictionary reads are not seen).
	unseen bool
}

// hasNoinline reports whether fd's doc comment holds //go:noinline.
func hasNoinline(fd *ast.FuncDecl) bool {
	if fd.Doc == nil {
		return false
	}
	for _, cm := range fd.Doc.List {
		if cm.Text == noinlineDirective {
			return true
		}
	}
	return false
}

// isBuiltinCall reports whether n is a call of the builtin name.
func isBuiltinCall(n ast.Node, info *types.Info, name string) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// nodeCost counts n's cost for the inliner, and says why not if n holds
// a construct that refuses inlining ("" if none).
func (c *costs) nodeCost(n ast.Node) (int, string) {
	cost, why := 0, ""
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if why != "" || n == nil {
			return false
		}
		for _, r := range inlineRefusals {
			if r.match(n, c.info) {
				why = r.why
				return false
			}
		}
		if e, isExpr := n.(ast.Expr); isExpr && c.isType(e) {
			return false // a type is no node of code
		}
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.ParenExpr, *ast.ExprStmt, *ast.EmptyStmt,
			*ast.FieldList, *ast.DeclStmt, *ast.GenDecl:
			return true // no node of their own
		case *ast.ValueSpec:
			cost += varCost * len(n.Names) // the values below
			for _, v := range n.Values {
				ast.Inspect(v, visit)
			}
			return false
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				cost += defineCost * c.defined(n.Key, n.Value)
			}
		case *ast.SliceExpr:
			// Superfluous slicing is free (the compiler's OSLICE case).
			if lit, ok2 := n.Low.(*ast.BasicLit); ok2 && lit.Value == "0" {
				cost--
			}
			if isLenOf(n.High, n.X) {
				cost -= 2
			}
		case *ast.FuncLit:
			cost += 1 + inlineClosureCost // its body is counted where it is called
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				cost += defineCost * c.defined(n.Lhs...)
				for i, l := range n.Lhs {
					id, _ := l.(*ast.Ident)
					if id == nil || c.info.Defs[id] == nil {
						continue
					}
					if len(n.Rhs) == len(n.Lhs) {
						if lit, ok2 := ast.Unparen(n.Rhs[i]).(*ast.FuncLit); ok2 {
							c.boundLits[c.info.Defs[id]] = lit
						}
					}
				}
			}
		case *ast.LabeledStmt:
			cost++ // its label is no node
			ast.Inspect(n.Stmt, visit)
			return false
		case *ast.BranchStmt:
			cost++
			return false
		case *ast.SelectorExpr:
			if c.isPackage(n.X) {
				cost++ // a qualified name or constant
				return false
			}
			cost++ // a field or method selection; its name is no node
			ast.Inspect(n.X, visit)
			return false
		case *ast.Ident:
			if _, ok2 := c.info.Uses[n].(*types.Builtin); ok2 {
				return false // min, len: the call is their node
			}
		case *ast.KeyValueExpr:
			if c.isField(n.Key) {
				cost++ // a struct literal's field: its value
				ast.Inspect(n.Value, visit)
				return false
			}
		case *ast.CallExpr:
			cost += 1 + c.callCost(n)
			if lit, ok2 := ast.Unparen(n.Fun).(*ast.FuncLit); ok2 {
				// A literal called at once: the closure and its body.
				cost += 1 + inlineClosureCost
				body, why2 := c.nodeCost(lit.Body)
				cost += body
				if why == "" {
					why = why2
				}
				for _, a := range n.Args {
					ast.Inspect(a, visit)
				}
				return false
			}
			return true
		}
		cost++
		return true
	}
	ast.Inspect(n, visit)
	return cost, why
}

// callCost is what the compiler adds to a call's node: nothing for a
// conversion, a builtin (inlinePanicCost for panic) or a literal called
// at once (counted by the caller), otherCalls' cost for another
// package's function, a function of the package's inline cost when it
// inlines, a variable's literal's cost, else inlineCallCost
// (inlineParamCallCost through another variable).
func (c *costs) callCost(call *ast.CallExpr) int {
	fun := ast.Unparen(call.Fun)
	if c.isType(fun) {
		return 0
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.FuncLit:
		return 0
	case *ast.Ident:
		id = f
	case *ast.IndexExpr, *ast.IndexListExpr:
		return inlineCallCost // an instantiated generic function: not followed
	case *ast.SelectorExpr:
		if pkg := c.packageOf(f.X); pkg != nil {
			if cost, ok := otherCalls[pkg.Path()][f.Sel.Name]; ok {
				return cost
			}
			c.unseenCall = true
			if _, generic := c.info.Instances[f.Sel]; generic {
				return genericCallCost
			}
			return inlineCallCost
		}
		id = f.Sel // a method: followed when it is the package's
	}
	if id == nil {
		c.unseenCall = true
		return inlineCallCost
	}
	switch obj := c.info.Uses[id].(type) {
	case *types.Builtin:
		if obj.Name() == "panic" {
			return inlinePanicCost
		}
		return 0
	case *types.Func:
		fn := obj.Origin()
		if c.decls[fn] == nil {
			c.unseenCall = true // another package's method
			return inlineCallCost
		}
		cost, ok := c.inlineCost(fn)
		c.unseenCall = c.unseenCall || c.inl[fn].unseen
		if ok {
			return cost
		}
		return inlineCallCost
	case *types.Var:
		if lit := c.boundLits[obj]; lit != nil {
			// A variable bound to a literal: the compiler calls the
			// literal, and inlines it.
			if cost, why := c.nodeCost(lit.Body); why == "" {
				return cost
			}
		}
		return inlineParamCallCost
	}
	return inlineCallCost
}

// isType reports whether e denotes a type.
func (c *costs) isType(e ast.Expr) bool {
	switch e.(type) {
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StructType, *ast.InterfaceType:
		return true
	}
	tv, ok := c.info.Types[e]
	if ok {
		return tv.IsType()
	}
	if id, ok := e.(*ast.Ident); ok {
		_, isType := c.info.Uses[id].(*types.TypeName)
		return isType
	}
	return false
}

// packageOf is the package e names, or nil.
func (c *costs) packageOf(e ast.Expr) *types.Package {
	if id, ok := e.(*ast.Ident); ok {
		if pn, ok := c.info.Uses[id].(*types.PkgName); ok {
			return pn.Imported()
		}
	}
	return nil
}

// isPackage reports whether e names an imported package.
func (c *costs) isPackage(e ast.Expr) bool { return c.packageOf(e) != nil }

// isField reports whether key names a struct field (the key of a struct
// literal's element).
func (c *costs) isField(key ast.Expr) bool {
	id, ok := key.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.info.Uses[id].(*types.Var)
	return ok && v.IsField()
}

// callOverhead is the units a call of fn, one of the package's functions
// whose body is counted, adds to its body: none when the compiler
// inlines it (inlineCost), else unitsCall.
func (c *costs) callOverhead(fn *types.Func) int {
	if _, ok := c.inlineCost(fn); ok {
		return 0
	}
	return unitsCall
}
