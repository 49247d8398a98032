package clc

import (
	"errors"
	"go/ast"
	"go/types"
	"strings"
	"testing"
)

// TestWriterStickyError checks that the first error is kept and that
// indentation follows open and close.
func TestWriterStickyError(t *testing.T) {
	var w writer
	w.open("a {")
	w.line("b;")
	w.fail(errors.New("first"))
	w.fail(errors.New("second"))
	w.fail(nil)
	w.close("}")
	w.raw("x\n\ty\n")
	if w.err == nil || w.err.Error() != "first" {
		t.Errorf("err = %v, want first", w.err)
	}
	if got, want := w.String(), "a {\n\tb;\n}\nx\n\ty\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestNeedsFP64 checks what the backend decides fp64 refusals from: the
// first float64 use, and none for float32 and integer code.
func TestNeedsFP64(t *testing.T) {
	fset, file, info := checkFile(t, "difffuncs_test.go")
	u32 := NewUnit(fset, PackageResolver([]*ast.File{file}, info))
	u64 := NewUnit(fset, PackageResolver([]*ast.File{file}, info))
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		fn := info.Defs[fd.Name].(*types.Func)
		switch fd.Name.Name {
		case "arithF32", "mulI32", "f32i64", "bmin32", "shrU64":
			if _, err := u32.Declared(fn); err != nil {
				t.Fatal(err)
			}
		case "pow":
			if _, err := u64.Declared(fn); err != nil {
				t.Fatal(err)
			}
		}
	}
	if ok, _ := u32.NeedsFP64(); ok || strings.Contains(u32.Source(), "double") || strings.Contains(u32.Source(), "cl_khr_fp64") {
		t.Errorf("float32 and integer code needs fp64:\n%s", u32.Source())
	}
	ok, pos := u64.NeedsFP64()
	if !ok || pos.Line == 0 || !strings.Contains(u64.Source(), "#pragma OPENCL EXTENSION cl_khr_fp64 : enable") {
		t.Errorf("float64 code: NeedsFP64 = %v at %v", ok, pos)
	}
	if u32.BuildOptions() != "-cl-fp32-correctly-rounded-divide-sqrt" || u64.BuildOptions() != "" {
		t.Errorf("build options %q and %q", u32.BuildOptions(), u64.BuildOptions())
	}
}
