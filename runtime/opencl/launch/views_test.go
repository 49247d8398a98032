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

// TestRowsHost: Flatten, MaxLen and Split, the host side of [][]T inputs
// and slice results; a split row cannot grow into the next.
func TestRowsHost(t *testing.T) {
	spans, data := Flatten([][]int16{{1, 2}, {}, {3}})
	if fmt.Sprint(spans, data) != "[{0 2} {2 0} {2 1}] [1 2 3]" {
		t.Errorf("Flatten = %v %v", spans, data)
	}
	if m := MaxLen([][]int16{{1, 2}, {}, {3}}); m != 2 {
		t.Errorf("MaxLen = %d", m)
	}
	rows := Split([]int16{1, 2, 3, 4, 5, 6}, []int64{1, 2, 0}, 2)
	if fmt.Sprint(rows) != "[[1] [3 4] []]" {
		t.Fatalf("Split = %v", rows)
	}
	rows[0] = append(rows[0], 9)
	if rows[1][0] != 3 {
		t.Errorf("an append to row 0 wrote row 1: %v", rows)
	}
}

// TestOut: a slice the kernel writes comes back after the run.
func TestOut(t *testing.T) {
	needDevice(t)
	k := &Redomap{At: "o.go:1:1", Spec: skel.Redomap{
		Name:       "outs",
		Inputs:     []skel.Param{{Name: "in0", Type: skel.Int32}},
		Reductions: []skel.Reduction{ErrFlagReduction()},
		Args:       []skel.Arg{{Name: "o__p", Decl: "__global int *restrict o__p"}, {Name: "o__c", Decl: "const long o__c"}},
		Body:       "for (long j = 0; j < o__c; j++) o__p[soac_index * o__c + j] = in0 + (int)j;\nk__err = 0;",
	}}
	flat := make([]int32, 6)
	if !k.Run([]any{Out(flat), Arg(int64(2))}, []skel.HostSlice{skel.Slice([]int32{10, 20, 30})}, nil, nil) {
		t.Fatal("Run = false")
	}
	if fmt.Sprint(flat) != "[10 11 20 21 30 31]" {
		t.Errorf("Out after Run = %v", flat)
	}
}

// TestPooled: buffers are pooled per process and device: after a first
// call, calls of the same sizes (inputs, outputs, results, captured
// slices and slices the kernel writes) create no device buffer.
func TestPooled(t *testing.T) {
	needDevice(t)
	d, err := openDevice()
	if err != nil {
		t.Fatal(err)
	}
	k := lookup()
	xs := []int32{0, 1, 2, 3, 4, 5, 6}
	call := func() {
		out := make([]int64, len(xs))
		if !k.Run([]any{View([]int64{10, 20}), Rows([][]int32{{1, 2}, {3}})}, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(out)}, nil) {
			t.Fatal("Run = false")
		}
	}
	call()
	before := d.BuffersAllocated()
	for range 5 {
		call()
	}
	if after := d.BuffersAllocated(); after != before {
		t.Errorf("5 more calls created %d device buffers, want 0 (pooled)", after-before)
	}
}
