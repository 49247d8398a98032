package soacvet

import (
	_ "embed"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/lochain"
)

// The stable diagnostic categories (analysis.Diagnostic.Category); doc.go
// documents each.
const (
	Unfused     = "unfused"
	Blocked     = "blocked"
	Size        = "size"
	Impure      = "impure"
	Unsupported = "unsupported"
	Directive   = "directive"
	Stale       = "stale"
	Fallback    = "fallback"
	LoChain     = "lochain"
)

// Categories lists every category soacvet reports, in documentation order.
var Categories = []string{Unfused, Blocked, Size, Impure, Unsupported, Directive, Stale, Fallback, LoChain}

//go:embed doc.go
var docFile string

// Analyzer reports fusable but unfused SOAC pipelines, blocked fusions,
// misuses of runtime/soac and generated files out of date with their
// specs; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:     "soacvet",
	Doc:      analyzerDoc(docFile, "soacvet"),
	URL:      "https://pkg.go.dev/github.com/soacgen/soacgen/analyzer/soacvet",
	Requires: []*analysis.Analyzer{build.Analyzer},
	Run:      run,
	// A package with type errors is analysed as far as its types allow:
	// the purity analyzer and the IR builder run despite errors too, and a
	// function whose types are too incomplete to model is reported as
	// unsupported instead of analysed.
	RunDespiteErrors: true,
}

// The analyzer's flags. They are package state, as flags of go/analysis
// analyzers are, set once by the driver before any pass runs.
var (
	categories = categorySet{}
	gas        int
	cluster    clusterFlag
)

func init() {
	Analyzer.Flags.Var(&categories, "categories", "comma-separated categories to report: all, or a list of "+strings.Join(Categories, ", "))
	Analyzer.Flags.IntVar(&gas, "fuse.gas", 0, "stop the fusion engine after N fusions per function (0: no limit), to bisect a wrong fusion")
	Analyzer.Flags.Var(&cluster, "cluster", "clustering method of specs whose directive names none: "+strings.Join(fusion.Methods(), ", ")+" (default "+fusion.DefaultMethod+")")
}

// clusterFlag is the value of -cluster: a method of fusion.Methods, or ""
// for the default.
type clusterFlag string

func (c *clusterFlag) String() string { return string(*c) }

func (c *clusterFlag) Set(v string) error {
	if fusion.PartitionerFor(v) == nil {
		return fmt.Errorf("unknown clustering method %q (want %s)", v, strings.Join(fusion.Methods(), ", "))
	}
	*c = clusterFlag(v)
	return nil
}

// categorySet is the value of -categories: nil or empty means all.
type categorySet map[string]bool

var _ flag.Value = &categorySet{}

func (s *categorySet) String() string {
	if len(*s) == 0 {
		return "all"
	}
	var names []string
	for _, c := range Categories {
		if (*s)[c] {
			names = append(names, c)
		}
	}
	return strings.Join(names, ",")
}

func (s *categorySet) Set(v string) error {
	set := categorySet{}
	for name := range strings.SplitSeq(v, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "all":
			*s = categorySet{}
			return nil
		case name == "":
		case slices.Contains(Categories, name):
			set[name] = true
		default:
			return fmt.Errorf("unknown category %q (want all or some of %s)", name, strings.Join(Categories, ", "))
		}
	}
	*s = set
	return nil
}

func (s categorySet) enabled(c string) bool { return len(s) == 0 || s[c] }

// Enabled reports whether the -categories flag enables category c: the
// stale analyzer (package rewrite/stale: the stale and fallback
// categories), which cmd/soacvet runs beside Analyzer, reports its
// findings only if so.
func Enabled(c string) bool { return categories.enabled(c) }

