package soac_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// checkSlice fails t unless got is non-nil and equal to want element-wise.
func checkSlice[T comparable](t *testing.T, name string, got, want []T) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = nil, want non-nil %v", name, want)
		return
	}
	if len(got) != len(want) {
		t.Errorf("%s has length %d, want %d (%v vs %v)", name, len(got), len(want), got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s = %v, want %v (first difference at %d)", name, got, want, i)
			return
		}
	}
}

// mustPanic fails t unless f panics with exactly the string want.
func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("no panic, want %q", want)
			return
		}
		if s, ok := r.(string); !ok || s != want {
			t.Errorf("panic %#v, want %q", r, want)
		}
	}()
	f()
}

// inputs are the shapes every table test covers: nil, empty, length 1, odd
// and even lengths, and lengths around ChunkSize.
var inputs = []struct {
	name string
	xs   []int
}{
	{"nil", nil},
	{"empty", []int{}},
	{"one", []int{7}},
	{"two", []int{-3, 5}},
	{"odd", []int{4, -1, 0, 9, -8}},
	{"chunk-1", seq(soac.ChunkSize - 1)},
	{"chunk", seq(soac.ChunkSize)},
	{"chunk+1", seq(soac.ChunkSize + 1)},
	{"3chunks+5", seq(3*soac.ChunkSize + 5)},
}

// seq returns n ints alternating in sign: 0, -1, 2, -3, ...
func seq(n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
		if i%2 == 1 {
			xs[i] = -i
		}
	}
	return xs
}

func TestMap(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			var calls []int
			got := soac.Map(tc.xs, func(x int) string { calls = append(calls, x); return strconv.Itoa(2 * x) })
			want := make([]string, len(tc.xs))
			for i, x := range tc.xs {
				want[i] = strconv.Itoa(2 * x)
			}
			checkSlice(t, "Map", got, want)
			checkSlice(t, "calls of f", append([]int{}, calls...), append([]int{}, tc.xs...))
		})
	}
}

func TestMap2(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			ys := make([]float64, len(tc.xs))
			for i := range ys {
				ys[i] = float64(i) / 2
			}
			got := soac.Map2(tc.xs, ys, func(x int, y float64) float64 { return float64(x) - y })
			want := make([]float64, len(tc.xs))
			for i, x := range tc.xs {
				want[i] = float64(x) - ys[i]
			}
			checkSlice(t, "Map2", got, want)
		})
	}
}

func TestMap3(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			ys := soac.Iota(len(tc.xs))
			zs := soac.Replicate(len(tc.xs), "z")
			got := soac.Map3(tc.xs, ys, zs, func(x, y int, z string) string { return fmt.Sprint(x, y, z) })
			want := make([]string, len(tc.xs))
			for i, x := range tc.xs {
				want[i] = fmt.Sprint(x, ys[i], zs[i])
			}
			checkSlice(t, "Map3", got, want)
		})
	}
}

func TestReduce(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			// String concatenation is associative but not commutative, so it
			// also checks the left-to-right order.
			strs := soac.Map(tc.xs, func(x int) string { return strconv.Itoa(x) + "," })
			got := soac.Reduce(strs, "", func(a, b string) string { return a + b })
			want := ""
			for _, s := range strs {
				want += s
			}
			if got != want {
				t.Errorf("Reduce = %.40q..., want %.40q...", got, want)
			}
			// A non-neutral ne shows that the fold starts from ne.
			if got, want := soac.Reduce(tc.xs, 100, func(a, b int) int { return a - b }), 100-sum(tc.xs); got != want {
				t.Errorf("Reduce(-) = %d, want %d", got, want)
			}
		})
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestScan(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			got := soac.Scan(tc.xs, 10, func(a, b int) int { return a + b })
			want := make([]int, len(tc.xs))
			acc := 10
			for i, x := range tc.xs {
				acc += x
				want[i] = acc
			}
			checkSlice(t, "Scan", got, want)
		})
	}
}

