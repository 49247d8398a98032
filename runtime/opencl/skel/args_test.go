package skel

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// argsTable is a read-only buffer argument of the scan and filter tests
// (a captured slice: its elements and its length, as package launch
// passes one).
var argsTable = []int64{5, -3, 11, 0, 7, -13, 2}

// argsBuffer uploads argsTable into a buffer of d's pool.
func argsBuffer(t *testing.T) *cl.MemObject {
	t.Helper()
	d := testkit.Device(t)
	b, err := d.Buffer(len(argsTable) * 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Recycle(b) })
	if _, err := Write(d, b, cl.Bytes(argsTable)); err != nil {
		t.Fatal(err)
	}
	return b
}

// argsScan scans x*mul + add + tab[i mod len(tab)]: two scalars of one
// type, so that values passed in the wrong order give another scan, and
// a buffer with its length.
var argsScan = Scan{
	Name:   "argscan",
	Inputs: []Param{{"x", Int64}},
	Args: []Arg{{"mul", "const long mul"}, {"add", "const long add"},
		{"tab", "__global const long *restrict tab"}, {"tab_n", "const long tab_n"}},
	Body: "s = x * mul + add + tab[soac_index % tab_n];",
	Op:   Reduction{Name: "s", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true},
}

// TestScanArgs checks that both scan algorithms pass the Args to the
// element code of every kernel that evaluates it (the single pass; the
// reduce-then-scan's partials and final pass), on every size.
func TestScanArgs(t *testing.T) {
	tab := argsBuffer(t)
	for _, a := range algorithms {
		k := buildScan(t, argsScan, a)
		r := rand.New(rand.NewPCG(21, 22))
		for _, n := range sizes {
			x := make([]int64, n)
			for i := range x {
				x[i] = r.Int64N(1<<40) - 1<<39
			}
			out := make([]int64, n)
			if _, err := k.RunArgs([]any{int64(3), int64(-7), tab, int64(len(argsTable))}, []HostSlice{Slice(x)}, Slice(out)); err != nil {
				t.Fatal(err)
			}
			var acc int64
			for i := range x {
				acc += x[i]*3 - 7 + argsTable[i%len(argsTable)]
				if out[i] != acc {
					t.Fatalf("%v n=%d: out[%d] = %d, want %d", a, n, i, out[i], acc)
				}
			}
		}
		if _, err := k.RunArgs([]any{int64(3)}, []HostSlice{Slice([]int64{1})}, Slice(make([]int64, 1))); err == nil || !strings.Contains(err.Error(), "1 argument values for 4 arguments") {
			t.Errorf("%v: a run with one argument value: err = %v", a, err)
		}
		if _, err := k.Run([]HostSlice{Slice([]int64{1})}, Slice(make([]int64, 1))); err == nil {
			t.Errorf("%v: a run without the argument values did not fail", a)
		}
	}
}

// argsFilter keeps lo < x < hi, writing x*lo - hi and folding it, and
// reads the table at its index: the Args in the keep test, the outputs
// and the reductions.
var argsFilter = Filter{
	Name:       "argfilter",
	Inputs:     []Param{{"x", Int64}},
	Outputs:    []Param{{"y", Int64}, {"idx", Int64}},
	Reductions: []Reduction{{Name: "y", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}},
	Args: []Arg{{"lo", "const long lo"}, {"hi", "const long hi"},
		{"tab", "__global const long *restrict tab"}, {"tab_n", "const long tab_n"}},
	Body: argsKeep + " idx = soac_index;",
}

// argsKeep is argsFilter's element code without its index output.
const argsKeep = "keep = x > lo && x < hi; y = x * lo - hi + tab[soac_index % tab_n];"

// TestFilterArgs is TestScanArgs for the filter: the single pass and the
// multi-pass kernels (counting pass and scatter), and the counting pass
// alone of a filter without outputs.
func TestFilterArgs(t *testing.T) {
	tab := argsBuffer(t)
	lo, hi := int64(-40), int64(60)
	want := func(x []int64) (idx []int64, ys []int64, sum int64) {
		for i, v := range x {
			if v > lo && v < hi {
				y := v*lo - hi + argsTable[i%len(argsTable)]
				idx, ys, sum = append(idx, int64(i)), append(ys, y), sum+y
			}
		}
		return idx, ys, sum
	}
	vals := []any{lo, hi, tab, int64(len(argsTable))}
	r := rand.New(rand.NewPCG(23, 24))
	count := argsFilter
	count.Name, count.Outputs, count.Body = "argcount", nil, argsKeep
	kc, err := count.Build(testkit.Device(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range algorithms {
		k := buildFilter(t, argsFilter, a)
		for _, n := range sizes {
			x := make([]int64, n)
			for i := range x {
				x[i] = r.Int64N(200) - 100
			}
			wi, wy, ws := want(x)
			y, idx, sum := make([]int64, n), make([]int64, n), make([]int64, 1)
			kept, _, err := k.RunArgs(vals, []HostSlice{Slice(x)}, []HostSlice{Slice(y), Slice(idx)}, []HostSlice{Slice(sum)})
			if err != nil {
				t.Fatal(err)
			}
			if kept != len(wi) || sum[0] != ws {
				t.Fatalf("%v n=%d: kept %d with sum %d, want %d with sum %d", a, n, kept, sum[0], len(wi), ws)
			}
			for j := range wi {
				if idx[j] != wi[j] || y[j] != wy[j] {
					t.Fatalf("%v n=%d: element %d is (%d, %d), want (%d, %d)", a, n, j, idx[j], y[j], wi[j], wy[j])
				}
			}
			kept, _, err = kc.RunArgs(vals, []HostSlice{Slice(x)}, nil, []HostSlice{Slice(sum)})
			if err != nil {
				t.Fatal(err)
			}
			if kept != len(wi) || sum[0] != ws {
				t.Fatalf("counting pass n=%d: kept %d with sum %d, want %d with sum %d", n, kept, sum[0], len(wi), ws)
			}
		}
		if _, _, err := k.RunArgs(vals[:3], []HostSlice{Slice([]int64{1})}, []HostSlice{Slice(make([]int64, 1)), Slice(make([]int64, 1))}, []HostSlice{Slice(make([]int64, 1))}); err == nil || !strings.Contains(err.Error(), "3 argument values for 4 arguments") {
			t.Errorf("%v: a run with three argument values: err = %v", a, err)
		}
	}
}

// TestArgNames checks that the scan and filter refuse Args named like
// the skeletons' own soac_ names, as Redomap does.
func TestArgNames(t *testing.T) {
	bad := []Arg{{"soac_index", "const long soac_index"}}
	s := argsScan
	s.Args = bad
	if _, err := s.Source(true); err == nil || !strings.Contains(err.Error(), "not a usable C identifier") {
		t.Errorf("scan: err = %v", err)
	}
	if _, err := s.Source(false); err == nil || !strings.Contains(err.Error(), "not a usable C identifier") {
		t.Errorf("scan (reduce-then-scan): err = %v", err)
	}
	f := argsFilter
	f.Args = bad
	for _, gpu := range []bool{true, false} {
		if _, err := f.Source(gpu); err == nil || !strings.Contains(err.Error(), "not a usable C identifier") {
			t.Errorf("filter (gpu %v): err = %v", gpu, err)
		}
	}
}
