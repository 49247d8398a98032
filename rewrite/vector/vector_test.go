package vector_test

// What the translator does with each spec of rewrite/testdata/vector: the
// widths it writes, or the reason it refuses, read from the outcome the
// cpu backend reports; a kernel that should have vector forms and
// silently has none fails here. The forms' code is checked by rewrite's
// golden test, and their results by the differential test (shard simd).

import (
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite/backend/cpu"
	"github.com/soacgen/soacgen/rewrite/backend/parallel"
	"github.com/soacgen/soacgen/rewrite/internal/fixture"
	"github.com/soacgen/soacgen/rewrite/vector"
)

func TestOutcomes(t *testing.T) {
	specs := fixture.Load(t, "../testdata/vector")
	both, wide := []int{512, 256}, []int{512}
	for _, tc := range []struct {
		name   string
		widths []int  // nil: refused
		reason string // part of the refusal, or of a note
	}{
		{"Poly", both, "the forms run only in builds that never fuse"},
		{"Rounded", both, ""},
		{"Ops", both, ""},
		{"Select", both, ""},
		{"Temps", both, ""},
		{"SumInt32", both, ""},
		{"Product", wide, "no 256-bit form: * on int64 has no AVX2 instruction"},
		{"Bounds", both, ""},
		{"Bits", []int{256}, "no 512-bit form: &^ of the result of another bit operation"},
		{"Bits512", both, ""},
		{"CountBelow", both, ""},
		{"Indexed", wide, "no 256-bit form"},
		{"Convert", both, ""},
		{"Convert64", wide, "no 256-bit form: conversion on int64"},
		{"FloatSum", nil, "is a float fold, which keeps its left-to-right order"},
		{"Quotient", nil, "integer division may panic"},
		{"Prefix", both, ""},
		{"PrefixFrom", both, ""},
		{"RunningMax", both, ""},
		{"RunningMin", wide, "no 256-bit form: min on uint64 has no AVX2 instruction"},
		{"PrefixXor", []int{256}, "no 512-bit form: a scan with ^"},
		{"PrefixProduct", wide, "no 256-bit form: * on int64"},
		{"ScanSum", both, ""},
		{"FloatPrefix", nil, "is a float scan, which keeps its left-to-right order"},
		{"KeptPrefix", nil, "a filter's kept elements are read in a branch"},
		{"Kept", wide, "no 256-bit form: a compressed store"},
		{"KeptMapped", wide, ""},
		{"Mixed", nil, "mixes 32- and 64-bit elements"},
		{"FloatMinMax", both, ""},
		{"Relu32", both, ""},
		{"Exp", nil, "math.Exp has no vector form proven to give its bits"},
		{"Truncate", nil, "a conversion from float64 to int64"},
		{"Named", nil, "is not a literal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := specs[tc.name]
			if s == nil {
				t.Fatalf("no spec %s", tc.name)
			}
			r := s.Render(t, cpu.Backend{})
			for _, vo := range outcomes(t, r, tc.widths) {
				text := vo.Reason + " " + strings.Join(vo.Notes, " ")
				if tc.reason != "" && !strings.Contains(text, tc.reason) {
					t.Errorf("reason and notes %q, want one containing %q", text, tc.reason)
				}
				if tc.widths == nil && vo.Reason == "" {
					t.Error("refused without a reason")
				}
			}
			hasForms := strings.Contains(r.Vector, "func soacgenVec_")
			if hasForms != (tc.widths != nil) {
				t.Errorf("vector companion has forms: %v, want %v", hasForms, tc.widths != nil)
			}
			if tc.widths != nil && !strings.Contains(r.Code, "soacgenVec_") {
				t.Error("the loop does not call its vector function")
			}
		})
	}
}

// TestParallelOutcomes checks the outcomes the parallel backend reports
// for its loops: the same widths as the cpu loop's, and a note where its
// chunks keep the scalar loop (kept elements stored at their count).
func TestParallelOutcomes(t *testing.T) {
	specs := fixture.Load(t, "../testdata/vector")
	for _, tc := range []struct {
		name   string
		widths []int
		note   string // part of a note, "" for none
	}{
		{"Ops", []int{512, 256}, ""},
		{"SumInt32", []int{512, 256}, ""},
		{"Prefix", []int{512, 256}, ""},
		{"Kept", []int{512}, "its chunks run the scalar loop"},
		{"FloatSum", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := specs[tc.name].Render(t, parallel.Backend{})
			for _, vo := range outcomes(t, r, tc.widths) {
				notes := strings.Join(vo.Notes, " ")
				if tc.note != "" && !strings.Contains(notes, tc.note) {
					t.Errorf("notes %q, want one containing %q", notes, tc.note)
				}
				if tc.note == "" && strings.Contains(notes, "its chunks run the scalar loop") {
					t.Errorf("notes %q say the chunks are scalar", notes)
				}
			}
		})
	}
}

// outcomes returns the vector outcome of each of r's kernels, failing
// when r has no kernel or a kernel no outcome, and reporting a kernel
// whose widths are not widths.
func outcomes(t *testing.T, r *fixture.Rendered, widths []int) []*vector.Outcome {
	t.Helper()
	if len(r.Kernels) == 0 {
		t.Fatal("no kernel")
	}
	var out []*vector.Outcome
	for _, k := range r.Kernels {
		if k.Vector == nil {
			t.Fatalf("kernel of form %s has no vector outcome", k.Lowered.Form)
		}
		if !slices.Equal(k.Vector.Widths, widths) {
			t.Errorf("widths %v, want %v (reason %q)", k.Vector.Widths, widths, k.Vector.Reason)
		}
		out = append(out, k.Vector)
	}
	return out
}
