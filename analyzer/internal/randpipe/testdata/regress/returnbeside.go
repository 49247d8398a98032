// Regression specs (random, seed 5028 of MoreConfig, spec3, and that spec
// reduced): m is consumed in a branch that returns and after its if or
// switch (a return-path branch copy), beside a Map of the same input that
// the branch returns. The horizontal pass joined the kernel after the
// statement, which computes m again, with that Map before it, and the
// plan failed the kernel-order check: nothing in the function was fused.
// spec3's first Reduce, a*3 + b in the random spec, adds here: every
// backend may reassociate a reduction (docs/contract.md), and the file
// runs on all of them.

package returnbeside

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func op1(a, b float64) float64 {
	return max(a, b)
}

// spec3 has hazard map2-filter (producer p3, consumer q4).
// spec3 has shapes return-arm.
// spec3 has path shape return-arm on m9.
//
//soac:fuse Fused3
func spec3(xs []int64, ys []int64, fs []float64, gs []float64, flag bool) ([]float64, float64, []int64, []int64) {
	s1 := soac.Reduce(xs, 1, func(a, b int64) int64 { return a + b })
	a2 := soac.Scan(gs, math.Inf(-1), op1)
	p3 := soac.Filter(xs, func(x int64) bool { return x != 3 })
	q4 := soac.Map2(p3, xs, func(a, b int64) int64 { return a*10 + b })
	a5 := soac.Scan(fs, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	a6 := soac.Map(a5, func(fs float64) float64 { return fs })
	var s7 float64
	if len(a2) > 0 {
		s7 = a2[len(a2)-1] + a2[0]
	}
	m9 := soac.Map(fs, func(x float64) int64 { t := int64(s1); t = t + (s1 % 7); return t })
	switch {
	case flag:
		return a6, s7, nil, soac.Scan(m9, math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	case len(fs)%2 == 0:
	}
	r10 := soac.Scan(m9, -1, func(a, b int64) int64 { return a & b })
	a8 := soac.Filter(q4, func(x int64) bool { return s1 >= x })
	return a6, s7, a8, r10
}

// besideSpec has shapes return-arm.
// besideSpec has path shape return-arm on m.
//
//soac:fuse Beside
func besideSpec(fs []float64, flag bool) ([]float64, []int64) {
	a := soac.Map(fs, func(x float64) float64 { return x * 3 })
	m := soac.Map(fs, func(x float64) int64 { return int64(x * 4) })
	if flag {
		return a, soac.Scan(m, 0, func(p, q int64) int64 { return p + q })
	}
	r := soac.Scan(m, 0, func(p, q int64) int64 { return p ^ q })
	return a, r
}
