package parallel

// Below its grain a generated parallel function must cost what
// the cpu backend's does. The grain test on that path, and Alloc's small
// case where an output is allocated on the parallel path of a kernel
// that still runs as one chunk, compile to a compare only when the
// compiler inlines them: a parallel.Alloc left as a call of a generic
// function through its dictionary cost HalfSqrts 2 ns at n = 1
// (16-core host, 2026-11-26, BenchmarkSmallPaired). This test compiles the examples and checks
// that every such call site in their generated files is inlined, so that
// growing Alloc or Sequential past the inliner's budget fails here rather
// than in a benchmark. (seqpath_test.go checks that the sequential
// branch is the cpu backend's code.)

import (
	"github.com/soacgen/soacgen/rewrite/hostgo"

	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// smallPathCalls are the runtime functions generated code calls on a
// kernel's sequential path.
var smallPathCalls = map[string]bool{"Alloc": true, "Sequential": true}

// modulePath is the import path of the module's root.
const modulePath = "github.com/soacgen/soacgen"

func TestSmallPathCallsInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the examples")
	}
	root := moduleRoot(t)
	sites := map[string]string{} // "file:line:col" of the call's '(' → the call
	pkgs := map[string]bool{}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, "examples", "*", "*_soac.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		name := importName(f, hostgo.ParallelPath)
		if name == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fun := call.Fun
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			}
			sel, ok := fun.(*ast.SelectorExpr)
			if !ok || !smallPathCalls[sel.Sel.Name] {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != name {
				return true
			}
			p := fset.Position(call.Lparen)
			rel, _ := filepath.Rel(root, p.Filename)
			sites[rel+":"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column)] = "parallel." + sel.Sel.Name
			pkgs["./"+filepath.ToSlash(filepath.Dir(rel))] = true
			return true
		})
	}
	if len(sites) < 20 {
		t.Fatalf("found %d calls of parallel.Alloc and parallel.Sequential in the examples' generated files, want at least 20", len(sites))
	}
	args := []string{"build", "-gcflags=-m"}
	for p := range pkgs {
		args = append(args, p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	// The go command prints each package's diagnostics under a "# import
	// path" line, their positions relative to the working directory or,
	// at times, "./file" relative to the package's directory.
	inlined := inlinedSites(out)
	for site, call := range sites {
		if !inlined[site] {
			t.Errorf("%s: %s is not inlined: below the grain the parallel function calls what the cpu backend's does not", site, call)
		}
	}
}

// moduleRoot is the directory of the module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Skip("not in a module")
	}
	return filepath.Dir(gomod)
}

// importName is the name under which f imports path, or "" if it does not.
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == path {
			if im.Name != nil {
				return im.Name.Name
			}
			return filepath.Base(path)
		}
	}
	return ""
}