func run(pass *analysis.Pass) (any, error) {
	prog, _ := pass.ResultOf[build.Analyzer].(*ir.Program)
	if prog == nil {
		return nil, nil
	}
	r := &reporter{pass: pass, prog: prog, seen: map[seenKey]bool{}}
	for _, ch := range lochain.Find(pass.Fset, pass.Files, pass.TypesInfo) {
		r.report(analysis.Diagnostic{Pos: ch.Pos(), Category: LoChain, Message: loChainMessage(ch)})
	}
	for _, p := range prog.Problems {
		cat := Directive
		if p.Untyped {
			cat = Unsupported
		}
		r.report(analysis.Diagnostic{Pos: p.Pos, Category: cat, Message: p.Msg})
	}
	opts := fusion.Options{Gas: gas, Fset: pass.Fset, Cluster: string(cluster)}
	fuse := fusion.Fuse
	if len(pass.TypeErrors) > 0 {
		fuse = fuseDespiteErrors
	}
	for _, fn := range prog.Funcs {
		if fn.Fuse == nil {
			if plan := fuse(fn, opts); plan != nil {
				r.nonSpec(fn, plan)
			} else {
				r.unanalysed(fn)
			}
			continue
		}
		// A spec is analysed once per clustering its directives ask for
		// (the backend does not change the plan); findings the analyses
		// share are reported once (reporter.seen).
		analysed := map[string]bool{}
		for _, d := range fn.Directed() {
			if analysed[d.Fuse.Cluster] {
				continue
			}
			analysed[d.Fuse.Cluster] = true
			plan := fuse(d, opts)
			if plan == nil {
				r.unanalysed(fn)
				break
			}
			r.spec(d, plan)
		}
	}
	return nil, nil
}

// unanalysed reports that fn's IR could not be fused.
func (r *reporter) unanalysed(fn *ir.Function) {
	r.report(analysis.Diagnostic{Pos: fn.Decl.Name.Pos(), Category: Unsupported,
		Message: fn.Name + " is not analysed: its type information is incomplete (fix the type errors first)"})
}

// fuseDespiteErrors is fusion.Fuse for a package with type errors: IR built
// from incomplete types may break the engine, and then the function is
// reported unanalysed (nil) rather than crashing the analysis.
func fuseDespiteErrors(fn *ir.Function, opts fusion.Options) (plan *fusion.Plan) {
	defer func() {
		if r := recover(); r != nil {
			plan = nil
		}
	}()
	return fusion.Fuse(fn, opts)
}

// explainedBy maps the fusion refusals that a plan diagnostic explains to
// that diagnostic's category.
var explainedBy = map[string]string{
	fusion.RefSizeMismatch: Size,
	fusion.RefImpure:       Impure,
}

// reporter reports each finding once, filtered by -categories.
type reporter struct {
	pass *analysis.Pass
	prog *ir.Program
	seen map[seenKey]bool
}

type seenKey struct {
	pos      token.Pos
	category string
	message  string
}

func (r *reporter) report(d analysis.Diagnostic) {
	if !categories.enabled(d.Category) {
		return
	}
	k := seenKey{d.Pos, d.Category, d.Message}
	if r.seen[k] {
		return
	}
	r.seen[k] = true
	r.pass.Report(d)
}

// spec reports the findings in a function with a //soac:fuse directive.
func (r *reporter) spec(fn *ir.Function, plan *fusion.Plan) {
	// A refusal for a size mismatch or an impure lambda is explained by the
	// size or impure finding the plan has at the same position; it is not
	// repeated as blocked.
	explained := map[token.Pos]map[string]bool{}
	for _, d := range plan.Diagnostics {
		if explained[d.Pos] == nil {
			explained[d.Pos] = map[string]bool{}
		}
		explained[d.Pos][d.Category] = true
	}
	for _, n := range plan.Notes {
		if c, ok := explainedBy[n.Rule]; ok && explained[n.Pos][c] {
			continue
		}
		msg := n.Reason
		if n.Rule != "" {
			msg += " [" + n.Rule + "]"
		}
		r.report(analysis.Diagnostic{Pos: n.Pos, Category: Blocked, Message: msg})
	}
	for _, d := range plan.Diagnostics {
		if d.Category == Unsupported {
			continue // reported below, from the IR, with the expression's extent
		}
		r.report(analysis.Diagnostic{Pos: d.Pos, Category: d.Category, Message: d.Message})
	}
	for _, u := range fn.Unsupported {
		var e ast.Node = u.Expr
		if u.Expr == nil {
			e = u.Call
		}
		if e == nil {
			continue
		}
		r.report(analysis.Diagnostic{Pos: e.Pos(), End: e.End(), Category: Unsupported, Message: u.Reason + "; it stays as written, unfused"})
	}
}

