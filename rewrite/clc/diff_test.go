package clc

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// diffFuncs are the functions of difffuncs_test.go with the largest
// distance in ULP allowed between their float results on the device and
// in Go (0: identical bits, NaNs of any payload being equal).
// Bounds: OpenCL 1.2 full profile, double precision (section 7.4): exp,
// log 3 ULP, sin, cos 4, pow and erf 16; Go's own are within 1-2 ULP.
var diffFuncs = map[string]struct {
	fn  any
	ulp uint64
}{
	"addI8": {addI8, 0}, "subU8": {subU8, 0}, "mulI16": {mulI16, 0}, "mulU16": {mulU16, 0},
	"mulI32": {mulI32, 0}, "addI64": {addI64, 0}, "mulU64": {mulU64, 0}, "negI32": {negI32, 0},
	"negI64": {negI64, 0}, "divI8": {divI8, 0}, "remI8": {remI8, 0}, "divI32": {divI32, 0},
	"remI32": {remI32, 0}, "divI64": {divI64, 0}, "remI64": {remI64, 0}, "divU32": {divU32, 0},
	"remU64": {remU64, 0}, "divConst": {divConst, 0}, "shlI8": {shlI8, 0}, "shrI8": {shrI8, 0},
	"shrU8": {shrU8, 0}, "shlI32": {shlI32, 0}, "shrI32": {shrI32, 0}, "shrU32": {shrU32, 0},
	"shlI64": {shlI64, 0}, "shrI64": {shrI64, 0}, "shlU64": {shlU64, 0}, "shrU64": {shrU64, 0},
	"constShifts": {constShifts, 0}, "bits": {bits, 0}, "bitsI": {bitsI, 0},
	"cmp": {cmp, 0}, "cmpU": {cmpU, 0}, "cmpF": {cmpF, 0}, "cmpF32": {cmpF32, 0},
	"f2i8": {f2i8, 0}, "f2u8": {f2u8, 0}, "f2i16": {f2i16, 0}, "f2u16": {f2u16, 0},
	"f2i32": {f2i32, 0}, "f2u32": {f2u32, 0}, "f2i64": {f2i64, 0}, "f2u64": {f2u64, 0},
	"f32i32": {f32i32, 0}, "f32u32": {f32u32, 0}, "f32i64": {f32i64, 0}, "f32u64": {f32u64, 0},
	"f32i8": {f32i8, 0}, "i2f": {i2f, 0}, "u2f": {u2f, 0}, "u2f32": {u2f32, 0}, "i2f32": {i2f32, 0},
	"i8u64": {i8u64, 0}, "u64i16": {u64i16, 0}, "d2f": {d2f, 0}, "f2d": {f2d, 0},
	"arithF": {arithF, 0}, "arithF32": {arithF32, 0}, "negF": {negF, 0}, "fmaLike": {fmaLike, 0},
	"sqrt": {sqrt, 0}, "exp": {exp, 3}, "log": {log, 3}, "pow": {pow, 16}, "abs": {abs, 0},
	"floor": {floor, 0}, "ceil": {ceil, 0}, "trunc": {trunc, 0}, "erf": {erf, 16},
	"sin": {sin, 4}, "cos": {cos, 4}, "inf": {inf, 0}, "nan": {nan, 0}, "mmax": {mmax, 0},
	"mmin": {mmin, 0}, "bmax": {bmax, 0}, "bmin": {bmin, 0}, "bmax32": {bmax32, 0},
	"bmin32": {bmin32, 0}, "imax": {imax, 0}, "umin": {umin, 0}, "isnan": {isnan, 0},
	"isinf": {isinf, 0}, "signbit": {signbit, 0}, "fbits": {fbits, 0}, "copysign": {copysign, 0},
	"mod": {mod, 0}, "remainder": {remainder, 0}, "dim": {dim, 0}, "ldexp": {ldexp, 0}, "logb": {logb, 0},
	"fma": {fma, 0}, "acosh": {acosh, 8}, "asinh": {asinh, 8}, "atanh": {atanh, 8},
	"collatz": {collatz, 0}, "loops": {loops, 0}, "sw": {sw, 0}, "structs": {structs, 0},
	"index": {index, 0}, "named": {named, 0}, "explicitPanic": {explicitPanic, 0}, "swap": {swap, 0}, "useMulti": {useMulti, 0},
}

