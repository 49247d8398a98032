package launch

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// rowSums is a grid whose element (i, j) is the sum of row i of its
// [][]int64 argument a times j+1 (element -7 sets the panic flag).
func rowSums() *Grid {
	return &Grid{At: "m.go:1:1", Spec: skel.Grid{
		Name: "rowsums", Result: "long", Out: "c__p",
		Args: []skel.Arg{{Name: "a__p", Decl: "__global const long *restrict a__p"}, {Name: "a__off", Decl: "__global const long *restrict a__off"},
			{Name: "a__n", Decl: "const long a__n"}, {Name: "c__p", Decl: "__global long *restrict c__p"}},
		Body: `long s = 0;
for (long l = a__off[soac_i]; l < a__off[soac_i + 1]; l++) { if (a__p[l] == -7) soac_err = 2; s += a__p[l]; }
soac_v = s * (soac_j + 1);`,
	}}
}

// TestMatrix: a grid's result kept on the device (KeepRows, RunOn) is
// read by a later grid as its rows where it is (RowsDev: no captured
// upload, no download), downloaded by Host once; NumRows, InnerDev
// and RowLenDev read its shape; a panic keeps nothing; KeepOnDevice
// false downloads at once; nil matrices are their Go variables.
func TestMatrix(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	g := rowSums()
	var s Session
	defer s.Release()
	a := [][]int64{{1, 2}, {3}, {4, 5, 6}}
	var m *Matrix[int64]
	up, down := moved(func() {
		if !g.RunOn(&s, 3, 2, 0, []any{Rows(a), KeepRows(&m, 3, 2)}) || m == nil {
			t.Fatal("RunOn with KeepRows failed")
		}
	})
	if up != 0 || down != 0 {
		t.Errorf("kept: %d uploads, %d downloads; want 0, 0", up, down)
	}
	if NumRows(m, nil) != 3 || InnerDev(m, nil) != 2 || RowLenDev(m, nil, nil, [][]int32{{1, 2}}) != 2 || RowLenDev(m, nil, nil, [][]int32{{1}}) != -1 ||
		RowLenDev[int32, int64](nil, nil, m, nil) != 2 || RowLenDev[int32, int32](nil, [][]int32{{1}, {2, 3}}, nil, nil) != -1 {
		t.Errorf("shape of the kept matrix: %d rows, inner %d", NumRows(m, nil), InnerDev(m, nil))
	}
	// m = [[3 6] [3 6] [15 30]]: its row sums times j+1.
	flat := make([]int64, 3*3)
	v0, d0 := Views()
	up, down = moved(func() {
		if !g.Run(NumRows(m, nil), 3, 0, []any{RowsDev(m, nil), Out(flat)}) {
			t.Fatal("Run on the kept matrix failed")
		}
	})
	if v, d := Views(); fmt.Sprint(Chop(flat, 3, 3)) != "[[9 18 27] [9 18 27] [45 90 135]]" || up != 0 || down != 1 || v != v0 || d-d0 != 1 {
		t.Errorf("on the kept matrix: %v, %d uploads, %d downloads, %d captured uploads, %d device views", Chop(flat, 3, 3), up, down, v-v0, d-d0)
	}
	_, down = moved(func() {
		if got := fmt.Sprint(m.Host(), m.Host()); got != "[[3 6] [3 6] [15 30]] [[3 6] [3 6] [15 30]]" {
			t.Errorf("Host = %s", got)
		}
	})
	if down != 1 {
		t.Errorf("Host twice: %d downloads, want 1", down)
	}
	// Released after its download: the host rows are uploaded.
	m.Release()
	v0, _ = Views()
	if !g.Run(3, 3, 0, []any{RowsDev(m, nil), Out(flat)}) || fmt.Sprint(Chop(flat, 3, 3)) != "[[9 18 27] [9 18 27] [45 90 135]]" {
		t.Errorf("on the released matrix: %v", flat)
	}
	if v, _ := Views(); v-v0 != 1 {
		t.Errorf("released: %d captured uploads, want 1", v-v0)
	}
	// No matrix (its grid ran on the CPU): the Go rows.
	if NumRows[int64](nil, a) != 3 || InnerDev[int64](nil, a) != 2 || !g.Run(3, 1, 0, []any{RowsDev[int64](nil, a), Out(flat[:3])}) || fmt.Sprint(flat[:3]) != "[3 3 15]" {
		t.Errorf("nil matrix: %v", flat[:3])
	}
	// A panic keeps nothing and holds no buffer.
	held := len(s.held)
	var p *Matrix[int64]
	if g.RunOn(&s, 1, 2, 0, []any{Rows([][]int64{{-7}}), KeepRows(&p, 1, 2)}) || p != nil || len(s.held) != held {
		t.Errorf("panicked run: kept %v, %d held (was %d)", p, len(s.held), held)
	}
	KeepOnDevice = false
	defer func() { KeepOnDevice = true }()
	var e *Matrix[int64]
	_, down = moved(func() {
		if !g.RunOn(&s, 3, 2, 0, []any{Rows(a), KeepRows(&e, 3, 2)}) {
			t.Fatal("RunOn with KeepOnDevice false failed")
		}
	})
	if got := fmt.Sprint(e.Host()); got != "[[3 6] [3 6] [15 30]]" || down != 1 || len(s.held) != held {
		t.Errorf("KeepOnDevice false: %s, %d downloads, %d held; want 1 and %d", got, down, len(s.held), held)
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestKeepRowsOutsideSession: Run (no session) refuses a result kept on
// the device: it returns false (the CPU code runs), keeps nothing and
// logs the internal error.
func TestKeepRowsOutsideSession(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	g := rowSums()
	var m *Matrix[int64]
	if g.Run(1, 2, 0, []any{Rows([][]int64{{1}}), KeepRows(&m, 1, 2)}) || m != nil {
		t.Errorf("Run with KeepRows: kept %v", m)
	}
	if l := lines(); len(l) != 1 {
		t.Errorf("log lines %q, want one", l)
	}
}
