package main

import "testing"

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