// looser bounds for functions whose Go implementation is itself not
// within a few ULP. Go's Pow multiplies repeated squares (relative error
// growing with |y|, 1.6e-14 for Pow(0.1, 300)); Go's Sin and Cos reduce
// the argument with a three-part π/4 (the absolute error of sin(π) is
// 1.7e-31, 14 ULP of that tiny result). Go's amd64 Log (log_amd64.s) is
// wrong for subnormal arguments (Log(5e-324) is -709.09, not -744.44),
// and Pow through it: those inputs are left out of log and pow.
var looser = map[string]struct {
	rel, abs      float64
	skipSubnormal bool
}{
	"pow": {rel: 1e-12, skipSubnormal: true},
	"log": {skipSubnormal: true},
	"sin": {abs: 1e-15},
	"cos": {abs: 1e-15},
}

// checkFile parses and type-checks one test file of this package.
func checkFile(t *testing.T, name string) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: testImporter(fset)}
	if _, err := conf.Check("clc", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	return fset, file, info
}

// exportEnv names a directory of gc export data files, one per imported
// package (its path with "/" spelled "_"), for running the differential
// tests where there is no Go toolchain (the GPU machine): without it the
// imports are type-checked from source.
const exportEnv = "SOACGEN_CLC_EXPORTDATA"

// testImporter returns the importer checkFile uses.
func testImporter(fset *token.FileSet) types.Importer {
	dir := os.Getenv(exportEnv)
	if dir == "" {
		return importer.ForCompiler(fset, "source", nil)
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(filepath.Join(dir, strings.ReplaceAll(path, "/", "_")))
	})
}

// edge returns edge and random values of a scalar Go type.
func edge(k reflect.Kind, r *rand.Rand) []reflect.Value {
	var out []reflect.Value
	add := func(v any) { out = append(out, reflect.ValueOf(v)) }
	switch k {
	case reflect.Bool:
		add(true)
		add(false)
		return out
	case reflect.Float32, reflect.Float64:
		fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 3, 0.1, math.Pi, -7.25,
			math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 2.2250738585072009e-308, -5e-324,
			1.401298464324817e-45, 1.1754942e-38, math.MaxFloat64, -math.MaxFloat64, math.MaxFloat32, 1e300, 1e-300,
			300, -300, 70000, -70000, 3e9, -3e9, 5e9, 1 << 31, -(1 << 31), 1<<31 - 1, 1 << 32, 4294967296.5,
			-2147483649, 1 << 63, -(1 << 63), 1 << 64, 1e19, -1e19, 9.2e18, 1.8e19, 2e19, 1e15 + 0.5, 710, -745, 1e-5}
		for range 60 {
			fs = append(fs, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(12)-4)))
		}
		for _, f := range fs {
			if k == reflect.Float32 {
				add(float32(f))
			} else {
				add(f)
			}
		}
		return out
	}
	var is []int64
	for i := range int64(71) {
		is = append(is, i)
	}
	is = append(is, -1, -2, -3, -7, -64, -65, math.MinInt64, math.MinInt64+1, math.MaxInt64, math.MaxInt64-1,
		math.MinInt32, math.MaxInt32, math.MaxUint32, math.MinInt16, math.MaxInt16, math.MinInt8, math.MaxInt8, 255, 65535, 1e9)
	for range 40 {
		is = append(is, int64(r.Uint64()))
	}
	for _, i := range is {
		out = append(out, reflect.ValueOf(i).Convert(reflect.TypeOf(int64(0))))
	}
	return out
}

