package launch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// odds is a filter kernel keeping the odd int32 elements, tripled, and
// summing them; body replaces its element code when not "".
func odds(body string) *Filter {
	if body == "" {
		body = "out0 = 3 * in0;\nred0 = in0;\nkeep = (in0 & 1) != 0;\nk__err = 0;"
	}
	return &Filter{At: "f.go:2:3", Spec: skel.Filter{
		Name:       "odds",
		Inputs:     []skel.Param{{Name: "in0", Type: skel.Int32}},
		Outputs:    []skel.Param{{Name: "out0", Type: skel.Int32}},
		Reductions: []skel.Reduction{{Name: "red0", Type: skel.Int32, Op: "r = a + b;", Neutral: "0"}, ErrFlagReduction()},
		Body:       body,
	}}
}

func runFilter(k *Filter, xs []int32) (bool, []int32, int32) {
	out := make([]int32, len(xs))
	var sum [1]int32
	kept, ok := k.Run(nil, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(out)}, []skel.HostSlice{skel.Slice(sum[:])})
	return ok, out[:kept], sum[0]
}

// TestFilterRun: the kept elements come back compacted, in order, with
// the fold of the kept ones; a panic flag makes Run false (the element
// code keeps a panicking element so that its flag is folded); no
// elements and unequal lengths are left to the CPU code.
func TestFilterRun(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := odds("")
	ok, out, sum := runFilter(k, []int32{1, -2, 3, 40, 5, -7})
	if !ok || fmt.Sprint(out) != "[3 9 15 -21]" || sum != 2 {
		t.Errorf("Run = %v, %v, %d; want true, [3 9 15 -21], 2", ok, out, sum)
	}
	if ok, out, _ := runFilter(k, []int32{2, 4}); !ok || len(out) != 0 {
		t.Errorf("Run keeping nothing = %v, %v", ok, out)
	}
	if ok, _, _ := runFilter(k, nil); ok {
		t.Errorf("Run on no elements = true")
	}
	if _, ok := k.Run(nil, []skel.HostSlice{skel.Slice([]int32{1, 2})}, []skel.HostSlice{skel.Slice(make([]int32, 3))}, []skel.HostSlice{skel.Slice(make([]int32, 1))}); ok {
		t.Errorf("Run with an output of another length = true")
	}
	p := odds("out0 = in0;\nred0 = in0;\nk__err = in0 == 4 ? 2 : 0;\nkeep = (in0 & 1) != 0 || k__err != 0;")
	if ok, _, _ := runFilter(p, []int32{1, 4, 3}); ok {
		t.Errorf("Run with a panic flag set = true")
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestFilterNoDevice: without OpenCL, Kernel is nil and Run false, with
// one log line.
func TestFilterNoDevice(t *testing.T) {
	lines := logs(t)
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	k := odds("")
	for range 2 {
		if ok, _, _ := runFilter(k, []int32{1, 2}); ok {
			t.Fatal("Run without a device = true")
		}
	}
	if l := lines(); len(l) != 1 || !strings.Contains(l[0], "f.go:2:3: OpenCL kernel odds runs on the CPU: no OpenCL device") {
		t.Errorf("log lines %q, want one about the missing device", l)
	}
}

// TestFilterArgs: a filter's captured values reach every element, in
// order: a scalar by value (Arg) and a slice as a buffer and its length
// (View), read in the keep test and the outputs.
func TestFilterArgs(t *testing.T) {
	needDevice(t)
	k := &Filter{At: "f.go:4:5", Spec: skel.Filter{
		Name:       "above",
		Inputs:     []skel.Param{{Name: "in0", Type: skel.Int32}},
		Outputs:    []skel.Param{{Name: "out0", Type: skel.Int64}},
		Reductions: []skel.Reduction{{Name: "red0", Type: skel.Int64, Op: "r = a + b;", Neutral: "0"}, ErrFlagReduction()},
		Args: []skel.Arg{{Name: "cap__lo", Decl: "const int cap__lo"}, {Name: "cap__t__p", Decl: "__global const long *restrict cap__t__p"},
			{Name: "cap__t__n", Decl: "const long cap__t__n"}, {Name: "cap__m", Decl: "const int cap__m"}},
		Body: "keep = in0 > cap__lo;\nout0 = cap__t__p[soac_index % cap__t__n] * cap__m + in0;\nred0 = out0;\nk__err = 0;",
	}}
	xs := []int32{5, 1, 9, -3, 7, 2}
	out := make([]int64, len(xs))
	var sum [1]int64
	kept, ok := k.Run([]any{Arg(int32(2)), View([]int64{100, 200}), Arg(int32(3))}, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(out)}, []skel.HostSlice{skel.Slice(sum[:])})
	if got := fmt.Sprint(out[:kept]); !ok || got != "[305 309 307]" || sum[0] != 921 {
		t.Errorf("Run = %v, %s, %d; want true, [305 309 307], 921", ok, got, sum[0])
	}
}

// TestScanArgs: a scan's captured values reach every element, in order
// (Arg, View), and a scan with no elements is left to the CPU code.
func TestScanArgs(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := &Scan{At: "s.go:6:7", Spec: skel.Scan{
		Name:   "offsets",
		Inputs: []skel.Param{{Name: "in0", Type: skel.Int32}},
		Args: []skel.Arg{{Name: "cap__t__p", Decl: "__global const long *restrict cap__t__p"},
			{Name: "cap__t__n", Decl: "const long cap__t__n"}, {Name: "cap__k", Decl: "const long cap__k"}},
		Op:   skel.Reduction{Name: "s", Type: skel.Int64, Op: "r = a + b;", Neutral: "0", Commutative: true},
		Body: "s = cap__t__p[soac_index % cap__t__n] + cap__k * in0;",
	}}
	xs := []int32{1, 2, 3, 4, 5}
	out := make([]int64, len(xs))
	if !k.Run([]any{View([]int64{10, 20}), Arg(int64(100))}, []skel.HostSlice{skel.Slice(xs)}, skel.Slice(out)) {
		t.Fatal("Run = false")
	}
	if got := fmt.Sprint(out); got != "[110 330 640 1060 1570]" {
		t.Errorf("Run = %s, want [110 330 640 1060 1570]", got)
	}
	if k.Run([]any{View([]int64{10}), Arg(int64(1))}, nil, skel.Slice(out[:0])) {
		t.Errorf("Run on no elements = true")
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}
