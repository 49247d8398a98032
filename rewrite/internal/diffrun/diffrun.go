// Package diffrun holds what the differential tests of rewrite share:
// recording the specs of loaded packages, writing the test that compares
// each generated function with its spec (package rewrite/difftest), and
// building a testdata case as a module of its own to run that test in.
//
// Every case under rewrite/testdata is run by one shard (Shards, in
// shards.go); each shard is a test package of its own under this
// directory, so that each test binary of go test ./... stays well within
// go test's default timeout. The runner package runs a shard. diffrun
// imports no package of rewrite, so that rewrite's own tests use it too.
package diffrun

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"golang.org/x/tools/go/packages"
)

// Spec names one spec and its generated function, instantiated: one case
// of the generated differential test.
type Spec struct {
	Label, Spec, Fused, Args string
	Allocs                   string // the Allocs function, or "nil"
	MaxAllocs                int
}

// Key names a generated function: the directory of its package (a
// testdata case) and its NAME. Names alone collide: several cases have a
// RowSums from a rowSumsSpec, each with its own signature, Args and
// Allocs.
type Key struct{ Dir, Name string }

// Record is what generation saw of one generated function.
type Record struct {
	spec      string // the spec it is generated from
	name      string // the generated function's
	sig       *types.Signature
	hasArgs   bool
	maxAllocs int // from the package's constant <spec>Allocs; -1 when none
}

// Records holds the specs of loaded packages by Key.
type Records map[Key]*Record

// Add records the generated functions of the loaded packages (one per
// //soac:fuse directive), by package directory and NAME: two testdata
// cases may have specs and functions of one name, each with its own
// signature and hooks.
func (recs Records) Add(pkgs []*packages.Package) {
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Doc == nil {
					continue
				}
				for _, c := range fd.Doc.List {
					if rest, ok := strings.CutPrefix(c.Text, "//soac:fuse "); ok {
						obj := p.Types.Scope().Lookup(fd.Name.Name)
						rec := &Record{
							spec:      fd.Name.Name,
							name:      strings.Fields(rest)[0],
							sig:       obj.Type().(*types.Signature),
							hasArgs:   p.Types.Scope().Lookup(fd.Name.Name+"Args") != nil,
							maxAllocs: -1,
						}
						if c, ok := p.Types.Scope().Lookup(fd.Name.Name + "Allocs").(*types.Const); ok {
							v, _ := constant.Int64Val(c.Val())
							rec.maxAllocs = int(v)
						}
						recs[Key{p.Dir, rec.name}] = rec
					}
				}
			}
		}
	}
}

