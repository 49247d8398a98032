package launch

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

func TestRowLen(t *testing.T) {
	for _, c := range []struct {
		a, b [][]int32
		want int
	}{
		{nil, nil, 0},
		{[][]int32{{1, 2}}, nil, 2},
		{nil, [][]int32{{1}, {2}}, 1},
		{[][]int32{{1, 2}, {3, 4}}, [][]int32{{5, 6}}, 2},
		{[][]int32{{}, {}}, [][]int32{{}}, 0},
		{[][]int32{{1, 2}, {3}}, [][]int32{{5, 6}}, -1},
		{[][]int32{{1, 2}}, [][]int32{{5, 6}, {7}}, -1},
		{[][]int32{{1}}, [][]int32{{5, 6}}, -1},
	} {
		if got := RowLen(c.a, c.b); got != c.want {
			t.Errorf("RowLen(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestChop(t *testing.T) {
	rows := Chop([]int{1, 2, 3, 4, 5, 6}, 2, 3)
	if fmt.Sprint(rows) != "[[1 2 3] [4 5 6]]" || cap(rows[0]) != 3 {
		t.Errorf("Chop = %v (cap %d)", rows, cap(rows[0]))
	}
	rows[0] = append(rows[0], 9)
	if rows[1][0] != 4 {
		t.Error("an append to row 0 reached row 1")
	}
	if rows := Chop([]int{}, 3, 0); len(rows) != 3 || rows[2] == nil || len(rows[2]) != 0 {
		t.Errorf("Chop of 3 empty rows = %#v", rows)
	}
}

// TestGridRun: a grid kernel over views writes its result through Out;
// a set panic flag, or an empty grid, returns false.
func TestGridRun(t *testing.T) {
	needDevice(t)
	g := &Grid{At: "g.go:1:1", Spec: skel.Grid{
		Name: "gridrun", Result: "long", Out: "c__p",
		Args: []skel.Arg{{Name: "a__p", Decl: "__global const long *restrict a__p"}, {Name: "a__n", Decl: "const long a__n"},
			{Name: "c__p", Decl: "__global long *restrict c__p"}},
		Body: "soac_v = a__p[soac_i] * 10 + soac_j;\nif (soac_v < 0) { soac_err = 1; }",
	}}
	a := []int64{1, 2, 3}
	flat := make([]int64, 3*2)
	if !g.Run(3, 2, 0, []any{View(a), Out(flat)}) || fmt.Sprint(Chop(flat, 3, 2)) != "[[10 11] [20 21] [30 31]]" {
		t.Errorf("Run: %v", flat)
	}
	a[1] = -1
	if g.Run(3, 2, 0, []any{View(a), Out(flat)}) {
		t.Error("Run with a panic flag set returned true")
	}
	if g.Run(0, 2, 0, []any{View(a), Out(flat)}) || g.Run(3, 0, 0, []any{View(a), Out(flat)}) || g.Run(3, 2, -1, []any{View(a), Out(flat)}) {
		t.Error("Run of an empty grid or a negative inner length returned true")
	}
}
