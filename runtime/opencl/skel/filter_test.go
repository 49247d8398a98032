package skel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// buildFilter builds f with algorithm a and checks that the kernel runs
// it.
func buildFilter(t *testing.T, f Filter, a Algorithm) *FilterKernel {
	t.Helper()
	f.Algorithm = a
	f.Name += "_" + strings.ReplaceAll(a.String(), "-", "_")
	k, err := f.Build(testkit.Device(t))
	if err != nil {
		t.Fatal(err)
	}
	if k.Algorithm() != a {
		t.Fatalf("%s: built %v, want %v (%s)", f.Name, k.Algorithm(), a, k.Why())
	}
	return k
}

func TestFilterMapReduce(t *testing.T) {
	for _, a := range algorithms {
		testFilterMapReduce(t, a)
	}
}

// TestFilterTiles is TestFilterMapReduce with tiles of spMinLocal × 3
// elements: thousands of tiles, look-back windows past the start.
func TestFilterTiles(t *testing.T) {
	spOverride = func(t *spTarget) { t.local, t.k = spMinLocal, 3 }
	defer func() { spOverride = nil }()
	testFilterMapReduce(t, SinglePass)
}

func testFilterMapReduce(t *testing.T, a Algorithm) {
	k := buildFilter(t, Filter{
		Name:       "posdouble",
		Inputs:     []Param{{"x", Float32}},
		Outputs:    []Param{{"y", Float32}, {"idx", Int64}},
		Reductions: []Reduction{{Name: "y", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}},
		Body:       "keep = x > 0.25f; y = 2.0f * x; idx = soac_index;",
	}, a)
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range sizes {
		x := randF32(r, n)
		y, idx := make([]float32, n), make([]int64, n)
		sum := make([]float32, 1)
		kept, _, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y), Slice(idx)}, []HostSlice{Slice(sum)})
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		var ws, abs float64
		for i, v := range x {
			if v > 0.25 {
				want = append(want, i)
				ws += float64(2 * v)
				abs += float64(2 * v)
			}
		}
		if kept != len(want) {
			t.Fatalf("%v n=%d: kept %d, want %d", a, n, kept, len(want))
		}
		for j, i := range want {
			if idx[j] != int64(i) || y[j] != 2*x[i] {
				t.Fatalf("%v n=%d: element %d is (%d, %v), want (%d, %v)", a, n, j, idx[j], y[j], i, 2*x[i])
			}
		}
		if !closeSum(float64(sum[0]), ws, abs, n, eps32) {
			t.Errorf("%v n=%d: sum of kept %v, want %v", a, n, sum[0], ws)
		}
	}
}

// TestFilterStruct keeps structs and folds them with a non-commutative
// operator, which forces the chunked layout in the counting pass and
// keeps the filter off the single pass.
func TestFilterStruct(t *testing.T) {
	d := testkit.Device(t)
	at := affineType(t)
	spec := Filter{
		Name:       "keepaff",
		Inputs:     []Param{{"f", at}, {"w", Uint64}},
		Outputs:    []Param{{"f", at}, {"v", Uint64}},
		Reductions: []Reduction{{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}},
		Body:       "keep = (w & 3) != 0; v = w * 7;",
	}
	k, err := spec.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	want := "reduction f is not commutative"
	if !d.Info.IsGPU() {
		want = "CPU device" // AutoAlgorithm's choice before the reductions'
	}
	if k.Algorithm() != ReduceThenScan || !strings.Contains(k.Why(), want) {
		t.Errorf("non-commutative reduction: %v (%s), want reduce-then-scan naming %q", k.Algorithm(), k.Why(), want)
	}
	spec.Algorithm = SinglePass
	if _, err := spec.Build(d); err == nil || !strings.Contains(err.Error(), "not commutative") {
		t.Errorf("SinglePass with a non-commutative reduction: err = %v", err)
	}
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range sizes {
		f, w := make([]Affine, n), make([]uint64, n)
		for i := range f {
			f[i], w[i] = Affine{r.Uint32() | 1, r.Uint32()}, r.Uint64()
		}
		of, ov := make([]Affine, n), make([]uint64, n)
		comp := make([]Affine, 1)
		kept, _, err := k.Run([]HostSlice{Slice(f), Slice(w)}, []HostSlice{Slice(of), Slice(ov)}, []HostSlice{Slice(comp)})
		if err != nil {
			t.Fatal(err)
		}
		j := 0
		want := Affine{1, 0}
		for i := range f {
			if w[i]&3 == 0 {
				continue
			}
			if j >= kept || of[j] != f[i] || ov[j] != w[i]*7 {
				t.Fatalf("n=%d: kept element %d wrong or missing (kept %d)", n, j, kept)
			}
			want = composeAffine(want, f[i])
			j++
		}
		if j != kept || comp[0] != want {
			t.Fatalf("n=%d: kept %d (want %d), composition %+v (want %+v)", n, kept, j, comp[0], want)
		}
	}
}