func TestFilter(t *testing.T) {
	preds := map[string]func(int) bool{
		"none": func(int) bool { return false },
		"all":  func(int) bool { return true },
		"neg":  func(x int) bool { return x < 0 },
		"even": func(x int) bool { return x%2 == 0 },
	}
	for _, tc := range inputs {
		for pname, p := range preds {
			t.Run(tc.name+"/"+pname, func(t *testing.T) {
				got := soac.Filter(tc.xs, p)
				want := []int{}
				for _, x := range tc.xs {
					if p(x) {
						want = append(want, x)
					}
				}
				checkSlice(t, "Filter", got, want)
				if len(got) > 0 && len(tc.xs) > 0 && &got[0] == &tc.xs[0] {
					t.Errorf("Filter result shares memory with its input")
				}
			})
		}
	}
}

// TestFilterFresh checks that Filter keeping every element still copies.
func TestFilterFresh(t *testing.T) {
	xs := []int{1, 2, 3}
	got := soac.Filter(xs, func(int) bool { return true })
	got[0] = 99
	if xs[0] != 1 {
		t.Errorf("writing Filter's result changed its input: %v", xs)
	}
}

func TestStreamMap(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			var lens []int
			got := soac.StreamMap(tc.xs, func(c []int) []string {
				if len(c) == 0 {
					t.Errorf("f called on an empty chunk")
				}
				if cap(c) != len(c) {
					t.Errorf("chunk has cap %d > len %d: f could append into xs", cap(c), len(c))
				}
				lens = append(lens, len(c))
				return soac.Map(c, strconv.Itoa)
			})
			checkSlice(t, "StreamMap", got, soac.Map(tc.xs, strconv.Itoa))
			if sum(lens) != len(tc.xs) {
				t.Errorf("chunk lengths %v do not add up to %d", lens, len(tc.xs))
			}
		})
	}
}

func TestStreamRed(t *testing.T) {
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			// f records the chunks it sees as strings; op concatenates them
			// (associative, neutral element "" = f(empty)), so the result
			// spells out the calls in order.
			calls := 0
			got := soac.StreamRed(tc.xs, func(a, b string) string { return a + b }, func(c []int) string {
				calls++
				if calls == 1 && len(c) != 0 {
					t.Errorf("first call of f has %d elements, want the empty chunk", len(c))
				}
				return fmt.Sprint(c)
			})
			want := "[]"
			for lo := 0; lo < len(tc.xs); lo += soac.ChunkSize {
				want += fmt.Sprint(tc.xs[lo:min(lo+soac.ChunkSize, len(tc.xs))])
			}
			if got != want {
				t.Errorf("StreamRed = %.60q..., want %.60q...", got, want)
			}
			add := func(a, b int) int { return a + b }
			if got, want := soac.StreamRed(tc.xs, add, sum), sum(tc.xs); got != want {
				t.Errorf("StreamRed(sum) = %d, want %d", got, want)
			}
		})
	}
}

func TestIotaReplicate(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, soac.ChunkSize + 1} {
		want := make([]int, n)
		wantR := make([]string, n)
		for i := range want {
			want[i] = i
			wantR[i] = "v"
		}
		checkSlice(t, fmt.Sprintf("Iota(%d)", n), soac.Iota(n), want)
		checkSlice(t, fmt.Sprintf("Replicate(%d)", n), soac.Replicate(n, "v"), wantR)
	}
}