// inputs returns argument tuples for a function of the given parameter
// types: all pairs of edge values for two parameters, capped.
func inputs(ps []reflect.Type, r *rand.Rand) [][]reflect.Value {
	vals := make([][]reflect.Value, len(ps))
	for i, p := range ps {
		if p.Kind() == reflect.Struct {
			continue
		}
		for _, v := range edge(p.Kind(), r) {
			vals[i] = append(vals[i], v.Convert(p))
		}
	}
	var out [][]reflect.Value
	switch len(ps) {
	case 1:
		for _, v := range vals[0] {
			out = append(out, []reflect.Value{v})
		}
	case 2:
		for _, a := range vals[0] {
			for _, b := range vals[1] {
				out = append(out, []reflect.Value{a, b})
			}
		}
	}
	return out
}

// callGo calls fn on args, reporting whether it panicked.
func callGo(fn reflect.Value, args []reflect.Value) (res reflect.Value, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	return fn.Call(args)[0], false
}

// bytesOf returns the bytes of a slice value.
func bytesOf(s reflect.Value) []byte {
	if s.Len() == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(s.UnsafePointer()), s.Len()*int(s.Type().Elem().Size()))
}

// ulpDiff is the distance of two floats in units in the last place; NaNs
// are equal to each other and infinitely far from numbers.
func ulpDiff(a, b float64, bits32 bool) uint64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return math.MaxUint64
	}
	ord := func(x float64) int64 {
		var i int64
		if bits32 {
			i = int64(int32(math.Float32bits(float32(x))))
			if i < 0 {
				i = math.MinInt32 - i
			}
		} else {
			i = int64(math.Float64bits(x))
			if i < 0 {
				i = math.MinInt64 - i
			}
		}
		return i
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	if math.Signbit(a) != math.Signbit(b) && a == 0 && b == 0 {
		return math.MaxUint64 // +0 and -0 differ in Go
	}
	return uint64(d)
}

// sameResult compares a device result with Go's within ulp.
func sameResult(got, want reflect.Value, ulp uint64) bool {
	switch want.Kind() {
	case reflect.Float64:
		return ulpDiff(got.Float(), want.Float(), false) <= ulp
	case reflect.Float32:
		return ulpDiff(got.Float(), want.Float(), true) <= ulp
	case reflect.Struct:
		for i := range want.NumField() {
			if !sameResult(got.Field(i), want.Field(i), ulp) {
				return false
			}
		}
		return true
	}
	return got.Equal(want)
}

// harness returns a kernel that calls f at every index.
func harness(f *Func) string {
	var w writer
	var params, args []string
	for i, p := range f.Params {
		params = append(params, fmt.Sprintf("__global const %s *a%d", p.Type.C, i))
		args = append(args, fmt.Sprintf("a%d[i]", i))
	}
	params = append(params, fmt.Sprintf("__global %s *out", f.Result.C), "__global int *err")
	w.open("__kernel void k_%s(%s) {", f.Name, strings.Join(params, ", "))
	w.line("const size_t i = get_global_id(0);")
	w.line("int e = 0;")
	w.line("out[i] = %s(%s);", f.Name, strings.Join(append(args, "&e"), ", "))
	w.line("err[i] = e;")
	w.close("}")
	return w.String()
}

