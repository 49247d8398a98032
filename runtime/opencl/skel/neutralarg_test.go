package skel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

// TestRedomapNeutralArg checks a Redomap whose neutral element is a
// kernel argument (Reduction.NeutralArg): max from lo, an idempotent
// operator, so that the result is max(lo, max(x)) however often each
// work-group and the stage-2 kernel start from lo; runs with different
// lo on one built kernel show that it is read at run time, on every
// layout, size (n = 0 gives lo itself) and with the run cut in pieces.
func TestRedomapNeutralArg(t *testing.T) {
	d := testkit.Device(t)
	r := rand.New(rand.NewPCG(31, 32))
	for _, lay := range []Layout{Chunked, Interleaved, Tiled} {
		k, err := Redomap{Name: "nemax" + lay.String(), Inputs: []Param{{"x", Float64}},
			Args: []Arg{{"scale", "const double scale"}, {"lo", "const double lo"}}, Body: "m = x * scale;",
			Reductions: []Reduction{{Name: "m", Type: Float64, Op: "r = a > b ? a : b;", Neutral: "lo", NeutralArg: true, Commutative: true}},
			Layout:     lay}.Build(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range sizes {
			x := make([]float64, n)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			for _, cut := range []int{0, 8} {
				restore := SetPieces(cut, 64)
				for _, lo := range []float64{math.Inf(-1), 0.5, 1e300} {
					want := lo
					for _, v := range x {
						want = max(want, 2*v)
					}
					got := make([]float64, 1)
					if _, err := k.RunArgs([]any{2.0, lo}, []HostSlice{Slice(x)}, nil, []HostSlice{Slice(got)}); err != nil {
						t.Fatal(err)
					}
					if got[0] != want {
						t.Errorf("%v n=%d pieces=%d lo=%v: %v, want %v", lay, n, cut, lo, got[0], want)
					}
				}
				restore()
			}
		}
	}
}

// TestNeutralArgRefused checks that a neutral element naming no Arg is
// an error, and that Scan and Filter, which build the neutral element
// in, refuse one given at run time.
func TestNeutralArgRefused(t *testing.T) {
	red := Reduction{Name: "s", Type: Int64, Op: "r = a + b;", Neutral: "z", NeutralArg: true}
	if _, err := (Redomap{Name: "nebad", Inputs: []Param{{"x", Int64}}, Body: "s = x;", Reductions: []Reduction{red}}).Source(false); err == nil || !strings.Contains(err.Error(), "not an argument") {
		t.Errorf("Redomap: err = %v", err)
	}
	args := []Arg{{"z", "const long z"}}
	if _, err := (Scan{Name: "nescan", Inputs: []Param{{"x", Int64}}, Args: args, Body: "s = x;", Op: red}).Source(false); err == nil || !strings.Contains(err.Error(), "only a Redomap") {
		t.Errorf("Scan: err = %v", err)
	}
	if _, err := (Filter{Name: "nefilter", Inputs: []Param{{"x", Int64}}, Args: args, Body: "keep = 1; s = x;", Reductions: []Reduction{red}}).Source(false); err == nil || !strings.Contains(err.Error(), "only a Redomap") {
		t.Errorf("Filter: err = %v", err)
	}
}
