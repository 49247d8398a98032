// Package stale defines an analyzer that reports generated files out of
// date with their specs, and kernels whose generated code is not the
// backend their spec asked for: the stale and fallback categories of
// soacvet (documented in package analyzer/soacvet), which cmd/soacvet
// runs beside soacvet's own analyzer. It lives beside the generator, not
// under analyzer/, because it runs the generator (rewrite.Regenerate):
// the analysis layer never depends on the code generator. Both
// categories come from one regeneration of the package.
//
// The analyzer reports nothing when soacvet's -categories flag leaves the
// stale and fallback categories (and, for a package soacgen fails on, the
// unsupported category) out. It does not generate code, nor decide how
// soacgen would see the package: rewrite.Regenerate does both.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): analyzer: the stale
// category (generated files go generate would change), comparing the files
// with rewrite.Regenerate's outputs, and the fallback category (fallback.go:
// kernels not on the backend asked for, from the same outputs); stale.Vet,
// soacvet's analyzer and this one as one analyzer.
package stale

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/purity"
	"github.com/soacgen/soacgen/analyzer/soacvet"
	"github.com/soacgen/soacgen/rewrite"
)

// Analyzer reports generated files that go generate would change; see
// the package documentation.
var Analyzer = &analysis.Analyzer{
	Name: "soacstale",
	Doc:  "report generated files that are out of date with their //soac:fuse specs, and kernels that fall back from the backend asked for\n\nThe stale category of soacvet: each spec whose generated function differs from what soacgen would write now, each output file that is missing or not soacgen's, and each output no spec generates any more. The fallback category: each kernel whose generated code is another backend's than the one its spec asked for, with the reason.",
	URL:  "https://pkg.go.dev/github.com/soacgen/soacgen/rewrite/stale",
	// purity.Analyzer is required for its result, which the check
	// recomputes on soacgen's view of the package.
	Requires: []*analysis.Analyzer{purity.Analyzer},
	Run:      run,
	// A package with type errors is not checked (soacgen would not
	// generate it); run anyway, so that Regenerate says so.
	RunDespiteErrors: true,
}

// The categories of the findings (soacvet's).
const (
	Stale       = soacvet.Stale
	Unsupported = soacvet.Unsupported
	Fallback    = soacvet.Fallback
)

func run(pass *analysis.Pass) (any, error) {
	(&reporter{pass: pass}).stale()
	return nil, nil
}

// reporter reports findings whose category soacvet's -categories flag
// enables.
type reporter struct{ pass *analysis.Pass }

func (r *reporter) report(d analysis.Diagnostic) {
	if soacvet.Enabled(d.Category) {
		r.pass.Report(d)
	}
}

// guardPrefix starts the name of the function through which a generated
// file breaks the build when its spec's signature changed (rewrite's
// soacgenRerunGoGenerate_NAME).
const guardPrefix = "soacgenRerunGoGenerate_"

// specDirective is a //soac:fuse directive of the analysed package: the
// spec whose doc comment holds it, the comment, and the NAME it asks for
// (a spec with several directives has one specDirective per directive).
type specDirective struct {
	spec string
	name string
	pos  token.Pos // of the directive comment
}

