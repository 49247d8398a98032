package docs

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The size limits of the repository's Go code (architecture.md, "Sizes"):
// a file or function over them is hard to take over, so it is split by
// meaning. They hold for every Go file but tests, testdata and generated
// code (*_soac.go).
const (
	maxFileLines = 600
	maxFuncLines = 120
)

// sizeExceptions are the files and functions over the limits today, each
// with its size in lines: a file by its path relative to the repository
// root, a function as "path:Name", a method as "path:Recv.Name". An entry
// may only shrink: the test fails when a file or function grows past its
// entry, and also when it shrank (lower the entry to its size) or no
// longer exceeds the limit (delete the entry), so that the table stays
// the list of what is still to split. Every entry is code written before
// the limits, waiting for its split.
var sizeExceptions = map[string]int{}

// codeSizes returns the size in lines of every Go file under root that
// the limits cover, by its slash-separated path relative to root, and of
// every function declared in them, as "path:Name" or "path:Recv.Name".
func codeSizes(root string) (files, funcs map[string]int, err error) {
	files, funcs = map[string]int{}, map[string]int{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// The go tool ignores directories starting with "." or "_"
			// and testdata.
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_soac.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fileFuncs, err := funcSizes(rel, src)
		if err != nil {
			return err
		}
		files[rel] = lineCount(src)
		for k, n := range fileFuncs {
			funcs[k] = n
		}
		return nil
	})
	return files, funcs, err
}

// lineCount counts the lines of src as wc -l does, a last line without a
// newline included.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// funcSizes parses src, the file at path, and returns the size in lines
// of each function it declares, from its func keyword to its closing
// brace (its doc comment left out), by "path:Name" or "path:Recv.Name".
func funcSizes(path string, src []byte) (map[string]int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	sizes := map[string]int{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		sizes[path+":"+name] = fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
	}
	return sizes, nil
}

// recvName returns the name of a receiver's type: T for T, *T, T[P] and
// *T[P].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// sizeProblems compares the sizes of files and funcs with the limits and
// the exceptions, and returns a sentence for each file or function over
// its limit without an exception, each exception it outgrew, and each
// exception that is larger than its size or no longer needed.
func sizeProblems(files, funcs map[string]int, exceptions map[string]int) []string {
	var out []string
	check := func(sizes map[string]int, limit int, what string) {
		for _, k := range sortedKeys(sizes) {
			n := sizes[k]
			allowed, ok := exceptions[k]
			switch {
			case n <= limit && ok:
				out = append(out, fmt.Sprintf("%s: %s of %d lines, within the limit of %d: delete its entry in sizeExceptions", k, what, n, limit))
			case n <= limit:
			case !ok:
				out = append(out, fmt.Sprintf("%s: %s of %d lines, over the limit of %d: split it by meaning (docs/architecture.md, \"Sizes\")", k, what, n, limit))
			case n > allowed:
				out = append(out, fmt.Sprintf("%s: %s of %d lines, grown past its entry of %d in sizeExceptions: an exception may only shrink; split it", k, what, n, allowed))
			case n < allowed:
				out = append(out, fmt.Sprintf("%s: %s of %d lines, its entry in sizeExceptions says %d: lower the entry to %d", k, what, n, allowed, n))
			}
		}
	}
	check(files, maxFileLines, "file")
	check(funcs, maxFuncLines, "function")
	for _, k := range sortedKeys(exceptions) {
		if _, ok := files[k]; ok {
			continue
		}
		if _, ok := funcs[k]; ok {
			continue
		}
		out = append(out, fmt.Sprintf("%s: in sizeExceptions but no such file or function: delete its entry", k))
	}
	return out
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestSizeLimits fails naming each Go file over maxFileLines lines and
// each function over maxFuncLines lines that sizeExceptions does not
// list, each exception that grew, and each exception that is larger than
// its file's or function's size or no longer needed.
func TestSizeLimits(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files, funcs, err := codeSizes(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no Go file found under %s", root)
	}
	for _, p := range sizeProblems(files, funcs, sizeExceptions) {
		t.Error(p)
	}
}

// TestSizeLimitsFind checks that the size check reports a file and a
// function over their limits, an exception outgrown, an exception larger
// than its size, one no longer needed and one naming nothing, and that it
// passes what is within the limits or exactly at its exception.
func TestSizeLimitsFind(t *testing.T) {
	files := map[string]int{"a/big.go": 700, "a/ok.go": 600, "a/grew.go": 650, "a/shrank.go": 610, "a/fits.go": 500, "a/exact.go": 640}
	funcs := map[string]int{"a/ok.go:F": 121, "a/ok.go:T.M": 120, "a/ok.go:G": 130}
	exceptions := map[string]int{"a/grew.go": 640, "a/shrank.go": 620, "a/fits.go": 610, "a/exact.go": 640, "a/ok.go:G": 130, "a/gone.go": 700}
	got := sizeProblems(files, funcs, exceptions)
	want := []string{
		"a/big.go: file of 700 lines, over the limit",
		"a/fits.go: file of 500 lines, within the limit of 600: delete",
		"a/grew.go: file of 650 lines, grown past its entry of 640",
		"a/shrank.go: file of 610 lines, its entry in sizeExceptions says 620: lower the entry to 610",
		"a/ok.go:F: function of 121 lines, over the limit of 120",
		"a/gone.go: in sizeExceptions but no such file or function",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("problem %d = %q, want it to start with %q", i, got[i], w)
		}
	}
}

// TestFuncSizes checks how functions and methods are named and measured:
// from the func keyword to the closing brace, the doc comment left out.
func TestFuncSizes(t *testing.T) {
	src := "package p\n\n// F is documented.\nfunc F() {\n}\n\ntype T[P any] struct{}\n\nfunc (t *T[P]) M() {\n\t_ = 1\n\t_ = 2\n}\n\nfunc (T[P]) V() {}\n"
	got, err := funcSizes("p/p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"p/p.go:F": 2, "p/p.go:T.M": 4, "p/p.go:T.V": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("funcSizes = %v, want %v", got, want)
	}
	if n := lineCount([]byte(src)); n != 14 {
		t.Errorf("lineCount = %d, want 14", n)
	}
	if n := lineCount([]byte("a\nb")); n != 2 {
		t.Errorf("lineCount of a last line without newline = %d, want 2", n)
	}
}