// Specs lists the generated functions of the file at path: names[i]
// generated from spec specs[i] (rewrite.Output's Names and Specs); a
// generic spec is instantiated with every type of its constraint's type
// set.
func (recs Records) Specs(t *testing.T, path string, specs, names []string) []Spec {
	t.Helper()
	if len(names) != len(specs) {
		t.Fatalf("%s: %d names for %d specs", path, len(names), len(specs))
	}
	var out []Spec
	for i, name := range names {
		s := specs[i]
		info := recs[Key{filepath.Dir(path), name}]
		if info == nil || info.spec != s {
			t.Fatalf("%s (from %s) of %s not recorded", name, s, filepath.Dir(path))
		}
		for _, inst := range instances(info.sig) {
			suffix := ""
			if inst != nil {
				suffix = "[" + strings.Join(inst, ", ") + "]"
			}
			si := Spec{Label: info.name + suffix, Spec: s + suffix, Fused: info.name + suffix, Args: "nil", Allocs: "nil"}
			if info.hasArgs {
				si.Args = s + "Args"
			}
			if info.maxAllocs >= 0 && inst == nil {
				si.MaxAllocs = info.maxAllocs
				si.Allocs = allocsFunc(info)
			}
			out = append(out, si)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// instances lists the type arguments sig is tested with: one nil list
// for a function that is not generic, else every combination of the
// terms of each type parameter's constraint (int where it has none).
func instances(sig *types.Signature) [][]string {
	tps := sig.TypeParams()
	if tps == nil {
		return [][]string{nil}
	}
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
	var insts [][]string
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
	return insts
}

// allocsFunc writes a function that calls the generated function on
// random arguments of size n.
func allocsFunc(info *Record) string {
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

// TestSource returns a test file of package pkg, TestSoacDiff, that runs
// difftest.Run on specs.
func TestSource(pkg string, specs []Spec) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"math/rand/v2\"\n\t\"reflect\"\n\t\"testing\"\n\n\t\"github.com/soacgen/soacgen/rewrite/difftest\"\n)\n\nvar _ = reflect.TypeFor[int]\n\n", pkg)
	b.WriteString("func TestSoacDiff(t *testing.T) {\n\tcases := []difftest.Case{\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "\t\t{Name: %q, Spec: %s, Fused: %s, Args: %s, Allocs: %s, MaxAllocs: %d},\n", s.Label, s.Spec, s.Fused, s.Args, s.Allocs, s.MaxAllocs)
	}
	b.WriteString("\t}\n\tdifftest.Run(t, cases, rand.New(rand.NewPCG(1, 2)))\n}\n")
	return []byte(b.String())
}

// TestdataDir is the directory of rewrite's testdata cases.
func TestdataDir() string { return filepath.Join(testkit.RepoRoot(), "rewrite", "testdata") }

// Cases returns the names of the testdata cases (the directories of
// TestdataDir).
func Cases(t testing.TB) []string {
	t.Helper()
	ents, err := os.ReadDir(TestdataDir())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// CaseModule returns a temporary directory holding a module of the Go
// files of case directory dir, with module path example.com/name,
// requiring this repository (replaced by its directory) with its go.sum:
// the caller writes the generated files and runs go there (OfflineEnv).
func CaseModule(t *testing.T, dir, name string) string {
	t.Helper()
	root, err := filepath.Abs(testkit.RepoRoot())
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
			Write(t, filepath.Join(tmp, e.Name()), b)
		}
	}
	Write(t, filepath.Join(tmp, "go.mod"), []byte(fmt.Sprintf(
		"module example.com/%s\n\ngo 1.26\n\nrequire github.com/soacgen/soacgen v0.0.0\n\nreplace github.com/soacgen/soacgen => %s\n", name, root)))
	Write(t, filepath.Join(tmp, "go.sum"), sum)
	return tmp
}

// OfflineEnv returns the environment of a go command run in a
// CaseModule, with extra settings: modules from this machine only.
func OfflineEnv(extra ...string) []string {
	return append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"), extra...)
}

// HostHasFMA reports whether this machine runs GOAMD64=v3 binaries (amd64
// with the FMA, AVX2 and BMI2 instructions), as Linux lists them.
func HostHasFMA() bool {
	flags := hostFlags()
	return flags["fma"] && flags["avx2"] && flags["bmi2"]
}

// HostWidths returns the vector widths this machine runs (runtime/lanes'
// SOACGEN_SIMD values): "avx2" where it has AVX2, and "avx512" where it
// has AVX-512 (F, CD, BW, DQ and VL), as Linux lists them.
func HostWidths() []string {
	flags := hostFlags()
	var ws []string
	if flags["avx2"] {
		ws = append(ws, "avx2")
	}
	if flags["avx512f"] && flags["avx512cd"] && flags["avx512bw"] && flags["avx512dq"] && flags["avx512vl"] {
		ws = append(ws, "avx512")
	}
	return ws
}

// hostFlags returns the CPU's flags as Linux lists them (none off amd64).
func hostFlags() map[string]bool {
	flags := map[string]bool{}
	if runtime.GOARCH != "amd64" {
		return flags
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return flags
	}
	for _, l := range strings.Split(string(b), "\n") {
		if name, rest, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(name) == "flags" {
			for _, f := range strings.Fields(rest) {
				flags[f] = true
			}
			break
		}
	}
	return flags
}

// UsesFloats reports whether any expression of the package in dir (one
// of pkgs, loaded with types) has a floating-point or complex type: where
// none has, FMA contraction cannot change a result, and the GOAMD64=v3
// run is left out.
func UsesFloats(t *testing.T, pkgs []*packages.Package, dir string) bool {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
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

// Write writes b to path, failing t on an error.
func Write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// PkgName returns the package name of the Go source content.
func PkgName(t *testing.T, content []byte) string {
	t.Helper()
	for _, l := range strings.Split(string(content), "\n") {
		if strings.HasPrefix(l, "package ") {
			return strings.TrimPrefix(l, "package ")
		}
	}
	t.Fatal("no package clause")
	return ""
}
