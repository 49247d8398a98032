// Package lochain finds pipelines written with github.com/samber/lo that
// make several passes over their data: a chain of lo.Map, lo.Filter,
// lo.FilterMap, lo.Sum, lo.SumBy, lo.Count, lo.CountBy and lo.Reduce
// calls where each one's result is the next one's collection, nested or
// through a local variable that nothing else reads. Each link is a pass
// over memory and each slice between two links an allocation that one
// fused pass would not make.
//
// A chain is what the code computes; whether it can be written as one
// fused spec exactly (lo.Reduce's function need not be associative, and
// its accumulator's type may differ from the elements') is not judged
// here: Chain says what each link is, and soacvet reports the chain as a
// finding of its own category.
package lochain

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Path is the import path of samber/lo.
const Path = "github.com/samber/lo"

// kind is what a lo function does in a chain.
type kind int

const (
	// slice: it returns a new slice (Map, Filter, FilterMap).
	slice kind = iota
	// fold: it returns one value (Sum, SumBy, Count, CountBy, Reduce).
	fold
)

// funcs are the lo functions a chain is made of, as data.
var funcs = map[string]kind{
	"Map": slice, "Filter": slice, "FilterMap": slice,
	"Sum": fold, "SumBy": fold, "Count": fold, "CountBy": fold, "Reduce": fold,
}

// Chain is one pipeline of lo calls, first call first.
type Chain struct {
	// Calls are the links in evaluation order; the last one's result is
	// the chain's.
	Calls []*ast.CallExpr
	// Names are their lo function names ("Map", ...).
	Names []string
}

// Passes is the number of passes the chain makes over its data.
func (c Chain) Passes() int { return len(c.Calls) }

// Intermediates is the number of slices the chain allocates that only
// its next link reads.
func (c Chain) Intermediates() int { return len(c.Calls) - 1 }

// Folds reports whether the chain's result is one value (its last link
// is a fold), so that one fused pass would allocate no slice at all.
func (c Chain) Folds() bool { return funcs[c.Names[len(c.Names)-1]] == fold }

// Pos is the position the chain is reported at: its last call.
func (c Chain) Pos() token.Pos { return c.Calls[len(c.Calls)-1].Pos() }

// String names the links: "lo.Filter → lo.Map → lo.Sum".
func (c Chain) String() string {
	parts := make([]string, len(c.Names))
	for i, n := range c.Names {
		parts[i] = "lo." + n
	}
	return strings.Join(parts, " → ")
}

// Find returns the chains of two or more links in the function bodies of
// files, in source order of their last calls. Test files (named
// *_test.go in fset) are skipped: tests and benchmarks keep multi-pass
// lo code on purpose, as the baseline a fused spec is compared with.
func Find(fset *token.FileSet, files []*ast.File, info *types.Info) []Chain {
	var out []Chain
	for _, f := range files {
		if strings.HasSuffix(fset.Position(f.Package).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			out = append(out, inBody(fd.Body, info)...)
		}
	}
	return out
}

// inBody returns the chains of one function body (function literals in
// it included).
func inBody(body *ast.BlockStmt, info *types.Info) []Chain {
	uses := map[types.Object]int{}
	assigns := map[types.Object]int{}
	defs := map[types.Object]*ast.CallExpr{}
	var calls []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil {
				uses[obj]++
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.Defs[id]
				if obj == nil {
					obj = info.Uses[id]
					uses[obj]-- // an assignment is not a read
				}
				if obj == nil {
					continue
				}
				assigns[obj]++
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					if c, ok := n.Rhs[i].(*ast.CallExpr); ok {
						defs[obj] = c
					}
				}
			}
		case *ast.CallExpr:
			if loName(n, info) != "" {
				calls = append(calls, n)
			}
		}
		return true
	})
	// producer returns the lo call whose slice e is: the call itself, or
	// the one call defining a local that only e reads.
	producer := func(e ast.Expr) *ast.CallExpr {
		switch e := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			if funcs[loName(e, info)] == slice && loName(e, info) != "" {
				return e
			}
		case *ast.Ident:
			obj := info.Uses[e]
			c := defs[obj]
			if c != nil && assigns[obj] == 1 && uses[obj] == 1 && loName(c, info) != "" && funcs[loName(c, info)] == slice {
				return c
			}
		}
		return nil
	}
	fed := map[*ast.CallExpr]bool{}
	for _, c := range calls {
		if len(c.Args) > 0 {
			if p := producer(c.Args[0]); p != nil {
				fed[p] = true
			}
		}
	}
	var out []Chain
	for _, c := range calls {
		if fed[c] {
			continue // a link inside a longer chain
		}
		links := []*ast.CallExpr{c}
		for cur := c; len(cur.Args) > 0; {
			p := producer(cur.Args[0])
			if p == nil {
				break
			}
			links = append(links, p)
			cur = p
		}
		if len(links) < 2 {
			continue
		}
		ch := Chain{}
		for i := len(links) - 1; i >= 0; i-- {
			ch.Calls = append(ch.Calls, links[i])
			ch.Names = append(ch.Names, loName(links[i], info))
		}
		out = append(out, ch)
	}
	return out
}

// loName returns the name of the lo function call c calls, when it is
// one of funcs, else "".
func loName(c *ast.CallExpr, info *types.Info) string {
	fun := ast.Unparen(c.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // lo.Map[int, string](...)
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != Path {
		return ""
	}
	if _, ok := funcs[fn.Name()]; !ok {
		return ""
	}
	return fn.Name()
}