// stale reports each spec whose generated function differs from what
// soacgen would write now, each output file that is missing or that
// soacgen would refuse to overwrite, and each of soacgen's outputs that no
// spec generates any more (soacgen deletes them).
//
// What soacgen would write comes from rewrite.Regenerate, which rebuilds
// the package as soacgen loads it (its previous outputs hidden behind
// stubs) and generates it byte for byte, with no -fuse.gas limit, as
// go generate does. A package whose specs soacgen would not generate
// (type errors, malformed directives) is not checked: the type checker and
// the directive category report why. The generated file is compared per
// generated function: the function NAME with its doc comment and the
// declarations that guard its signature, so the finding names the spec
// that changed; a file whose functions all match but whose bytes differ
// elsewhere (imports, order, a hand edit) gets one finding for the file.
func (r *reporter) stale() {
	if !soacvet.Enabled(Stale) && !soacvet.Enabled(Unsupported) && !soacvet.Enabled(Fallback) {
		return // Unsupported: a package soacgen cannot generate
	}
	pass := r.pass
	specs := specDirectives(pass)
	var outputs []*ast.File // soacgen's outputs in the package
	for _, f := range pass.Files {
		if n := fileName(pass, f); rewrite.IsOutputName(n) && rewrite.GeneratedFile(f) {
			outputs = append(outputs, f)
		}
	}
	if len(specs) == 0 && len(outputs) == 0 {
		return // the common case, decided without generating anything
	}
	pur, _ := pass.ResultOf[purity.Analyzer].(*purity.Verdicts)
	if pur == nil {
		return
	}
	outs, ok, err := regenerate(pass, pur)
	if err != nil {
		if len(specs) > 0 {
			// Reported under -categories=stale and fallback too: go
			// generate and soacgen -check fail on it, and neither check
			// can run (stale() returned early if no category that
			// needs it is enabled).
			r.pass.Report(analysis.Diagnostic{Pos: specs[0].pos, Category: Unsupported,
				Message: fmt.Sprintf("soacgen cannot generate this package (go generate fails), so its generated files are not checked: %v", err)})
		}
		return
	}
	if !ok {
		return
	}
	r.fallbacks(outs)
	byName := map[string]specDirective{}
	for _, s := range specs {
		byName[s.name] = s
	}
	written := map[string]bool{}
	for _, o := range outs {
		written[o.Path] = true
		var fileSpecs []specDirective
		for _, name := range o.Names {
			if s, ok := byName[name]; ok {
				fileSpecs = append(fileSpecs, s)
			}
		}
		if len(fileSpecs) > 0 {
			r.staleOutput(o, fileSpecs)
			for _, c := range o.Companions {
				written[c.Path] = true
				r.staleCompanion(o, c, fileSpecs[0])
			}
		}
	}
	for _, f := range outputs {
		if n := fileName(pass, f); !written[n] {
			r.report(analysis.Diagnostic{Pos: f.Package, Category: Stale,
				Message: fmt.Sprintf("stale: %s is left over: no //soac:fuse spec of the package generates it any more; run go generate to delete it", filepath.Base(n))})
		}
	}
}

// regenerate is rewrite.Regenerate, turning a panic (a generator bug) into
// an error so that it cannot crash the vet run.
func regenerate(pass *analysis.Pass, pur *purity.Verdicts) (outs []rewrite.Output, ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			outs, ok, err = nil, false, fmt.Errorf("soacgen panicked: %v", p)
		}
	}()
	return rewrite.Regenerate(pass, pur)
}

// staleOutput compares the output o with the file on disk and reports the
// specs (specs, in o's order) whose generated code differs.
func (r *reporter) staleOutput(o rewrite.Output, specs []specDirective) {
	file := filepath.Base(o.Path)
	report := func(s specDirective, format string, args ...any) {
		r.report(analysis.Diagnostic{Pos: s.pos, Category: Stale, Message: "stale: " + fmt.Sprintf(format, args...)})
	}
	old, exists := r.readOutput(o.Path)
	switch {
	case !exists:
		for _, s := range specs {
			report(s, "%s is missing (it holds %s, generated from %s); run go generate", file, s.name, s.spec)
		}
		return
	case !rewrite.IsGenerated(old):
		for _, s := range specs {
			report(s, "%s was not generated by soacgen (it lacks the %q header), so go generate cannot write %s into it; rename or remove it", file, rewrite.Header, s.name)
		}
		return
	case bytes.Equal(old, o.Content):
		return
	}
	// The first finding carries the fix that rewrites the file as
	// go generate would.
	fix, hasFix := r.regenerateFix(o, old)
	report = func(s specDirective, format string, args ...any) {
		d := analysis.Diagnostic{Pos: s.pos, Category: Stale, Message: "stale: " + fmt.Sprintf(format, args...)}
		if hasFix {
			d.SuggestedFixes, hasFix = []analysis.SuggestedFix{fix}, false
		}
		r.report(d)
	}
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	want, _ := generatedParts(o.Content, names)
	got, parsed := generatedParts(old, names)
	found := false
	for _, s := range specs {
		g, ok := got[s.name]
		switch {
		case !parsed:
		case !ok:
			report(s, "%s is missing from %s; run go generate to generate it from %s", s.name, file, s.spec)
			found = true
		case g != want[s.name]:
			report(s, "%s in %s is out of date with %s; run go generate", s.name, file, s.spec)
			found = true
		}
	}
	if !found {
		report(specs[0], "%s is out of date with %s; run go generate", file, filepath.Base(o.Source))
	}
}

