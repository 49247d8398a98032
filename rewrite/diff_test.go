package rewrite

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestDifferential builds every testdata package with its generated file
// in a temporary module and runs a test there that compares each
// generated function with its spec on random inputs of sizes 0, 1, 7,
// 1000 and 1e5: same results (floats bit for bit, nil and empty slices
// apart), same panics, same writes to the arguments.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module per case")
	}
	for _, c := range cases(t) {
		t.Run(c, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", c)
			outs := generateDir(t, dir)
			tmp := caseModule(t, dir, c)
			var specs []specInfo
			for _, o := range outs {
				write(t, filepath.Join(tmp, filepath.Base(o.Path)), o.Content)
				specs = append(specs, specsOf(t, o)...)
			}
			write(t, filepath.Join(tmp, "soacdiff_test.go"), diffTest(pkgNameOf(t, outs[0].Content), specs))
			cmd := exec.Command("go", "test", "-count=1", ".")
			cmd.Dir = tmp
			cmd.Env = offlineEnv()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go test in %s: %v\n%s", c, err, out)
			}
			if !hostHasFMA() || !usesFloats(t, dir) {
				return
			}
			// Again with FMA contraction allowed (amd64 fuses x*y + z
			// from GOAMD64=v3, as arm64 always does): results must
			// still be the spec's, bit for bit.
			cmd = exec.Command("go", "test", "-count=1", ".")
			cmd.Dir = tmp
			cmd.Env = offlineEnv("GOAMD64=v3")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("GOAMD64=v3 go test in %s: %v\n%s", c, err, out)
			}
		})
	}
}

// usesFloats reports whether any expression of the package in dir (a
// loaded testdata case) has a floating-point or complex type: where none
// has, FMA contraction cannot change a result, and the GOAMD64=v3 run is
// left out.
func usesFloats(t *testing.T, dir string) bool {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range loadPkgs {
		if p.Dir != abs {
			continue
		}
		for _, tv := range p.TypesInfo.Types {
			if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&(types.IsFloat|types.IsComplex) != 0 {
				return true
			}
		}
		return false
	}
	t.Fatalf("%s not loaded", dir)
	return false
}

// caseModule returns a temporary directory holding a module of the Go
// files of case directory dir, with module path example.com/name,
// requiring this repository (replaced by its directory) with its
// go.sum: the caller writes the generated files and runs go there
// (offlineEnv).
func caseModule(t *testing.T, dir, name string) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".go") {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(tmp, e.Name()), b)
		}
	}
	write(t, filepath.Join(tmp, "go.mod"), []byte(fmt.Sprintf(
		"module example.com/%s\n\ngo 1.26\n\nrequire github.com/soacgen/soacgen v0.0.0\n\nreplace github.com/soacgen/soacgen => %s\n", name, root)))
	write(t, filepath.Join(tmp, "go.sum"), sum)
	return tmp
}

// offlineEnv returns the environment of a go command run in a
// caseModule, with extra settings: modules from this machine only.
func offlineEnv(extra ...string) []string {
	return append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"), extra...)
}

// hostHasFMA reports whether this machine runs GOAMD64=v3 binaries (amd64
// with the FMA, AVX2 and BMI2 instructions), as Linux lists them.
func hostHasFMA() bool {
	if runtime.GOARCH != "amd64" {
		return false
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return false
	}
	flags := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if name, rest, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(name) == "flags" {
			for _, f := range strings.Fields(rest) {
				flags[f] = true
			}
			break
		}
	}
	return flags["fma"] && flags["avx2"] && flags["bmi2"]
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func pkgNameOf(t *testing.T, content []byte) string {
	for _, l := range strings.Split(string(content), "\n") {
		if strings.HasPrefix(l, "package ") {
			return strings.TrimPrefix(l, "package ")
		}
	}
	t.Fatal("no package clause")
	return ""
}

// specInfo names one spec and its generated function, instantiated.
type specInfo struct {
	label, spec, fused, args string
	allocs                   string // the Allocs function, or "nil"
	maxAllocs                int
}

// specsOf lists the specs of o; a generic spec is instantiated with every
// type of its constraint's type set.
func specsOf(t *testing.T, o Output) []specInfo {
	t.Helper()
	return specsIn(t, specTypes, o)
}

