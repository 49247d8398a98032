package opencl

// The whole-spec analyses on fixtures (testdata/residency), without the
// rest of the generator: which outputs stay on the device and until
// which kernel (keepable), which inputs later kernels share
// (shareable), which arrays are uploaded once per call (unwritten); and
// the spec's bookkeeping of the arrays its code left on the device
// (HostInputs, Generated).

import (
	"fmt"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/internal/fixture"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// varNamed returns the Var of spec fn for Go variable name defined by a
// statement (not a parameter) or, with param, the parameter.
func varNamed(t *testing.T, fn *lowered.Function, name string, param bool) *ir.Var {
	t.Helper()
	for _, v := range fn.Func.Vars {
		if v != nil && v.Name == name && (v.Def == nil) == param {
			return v
		}
	}
	t.Fatalf("%s has no variable %s", fn.Func.Name, name)
	return nil
}

// topKernels returns the spec's top-level lowered kernels in order.
func topKernels(fn *lowered.Function) []*lowered.Kernel {
	var ks []*lowered.Kernel
	for _, lk := range fn.Kernels {
		if lk.Src.Depth == 0 {
			ks = append(ks, lk)
		}
	}
	return ks
}

func TestResidency(t *testing.T) {
	specs := fixture.Load(t, "./testdata/residency")
	for _, tc := range []struct {
		spec, v string
		// keep is the index among the top-level kernels of the last
		// reader that keepable (keep) or shareable (share) names for v
		// of the first kernel, -1 for none, -2 when v is not what the
		// query takes (an output of the kernel for keepable, an input
		// for shareable).
		keep, share int
	}{
		{"Kept", "sq", 1, -2},
		{"Returned", "sq", -1, -2},
		{"Captured", "sq", -1, -2},
		{"Shared", "xs", -2, 1},
		{"Written", "xs", -2, -1},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			fn := specs[tc.spec].Low
			ks := topKernels(fn)
			if len(ks) != 2 {
				t.Fatalf("%d top-level kernels, want 2", len(ks))
			}
			v := varNamed(t, fn, tc.v, tc.v == "xs")
			for _, o := range ks[0].Src.Outputs {
				if o.Name == tc.v {
					v = o // the Var the kernel writes
				}
			}
			r := analyseResidency(fn)
			check := func(what string, got *lowered.PlanKernel, want int) {
				t.Helper()
				switch {
				case want == -2:
				case want < 0 && got != nil:
					t.Errorf("%s(%s) = kernel %d, want none", what, tc.v, got.ID)
				case want >= 0 && got != ks[want].Src:
					t.Errorf("%s(%s) = %v, want kernel %d", what, tc.v, got, ks[want].Src.ID)
				}
			}
			check("keepable", r.keepable(ks[0], v), tc.keep)
			check("shareable", r.shareable(ks[0], v), tc.share)
		})
	}
}

func TestUnwritten(t *testing.T) {
	fn := fixture.Load(t, "./testdata/residency")["Rounds"].Low
	u := analyseUnwritten(fn.Func)
	xs, ys := varNamed(t, fn, "xs", true), varNamed(t, fn, "ys", false)
	if !u.unwrittenOnce(xs) {
		t.Error("xs, a parameter nothing writes, is not uploaded once per call")
	}
	if u.unwrittenOnce(ys) {
		t.Error("ys, written in the loop, is uploaded once per call")
	}
	if !u.unwrittenOnce(xs) || u.unwrittenOnce(ys) {
		t.Error("a second question got another answer")
	}
}

// TestDeviceArrays follows an array left on the device through the
// spec: another backend's code of a reader downloads it first, the last
// reader's code releases it, and after that reader it is forgotten.
func TestDeviceArrays(t *testing.T) {
	fn := fixture.Load(t, "./testdata/residency")["Kept"].Low
	ks := topKernels(fn)
	sq := varNamed(t, fn, "sq", false)
	s := &spec{fn: fn}
	if c := s.HostInputs(ks[1]); len(c) != 0 {
		t.Fatalf("HostInputs with nothing on the device: %d statements", len(c))
	}
	host := hostgo.Stmts{hostgo.Id("download")}
	s.setDeviceArray(sq, &deviceArray{Handle: "dev", Host: func() hostgo.Stmts { return host }, Release: hostgo.Stmts{hostgo.Id("release")}, Last: ks[1].Src})
	got := s.HostInputs(ks[1])
	if len(got) != 2 || !strings.Contains(codeText(t, got[0]), "download") || !strings.Contains(codeText(t, got[1]), "release") {
		t.Errorf("HostInputs of the last reader: %d statements, want the download then the release", len(got))
	}
	if got := s.HostInputs(ks[0]); len(got) != 0 {
		t.Errorf("HostInputs of a kernel that does not read sq: %d statements", len(got))
	}
	s.Generated(ks[0])
	if s.deviceArrayOf(sq) == nil {
		t.Error("forgotten after a kernel that is not its last reader")
	}
	s.Generated(ks[1])
	if s.deviceArrayOf(sq) != nil {
		t.Error("still known after its last reader's code")
	}
}

// codeText renders c, a jennifer statement, as Go source.
func codeText(t *testing.T, c any) string {
	t.Helper()
	return fmt.Sprintf("%#v", c)
}

// TestResidencyCode renders the fixtures with the opencl backend alone:
// a kept array's code keeps it (launch.Keep), the reader takes the
// device's buffer (launch.Dev), and the session is declared once at the
// start; an array the spec reads, or a closure may, is downloaded.
func TestResidencyCode(t *testing.T) {
	specs := fixture.Load(t, "./testdata/residency")
	for _, tc := range []struct {
		spec      string
		want, not []string
	}{
		{"Kept", []string{"launch.Keep(&", "launch.Dev(", "defer cls.Release()"}, nil},
		{"Returned", nil, []string{"launch.Keep(", "launch.Session"}},
		{"Captured", nil, []string{"launch.Keep("}},
		{"Shared", []string{"launch.Share(&"}, []string{"launch.Keep("}},
		{"Written", nil, []string{"launch.Share(", "launch.Keep("}},
		{"Rounds", []string{"launch.Unwritten("}, nil},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			r := specs[tc.spec].Render(t, Backend{})
			for _, k := range r.Kernels {
				if k.Refusal != "" {
					t.Errorf("kernel %d refused: %s", k.Lowered.Src.ID, k.Refusal)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Code, w) {
					t.Errorf("no %q in:\n%s", w, r.Code)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(r.Code, n) {
					t.Errorf("%q in:\n%s", n, r.Code)
				}
			}
		})
	}
}