// TestEmptyResultsNonNil checks the nil convention for every slice-returning
// function on nil input.
func TestEmptyResultsNonNil(t *testing.T) {
	id := func(x int) int { return x }
	add := func(a, b int) int { return a + b }
	results := map[string][]int{
		"Map":       soac.Map(nil, id),
		"Map2":      soac.Map2([]int(nil), []int(nil), add),
		"Map3":      soac.Map3([]int(nil), []int(nil), []int(nil), func(a, b, c int) int { return a }),
		"Scan":      soac.Scan(nil, 0, add),
		"Filter":    soac.Filter(nil, func(int) bool { return true }),
		"StreamMap": soac.StreamMap(nil, func(c []int) []int { return c }),
		"Iota":      soac.Iota(0),
		"Replicate": soac.Replicate(0, 1),
	}
	for name, r := range results {
		if r == nil || len(r) != 0 {
			t.Errorf("%s(nil) = %#v, want empty non-nil", name, r)
		}
	}
	if got := soac.Reduce(nil, 42, add); got != 42 {
		t.Errorf("Reduce(nil, 42) = %d, want 42", got)
	}
	if got := soac.StreamRed(nil, add, func(c []int) int { return 42 + len(c) }); got != 42 {
		t.Errorf("StreamRed(nil) = %d, want f(empty) = 42", got)
	}
}

func TestPanics(t *testing.T) {
	calls := 0
	f2 := func(x, y int) int { calls++; return x + y }
	f3 := func(x, y, z int) int { calls++; return x + y + z }
	mustPanic(t, "soac.Map2: unequal lengths 3 and 4", func() { soac.Map2(seq(3), seq(4), f2) })
	mustPanic(t, "soac.Map2: unequal lengths 0 and 1", func() { soac.Map2(nil, seq(1), f2) })
	mustPanic(t, "soac.Map2: unequal lengths 5 and 2", func() { soac.Map2(seq(5), seq(2), f2) })
	mustPanic(t, "soac.Map3: unequal lengths 3, 3 and 5", func() { soac.Map3(seq(3), seq(3), seq(5), f3) })
	mustPanic(t, "soac.Map3: unequal lengths 3, 4 and 3", func() { soac.Map3(seq(3), seq(4), seq(3), f3) })
	mustPanic(t, "soac.Map3: unequal lengths 2, 0 and 0", func() { soac.Map3(seq(2), nil, nil, f3) })
	if calls != 0 {
		t.Errorf("f called %d times before the length panic, want 0", calls)
	}
	mustPanic(t, "soac.Iota: negative length -1", func() { soac.Iota(-1) })
	mustPanic(t, "soac.Replicate: negative length -7", func() { soac.Replicate(-7, "x") })

	// The second chunk of a 2*ChunkSize+3 input comes back one short.
	xs := seq(2*soac.ChunkSize + 3)
	want := fmt.Sprintf("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d",
		soac.ChunkSize, 2*soac.ChunkSize, soac.ChunkSize, soac.ChunkSize-1)
	mustPanic(t, want, func() {
		soac.StreamMap(xs, func(c []int) []int {
			if &c[0] == &xs[soac.ChunkSize] {
				return c[1:]
			}
			return c
		})
	})
	// The short last chunk comes back too long.
	mustPanic(t, fmt.Sprintf("soac.StreamMap: chunk xs[%d:%d] has 3 elements but f returned 4",
		2*soac.ChunkSize, 2*soac.ChunkSize+3), func() {
		soac.StreamMap(xs, func(c []int) []int {
			if len(c) == 3 {
				return append(c, 0)
			}
			return c
		})
	})
}

func TestLengthError(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		lens []int
		want string
	}{
		{"Map2", []int{3, 4}, "soac.Map2: unequal lengths 3 and 4"},
		{"Map3", []int{1, 2, 3}, "soac.Map3: unequal lengths 1, 2 and 3"},
		{"Zip4", []int{1, 2, 3, 4}, "soac.Zip4: unequal lengths 1, 2, 3 and 4"},
		{"X", []int{9}, "soac.X: unequal lengths 9"},
	} {
		if got := soac.LengthError(tc.fn, tc.lens...); got != tc.want {
			t.Errorf("LengthError(%q, %v) = %q, want %q", tc.fn, tc.lens, got, tc.want)
		}
	}
}
