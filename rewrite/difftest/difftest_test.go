package difftest

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// TestRandomNestedBound generates [][]int, [][][]float64 and
// []struct{Xs []int} values of the sizes Run uses: each holds at
// most MaxElements slice elements, the outer length is n, and across the
// values there are rectangular ones, ragged ones, empty rows and rows of
// one element.
func TestRandomNestedBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type withRows struct{ Xs []int }
	for _, ty := range []reflect.Type{reflect.TypeFor[[][]int](), reflect.TypeFor[[][][]float64](), reflect.TypeFor[[]withRows]()} {
		var rect, ragged, empty, one bool
		for _, n := range []int{0, 1, 7, 1000, 100000} {
			for trial := 0; trial < 3; trial++ {
				v := Random(r, ty, n)
				if v.Len() != n {
					t.Fatalf("%s of length %d: length %d", ty, n, v.Len())
				}
				if k := Elements(v); k > MaxElements {
					t.Fatalf("%s of length %d: %d elements, over %d", ty, n, k, MaxElements)
				}
				lens := map[int]bool{}
				for i := 0; i < v.Len(); i++ {
					row := v.Index(i)
					if row.Kind() == reflect.Struct {
						row = row.Field(0)
					}
					lens[row.Len()] = true
				}
				if n >= 7 {
					rect = rect || len(lens) == 1
					ragged = ragged || len(lens) > 2
					empty = empty || lens[0]
					one = one || lens[1]
				}
			}
		}
		if !rect || !ragged || !empty || !one {
			t.Errorf("%s: rectangular %v, ragged %v, empty rows %v, rows of one %v: want every shape", ty, rect, ragged, empty, one)
		}
	}
}

// TestRandomOverBound checks that Random refuses a slice longer than
// MaxElements, naming the bound.
func TestRandomOverBound(t *testing.T) {
	defer func() {
		if e, _ := recover().(string); !strings.Contains(e, "difftest.MaxElements") {
			t.Errorf("panic %q, want one naming difftest.MaxElements", e)
		}
	}()
	Random(rand.New(rand.NewPCG(1, 1)), reflect.TypeFor[[]int](), MaxElements+1)
}