func TestFilterResultLength(t *testing.T) {
	d := testkit.Device(t)
	k, err := Filter{Name: "pos_sum", Inputs: []Param{{"x", Float32}},
		Reductions: []Reduction{{Name: "x", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}},
		Body:       "keep = x > 0;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	xs := []float32{1, -2, 3}
	for _, res := range [][]float32{{}, {0, 0}} {
		if _, _, err := k.Run([]HostSlice{Slice(xs)}, nil, []HostSlice{Slice(res)}); err == nil || !strings.Contains(err.Error(), "one element") {
			t.Errorf("result slice of %d elements: err = %v, want one naming \"one element\"", len(res), err)
		}
	}
	sum := []float32{0}
	if _, _, err := k.Run([]HostSlice{Slice(xs)}, nil, []HostSlice{Slice(sum)}); err != nil || sum[0] != 4 {
		t.Errorf("sum of kept = %v, %v; want 4, nil", sum[0], err)
	}
}

// TestResultBufferSize checks that RunDevice refuses a result buffer
// smaller than one value of its reduction, which the kernel would write
// past.
func TestResultBufferSize(t *testing.T) {
	d := testkit.Device(t)
	red := []Reduction{{Name: "x", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}
	f, err := Filter{Name: "small_res", Inputs: []Param{{"x", red[0].Type}}, Reductions: red, Body: "keep = x > 0;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Redomap{Name: "small_res_r", Inputs: []Param{{"x", red[0].Type}}, Reductions: red}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	in, err := d.Buffer(4 * red[0].Type.Size)
	if err != nil {
		t.Fatal(err)
	}
	small, err := d.Buffer(red[0].Type.Size - 1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Recycle(in, small)
	if _, _, err := f.RunDevice(4, []*cl.MemObject{in}, nil, []*cl.MemObject{small}); err == nil || !strings.Contains(err.Error(), "result x") {
		t.Errorf("Filter.RunDevice with a %d-byte result buffer: err = %v, want one naming result x", small.Size(), err)
	}
	if _, err := r.RunDevice(4, []*cl.MemObject{in}, nil, []*cl.MemObject{small}); err == nil || !strings.Contains(err.Error(), "result x") {
		t.Errorf("Redomap.RunDevice with a %d-byte result buffer: err = %v, want one naming result x", small.Size(), err)
	}
}

// TestFilterStructOutputs keeps struct and 64-bit elements with no
// reduction on both paths, with a predicate that keeps runs of elements
// and drops others (every few thousand elements flips), so that whole
// tiles are kept or dropped.
func TestFilterStructOutputs(t *testing.T) {
	at := affineType(t)
	for _, a := range algorithms {
		k := buildFilter(t, Filter{
			Name:    "runs",
			Inputs:  []Param{{"f", at}, {"w", Uint64}},
			Outputs: []Param{{"f", at}, {"v", Uint64}},
			Body:    "keep = ((soac_index / 3001) & 1) == 0 || (w & 7) == 0; v = w ^ (ulong)soac_index;",
		}, a)
		r := rand.New(rand.NewPCG(21, 22))
		for _, n := range sizes {
			f, w := make([]Affine, n), make([]uint64, n)
			for i := range f {
				f[i], w[i] = Affine{r.Uint32(), r.Uint32()}, r.Uint64()
			}
			of, ov := make([]Affine, n), make([]uint64, n)
			kept, _, err := k.Run([]HostSlice{Slice(f), Slice(w)}, []HostSlice{Slice(of), Slice(ov)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			j := 0
			for i := range f {
				if (i/3001)&1 != 0 && w[i]&7 != 0 {
					continue
				}
				if j >= kept || of[j] != f[i] || ov[j] != w[i]^uint64(i) {
					t.Fatalf("%v n=%d: kept element %d (input %d) wrong or missing (kept %d)", a, n, j, i, kept)
				}
				j++
			}
			if j != kept {
				t.Fatalf("%v n=%d: kept %d, want %d", a, n, kept, j)
			}
		}
	}
}

// TestFilterReduceOnly checks a filter without outputs (the count and an
// integer sum of the kept elements) on its counting-pass form (what
// AutoAlgorithm picks) and on the single pass.
func TestFilterReduceOnly(t *testing.T) {
	spec := Filter{Name: "keepsum", Inputs: []Param{{"x", Int32}},
		Reductions: []Reduction{{Name: "s", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}},
		Body:       "keep = x % 3 == 0; s = (long)x * x;"}
	auto, err := spec.Build(testkit.Device(t))
	if err != nil {
		t.Fatal(err)
	}
	if auto.Algorithm() != ReduceThenScan || !strings.Contains(auto.Why(), "no outputs") {
		t.Fatalf("filter without outputs: %v (%s), want the counting pass", auto.Algorithm(), auto.Why())
	}
	sp := buildFilter(t, spec, SinglePass)
	r := rand.New(rand.NewPCG(27, 28))
	for _, n := range sizes {
		x := make([]int32, n)
		var want int64
		wk := 0
		for i := range x {
			x[i] = r.Int32N(1<<16) - 1<<15
			if x[i]%3 == 0 {
				want += int64(x[i]) * int64(x[i])
				wk++
			}
		}
		for _, k := range []*FilterKernel{auto, sp} {
			s := []int64{-1}
			kept, _, err := k.Run([]HostSlice{Slice(x)}, nil, []HostSlice{Slice(s)})
			if err != nil {
				t.Fatal(err)
			}
			if kept != wk || s[0] != want {
				t.Fatalf("%v n=%d: kept %d sum %d, want %d %d", k.Algorithm(), n, kept, s[0], wk, want)
			}
		}
	}
}

// TestFilterAll folds every element (Reduction.All) beside the kept
// elements' outputs and fold: the sum of all x and of the kept x differ
// wherever an element is dropped, so a fold of the wrong elements shows.
// The last element of all, a fold that does not commute, runs on the
// multi-pass form only.
func TestFilterAll(t *testing.T) {
	for _, a := range algorithms {
		reds := []Reduction{
			{Name: "all", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true, All: true},
			{Name: "kept", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true},
		}
		body := "keep = (x & 1) != 0; y = x * 3; all = x; kept = x;"
		if a == ReduceThenScan {
			// The last element: b unless b is the neutral element, the
			// smallest int64 (no x is).
			reds = append(reds, Reduction{Name: "last", Type: Int64, Op: "r = b == LONG_MIN ? a : b;", Neutral: "LONG_MIN", All: true})
			body += " last = x;"
		}
		k := buildFilter(t, Filter{
			Name:       "filterall",
			Inputs:     []Param{{"x", Int64}},
			Outputs:    []Param{{"y", Int64}},
			Reductions: reds,
			Body:       body,
		}, a)
		r := rand.New(rand.NewPCG(15, 16))
		for _, n := range sizes {
			x := make([]int64, n)
			for i := range x {
				x[i] = r.Int64N(1000) - 500
			}
			y := make([]int64, n)
			res := make([][]int64, len(reds))
			hs := make([]HostSlice, len(reds))
			for i := range res {
				res[i] = make([]int64, 1)
				hs[i] = Slice(res[i])
			}
			kept, _, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, hs)
			if err != nil {
				t.Fatal(err)
			}
			var all, keptSum int64
			var want []int64
			for _, v := range x {
				all += v
				if v&1 != 0 {
					keptSum += v
					want = append(want, 3*v)
				}
			}
			if kept != len(want) || !slicesEqual(y[:kept], want) {
				t.Fatalf("%v n=%d: kept %d elements, want %d", a, n, kept, len(want))
			}
			if res[0][0] != all || res[1][0] != keptSum {
				t.Errorf("%v n=%d: sums of all and kept %d, %d; want %d, %d", a, n, res[0][0], res[1][0], all, keptSum)
			}
			if len(reds) == 3 {
				last := int64(math.MinInt64)
				if n > 0 {
					last = x[n-1]
				}
				if res[2][0] != last {
					t.Errorf("%v n=%d: last element %d, want %d", a, n, res[2][0], last)
				}
			}
		}
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
