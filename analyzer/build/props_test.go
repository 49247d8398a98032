package build

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// The tests in this file assert properties of the IR of the golden
// packages directly, so that a golden file updated by mistake cannot hide a
// regression in what the fusion engine relies on.

var (
	propsOnce  sync.Once
	propsProgs map[string]*ir.Program
)

func props(t *testing.T) map[string]*ir.Program {
	t.Helper()
	propsOnce.Do(func() { propsProgs = runPkgs(t, goldenPkgs...) })
	if propsProgs == nil {
		t.Fatal("building the testdata failed")
	}
	return propsProgs
}

func function(t *testing.T, pkg, name string) *ir.Function {
	t.Helper()
	prog := props(t)[pkg]
	if prog == nil {
		t.Fatalf("no package %s", pkg)
	}
	for _, fn := range prog.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	t.Fatalf("%s: no function %s", pkg, name)
	return nil
}

// stmts returns the statements of fn at any depth, in Walk order.
func stmts(fn *ir.Function) []ir.Stmt {
	var ss []ir.Stmt
	ir.Walk(fn.Body, func(s ir.Stmt) bool { ss = append(ss, s); return true })
	return ss
}

func soacs(fn *ir.Function) []*ir.SOAC {
	var out []*ir.SOAC
	for _, s := range stmts(fn) {
		if s, ok := s.(*ir.SOAC); ok {
			out = append(out, s)
		}
	}
	return out
}

// plainText finds the top-level-or-nested Plain (not hoisted) whose source
// text starts with prefix.
func plainText(t *testing.T, fn *ir.Function, prefix string) *ir.Plain {
	t.Helper()
	for _, s := range stmts(fn) {
		if p, ok := s.(*ir.Plain); ok && p.Hoisted == nil {
			if strings.HasPrefix(srcText(p.Node), prefix) {
				return p
			}
		}
	}
	t.Fatalf("%s: no plain statement %q", fn.Name, prefix)
	return nil
}

func srcText(n ast.Node) string {
	var buf bytes.Buffer
	printer.Fprint(&buf, token.NewFileSet(), n)
	return strings.Join(strings.Fields(buf.String()), " ")
}