// specsIn is specsOf with the specs recorded in recs.
func specsIn(t *testing.T, recs map[specKey]*specRecord, o Output) []specInfo {
	t.Helper()
	var out []specInfo
	if len(o.Names) != len(o.Specs) {
		t.Fatalf("%s: %d names for %d specs", o.Path, len(o.Names), len(o.Specs))
	}
	for i, name := range o.Names {
		s := o.Specs[i]
		info := recs[specKey{filepath.Dir(o.Path), name}]
		if info == nil || info.spec != s {
			t.Fatalf("%s (from %s) of %s not recorded", name, s, filepath.Dir(o.Path))
		}
		insts := [][]string{nil}
		if tps := info.sig.TypeParams(); tps != nil {
			insts = nil
			var terms [][]string
			for i := 0; i < tps.Len(); i++ {
				var ts []string
				if u, ok := tps.At(i).Constraint().Underlying().(*types.Interface); ok && u.NumEmbeddeds() > 0 {
					if un, ok := u.EmbeddedType(0).(*types.Union); ok {
						for j := 0; j < un.Len(); j++ {
							ts = append(ts, un.Term(j).Type().String())
						}
					}
				}
				if len(ts) == 0 {
					ts = []string{"int"}
				}
				terms = append(terms, ts)
			}
			var rec func(i int, acc []string)
			rec = func(i int, acc []string) {
				if i == len(terms) {
					insts = append(insts, append([]string(nil), acc...))
					return
				}
				for _, ty := range terms[i] {
					rec(i+1, append(acc, ty))
				}
			}
			rec(0, nil)
		}
		for _, inst := range insts {
			suffix := ""
			if inst != nil {
				suffix = "[" + strings.Join(inst, ", ") + "]"
			}
			si := specInfo{label: info.name + suffix, spec: s + suffix, fused: info.name + suffix, args: "nil", allocs: "nil"}
			if info.hasArgs {
				si.args = s + "Args"
			}
			if info.maxAllocs >= 0 && inst == nil {
				si.maxAllocs = info.maxAllocs
				si.allocs = allocsFunc(info)
			}
			out = append(out, si)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].label < out[j].label })
	return out
}

// specTypes records, by package directory and generated NAME, what generation
// saw (filled by recordSpecs from the loaded packages).
var specTypes = map[specKey]*specRecord{}

// specKey names a generated function: the directory of its package (a
// testdata case) and its NAME. Names alone collide: several cases have a
// RowSums from a rowSumsSpec, each with its own signature, Args and
// Allocs.
type specKey struct{ dir, name string }

// specRecord is a generated function NAME, from spec, whose Args and
// Allocs hooks are the spec's.
type specRecord struct {
	spec, name string
	sig        *types.Signature
	hasArgs    bool
	maxAllocs  int // from the package's constant <spec>Allocs; -1 when none
}

// allocsFunc writes a function that calls the generated function on
// random arguments of size n.
func allocsFunc(info *specRecord) string {
	var b strings.Builder
	b.WriteString("func(r *rand.Rand, n int) func() {\n")
	var args []string
	ps := info.sig.Params()
	for i := 0; i < ps.Len(); i++ {
		ts := types.TypeString(ps.At(i).Type(), func(p *types.Package) string { return "" })
		fmt.Fprintf(&b, "\t\ta%d := difftest.Random(r, reflect.TypeFor[%s](), n).Interface().(%s)\n", i, ts, ts)
		args = append(args, fmt.Sprintf("a%d", i))
	}
	dots := ""
	if info.sig.Variadic() {
		dots = "..."
	}
	fmt.Fprintf(&b, "\t\treturn func() { %s(%s%s) }\n\t}", info.name, strings.Join(args, ", "), dots)
	return b.String()
}