// TestDifferential translates every function of difffuncs_test.go into one
// program, runs it on the OpenCL device over edge and random inputs, and
// compares each result and each panic with the compiled Go function's.
func TestDifferential(t *testing.T) {
	fset, file, info := checkFile(t, "difffuncs_test.go")
	u := NewUnit(fset, PackageResolver([]*ast.File{file}, info))
	var names []string
	funcs := map[string]*Func{}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.Results.NumFields() != 1 {
			continue // methods and functions of several results are callees
		}
		names = append(names, fd.Name.Name)
		if _, ok := diffFuncs[fd.Name.Name]; !ok {
			t.Errorf("%s has no entry in diffFuncs", fd.Name.Name)
			continue
		}
		f, err := u.Declared(info.Defs[fd.Name].(*types.Func))
		if err != nil {
			t.Fatalf("%s: %v", fd.Name.Name, err)
		}
		funcs[fd.Name.Name] = f
	}
	var src strings.Builder
	src.WriteString(u.Source())
	sort.Strings(names)
	for _, n := range names {
		src.WriteString(harness(funcs[n]))
	}
	d := testkit.Device(t)
	t.Logf("device: %v", d.Info)
	prog, err := d.Program(src.String(), u.BuildOptions())
	if err != nil {
		t.Fatalf("build: %v\n%s", err, numbered(src.String()))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			fn := reflect.ValueOf(diffFuncs[n].fn)
			var ps []reflect.Type
			for i := range fn.Type().NumIn() {
				ps = append(ps, fn.Type().In(i))
			}
			cases := inputs(ps, r)
			if n == "structs" || n == "index" || n == "named" || n == "explicitPanic" || n == "sw" || n == "loops" || n == "collatz" {
				cases = cases[:min(len(cases), 4000)]
			}
			if looser[n].skipSubnormal {
				var kept [][]reflect.Value
				for _, c := range cases {
					if x := c[0].Float(); x == 0 || math.Abs(x) >= 2.2250738585072014e-308 {
						kept = append(kept, c)
					}
				}
				cases = kept
			}
			runCases(t, d, prog, funcs[n], fn, cases, diffFuncs[n].ulp, n)
		})
	}
}

// runCases runs the harness kernel of f over cases and compares.
func runCases(t *testing.T, d *device.Device, prog *cl.Program, f *Func, fn reflect.Value, cases [][]reflect.Value, ulp uint64, name string) {
	t.Helper()
	nc := len(cases)
	var bufs []*cl.MemObject
	defer func() {
		for _, b := range bufs {
			b.Release()
		}
	}()
	buffer := func(host []byte, size int) *cl.MemObject {
		b, err := d.Ctx.CreateEmptyBuffer(cl.MemReadWrite, size)
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, b)
		if host != nil {
			if _, err := d.Queue.EnqueueWriteBuffer(b, true, 0, host, nil); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	var args []any
	for i := range fn.Type().NumIn() {
		s := reflect.MakeSlice(reflect.SliceOf(fn.Type().In(i)), nc, nc)
		for j, c := range cases {
			s.Index(j).Set(c[i])
		}
		args = append(args, buffer(bytesOf(s), s.Len()*int(fn.Type().In(i).Size())))
	}
	rt := fn.Type().Out(0)
	out := reflect.MakeSlice(reflect.SliceOf(rt), nc, nc)
	errs := make([]int32, nc)
	outBuf := buffer(nil, nc*int(rt.Size()))
	errBuf := buffer(nil, nc*4)
	args = append(args, outBuf, errBuf)
	k, err := prog.CreateKernel("k_" + f.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	if err := k.SetArgs(args...); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Queue.EnqueueNDRangeKernel(k, nil, []int{nc}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Queue.EnqueueReadBuffer(outBuf, true, 0, bytesOf(out), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Queue.EnqueueReadBuffer(errBuf, true, 0, cl.Bytes(errs), nil); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for j, c := range cases {
		want, panicked := callGo(fn, c)
		if panicked != (errs[j] != 0) {
			t.Errorf("%s%v: Go panics %v, device flag %d", f.Name, show(c), panicked, errs[j])
			bad++
		} else if !panicked && !sameResult(out.Index(j), want, ulp) && !within(out.Index(j), want, name) {
			t.Errorf("%v: device %v, Go %v (bound %d ULP)", show(c), out.Index(j), want, ulp)
			bad++
		}
		if bad > 10 {
			t.Fatal("too many differences")
		}
	}
}

// numbered prefixes lines with their numbers, for build logs.
func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}

// show formats arguments for messages.
func show(args []reflect.Value) string {
	var s []string
	for _, a := range args {
		s = append(s, fmt.Sprintf("%v", a.Interface()))
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// within reports whether got is within the looser bound of name.
func within(got, want reflect.Value, name string) bool {
	l, ok := looser[name]
	if !ok || want.Kind() != reflect.Float64 {
		return false
	}
	a, b := got.Float(), want.Float()
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	d := math.Abs(a - b)
	return d <= l.abs || d <= l.rel*math.Abs(b)
}
