package clc

import (
	"fmt"
	"go/ast"
	"go/types"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// lambdaSpecs are the specs of lambdafuncs_test.go, each with a generator
// of argument lists (xs first) and the error allowed on float results,
// relative to max(|result|, 1) (0: identical). A Black-Scholes price is
// the difference of two terms of the size of S (10-100), so its error is
// bounded relative to those, not to a small price: with Exp, Log and Erf
// each a few ULP off Go's, 1e-12 leaves a margin of 100.
var lambdaSpecs = map[string]struct {
	fn   any
	args func(r *rand.Rand, n int) []any
	rel  float64
}{
	"lamSums": {lamSums, func(r *rand.Rand, n int) []any {
		return []any{randInts(r, n, 100), randInts(r, 1+r.IntN(9), 1<<61), r.IntN(13) - 2}
	}, 0},
	"lamIndex": {lamIndex, func(r *rand.Rand, n int) []any {
		ws := make([]int32, 1+r.IntN(20))
		for i := range ws {
			ws[i] = r.Int32()
		}
		xs := make([]int, n)
		for i := range xs {
			xs[i] = r.IntN(len(ws))
		}
		if r.IntN(3) == 0 {
			xs[r.IntN(n)] = len(ws) + r.IntN(3) - 1 // sometimes out of range
		}
		return []any{xs, ws}
	}, 0},
	"lamDot": {lamDot, func(r *rand.Rand, n int) []any {
		m := r.IntN(50)
		ws, vs := randFloats(r, m), randFloats(r, m+r.IntN(4)/3) // sometimes unequal
		return []any{randFloats(r, n), ws, vs}
	}, 0},
	"lamBlackScholes": {lamBlackScholes, func(r *rand.Rand, n int) []any {
		opts := make([]option, n)
		for i := range opts {
			opts[i] = option{S: 10 + 90*r.Float64(), K: 10 + 90*r.Float64(), T: 0.1 + 2*r.Float64(), R: 0.1 * r.Float64(), V: 0.05 + 0.5*r.Float64()}
		}
		return []any{opts}
	}, 1e-12},
	"lamNearest": {lamNearest, func(r *rand.Rand, n int) []any {
		return []any{randPoints(r, n), randPoints(r, 1+r.IntN(8))}
	}, 0},
	"lamMSS": {lamMSS, func(r *rand.Rand, n int) []any {
		return []any{randInts(r, n, 1000), randInts(r, r.IntN(30), 1000)}
	}, 0},
	"lamBin": {lamBin, func(r *rand.Rand, n int) []any {
		xs := randFloats(r, n)
		xs[0] = math.NaN()
		if n > 2 {
			xs[1], xs[2] = math.Inf(1), -1e300
		}
		return []any{xs, -1.0, 1.0, 1 + r.IntN(20)}
	}, 0},
	"lamCross": {lamCross, func(r *rand.Rand, n int) []any {
		p := randPoints(r, 2)
		return []any{randPoints(r, n), p[0], p[1]}
	}, 0},
}

func randInts(r *rand.Rand, n int, lim int64) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = int(r.Int64N(2*lim) - lim)
	}
	return xs
}

func randFloats(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	return xs
}

func randPoints(r *rand.Rand, n int) []point {
	ps := make([]point, n)
	for i := range ps {
		ps[i] = point{r.NormFloat64(), r.NormFloat64()}
	}
	return ps
}

// lambdaHarness returns a kernel applying f at every element of xs, its
// captures taken from kernel parameters.
func lambdaHarness(name string, f *Func) string {
	params := []string{fmt.Sprintf("__global const %s *xs", f.Params[0].Type.C)}
	for _, c := range f.Captures {
		params = append(params, c.KernelParams()...)
	}
	params = append(params, fmt.Sprintf("__global %s *out", f.Result.C), "__global int *err")
	return fmt.Sprintf("__kernel void k_%s(%s) {\n\tconst size_t i = get_global_id(0);\n\tint e = 0;\n\tout[i] = %s;\n\terr[i] = e;\n}\n",
		name, strings.Join(params, ", "), f.Call([]string{"xs[i]"}, "", "&e"))
}

