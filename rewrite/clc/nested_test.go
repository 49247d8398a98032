package clc

import (
	"fmt"
	"go/ast"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// TestBuildAll builds every translation of the testdata cases and the
// examples on the OpenCL device: the OpenCL C of each golden compiles.
func TestBuildAll(t *testing.T) {
	d := testkit.Device(t)
	for _, pkg := range load(t, "./testdata/basic", "./testdata/nested", "../../examples/...") {
		for _, l := range lambdas(pkg) {
			_, u, _, err := translateOne(pkg, l)
			if err != nil {
				continue
			}
			if _, err := d.Program(u.Source(), u.BuildOptions()); err != nil {
				t.Errorf("%v: %v\n%s", pkg.Fset.Position(l.expr.Pos()), err, numbered(u.Source()))
			}
		}
	}
}

// flatten lays a [][]float64 out as a Slice2 capture: the rows back to
// back and len+1 row offsets.
func flatten(xs [][]float64) ([]float64, []int64) {
	off := []int64{0}
	var data []float64
	for _, r := range xs {
		data = append(data, r...)
		off = append(off, int64(len(data)))
	}
	if len(data) == 0 {
		data = []float64{0} // OpenCL has no empty buffers
	}
	return data, off
}

// TestMatMulDifferential runs the matmul example's outer lambda (a Map of
// a redomap over the captured bt, per row of a) as one work-item per row
// and compares with the spec's result; rows of unequal length must raise
// the panic flag where Map2 panics.
func TestMatMulDifferential(t *testing.T) {
	fset, file, info := checkFile(t, "lambdafuncs_test.go")
	var outer *ast.FuncLit
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "matMulSpec" {
			outer = fd.Body.List[0].(*ast.ReturnStmt).Results[0].(*ast.CallExpr).Args[1].(*ast.FuncLit)
		}
	}
	u := NewUnit(fset, PackageResolver([]*ast.File{file}, info))
	f, err := u.Lambda(outer, info)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 1 || f.Captures[0].Var.Name() != "bt" || f.Result.Kind != Slice {
		t.Fatalf("captures %v, result %v", f.Captures, f.Result)
	}
	bt := f.Captures[0]
	kernel := fmt.Sprintf(`__kernel void mm(__global const double *a__p, __global const long *a__off, %s, __global double *out, const long c, __global int *err) {
	const long i = get_global_id(0);
	int e = 0;
	const soac__sl_double row = soac__sl_double__mk(a__p + a__off[i], a__off[i + 1] - a__off[i]);
	const soac__out_double o = %s;
	err[i] = e != 0 || o.n != c;
}
`, strings.Join(bt.KernelParams(), ", "), f.Call([]string{"row"}, "soac__out_double__mk(out + i * c, c)", "&e"))
	d := testkit.Device(t)
	t.Logf("device: %v", d.Info)
	prog, err := d.Program(u.Source()+kernel, u.BuildOptions())
	if err != nil {
		t.Fatalf("%v\n%s", err, numbered(u.Source()+kernel))
	}
	k, err := prog.CreateKernel("mm")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	r := rand.New(rand.NewPCG(3, 4))
	spec := func(a, bt [][]float64) (c [][]float64, panicked bool) {
		defer func() { panicked = recover() != nil }()
		return matMulSpec(a, bt), false
	}
	for _, sz := range [][3]int{{1, 1, 1}, {3, 0, 2}, {7, 5, 3}, {33, 17, 65}, {64, 64, 64}} {
		for _, ragged := range []bool{false, true} {
			m, kk, n := sz[0], sz[1], sz[2]
			mat := func(rows, cols int) [][]float64 {
				x := make([][]float64, rows)
				for i := range x {
					x[i] = make([]float64, cols)
					for j := range x[i] {
						x[i][j] = r.NormFloat64()
					}
				}
				return x
			}
			a, b := mat(m, kk), mat(n, kk)
			if ragged {
				b[n-1] = append(b[n-1], 1)
			}
			want, panicked := spec(a, b)
			ad, aoff := flatten(a)
			bd, boff := flatten(b)
			out := make([]float64, m*n)
			errs := make([]int32, m)
			var bufs []*cl.MemObject
			up := func(p []byte) *cl.MemObject {
				buf, err := d.Ctx.CreateEmptyBuffer(cl.MemReadWrite, max(len(p), 8))
				if err != nil {
					t.Fatal(err)
				}
				bufs = append(bufs, buf)
				if _, err := d.Queue.EnqueueWriteBuffer(buf, true, 0, p, nil); err != nil {
					t.Fatal(err)
				}
				return buf
			}
			outBuf, errBuf := up(cl.Bytes(out)), up(cl.Bytes(errs))
			if err := k.SetArgs(up(cl.Bytes(ad)), up(cl.Bytes(aoff)), up(cl.Bytes(bd)), up(cl.Bytes(boff)), int64(n), outBuf, int64(n), errBuf); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Queue.EnqueueNDRangeKernel(k, nil, []int{m}, nil, nil); err != nil {
				t.Fatal(err)
			}
			d.Queue.EnqueueReadBuffer(outBuf, true, 0, cl.Bytes(out), nil)
			d.Queue.EnqueueReadBuffer(errBuf, true, 0, cl.Bytes(errs), nil)
			for _, b := range bufs {
				b.Release()
			}
			flagged := false
			for _, e := range errs {
				flagged = flagged || e != 0
			}
			if flagged != panicked {
				t.Fatalf("%v ragged=%v: Go panics %v, device flags %v", sz, ragged, panicked, errs)
			}
			if panicked {
				continue
			}
			for i := range m {
				for j := range n {
					// Sequential per work-item, so the same order as Go:
					// identical bits.
					if g, w := out[i*n+j], want[i][j]; math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%v: c[%d][%d] = %v, want %v", sz, i, j, g, w)
					}
				}
			}
		}
	}
}