func hasVar(vs []*ir.Var, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

func param(fn *ir.Function, name string) *ir.Var {
	for _, p := range fn.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func TestRecognition(t *testing.T) {
	fn := function(t, "imports", "renamed")
	ss := soacs(fn)
	if len(ss) != 4 {
		t.Fatalf("renamed: %d SOACs, want 4 (renamed, dot, explicit instantiations)", len(ss))
	}
	for _, s := range ss {
		if s.Name != "Map" || len(s.TypeArgs) != 2 || s.TypeArgs[0].String() != "int" || !s.IsMap() {
			t.Errorf("renamed: SOAC %s%v", s.Name, s.TypeArgs)
		}
	}
	if p := plainText(t, fn, "_ = s.LengthError"); p.Eff.Impure != "" {
		t.Errorf("LengthError is an ordinary pure call here, got impure %q", p.Eff.Impure)
	}
}

func TestUnsupported(t *testing.T) {
	cases := []struct {
		fn      string
		n       int
		reason  string
		nsoacs  int
		callNil bool
	}{
		{"asValue", 1, "used as a value", 0, true},
		{"andOr", 3, "right operand of", 0, false},
		{"forCond", 2, "for loop's", 0, false},
		{"caseExpr", 1, "case expression", 0, false},
		{"deferred", 1, "deferred call", 1, false},
		{"afterCond", 1, "evaluated conditionally", 0, false},
		{"afterCondSOAC", 2, "evaluated ", 0, false},
	}
	for _, c := range cases {
		fn := function(t, "unsupported", c.fn)
		if len(fn.Unsupported) != c.n {
			t.Errorf("%s: %d unsupported, want %d", c.fn, len(fn.Unsupported), c.n)
		}
		for _, u := range fn.Unsupported {
			if !strings.Contains(u.Reason, c.reason) {
				t.Errorf("%s: reason %q lacks %q", c.fn, u.Reason, c.reason)
			}
			if (u.Call == nil) != c.callNil || u.Expr == nil {
				t.Errorf("%s: Call %v Expr %v", c.fn, u.Call, u.Expr)
			}
		}
		if got := len(soacs(fn)); got != c.nsoacs {
			t.Errorf("%s: %d SOAC statements, want %d", c.fn, got, c.nsoacs)
		}
	}
	// The statement holding an unsupported call is conservative.
	p := plainText(t, function(t, "unsupported", "andOr"), "return c &&")
	if p.Eff.Impure == "" || !p.Eff.WritesGlobal {
		t.Errorf("andOr: statement with unsupported calls has effects %+v", p.Eff)
	}
	g := function(t, "control", "gotos")
	if len(g.Unsupported) != 2 || len(soacs(g)) != 0 || !strings.Contains(g.Unsupported[0].Reason, "goto") {
		t.Errorf("gotos: %d unsupported, %d SOACs", len(g.Unsupported), len(soacs(g)))
	}
}

func TestProblems(t *testing.T) {
	prog := props(t)["directives"]
	want := []string{
		"missing the name", "is not a Go identifier", `unknown backend "cuda"`, `unknown key "level"`,
		`missing the name of the function to generate before "backend=cpu"`, "duplicate //soac:fuse name Good (already used at directives.go:7:1, on goodSpec)",
		"on method method", "doc comment of a top-level function",
		"unknown directive //soac:fuze", "names the spec itself", "doc comment of a top-level function",
		"the blank identifier _ cannot name", "// soac:fuse Spaced is not a directive", "/*soac:fuse Block*/ is not a directive",
		"// soac: fuse Gap is not a directive",
		"duplicate //soac:fuse name Dup: dupInSpec already has a directive Dup (at directives.go:83:1)",
		"//soac:fuse on declaredName names body, which the package already declares (at directives.go:54:6)",
		`malformed //soac:fuse on unknownOption: unknown key "speed"`,
		"duplicate //soac:fuse name MultiPar (already used at directives.go:77:1, on multiSpec)",
		`malformed //soac:fuse on thirdBad: unknown backend ""`,
	}
	if len(prog.Problems) != len(want) {
		t.Fatalf("%d problems, want %d: %v", len(prog.Problems), len(want), prog.Problems)
	}
	for i, w := range want {
		if !strings.Contains(prog.Problems[i].Msg, w) || !prog.Problems[i].Pos.IsValid() {
			t.Errorf("problem %d: %q, want it to contain %q", i, prog.Problems[i].Msg, w)
		}
	}
	// Each spec keeps its valid directives, in order; Fuse is the first.
	fuse := map[string]string{
		"goodSpec": "Good/", "goodParSpec": "GoodPar/parallel", "emptySpec": "Empty/auto", "twice": "Twice/ Again/",
		"multiSpec": "Multi/ MultiPar/parallel MultiCL/opencl", "dupInSpec": "Dup/", "declaredName": "Fresh/",
		"unknownOption": "Known/cpu", "otherSpecName": "Other/", "thirdBad": "ThirdA/ ThirdB/opencl",
	}
	for _, fn := range prog.Funcs {
		var got []string
		for _, d := range fn.Fuses {
			got = append(got, d.Name+"/"+d.Backend)
		}
		if strings.Join(got, " ") != fuse[fn.Name] {
			t.Errorf("%s: directives %q, want %q", fn.Name, strings.Join(got, " "), fuse[fn.Name])
		}
		if (fn.Fuse == nil) != (len(fn.Fuses) == 0) || fn.Fuse != nil && fn.Fuse != fn.Fuses[0] {
			t.Errorf("%s: Fuse %v is not the first of %v", fn.Name, fn.Fuse, fn.Fuses)
		}
	}
	multi := function(t, "directives", "multiSpec")
	if c := multi.Fuses[2].Cluster; c != "ilp" {
		t.Errorf("MultiCL: cluster %q, want ilp", c)
	}
	// Directed: one Function per directive, sharing the IR.
	ds := multi.Directed()
	if len(ds) != 3 || ds[0] != multi {
		t.Fatalf("Directed: %d functions, the first %p, want 3, the first %p", len(ds), ds[0], multi)
	}
	for i, d := range ds {
		if d.Fuse != multi.Fuses[i] || d.Body != multi.Body || d.Name != multi.Name {
			t.Errorf("Directed()[%d]: Fuse %v, want %v, sharing the spec's IR", i, d.Fuse, multi.Fuses[i])
		}
	}
	if ds := function(t, "directives", "body").Directed(); ds != nil {
		t.Errorf("Directed of a function without directive: %v, want nil", ds)
	}
}

func TestEffects(t *testing.T) {
	fn := function(t, "effects", "writes")
	xs, ys, m, xss := param(fn, "xs"), param(fn, "ys"), param(fn, "m"), param(fn, "xss")
	check := func(prefix string, writes ...*ir.Var) *ir.Plain {
		t.Helper()
		p := plainText(t, fn, prefix)
		for _, w := range writes {
			if !containsVar(p.Eff.Writes, w) {
				t.Errorf("%q: writes %s, want %s among them", prefix, names(p.Eff.Writes), w.Name)
			}
		}
		return p
	}
	check("xs[0] = 1", xs)
	check("xss[0][1] = 2", xss)
	if p := check("copy(ys, a)", ys); hasVar(p.Eff.Writes, "a") {
		t.Errorf("copy writes its source")
	}
	if p := check("ys = append(ys, 3)", ys); len(p.Eff.Defs) != 1 || !fn.Alias.MayAlias(p.Eff.Defs[0], ys) {
		t.Errorf("append's result does not alias its operand")
	}
	check("clear(m)", m)
	check("m[1] = 2", m)
	if p := check("sort.Float64s(a)"); !hasVar(p.Eff.Writes, "a") || p.Eff.Impure == "" {
		t.Errorf("sort.Float64s(a): %+v", p.Eff)
	}
	c := function(t, "effects", "calls")
	if p := plainText(t, c, "mutFill(a)"); !hasVar(p.Eff.Writes, "a") {
		t.Errorf("mutFill(a) does not write a")
	}
	if p := plainText(t, c, "f(xs)"); !p.Eff.WritesGlobal || p.Eff.Impure == "" || !hasVar(p.Eff.Writes, "xs") {
		t.Errorf("unknown call f(xs): %+v", p.Eff)
	}
	for _, s := range soacs(fn) {
		if s.Eff.Impure != "" || len(s.Eff.Writes) != 0 {
			t.Errorf("pure SOAC has effects %+v", s.Eff)
		}
	}
}

func names(vs []*ir.Var) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.Name)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func lastVar(fn *ir.Function, name string) *ir.Var {
	var v *ir.Var
	for _, w := range fn.Vars {
		if w.Name == name {
			v = w
		}
	}
	return v
}

func TestAliases(t *testing.T) {
	fn := function(t, "effects", "aliases")
	xs := param(fn, "xs")
	for _, n := range []string{"r", "h", "p", "ap", "cv", "_tmp1"} {
		if !fn.Alias.MayAlias(lastVar(fn, n), xs) {
			t.Errorf("aliases: %s may not alias xs", n)
		}
	}
	for _, s := range soacs(fn) {
		if fn.Alias.MayAlias(s.Out, xs) {
			t.Errorf("aliases: fresh SOAC result %s aliases xs", s.Out.Name)
		}
	}
	if fn.Alias.MayAlias(lastVar(fn, "e"), xs) {
		t.Errorf("a float read from xs aliases it")
	}
	r := function(t, "effects", "refs")
	if s := soacs(r)[0]; !r.Alias.MayAlias(s.Out, param(r, "xss")) {
		t.Errorf("refs: a result whose elements are slices does not alias its input")
	}
	g := function(t, "effects", "globals")
	if !param(g, "xs").Global {
		t.Errorf("globals: xs is stored in a package variable but is not Global")
	}
	if param(function(t, "effects", "writes"), "xs").Global {
		t.Errorf("a parameter is Global")
	}
}

func TestLambdaKinds(t *testing.T) {
	fn := function(t, "lambdas", "kinds")
	want := []struct {
		kind ir.LambdaKind
		pure bool
		body bool
	}{
		{ir.FuncLit, true, true}, {ir.NamedFunc, true, false}, {ir.NamedFunc, true, false},
		{ir.MethodValue, true, false}, {ir.FuncValue, true, true}, {ir.FuncValue, false, false},
		{ir.OtherFunc, false, false}, {ir.NamedFunc, true, false},
	}
	ss := soacs(fn)
	if len(ss) != len(want) {
		t.Fatalf("kinds: %d SOACs", len(ss))
	}
	for i, s := range ss {
		l := s.Lambdas()[0]
		if l.Kind != want[i].kind || l.Purity.Pure != want[i].pure || (l.Body != nil) != want[i].body || l.Sig == nil {
			t.Errorf("kinds: lambda %d: kind %d pure %v body %v", i, l.Kind, l.Purity.Pure, l.Body != nil)
		}
	}
	if l := ss[3].Lambdas()[0]; l.Recv == nil || l.Func == nil || l.Func.Name() != "Has" || !hasVar(l.Free, "s") {
		t.Errorf("method value: %+v", l)
	}
	if l := ss[4].Lambdas()[0]; l.Lit == nil || !hasVar(l.Free, "f") || !hasVar(l.Free, "k") {
		t.Errorf("resolved function variable: free %s", names(l.Free))
	}
	if l := ss[5].Lambdas()[0]; !strings.Contains(l.Purity.Reason, "cannot be resolved") {
		t.Errorf("reassigned function variable: reason %q", l.Purity.Reason)
	}
	if s := soacs(function(t, "lambdas", "impure"))[0]; s.Eff.Impure == "" || !strings.Contains(s.Eff.Impure, "sum") {
		t.Errorf("impure lambda: SOAC effects %+v", s.Eff)
	}
}

func TestDepth(t *testing.T) {
	fn := function(t, "lambdas", "matmul")
	got := map[string][]int{}
	for _, s := range soacs(fn) {
		got[s.Name] = append(got[s.Name], ir.Depth(s.Block()))
	}
	if d := got["Map"]; len(d) != 2 || d[0] != 0 || d[1] != 1 {
		t.Errorf("matmul: Map depths %v, want [0 1]", d)
	}
	if d := got["Map2"]; len(d) != 1 || d[0] != 2 {
		t.Errorf("matmul: Map2 depths %v", d)
	}
	if d := got["Reduce"]; len(d) != 1 || d[0] != 2 {
		t.Errorf("matmul: Reduce depths %v", d)
	}
}

func TestVersions(t *testing.T) {
	fn := function(t, "control", "branches")
	ss := soacs(fn)
	last := ss[len(ss)-1]
	if _, ok := last.Inputs()[0].Def.(*ir.If); !ok {
		t.Errorf("branches: the Map after the if reads %s defined by %T, want the If", last.Inputs()[0].Name, last.Inputs()[0].Def)
	}
	lp := function(t, "control", "loops")
	var loopMap *ir.SOAC
	for _, s := range soacs(lp) {
		if _, ok := s.Block().Parent.(*ir.Loop); ok {
			loopMap = s
		}
	}
	if loopMap == nil {
		t.Fatal("loops: no SOAC in the loop")
	}
	if in := loopMap.Inputs()[0]; in.Def != loopMap.Block().Parent {
		t.Errorf("loops: Map in the loop reads %s defined by %T, want the Loop's entry Var", in.Name, in.Def)
	}
	e := function(t, "effects", "escapes")
	es := soacs(e)
	k1, k2 := es[0].Lambdas()[0].Free[0], es[1].Lambdas()[0].Free[0]
	if k1 == k2 || k2.Name != "k" {
		t.Errorf("escapes: k written through p but both lambdas capture %s", k1.Name)
	}
	c := function(t, "control", "closures")
	cs := soacs(c)
	if f := cs[1].Lambdas()[0].Free[0]; f.Name != "k" || f.Def == nil || !strings.HasPrefix(srcText(f.Def.(*ir.Plain).Node), "bump()") {
		t.Errorf("closures: k after bump() is %s defined by %T", f.Name, f.Def)
	}
}

// TestVerifyDetects breaks built IR in several ways: Verify must notice
// each.
func TestVerifyDetects(t *testing.T) {
	breakers := map[string]func(fn *ir.Function){
		"use before definition": func(fn *ir.Function) {
			b := fn.Body.Stmts
			b[0], b[1] = b[1], b[0]
		},
		"two definitions": func(fn *ir.Function) {
			s := soacs(fn)
			s[1].Eff.Defs = append(s[1].Eff.Defs, s[0].Out)
		},
		"wrong parent": func(fn *ir.Function) {
			soacs(fn)[0].Parent = &ir.Block{}
		},
		"var not in Vars": func(fn *ir.Function) {
			soacs(fn)[1].Eff.Uses = append(soacs(fn)[1].Eff.Uses, &ir.Var{ID: 99, Name: "ghost"})
		},
		"no def": func(fn *ir.Function) {
			soacs(fn)[0].Out.Def = nil
		},
	}
	for name, br := range breakers {
		fn := buildOne(t, "basic", "sumSquares")
		if err := ir.Verify(fn); err != nil {
			t.Fatalf("unbroken IR fails: %v", err)
		}
		br(fn)
		if err := ir.Verify(fn); err == nil {
			t.Errorf("%s: Verify found nothing", name)
		}
	}
}

// buildOne builds a fresh copy of one function of a testdata package,
// type-checked from source without the analysis driver.
func buildOne(t *testing.T, pkg, name string) *ir.Function {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "src", pkg, pkg+".go"))
	if err != nil {
		t.Fatal(err)
	}
	fset, files, tpkg, info := typecheck(t, string(src))
	for _, fn := range Build(fset, files, tpkg, info, fakePurity{info}).Funcs {
		if fn.Name == name {
			return fn
		}
	}
	t.Fatalf("no %s.%s", pkg, name)
	return nil
}