// TestLambdaDifferential translates the lambdas of lambdafuncs_test.go
// (captures included) into one program and compares each, element by
// element and panic for panic, with its spec on random inputs of lengths
// 1, odd and larger.
func TestLambdaDifferential(t *testing.T) {
	fset, file, info := checkFile(t, "lambdafuncs_test.go")
	u := NewUnit(fset, PackageResolver([]*ast.File{file}, info))
	type lam struct {
		decl *ast.FuncDecl
		f    *Func
	}
	var lams []lam
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fd.Name.Name, "lam") {
			continue
		}
		if _, ok := lambdaSpecs[fd.Name.Name]; !ok {
			t.Errorf("%s has no entry in lambdaSpecs", fd.Name.Name)
			continue
		}
		lit := fd.Body.List[0].(*ast.ReturnStmt).Results[0].(*ast.CallExpr).Args[1].(*ast.FuncLit)
		f, err := u.Lambda(lit, info)
		if err != nil {
			t.Fatalf("%s: %v", fd.Name.Name, err)
		}
		lams = append(lams, lam{fd, f})
	}
	src := u.Source()
	for _, l := range lams {
		src += lambdaHarness(l.decl.Name.Name, l.f)
	}
	d := testkit.Device(t)
	prog, err := d.Program(src, u.BuildOptions())
	if err != nil {
		t.Fatalf("%v\n%s", err, numbered(src))
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, l := range lams {
		name := l.decl.Name.Name
		spec := lambdaSpecs[name]
		// The spec parameter each capture is.
		var params []types.Object
		for _, fld := range l.decl.Type.Params.List {
			for _, n := range fld.Names {
				params = append(params, info.Defs[n])
			}
		}
		t.Run(name, func(t *testing.T) {
			k, err := prog.CreateKernel("k_" + name)
			if err != nil {
				t.Fatal(err)
			}
			defer k.Release()
			panics, runs := 0, 0
			for _, n := range []int{1, 2, 7, 100, 1001} {
				for range 4 {
					args := spec.args(r, n)
					if runLambda(t, d, k, l.f, params, spec.fn, args, spec.rel) {
						panics++
					}
					runs++
				}
			}
			// The cases that can panic must test both outcomes.
			if mayPanic := name == "lamIndex" || name == "lamDot" || name == "lamSums"; mayPanic && (panics == 0 || panics == runs) {
				t.Errorf("%d of %d runs panicked: the generator must give both outcomes", panics, runs)
			}
		})
	}
}

// runLambda runs one case and compares with the spec, returning whether
// the spec panicked.
func runLambda(t *testing.T, d *device.Device, k *cl.Kernel, f *Func, params []types.Object, fn any, args []any, rel float64) bool {
	t.Helper()
	var bufs []*cl.MemObject
	defer func() {
		for _, b := range bufs {
			b.Release()
		}
	}()
	buffer := func(p []byte, size int) *cl.MemObject {
		b, err := d.Ctx.CreateEmptyBuffer(cl.MemReadWrite, max(size, 8))
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, b)
		if len(p) > 0 {
			if _, err := d.Queue.EnqueueWriteBuffer(b, true, 0, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	xs := reflect.ValueOf(args[0])
	n := xs.Len()
	kargs := []any{buffer(bytesOf(xs), n*int(xs.Type().Elem().Size()))}
	for _, c := range f.Captures {
		j := -1
		for i, p := range params {
			if p == types.Object(c.Var) {
				j = i
			}
		}
		if j < 0 {
			t.Fatalf("capture %s is not a parameter of the spec", c.Var.Name())
		}
		v := reflect.ValueOf(args[j])
		switch c.Type.Kind {
		case Slice:
			kargs = append(kargs, buffer(bytesOf(v), v.Len()*int(v.Type().Elem().Size())), int64(v.Len()))
		case Struct:
			one := reflect.MakeSlice(reflect.SliceOf(v.Type()), 1, 1)
			one.Index(0).Set(v)
			kargs = append(kargs, bytesOf(one))
		default:
			kargs = append(kargs, args[j])
		}
	}
	want, panicked := callSpec(reflect.ValueOf(fn), args)
	rt := reflect.TypeOf(fn).Out(0).Elem()
	out := reflect.MakeSlice(reflect.SliceOf(rt), n, n)
	errs := make([]int32, n)
	outBuf, errBuf := buffer(nil, n*int(rt.Size())), buffer(nil, 4*n)
	kargs = append(kargs, outBuf, errBuf)
	if err := k.SetArgs(kargs...); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Queue.EnqueueNDRangeKernel(k, nil, []int{n}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Queue.EnqueueReadBuffer(outBuf, true, 0, bytesOf(out), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Queue.EnqueueReadBuffer(errBuf, true, 0, cl.Bytes(errs), nil); err != nil {
		t.Fatal(err)
	}
	flagged := -1
	for i, e := range errs {
		if e != 0 && flagged < 0 {
			flagged = i
		}
	}
	if panicked != (flagged >= 0) {
		t.Fatalf("n=%d: spec panics %v, device flags element %d", n, panicked, flagged)
	}
	if panicked {
		return true
	}
	for i := range n {
		g, w := out.Index(i), want.Index(i)
		if !sameResult(g, w, 0) && !(rel > 0 && math.Abs(g.Float()-w.Float()) <= rel*max(math.Abs(w.Float()), 1)) {
			t.Fatalf("n=%d element %d: device %v, spec %v", n, i, g, w)
		}
	}
	return false
}

// callSpec calls a spec, reporting whether it panicked.
func callSpec(fn reflect.Value, args []any) (res reflect.Value, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	return fn.Call(in)[0], false
}
