package parallel

// Above its grain a generated parallel function must run, in
// each chunk, the loop the cpu backend runs over the whole input. A
// member's function literal called through a temporary (soac.Opaque, or
// a literal that cannot be inlined where its SOAC is written) is inlined
// by the compiler into the cpu backend's loop, but not into a chunk
// function that calls the temporary through a captured variable: that
// cost HistogramPar 1.4x the hand loop's CPU time at 1e7 (2-core VM,
// 2026-11-26, BenchmarkParPaired). The chunk functions therefore declare their own copies
// (hostgo.Func.ChunkFuncs). This test compiles the examples and checks
// that every call of such a copy in a chunk function of their generated
// files is inlined.

import (
	"github.com/soacgen/soacgen/rewrite/hostgo"

	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// chunkArg is, for each runtime function that parLoop and parChunks call,
// the index of its argument that is the chunk function.
var chunkArg = map[string]int{
	"For": 2, "Reduce": 2, "Scan": 2, "ScanExact": 3, "FilterFold": 3,
	"StreamRedChunks": 5, "StreamMapChunks": 3,
}

func TestChunkLiteralsInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the examples")
	}
	if soac.FMAContracts {
		t.Skip("soac.Opaque keeps the literals out of line on this platform, in the cpu backend's loop too")
	}
	root := moduleRoot(t)
	sites := map[string]string{} // "file:line:col" of the call's '(' → the callee
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
		par, sc := importName(f, hostgo.ParallelPath), importName(f, "github.com/soacgen/soacgen/runtime/soac")
		if par == "" {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				chunkCalls(fset, root, fd, par, sc, sites, pkgs)
			}
		}
	}
	t.Logf("%d calls in chunk functions", len(sites))
	if len(sites) < 5 {
		t.Fatalf("found %d calls of function literals' temporaries in chunk functions of the examples' generated files, want at least 5", len(sites))
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
	inlined := inlinedSites(out)
	for site, name := range sites {
		if !inlined[site] {
			t.Errorf("%s: the chunk function's call of %s is not inlined: each element calls a function value the cpu backend's loop inlines", site, name)
		}
	}
}

// chunkCalls adds to sites the calls, in the chunk functions that fd
// passes to the runtime (par names runtime/parallel, sc runtime/soac),
// of fd's temporaries holding function literals (name := literal or
// name := soac.Opaque(literal)), and their packages to pkgs.
func chunkCalls(fset *token.FileSet, root string, fd *ast.FuncDecl, par, sc string, sites map[string]string, pkgs map[string]bool) {
	funcTemps := map[string]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		rhs := as.Rhs[0]
		if call, ok := rhs.(*ast.CallExpr); ok && len(call.Args) == 1 && isQual(call.Fun, sc, "Opaque") {
			rhs = call.Args[0]
		}
		if _, ok := rhs.(*ast.FuncLit); ok {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				funcTemps[id.Name] = true
			}
		}
		return true
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		if ix, ok := fun.(*ast.IndexExpr); ok {
			fun = ix.X
		}
		sel, ok := fun.(*ast.SelectorExpr)
		if !ok || !isQual(sel, par, sel.Sel.Name) {
			return true
		}
		i, ok := chunkArg[sel.Sel.Name]
		if !ok || i >= len(call.Args) {
			return true
		}
		lit, ok := call.Args[i].(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := c.Fun.(*ast.Ident); ok && funcTemps[id.Name] {
				p := fset.Position(c.Lparen)
				rel, _ := filepath.Rel(root, p.Filename)
				sites[rel+":"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column)] = id.Name
				pkgs["./"+filepath.ToSlash(filepath.Dir(rel))] = true
			}
			return true
		})
		return true
	})
}

// isQual reports whether e is the selector pkg.name (pkg non-empty).
func isQual(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || pkg == "" || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// inlinedSites returns the positions ("file:line:col", relative to the
// module's root) where the output of go build -gcflags=-m reports an
// inlined call.
func inlinedSites(out []byte) map[string]bool {
	inlined := map[string]bool{}
	pkgDir := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "# "); ok {
			pkgDir = strings.TrimPrefix(strings.TrimPrefix(p, modulePath), "/")
			continue
		}
		pos, msg, ok := strings.Cut(line, ": ")
		if !ok || !strings.HasPrefix(msg, "inlining call to ") {
			continue
		}
		if rest, ok := strings.CutPrefix(pos, "./"); ok && !strings.Contains(rest, "/") {
			pos = filepath.Join(pkgDir, rest)
		}
		inlined[filepath.Clean(pos)] = true
	}
	return inlined
}
