// Regression specs (random, seed 1200070 with every spec given a path
// shape, spec5, and that spec reduced): m15 reads a1 and is copied into
// the kernel of each path a return separates (a return-path branch copy);
// a1 is also read after the switch. The driver fused a1 into the first
// copy's kernel only, writing it out there: the other paths read a1 never
// computed (nil), and Check did not see it.

package copiedfed

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func op7(a, b float64) float64 {
	return max(a, b)
}

func h8(p0 float64) float64 {
	return ((p0 * 2) + p0)
}

// spec5 has shapes self-assign, reassign-read, loop-range, cond-reassign, closure-assign, return-arm, closure-called.
// spec5 has path shape return-arm on m15.
// spec5 has path shape closure-called on inc20.
//
//soac:fuse Fused5
func spec5(xs []int64, k int64, c float64, flag bool) ([]float64, []float64, []int64, []float64, []float64, float64, float64, []float64) {
	a1 := soac.Map(xs, func(x int64) float64 { c := float64(float64((x + 1))); c = c + (c + c); return c })
	m15 := soac.Map(a1, func(x float64) float64 {
		t := float64((float64(k) * 2))
		t = t + (float64(k) - x)
		return (1.5 + (t * (-0.5)))
	})
	switch k {
	case 2:
		return nil, nil, nil, nil, nil, 0, 0, nil
	case 0:
		t17 := soac.Reduce(soac.Map(m15, func(x float64) float64 { return (c / 2) }), 0, func(a, b float64) float64 { return a + b })
		return nil, nil, nil, nil, nil, 0, t17, nil
	case -1:
		t18 := soac.Reduce(m15, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
		return nil, nil, nil, nil, nil, 0, t18, nil
	}
	r16 := soac.Reduce(m15, 0, func(a, b float64) float64 { return a + b })
	a2 := a1
	a3 := soac.Map(a2, func(x float64) float64 { return (c - (x * (-0.5))) })
	a4 := soac.Scan(a2, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
	s5 := 1.5
	for _, it := range a3[:min(len(a3), 3)] {
		a3 = a3
		s5 = soac.Reduce(a3, math.Inf(-1), op7)
		a3 = a3
		a4 = soac.Map(a3, func(x float64) float64 { return (-(0.25 / 2)) })
		a3 = soac.Map(a3, func(c float64) float64 { return ((3.75 / 2) / 2) })
		s5 = soac.Reduce(a3, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
		s5 = soac.Reduce(soac.Map(a4, func(v float64) float64 { return v*2 - s5 + (c - it) }), math.Inf(-1), op7)
	}
	var a6 = soac.Map(a4, func(x float64) int64 {
		if min(3.75, x) > (-0.5) {
			return k
		}
		return k
	})
	a7 := soac.Map2(soac.Replicate(len(a6), float64((s5*(-0.5)))), a6, func(x float64, y int64) float64 { return 0.25 })
	a8 := soac.Map(a6, func(x int64) float64 { return float64((k + x)) })
	a9 := soac.Map(a7, func(x float64) int64 { t := int64(k); t = t + k; return (k & (k / 3)) })
	a10 := soac.Map(a3, h8)
	a11 := a10
	s12 := 1.5
	upd13 := func() { a11 = soac.Map(a11, func(s12 float64) float64 { return (((-0.5) / 2) / 2) }) }
	a11 = soac.Scan(a10, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	c19 := float64(len(a10)) / 4
	inc20 := func(r []int) []float64 {
		return soac.Map(r, func(v int) float64 { return ((float64(k) + s12) - c) + c19 })
	}
	r21 := soac.Map(a10, func(x float64) float64 {
		row := soac.Iota(3)
		return soac.Reduce(inc20(row), math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	})
	upd13()
	f14 := func(x float64) float64 { return min(c, (s5 + s12)) }
	if s12 > 0.5 {
		a11 = soac.Map(a11, f14)
	}
	return a2, a8, a9, a10, a11, s12, r16, r21
}

// fedSpec has shapes return-arm.
// fedSpec has path shape return-arm on m.
//
//soac:fuse Fed
func fedSpec(fs []float64, k int64) (float64, []float64) {
	a := soac.Map(fs, func(x float64) float64 { return x * 3 })
	m := soac.Map(a, func(x float64) float64 { return x + 1 })
	switch k {
	case 0:
		return soac.Reduce(soac.Map(m, func(x float64) float64 { return x / 2 }), 0, func(p, q float64) float64 { return p + q }), nil
	case 1:
		return soac.Reduce(m, math.Inf(1), func(p, q float64) float64 { return min(p, q) }), nil
	}
	return soac.Reduce(m, 0, func(p, q float64) float64 { return p + q }), a
}

//soac:fuse Branches
func branchesSpec(fs []float64, flag bool) float64 {
	a := soac.Map(fs, func(x float64) float64 { return x * 3 })
	m := soac.Map(a, func(x float64) float64 { return x + 1 })
	var r float64
	if flag {
		r = soac.Reduce(soac.Map(m, func(x float64) float64 { return x / 2 }), 0, func(p, q float64) float64 { return p + q })
	} else {
		r = soac.Reduce(m, 0, func(p, q float64) float64 { return p + q })
	}
	return r
}
