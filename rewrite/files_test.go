package rewrite

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

func TestOverlayStubs(t *testing.T) {
	dir := t.TempDir()
	spec := `package p

import (
	m "math/rand/v2"
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

//soac:fuse  Gen
func genSpec[T int | float64](r *m.Rand, b *strings.Builder, xs ...T) (out []T) {
	return soac.Map(xs, func(x T) T { return x })
}

func notSpec() {}
`
	x := filepath.Join(dir, "x.go")
	diffrun.Write(t, x, []byte(spec))
	diffrun.Write(t, filepath.Join(dir, "old_soac.go"), []byte(Header+"\n\npackage p\n\nfunc Broken( {\n"))
	diffrun.Write(t, filepath.Join(dir, "mine_soac.go"), []byte("package p\n"))
	ov, err := Overlay([]string{x, filepath.Join(dir, "old_soac.go"), filepath.Join(dir, "mine_soac.go")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ov) != 2 {
		t.Errorf("overlay has %d files, want x.go and old_soac.go", len(ov))
	}
	if got := string(ov[filepath.Join(dir, "old_soac.go")]); got != Header+"\n\npackage p\n" {
		t.Errorf("old output overlaid with %q", got)
	}
	if _, ok := ov[filepath.Join(dir, "mine_soac.go")]; ok {
		t.Errorf("a file without the header is overlaid")
	}
	if _, ok := ov[filepath.Join(dir, "x_soac.go")]; ok {
		t.Errorf("the output path of x.go is overlaid (the stub belongs in x.go)")
	}

	// x.go keeps its text and gains a stub declaring Gen with genSpec's
	// signature, positioned where the user wrote them.
	stub, ok := strings.CutPrefix(string(ov[x]), spec)
	if !ok {
		t.Fatalf("x.go overlaid with a changed text:\n%s", ov[x])
	}
	if strings.Contains(stub, "import") || strings.Contains(stub, "notSpec") || strings.Contains(stub, "//soac:") {
		t.Errorf("stub imports, declares or directs too much:\n%s", stub)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, x, ov[x], parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("overlaid x.go does not parse: %v\n%s", err, ov[x])
	}
	var genSpec, gen *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			switch fd.Name.Name {
			case "genSpec":
				genSpec = fd
			case "Gen":
				gen = fd
			}
		}
	}
	if genSpec == nil || gen == nil {
		t.Fatalf("overlaid x.go lacks genSpec or Gen:\n%s", ov[x])
	}
	if got := types.ExprString(gen.Type); got != types.ExprString(genSpec.Type) {
		t.Errorf("Gen's signature is %s, want genSpec's %s", got, types.ExprString(genSpec.Type))
	}
	pos := func(p token.Pos) string { return fset.Position(p).String() }
	if got, want := pos(gen.Name.Pos()), x+":10:14"; got != want {
		t.Errorf("Gen is at %s, want %s (its name in the directive)", got, want)
	}
	for i, p := range gen.Type.Params.List {
		if got, want := pos(p.Type.Pos()), pos(genSpec.Type.Params.List[i].Type.Pos()); got != want {
			t.Errorf("Gen's parameter %d is at %s, want genSpec's %s", i, got, want)
		}
	}
	if got, want := pos(gen.Type.Results.Pos()), pos(genSpec.Type.Results.Pos()); got != want {
		t.Errorf("Gen's results are at %s, want genSpec's %s", got, want)
	}
}

