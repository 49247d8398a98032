package difftest

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// TestRandomNestedBound generates [][]int, [][][]float64 and
// []struct{Xs []int} values of the sizes Run uses and of 600000: each holds at
// most MaxElements slice elements, the outer length is n, and across the
// values there are rectangular ones, ragged ones, empty rows and rows of
// one element.
func TestRandomNestedBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type withRows struct{ Xs []int }
	for _, ty := range []reflect.Type{reflect.TypeFor[[][]int](), reflect.TypeFor[[][][]float64](), reflect.TypeFor[[]withRows]()} {
		var rect, ragged, empty, one bool
		for _, n := range []int{0, 1, 7, 1000, 100000, 600_000} {
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
