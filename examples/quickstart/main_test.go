package main

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestNormalize2Spec(t *testing.T) {
	xs := []float64{2, -1, 3, 4}
	ys1, ys2 := normalize2Spec(xs)
	for i, x := range xs {
		if want := x / 8; ys1[i] != want {
			t.Errorf("ys1[%d] = %v, want %v", i, ys1[i], want)
		}
		if want := x / 9; ys2[i] != want {
			t.Errorf("ys2[%d] = %v, want %v", i, ys2[i], want)
		}
	}
	if len(ys1) != len(xs) || len(ys2) != len(xs) {
		t.Errorf("lengths %d, %d, want %d", len(ys1), len(ys2), len(xs))
	}
}

// TestNormalize2 checks the generated Normalize2 against the spec, bit for
// bit, on the input main prints and on inputs crossing soac.ChunkSize.
func TestNormalize2(t *testing.T) {
	inputs := [][]float64{nil, {2, -1, 3, 4}}
	for _, n := range []int{7, 10_000} {
		inputs = append(inputs, extest.Floats(extest.Rand(1, n), n, -1, 2))
	}
	for _, xs := range inputs {
		ys1, ys2 := Normalize2(xs)
		want1, want2 := normalize2Spec(xs)
		if d := extest.DiffFloats(ys1, want1); d != "" {
			t.Errorf("n=%d: ys1: %s", len(xs), d)
		}
		if d := extest.DiffFloats(ys2, want2); d != "" {
			t.Errorf("n=%d: ys2: %s", len(xs), d)
		}
	}
}
