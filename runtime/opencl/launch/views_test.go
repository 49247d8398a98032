package launch

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// lookup maps each element i to table[i % n] + the sum of row i % rows'
// length, from a captured []int64 (View) and a captured [][]int32 (Rows).
func lookup() *Redomap {
	return &Redomap{At: "v.go:1:1", Spec: skel.Redomap{
		Name:       "lookup",
		Inputs:     []skel.Param{{Name: "in0", Type: skel.Int32}},
		Outputs:    []skel.Param{{Name: "out0", Type: skel.Int64}},
		Reductions: []skel.Reduction{ErrFlagReduction()},
		Args: []skel.Arg{{Name: "t__p", Decl: "__global const long *restrict t__p"}, {Name: "t__n", Decl: "const long t__n"},
			{Name: "r__p", Decl: "__global const int *restrict r__p"}, {Name: "r__off", Decl: "__global const long *restrict r__off"}, {Name: "r__n", Decl: "const long r__n"}},
		Body: `long s = t__n > 0 ? t__p[in0 % t__n] : -1;
if (r__n > 0) { const long i = in0 % r__n; for (long j = r__off[i]; j < r__off[i + 1]; j++) s += r__p[j]; }
out0 = s;
k__err = 0;`,
	}}
}

// TestViews: captured slices reach the kernel as buffers and lengths,
// rows back to back with their offsets; empty ones as length 0.
func TestViews(t *testing.T) {
	needDevice(t)
	k := lookup()
	xs := []int32{0, 1, 2, 3, 4}
	for _, c := range []struct {
		table []int64
		rows  [][]int32
		want  string
	}{
		{[]int64{10, 20}, [][]int32{{1, 2}, {}, {3}}, "[13 20 13 23 10]"},
		{nil, [][]int32{{5}}, "[4 4 4 4 4]"},
		{[]int64{7}, nil, "[7 7 7 7 7]"},
	} {
		out := make([]int64, len(xs))
		if !k.Run([]any{View(c.table), Rows(c.rows)}, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(out)}, nil) {
			t.Fatalf("Run(%v, %v) = false", c.table, c.rows)
		}
		if got := fmt.Sprint(out); got != c.want {
			t.Errorf("Run(%v, %v) = %s, want %s", c.table, c.rows, got, c.want)
		}
	}
}