// TestOverlayStubsSeveralDirectives: a spec with several directives gets
// a stub per NAME, each at its directive's NAME; a NAME an earlier
// directive of the file gives is declared once (analyzer/build reports
// the repetition at the directive, where a second stub would make it a
// type error).
func TestOverlayStubsSeveralDirectives(t *testing.T) {
	dir := t.TempDir()
	spec := `package p

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Sum
//soac:fuse SumPar backend=parallel
//soac:fuse SumCL backend=opencl
//soac:fuse Sum backend=auto
func sumSpec(xs []int) int {
	return soac.Reduce(xs, 0, func(a, b int) int { return a + b })
}

//soac:fuse SumPar
func otherSpec(xs []int) int { return len(xs) }
`
	x := filepath.Join(dir, "x.go")
	diffrun.Write(t, x, []byte(spec))
	ov, err := Overlay([]string{x})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, x, ov[x], parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("overlaid x.go does not parse: %v\n%s", err, ov[x])
	}
	var got []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && !strings.HasSuffix(fd.Name.Name, "Spec") {
			got = append(got, fd.Name.Name+"@"+fset.Position(fd.Name.Pos()).String()+" "+types.ExprString(fd.Type))
		}
	}
	want := []string{
		"Sum@" + x + ":5:13 func(xs []int) int",
		"SumPar@" + x + ":6:13 func(xs []int) int",
		"SumCL@" + x + ":7:13 func(xs []int) int",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stubs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestOverlayImportNames loads packages whose spec signatures name
// packages through imports that bind a name other than their path's last
// element (gopkg.in/yaml.v3 style, go-foo style, a package named unlike
// its directory, a dot import, a renamed major version), while their
// generated files are stale (an old signature, an import of a package that
// no longer exists), broken (a syntax error) or missing and other files
// call NAME: every package loads under the overlay, generates, and loads
// cleanly with the generated files on disk; a second round changes
// nothing.
func TestOverlayImportNames(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	const sig = `func valsSpec(ns []yaml.Node, b gobar.B, o other.O, d D, r *rnd.Rand) []float64 {
	return soac.Map(ns, func(n yaml.Node) float64 { return n.V + float64(b) + float64(o) + float64(d) })
}
`
	const imports = `import (
	rnd "math/rand/v2"

	. "example.com/m/dep/dot"
	"example.com/m/dep/go-bar"
	"example.com/m/dep/thing"
	"example.com/m/dep/yaml.v3"

	"github.com/soacgen/soacgen/runtime/soac"
)
`
	files := map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/soacgen/soacgen v0.0.0\n\nreplace github.com/soacgen/soacgen => " + root + "\n",
		"dep/yaml.v3/y.go":    "package yaml\n\ntype Node struct{ V float64 }\n",
		"dep/go-bar/b.go":     "package gobar\n\ntype B int\n",
		"dep/thing/o.go":      "package other\n\ntype O int\n",
		"dep/dot/d.go":        "package dot\n\ntype D int\n",
		"missing/x.go":        "package p\n\n" + imports + "\n//soac:fuse Vals\n" + sig,
		"missing/use.go":      "package p\n\nfunc use() []float64 { return Vals(nil, 0, 0, 0, nil) }\n",
		"broken/x.go":         "package p\n\n" + imports + "\n//soac:fuse Vals\n" + sig,
		"broken/use.go":       "package p\n\nfunc use() []float64 { return Vals(nil, 0, 0, 0, nil) }\n",
		"broken/x_soac.go":    Header + "\n\npackage p\n\nfunc Vals( {\n",
		"stale/x.go":          "package p\n\n" + imports + "\n//soac:fuse Vals\n" + sig,
		"stale/use.go":        "package p\n\nfunc use() []float64 { return Vals(nil, 0, 0, 0, nil) }\n",
		"stale/x_soac.go":     Header + "\n\npackage p\n\nimport (\n\t\"example.com/m/dep/gone\"\n\t\"example.com/m/dep/yaml.v3\"\n)\n\nfunc Vals(ns []yaml.Node) gone.T { return nil }\n",
		"stale/old_soac.go":   Header + "\n\npackage p\n\nimport \"example.com/m/dep/yaml.v3\"\n\nfunc Old(yaml.Node) {}\n",
		"renamed/x.go":        "package p\n\n" + strings.Replace(imports, `"example.com/m/dep/yaml.v3"`, `yml "example.com/m/dep/yaml.v3"`, 1) + "\n//soac:fuse Vals\n" + strings.ReplaceAll(sig, "yaml.", "yml."),
		"renamed/x_soac.go":   Header + "\n\npackage p\n\nfunc Vals() {}\n",
		"renamed/use_test.go": "package p\n\nimport \"testing\"\n\nfunc TestUse(t *testing.T) { Vals(nil, 0, 0, 0, nil) }\n",
	}
	for name, text := range files {
		path := filepath.Join(mod, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		diffrun.Write(t, path, []byte(text))
	}
	env := diffrun.OfflineEnv()
	patterns := []string{"./missing", "./broken", "./stale", "./renamed"}
	// generate is soacgen's load and write: list, overlay, load, generate,
	// sync. It returns the changes made.
	generate := func() []string {
		t.Helper()
		listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: mod, Env: env}, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		var goFiles []string
		for _, p := range listed {
			goFiles = append(goFiles, p.GoFiles...)
		}
		ov, err := Overlay(goFiles)
		if err != nil {
			t.Fatal(err)
		}
		pkgs, err := packages.Load(&packages.Config{Mode: LoadMode, Dir: mod, Env: env, Overlay: ov}, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		if packages.PrintErrors(pkgs) > 0 {
			t.Fatal("the packages do not load under the overlay")
		}
		outs, err := GeneratePackages(pkgs)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != len(patterns) {
			t.Fatalf("%d outputs, want one per package", len(outs))
		}
		changes, err := Sync(outs, goFiles, false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range changes {
			rel, _ := filepath.Rel(mod, c.Path)
			got = append(got, c.Kind+" "+filepath.ToSlash(rel))
		}
		return got
	}
	got := generate()
	want := "create missing/x_soac.go, update broken/x_soac.go, update stale/x_soac.go, update renamed/x_soac.go, delete stale/old_soac.go"
	if strings.Join(got, ", ") != want {
		t.Errorf("changes = %s, want %s", strings.Join(got, ", "), want)
	}
	// The generated files compile: the packages (and the test calling
	// NAME) load without the overlay.
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Dir: mod, Env: env, Tests: true}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Error("the generated files do not compile")
	}
	if got := readString(t, filepath.Join(mod, "renamed", "x_soac.go")); !strings.Contains(got, `yml "example.com/m/dep/yaml.v3"`) || !strings.Contains(got, "func Vals(ns []yml.Node, b gobar.B, o other.O, d D, r *rnd.Rand) []float64 {") {
		t.Errorf("renamed/x_soac.go does not use x.go's import names:\n%s", got)
	}
	if got := generate(); len(got) != 0 {
		t.Errorf("second round changed %v", got)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSync(t *testing.T) {
	dir := t.TempDir()
	a, b, stale, mine := filepath.Join(dir, "a_soac.go"), filepath.Join(dir, "b_soac.go"), filepath.Join(dir, "c_soac.go"), filepath.Join(dir, "d_soac.go")
	content := []byte(Header + "\n\npackage p\n")
	diffrun.Write(t, b, []byte(Header+"\n\npackage p // old\n"))
	diffrun.Write(t, stale, []byte(Header+"\n\npackage p\n"))
	diffrun.Write(t, mine, []byte("package p\n"))
	outs := []Output{{Path: a, Content: content}, {Path: b, Content: content}}
	files := []string{b, stale, mine}
	changes, err := Sync(outs, files, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Kind+" "+filepath.Base(c.Path))
	}
	if strings.Join(got, ", ") != "create a_soac.go, update b_soac.go, delete c_soac.go" {
		t.Errorf("dry run changes = %v", got)
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("dry run wrote a file")
	}
	if _, err := Sync(outs, files, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if b, _ := os.ReadFile(p); string(b) != string(content) {
			t.Errorf("%s = %q", p, b)
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale output not deleted")
	}
	if b, _ := os.ReadFile(mine); string(b) != "package p\n" {
		t.Errorf("hand-written file touched")
	}
	if changes, err := Sync(outs, files, false); err != nil || len(changes) != 0 {
		t.Errorf("second sync: %v, %v", changes, err)
	}
	if _, err := Sync([]Output{{Path: mine, Content: content}}, nil, false); err == nil || !strings.Contains(err.Error(), "not generated by soacgen") {
		t.Errorf("overwriting a hand-written file: %v", err)
	}
}

// TestVerbatimFallback makes the generation of one spec fail: the file is
// still generated, that spec's NAME runs the spec's own code, and the
// output says so in Warnings.
func TestVerbatimFallback(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: LoadMode}, "./testdata/generic")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata/generic does not load")
	}
	failHook = func(fn *ir.Function) error {
		if fn.Name == "sumSpec" {
			return errors.New("injected")
		}
		return nil
	}
	defer func() { failHook = nil }()
	outs, err := GeneratePackages(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 1 || len(outs[0].Warnings) != 1 || !strings.Contains(outs[0].Warnings[0], "injected") {
		t.Fatalf("outputs %+v", outs)
	}
	src := string(outs[0].Content)
	if !strings.Contains(src, "func Sum[T int | float64](xs []T) T {\n\treturn soac.Reduce(soac.Map(xs,") {
		t.Errorf("Sum is not the spec's code:\n%s", src)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0); err != nil {
		t.Error(err)
	}
}

// TestSyncWriteError checks that a failure to write an output names the
// output, not the temporary file Sync writes first: in a directory that
// does not exist, and (unless root, which ignores permissions) in a
// read-only one.
func TestSyncWriteError(t *testing.T) {
	dir := t.TempDir()
	content := []byte(Header + "\n\npackage p\n")
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "missing", "x_soac.go")}
	if os.Geteuid() != 0 {
		paths = append(paths, filepath.Join(ro, "x_soac.go"))
	}
	for _, path := range paths {
		_, err := Sync([]Output{{Path: path, Content: content}}, nil, false)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+path+": ") || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("Sync into %s: error %v, want one naming the output and not the temporary file", path, err)
		}
	}
}