func TestElements(t *testing.T) {
	type s struct {
		A []int
		b [2][]int
	}
	for _, tc := range []struct {
		v    any
		want int
	}{
		{[]int{1, 2, 3}, 3},
		{[][]int{{1}, {}, nil, {1, 2}}, 7},
		{[2][]int{{1}, {2, 3}}, 3},
		{&s{A: []int{1}, b: [2][]int{{1, 2}, nil}}, 3},
		{[][][]int{{{1}, {2}}, nil}, 6},
		{5, 0},
	} {
		if got := Elements(reflect.ValueOf(tc.v)); got != tc.want {
			t.Errorf("Elements(%#v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestRunOverLarge runs, in a child process, a case whose Args hook makes
// more than MaxElements elements and one whose spec's result outgrows
// MaxHeap (a grid of len(xs)×len(rows) elements): both must end in a
// message naming the case, not in the kernel's "signal: killed".
func TestRunOverLarge(t *testing.T) {
	if os.Getenv("DIFFTEST_CHILD") != "" {
		return
	}
	for _, tc := range []struct{ child, want string }{
		{"args", "Big, n=0, trial 0: argument 0 holds 1048577 slice elements, over difftest.MaxElements"},
		{"heap", "difftest: Grid, n=100000, trial 0: the heap holds"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunOverLargeChild$", "-test.v")
		cmd.Env = append(os.Environ(), "DIFFTEST_CHILD="+tc.child)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: %v, output:\n%s\nwant a failure saying %q", tc.child, err, out, tc.want)
		}
	}
}

// TestRunOverLargeChild is TestRunOverLarge's child.
func TestRunOverLargeChild(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	switch os.Getenv("DIFFTEST_CHILD") {
	case "args":
		id := func(xs []int) int { return len(xs) }
		Run(t, []Case{{Name: "Big", Spec: id, Fused: id, Args: func(r *rand.Rand, n int) []any {
			return []any{make([]int, MaxElements+1)}
		}}}, r)
	case "heap":
		MaxHeap = 256 << 20
		grid := func(xs []int, rows [][]int) [][]int {
			out := make([][]int, len(rows))
			for i := range out {
				out[i] = make([]int, len(xs))
			}
			return out
		}
		Run(t, []Case{{Name: "Grid", Spec: grid, Fused: grid}}, r)
	}
}

// BenchmarkRun is Run on two cases of float and int inputs (the
// differential tests' inner loop: random inputs, copies, calls,
// comparisons), with the calls themselves cheap.
func BenchmarkRun(b *testing.B) {
	dot := func(xs, ys []float64) float64 {
		s := 0.0
		for i := range min(len(xs), len(ys)) {
			s += xs[i] * ys[i]
		}
		return s
	}
	inc := func(xs []int32, c int) []int32 {
		out := make([]int32, len(xs))
		for i, x := range xs {
			out[i] = x + int32(c)
		}
		return out
	}
	rows := func(xss [][]int) int { return len(xss) }
	cases := []Case{{Name: "dot", Spec: dot, Fused: dot}, {Name: "inc", Spec: inc, Fused: inc}, {Name: "rows", Spec: rows, Fused: rows}}
	t := &testing.T{}
	for b.Loop() {
		Run(t, cases, rand.New(rand.NewPCG(1, 2)))
	}
}

// TestFastPathsAgree: Random, Copy and Same give, with their fast paths
// for slices of numbers and bools, what their element-by-element code
// gives: the same values from the same seed, the same copies, the same
// verdicts (floats bit for bit, NaNs equal, -0 apart from +0).
func TestFastPathsAgree(t *testing.T) {
	defer func() { slowPaths = false }()
	type celsius float32
	type flags []bool
	types := []reflect.Type{
		reflect.TypeFor[[]int](), reflect.TypeFor[[]int8](), reflect.TypeFor[[]int16](), reflect.TypeFor[[]int32](), reflect.TypeFor[[]int64](),
		reflect.TypeFor[[]uint](), reflect.TypeFor[[]uint8](), reflect.TypeFor[[]uint16](), reflect.TypeFor[[]uint32](), reflect.TypeFor[[]uint64](), reflect.TypeFor[[]uintptr](),
		reflect.TypeFor[[]float32](), reflect.TypeFor[[]float64](), reflect.TypeFor[[]celsius](), reflect.TypeFor[flags](),
		reflect.TypeFor[[][]float64](), reflect.TypeFor[[][2]int](), reflect.TypeFor[[]struct{ A, B float64 }](),
	}
	for _, ty := range types {
		for _, n := range []int{0, 1, 7, 1000} {
			gen := func(slow bool, seed uint64) reflect.Value {
				slowPaths = slow
				defer func() { slowPaths = false }()
				return Random(rand.New(rand.NewPCG(seed, 9)), ty, n)
			}
			fast, slow := gen(false, 1), gen(true, 1)
			slowPaths = true
			if !Same(fast, slow) {
				t.Fatalf("%s n=%d: Random's fast path gives other values", ty, n)
			}
			slowPaths = false
			if c := Copy([]reflect.Value{fast})[0]; !Same(c, fast) || n > 0 && c.Pointer() == fast.Pointer() {
				t.Fatalf("%s n=%d: Copy's fast path is not a copy", ty, n)
			}
			// Another value, and fast with one element changed (to
			// another seed's element: NaN, ±0 among them).
			other := gen(false, 2)
			for i := 0; i < n; i++ {
				changed := Copy([]reflect.Value{fast})[0]
				changed.Index(i).Set(other.Index(i))
				for _, pair := range [][2]reflect.Value{{fast, changed}, {fast, other}} {
					f := Same(pair[0], pair[1])
					slowPaths = true
					s := Same(pair[0], pair[1])
					slowPaths = false
					if f != s {
						t.Fatalf("%s n=%d, element %d: Same's fast path says %v, the elements %v", ty, n, i, f, s)
					}
				}
				if i > 20 {
					break
				}
			}
		}
	}
	zeros := []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN()}
	for _, a := range zeros {
		for _, b := range zeros {
			want := math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
			if got := Same(reflect.ValueOf([]float64{a}), reflect.ValueOf([]float64{b})); got != want {
				t.Errorf("Same([%v], [%v]) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestSameInterfaces: results of type any compare by their dynamic
// values (floats bit for bit, NaNs equal).
func TestSameInterfaces(t *testing.T) {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	for _, tc := range []struct {
		a, b []any
		want bool
	}{
		{[]any{nan, []float64{nan}}, []any{nan, []float64{nan}}, true},
		{[]any{0.0}, []any{negZero}, false},
		{[]any{1}, []any{1.0}, false},
		{[]any{nil}, []any{nil}, true},
		{[]any{nil}, []any{0}, false},
		{[]any{[]int(nil)}, []any{[]int{}}, false},
	} {
		if got := Same(reflect.ValueOf(tc.a), reflect.ValueOf(tc.b)); got != tc.want {
			t.Errorf("Same(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSameUnexported: structs with fields that are not exported compare
// field by field (their values cannot become interfaces).
func TestSameUnexported(t *testing.T) {
	type span struct {
		lo, hi int
		ok     bool
		name   string
		c      complex128
		f      float32
	}
	nan := float32(math.NaN())
	a := span{1, 2, true, "a", complex(1, math.NaN()), nan}
	for _, tc := range []struct {
		b    span
		want bool
	}{
		{a, true},
		{span{1, 3, true, "a", complex(1, math.NaN()), nan}, false},
		{span{1, 2, false, "a", complex(1, math.NaN()), nan}, false},
		{span{1, 2, true, "b", complex(1, math.NaN()), nan}, false},
		{span{1, 2, true, "a", complex(1, 0), nan}, false},
		{span{1, 2, true, "a", complex(1, math.NaN()), 0}, false},
	} {
		if got := Same(reflect.ValueOf(a), reflect.ValueOf(tc.b)); got != tc.want {
			t.Errorf("Same(%v, %v) = %v, want %v", a, tc.b, got, tc.want)
		}
	}
}

// TestCompareDetects: Compare reports each kind of difference the
// differential tests rely on it to see, and none between equal functions.
func TestCompareDetects(t *testing.T) {
	negZero := math.Copysign(0, -1)
	sum := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	}
	args := []reflect.Value{reflect.ValueOf([]float64{negZero, negZero})}
	for _, tc := range []struct {
		name        string
		spec, fused any
		args        []reflect.Value
		want        string
	}{
		{"equal", sum, sum, args, ""},
		{"signed zero", func(xs []float64) float64 { return negZero }, func(xs []float64) float64 { return 0 }, args, "result 0"},
		{"NaN", func(xs []float64) float64 { return math.NaN() }, func(xs []float64) float64 { return 1 }, args, "result 0"},
		{"nil or empty", func(xs []float64) []float64 { return nil }, func(xs []float64) []float64 { return []float64{} }, args, "result 0"},
		{"panic message", func(xs []float64) float64 { panic("a") }, func(xs []float64) float64 { panic("b") }, args, `panic "b", spec panics "a"`},
		{"no panic", func(xs []float64) float64 { panic("a") }, func(xs []float64) float64 { return 0 }, args, `panic "", spec panics "a"`},
		{"argument written", func(xs []float64) float64 { return 0 }, func(xs []float64) float64 { xs[1] = 1; return 0 }, args, "argument 0 after the call"},
		{"argument's sign", func(xs []float64) float64 { return 0 }, func(xs []float64) float64 { xs[0] = 0; return 0 }, args, "argument 0 after the call"},
		{"nested row written", func(xss [][]int) int { return 0 }, func(xss [][]int) int { xss[0][0]++; return 0 }, []reflect.Value{reflect.ValueOf([][]int{{1}})}, "argument 0 after the call"},
		{"function argument", func(f func(int) int) int { return f(1) }, func(f func(int) int) int { return f(1) }, []reflect.Value{reflect.ValueOf(func(x int) int { return x + 1 })}, ""},
		{"function result", func() func() { return nil }, func() func() { return func() {} }, nil, "result 0"},
	} {
		got := Compare(tc.spec, tc.fused, tc.args)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: Compare says %q, want %q", tc.name, got, tc.want)
		}
	}
	// The arguments themselves are not written: both calls get copies.
	if xs := args[0].Interface().([]float64); math.Float64bits(xs[0]) != math.Float64bits(negZero) || xs[1] != 0 {
		t.Errorf("Compare wrote its arguments: %v", xs)
	}
}

// TestChunking: a spec whose stream sums the keys of its chunks (their
// sum depends on the chunking) is reported, naming both results; one
// counting its chunks' elements is not, nor one that panics.
func TestChunking(t *testing.T) {
	add := func(a, b int) int { return a + b }
	keys := func(xs []int) int {
		return soac.StreamRed(xs, add, func(c []int) int {
			n := 0
			for i := range c {
				n += i
			}
			return n
		})
	}
	count := func(xs []int) int { return soac.StreamRed(xs, add, func(c []int) int { return len(c) }) }
	panics := func(xs []int) int { panic(keys(xs)) } // a message of its chunking
	args := []reflect.Value{reflect.ValueOf(make([]int, 1000))}
	if msg := Chunking(keys, args, 334); !strings.Contains(msg, "in stream chunks of 334 elements = 166168, in chunks of soac.ChunkSize 499500") {
		t.Errorf("Chunking(keys) = %q, want the two sums", msg)
	}
	if msg := Chunking(count, args, 334); msg != "" {
		t.Errorf("Chunking(count) = %q", msg)
	}
	if msg := Chunking(panics, args, 334); msg != "" {
		t.Errorf("Chunking(panics) = %q", msg)
	}
	if got := soac.StreamRed(make([]int, 10), add, func(c []int) int { return len(c) }); got != 10 {
		t.Errorf("the chunking was not restored: %d", got)
	}
}
