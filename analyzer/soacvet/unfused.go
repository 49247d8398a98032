package soacvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// unfusedFinding describes kernel k of a function without a directive as an
// unfused pipeline: what its members cost when each runs on its own, and
// what they would cost fused. It reports false for a kernel of one SOAC
// and for one whose fusion would save neither a pass nor an allocation.
// The finding spans the members' calls.
func unfusedFinding(k *fusion.Kernel) (analysis.Diagnostic, bool) {
	if len(k.SOACs) < 2 {
		return analysis.Diagnostic{}, false
	}
	passes := 0
	pos, end := token.NoPos, token.NoPos
	for _, s := range k.SOACs {
		if !s.IsGenerator() {
			passes++
		}
		if !pos.IsValid() || s.Source().Pos() < pos {
			pos = s.Source().Pos()
		}
		if s.Source().End() > end {
			end = s.Source().End()
		}
	}
	intermediates := len(k.Internal)
	if passes <= 1 && intermediates == 0 {
		return analysis.Diagnostic{}, false
	}
	msg := fmt.Sprintf("pipeline of %d SOACs makes %s", len(k.SOACs), plural(passes, "pass", "passes"))
	if intermediates > 0 {
		msg += " and allocates " + plural(intermediates, "intermediate slice", "intermediate slices")
	}
	msg += "; //soac:fuse would make it 1 pass"
	if passes <= 1 {
		// The gain is the allocation alone; say so.
		msg += " allocating none"
	}
	return analysis.Diagnostic{Pos: pos, End: end, Category: Unfused, Message: msg}, true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// directiveFix returns the fix that marks fn as a spec: a
// "//soac:fuse NAMEFused" line inserted above its func keyword. It reports
// false for methods and init functions, which cannot be specs.
func directiveFix(pass *analysis.Pass, prog *ir.Program, fn *ir.Function) (analysis.SuggestedFix, bool) {
	decl := fn.Decl
	if decl == nil || decl.Recv != nil || decl.Name.Name == "init" {
		return analysis.SuggestedFix{}, false
	}
	file := pass.Fset.File(decl.Pos())
	if file == nil || strings.HasSuffix(file.Name(), "_test.go") {
		return analysis.SuggestedFix{}, false // soacgen generates nothing for test files
	}
	name := fusedName(pass, prog, decl.Name.Name)
	text := "//soac:fuse " + name + "\n"
	if doc := decl.Doc; doc != nil {
		// gofmt separates a doc comment's text from its trailing
		// directives by a "//" line; write the fixed file in that form.
		last := doc.List[len(doc.List)-1].Text
		if strings.HasPrefix(last, "//") && last != "//" && !isDirective(last) {
			text = "//\n" + text
		}
	}
	at := decl.Type.Func
	fix := analysis.SuggestedFix{
		Message: "mark " + decl.Name.Name + " for fusion as " + name,
		TextEdits: []analysis.TextEdit{{
			Pos:     at,
			End:     at,
			NewText: []byte(text),
		}},
	}
	if f := fileOf(pass, decl); f != nil && !hasGenerateLine(pass) {
		// Without a //go:generate line running soacgen, "run go
		// generate" would do nothing: add one after the package clause.
		fix.Message += ", with a //go:generate line running soacgen"
		fix.TextEdits = append([]analysis.TextEdit{{
			Pos:     f.Name.End(),
			End:     f.Name.End(),
			NewText: []byte("\n\n" + generateLine),
		}}, fix.TextEdits...)
	}
	return fix, true
}

// generateLine is the //go:generate line the fix adds (README.md's).
const generateLine = "//go:generate go run github.com/soacgen/soacgen/cmd/soacgen"

// hasGenerateLine reports whether a //go:generate line of the package's
// files runs soacgen.
func hasGenerateLine(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:generate ") && strings.Contains(c.Text, "soacgen") {
					return true
				}
			}
		}
	}
	return false
}

// fileOf returns the file of pass that holds n.
func fileOf(pass *analysis.Pass, n ast.Node) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() < f.FileEnd {
			return f
		}
	}
	return nil
}

// isDirective reports whether the // comment c is a directive in the sense
// of go/ast (//go:noinline, //soac:fuse, //lint:ignore): "//", a lower-case
// word, a colon, and a lower-case letter or digit, with no space.
func isDirective(c string) bool {
	word, rest, ok := strings.Cut(strings.TrimPrefix(c, "//"), ":")
	if !ok || word == "" || rest == "" || !lowerAlnum(rest[0]) {
		return false
	}
	for i := 0; i < len(word); i++ {
		if !lowerAlnum(word[i]) {
			return false
		}
	}
	return true
}

func lowerAlnum(b byte) bool { return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' }

// fusedName returns base+"Fused", or the first of base+"Fused2",
// base+"Fused3", ... that neither the package scope holds nor a
// //soac:fuse directive of the package already names.
func fusedName(pass *analysis.Pass, prog *ir.Program, base string) string {
	taken := func(name string) bool {
		if pass.Pkg.Scope().Lookup(name) != nil {
			return true
		}
		return slices.ContainsFunc(prog.Funcs, func(fn *ir.Function) bool {
			return slices.ContainsFunc(fn.Directed(), func(d *ir.Function) bool { return d.Fuse.Name == name })
		})
	}
	name := base + "Fused"
	for i := 2; taken(name); i++ {
		name = base + "Fused" + strconv.Itoa(i)
	}
	return name
}