// nonSpec reports the findings in a function without a directive: the
// pipelines that would fuse, and calls that always panic.
func (r *reporter) nonSpec(fn *ir.Function, plan *fusion.Plan) {
	for _, d := range plan.Diagnostics {
		if d.Category == Size {
			r.report(analysis.Diagnostic{Pos: d.Pos, Category: d.Category, Message: d.Message})
		}
	}
	if !categories.enabled(Unfused) || fn.Decl == nil || generated(r.pass, fn.Decl) || r.misdirected(fn) {
		return
	}
	if f := r.pass.Fset.File(fn.Decl.Pos()); f != nil && strings.HasSuffix(f.Name(), "_test.go") {
		return // soacgen generates nothing for test files: //soac:fuse could not help
	}
	fixed := false
	for _, k := range plan.Kernels {
		d, ok := unfusedFinding(k)
		if !ok {
			continue
		}
		if !fixed {
			if fix, ok := directiveFix(r.pass, r.prog, fn); ok {
				d.SuggestedFixes = []analysis.SuggestedFix{fix}
			}
			fixed = true
		}
		r.report(d)
	}
}

// misdirected reports whether fn's doc comment holds a malformed
// directive (a Program.Problem): its author meant it as a spec, and the
// directive finding says what to repair.
func (r *reporter) misdirected(fn *ir.Function) bool {
	doc := fn.Decl.Doc
	if doc == nil {
		return false
	}
	for _, p := range r.prog.Problems {
		if doc.Pos() <= p.Pos && p.Pos < doc.End() {
			return true
		}
	}
	return false
}

// generated reports whether decl is in a generated file.
func generated(pass *analysis.Pass, decl *ast.FuncDecl) bool {
	for _, f := range pass.Files {
		if f.FileStart <= decl.Pos() && decl.Pos() < f.FileEnd {
			return ast.IsGenerated(f)
		}
	}
	return false
}

// analyzerDoc extracts the analyzer's documentation from doc.go: the text
// after the "# Analyzer name" heading of the package comment, up to the
// next heading, with the one-line summary first (as x/tools analyzers do).
func analyzerDoc(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic("soacvet: cannot parse doc.go")
	}
	text := f.Doc.Text()
	_, after, ok := strings.Cut(text, "# Analyzer "+name+"\n")
	if !ok {
		panic("soacvet: doc.go has no # Analyzer " + name + " heading")
	}
	after = strings.TrimSpace(after)
	after, _, _ = strings.Cut(after, "\n# ")
	summary, rest, _ := strings.Cut(after, "\n")
	summary = strings.TrimPrefix(summary, name+": ")
	return strings.TrimSpace(summary + "\n" + rest)
}

// loChainMessage describes a chain of lo calls: its passes, the slices
// between them, and what one fused pass would allocate.
func loChainMessage(ch lochain.Chain) string {
	result := "only its result"
	if ch.Folds() {
		result = "no slice"
	}
	slices := "slices"
	if ch.Intermediates() == 1 {
		slices = "slice"
	}
	return fmt.Sprintf("%s makes %d passes over its data and allocates %d intermediate %s; one fused pass (a runtime/soac spec with a //soac:fuse directive) would allocate %s",
		ch, ch.Passes(), ch.Intermediates(), slices, result)
}
