package build

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// fakePurity is a small, fixed purity oracle for the builder's tests, so
// that they do not depend on the purity analyzer:
//   - math, strings, strconv, unicode functions are pure;
//   - sort.* functions write argument 0;
//   - fmt.* and print functions are impure I/O that may write globals;
//   - os.Exit and log.Fatal* never return;
//   - functions of the package under test are pure unless named mut*
//     (write argument 0), side* (impure, write globals) or panics* (never
//     return); methods named Set* or Push* write their receiver;
//   - a literal is impure if it assigns a variable declared outside it or
//     makes an impure call, pure otherwise;
//   - anything else (function values, other packages) is impure, writes
//     every argument and global state.
type fakePurity struct{ info *types.Info }

var _ purity.Result = fakePurity{}

func (f fakePurity) Func(fn *types.Func) ir.Purity {
	return f.funcEffect(fn).Purity
}

func (f fakePurity) funcEffect(fn *types.Func) purity.CallEffect {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Path()
	}
	impure := func(r string) ir.Purity {
		p := ir.Purity{Reason: r, MayPanic: true}
		if strings.HasPrefix(pkg, "github.com/soacgen") || !strings.Contains(pkg, ".") && !stdlib[pkg] {
			p.Pos = fn.Pos() // positions in the standard library change between Go versions
		}
		return p
	}
	name := fn.Name()
	sig := fn.Type().(*types.Signature)
	switch {
	case pkg == "math" || pkg == "strings" || pkg == "strconv" || pkg == "unicode":
		return purity.CallEffect{Purity: ir.Purity{Pure: true}}
	case pkg == "sort":
		return purity.CallEffect{Purity: impure("calls " + fn.FullName() + ", which writes its argument"), WritesArgs: []int{0}}
	case pkg == "fmt":
		return purity.CallEffect{Purity: impure("calls " + fn.FullName() + " (I/O)"), WritesGlobal: true}
	case pkg == "os" && name == "Exit", pkg == "log" && strings.HasPrefix(name, "Fatal"):
		return purity.CallEffect{Purity: impure("calls " + fn.FullName() + " (exits)"), NoReturn: true, WritesGlobal: true}
	case pkg == SOACPath:
		return purity.CallEffect{Purity: ir.Purity{Pure: true, MayPanic: true}}
	case strings.HasPrefix(pkg, "github.com/soacgen") || !strings.Contains(pkg, "."):
		if sig.Recv() != nil && (strings.HasPrefix(name, "Set") || strings.HasPrefix(name, "Push")) {
			return purity.CallEffect{Purity: impure("calls " + fn.FullName() + ", which writes its receiver"), WritesArgs: []int{-1}}
		}
		switch {
		case strings.HasPrefix(name, "mut"):
			return purity.CallEffect{Purity: impure("calls " + fn.FullName() + ", which writes its argument"), WritesArgs: []int{0}}
		case strings.HasPrefix(name, "side"):
			return purity.CallEffect{Purity: impure("calls " + fn.FullName() + ", which writes package state"), WritesGlobal: true}
		case strings.HasPrefix(name, "panics"):
			return purity.CallEffect{Purity: impure("calls " + fn.FullName() + ", which panics"), NoReturn: true}
		}
		return purity.CallEffect{Purity: ir.Purity{Pure: true}}
	}
	all := []int{-1}
	for i := 0; i < sig.Params().Len(); i++ {
		all = append(all, i)
	}
	return purity.CallEffect{Purity: impure("calls " + fn.FullName() + " (unknown)"), WritesArgs: all, WritesGlobal: true}
}

func (f fakePurity) Lit(lit *ast.FuncLit) ir.Purity {
	p := ir.Purity{Pure: true}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if !p.Pure {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if obj := f.info.ObjectOf(id); obj != nil && !within(obj.Pos(), lit) {
						p = ir.Purity{Reason: "writes captured variable " + id.Name, Pos: id.Pos()}
					}
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				if obj := f.info.ObjectOf(id); obj != nil && !within(obj.Pos(), lit) {
					p = ir.Purity{Reason: "writes captured variable " + id.Name, Pos: id.Pos()}
				}
			}
		case *ast.CallExpr:
			if tv, ok := f.info.Types[n.Fun]; ok && tv.IsType() {
				return true
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if _, ok := f.info.Uses[id].(*types.Builtin); ok {
					if id.Name == "print" || id.Name == "println" {
						p = ir.Purity{Reason: "calls " + id.Name, Pos: n.Pos()}
					}
					return true
				}
			}
			if ce := f.Call(n); !ce.Purity.Pure {
				p = ir.Purity{Reason: ce.Purity.Reason, Pos: n.Pos()}
			}
		}
		return true
	})
	return p
}

func (f fakePurity) Call(call *ast.CallExpr) purity.CallEffect {
	id := calleeIdent(call.Fun)
	var fn *types.Func
	if id != nil {
		fn, _ = f.info.Uses[id].(*types.Func)
	}
	if fn == nil {
		if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
			return purity.CallEffect{Purity: f.Lit(lit)}
		}
		all := []int{}
		for i := range call.Args {
			all = append(all, i)
		}
		return purity.CallEffect{
			Purity:     ir.Purity{Reason: "calls function value " + types.ExprString(call.Fun) + ", which cannot be resolved", Pos: call.Pos(), MayPanic: true},
			WritesArgs: all, WritesGlobal: true,
		}
	}
	return f.funcEffect(fn)
}

// stdlib are the standard-library packages the testdata imports.
var stdlib = map[string]bool{"fmt": true, "sort": true, "os": true, "log": true, "math": true, "strings": true}