func diffTest(pkg string, specs []specInfo) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"math/rand/v2\"\n\t\"reflect\"\n\t\"testing\"\n\n\t\"github.com/soacgen/soacgen/rewrite/difftest\"\n)\n\nvar _ = reflect.TypeFor[int]\n\n", pkg)
	b.WriteString("func TestSoacDiff(t *testing.T) {\n\tcases := []difftest.Case{\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "\t\t{Name: %q, Spec: %s, Fused: %s, Args: %s, Allocs: %s, MaxAllocs: %d},\n", s.label, s.spec, s.fused, s.args, s.allocs, s.maxAllocs)
	}
	b.WriteString("\t}\n\tdifftest.Run(t, cases, rand.New(rand.NewPCG(1, 2)))\n}\n")
	return []byte(b.String())
}

// TestSpecKeys records two cases that both have a spec twiceSpec, of
// different signatures, one with twiceSpecArgs and twiceSpecAllocs: each
// case's differential test must get its own spec's hooks (keyed by name
// alone, the later case's record replaced the earlier's, and one case ran
// with the other's Args).
func TestSpecKeys(t *testing.T) {
	srcs := map[string]string{
		"/cases/one": "package one\n\nimport \"math/rand/v2\"\n\n//soac:fuse Twice\nfunc twiceSpec(xs []int) int { return len(xs) }\n\nfunc twiceSpecArgs(r *rand.Rand, n int) []any { return nil }\n\nconst twiceSpecAllocs = 2\n",
		"/cases/two": "package two\n\n//soac:fuse Twice\nfunc twiceSpec(xs []float64, c float64) float64 { return c }\n",
	}
	var pkgs []*packages.Package
	for _, dir := range []string{"/cases/one", "/cases/two"} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(dir, "spec.go"), srcs[dir], parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: importer.Default()}
		tp, err := conf.Check(filepath.Base(dir), fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, &packages.Package{Dir: dir, Syntax: []*ast.File{f}, Types: tp})
	}
	recs := map[specKey]*specRecord{}
	recordSpecs(recs, pkgs)
	for _, tc := range []struct {
		dir, args, allocs string
		maxAllocs         int
	}{
		{"/cases/one", "twiceSpecArgs", "a0 := difftest.Random(r, reflect.TypeFor[[]int](), n)", 2},
		{"/cases/two", "nil", "nil", 0},
	} {
		got := specsIn(t, recs, Output{Path: filepath.Join(tc.dir, "spec_soac.go"), Specs: []string{"twiceSpec"}, Names: []string{"Twice"}})
		if len(got) != 1 {
			t.Fatalf("%s: %d specs, want 1", tc.dir, len(got))
		}
		si := got[0]
		if si.args != tc.args || si.maxAllocs != tc.maxAllocs || !strings.Contains(si.allocs, tc.allocs) {
			t.Errorf("%s: twiceSpec has Args %s, Allocs %q (at most %d), want %s, one with %q (at most %d)", tc.dir, si.args, si.allocs, si.maxAllocs, tc.args, tc.allocs, tc.maxAllocs)
		}
	}
}

// TestUsesFloats: the cases without floating-point values skip the
// GOAMD64=v3 run, those with them do not.
func TestUsesFloats(t *testing.T) {
	generateDir(t, "testdata")
	for c, want := range map[string]bool{"tuples": false, "refusals": false, "fma": true, "parscan": true, "basic": true} {
		if got := usesFloats(t, filepath.Join("testdata", c)); got != want {
			t.Errorf("usesFloats(%s) = %v, want %v", c, got, want)
		}
	}
	var none []string
	for _, c := range cases(t) {
		if !usesFloats(t, filepath.Join("testdata", c)) {
			none = append(none, c)
		}
	}
	t.Logf("cases without floats: %v", none)
}

// TestEveryFunctionDiffed checks, without building anything, that the
// differential test of every case covers each generated function (one
// per directive) against its own spec.
func TestEveryFunctionDiffed(t *testing.T) {
	for _, c := range cases(t) {
		for _, o := range generateDir(t, filepath.Join("testdata", c)) {
			covered := map[string]string{}
			for _, s := range specsOf(t, o) {
				covered[strings.SplitN(s.fused, "[", 2)[0]] = strings.SplitN(s.spec, "[", 2)[0]
			}
			for i, name := range o.Names {
				if covered[name] != o.Specs[i] {
					t.Errorf("%s: %s is diffed against %q, want %s", c, name, covered[name], o.Specs[i])
				}
			}
		}
	}
}