// staleCompanion reports, at the first spec of o's file, a companion c
// of o (its kernels' vector forms or their scalar stubs) that is missing
// or differs from what go generate would write.
func (r *reporter) staleCompanion(o rewrite.Output, c rewrite.File, s specDirective) {
	file := filepath.Base(c.Path)
	old, exists := r.readOutput(c.Path)
	msg := ""
	switch {
	case !exists:
		msg = fmt.Sprintf("stale: %s is missing (it holds the vector forms of kernels of %s); run go generate", file, filepath.Base(o.Source))
	case !rewrite.IsGenerated(old):
		msg = fmt.Sprintf("stale: %s was not generated by soacgen (it lacks the %q header), so go generate cannot write the vector forms of %s into it; rename or remove it", file, rewrite.Header, filepath.Base(o.Source))
	case !bytes.Equal(old, c.Content):
		msg = fmt.Sprintf("stale: %s is out of date with %s; run go generate", file, filepath.Base(o.Source))
	default:
		return
	}
	r.report(analysis.Diagnostic{Pos: s.pos, Category: Stale, Message: msg})
}

// regenerateFix returns the fix that replaces the generated file o.Path,
// whose content is old, with o.Content: what go generate would write. It
// reports false when the file is not one of the package's parsed files
// (build constraints exclude it) or its parsed text is not old, since an
// edit can only apply to the text the pass parsed. No fix can create a
// missing file or delete a left-over one.
func (r *reporter) regenerateFix(o rewrite.Output, old []byte) (analysis.SuggestedFix, bool) {
	for _, f := range r.pass.Files {
		if fileName(r.pass, f) != o.Path {
			continue
		}
		if tf := r.pass.Fset.File(f.FileStart); tf == nil || tf.Size() != len(old) {
			return analysis.SuggestedFix{}, false
		}
		return analysis.SuggestedFix{
			Message:   "regenerate " + filepath.Base(o.Path) + " as go generate would",
			TextEdits: []analysis.TextEdit{{Pos: f.FileStart, End: f.FileEnd, NewText: o.Content}},
		}, true
	}
	return analysis.SuggestedFix{}, false
}

// readOutput returns the content of the generated file at path, and
// whether it exists: whether it is one of the package's files (the
// loader lists every .go file of the directory, those that build
// constraints exclude among IgnoredFiles).
func (r *reporter) readOutput(path string) ([]byte, bool) {
	pass := r.pass
	listed := slices.Contains(pass.OtherFiles, path) || slices.Contains(pass.IgnoredFiles, path) ||
		slices.ContainsFunc(pass.Files, func(f *ast.File) bool { return fileName(pass, f) == path })
	if !listed {
		return nil, false
	}
	b, err := pass.ReadFile(path)
	if err != nil {
		return nil, false
	}
	return b, true
}

// generatedParts splits a generated file into the code generated for each
// of names: the function NAME with its doc comment, and the declarations
// that guard its signature (soacgenRerunGoGenerate_NAME and the func _()
// calling it), concatenated in file order. It reports false when src does
// not parse.
func generatedParts(src []byte, names []string) (map[string]string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	tf := fset.File(f.FileStart)
	parts := map[string]string{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil {
			continue
		}
		owner := ""
		switch n := fd.Name.Name; {
		case slices.Contains(names, n):
			owner = n
		case strings.HasPrefix(n, guardPrefix) && slices.Contains(names, n[len(guardPrefix):]):
			owner = n[len(guardPrefix):]
		case n == "_" && fd.Body != nil:
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, guardPrefix) && slices.Contains(names, id.Name[len(guardPrefix):]) {
					owner = id.Name[len(guardPrefix):]
				}
				return owner == ""
			})
		}
		if owner == "" {
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		parts[owner] += string(src[tf.Offset(start):tf.Offset(fd.End())]) + "\n"
	}
	return parts, true
}

// specDirectives returns the directives of the package's non-test files
// (the only ones soacgen generates), in source order, then in the order
// of a spec's doc comment: every "//soac:fuse NAME" in the doc comment of
// a top-level function, read as rewrite's stubs read it. Malformed
// directives are the directive category's.
func specDirectives(pass *analysis.Pass) []specDirective {
	var out []specDirective
	for _, f := range pass.Files {
		if strings.HasSuffix(fileName(pass, f), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				if rest, ok := strings.CutPrefix(c.Text, "//soac:fuse "); ok {
					if fs := strings.Fields(rest); len(fs) > 0 && token.IsIdentifier(fs[0]) {
						out = append(out, specDirective{spec: fd.Name.Name, name: fs[0], pos: c.Pos()})
					}
				}
			}
		}
	}
	return out
}

// fileName is the name of f as the pass knows it.
func fileName(pass *analysis.Pass, f *ast.File) string {
	return pass.Fset.File(f.FileStart).Name()
}
