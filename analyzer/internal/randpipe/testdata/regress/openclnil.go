// Regression spec (random, seed 40000, spec8 failed): on opencl, result 4
// (a13) was nil where the spec returns its elements. In the second loop,
// a12, a13 = a13, soac.Map(a12, ...) computes the new a13 into a
// temporary that the tuple assignment copies; the Map's output was kept
// on the device for the Map2 after it, so the temporary, and a13, were
// nil, although a13's value leaves the loop's body (the next round, the
// result) through its Go variable. tupleLoopSpec is the smallest spec
// found that did the same.

package openclnil

import (
	"math"
	"slices"
	"sort"

	"github.com/soacgen/soacgen/runtime/soac"
)

func h0(p0 int64) bool {
	return ((p0%7)/3)%3 == 0
}

func h1(p0 float64, p1 float64) float64 {
	return (min((-0.5), p0) + p0)
}

func h2(p0 float64) float64 {
	return ((-p0) - p0)
}

func op3(a, b int64) int64 {
	return a * b
}

func op4(a, b float64) float64 {
	return max(a, b)
}

func op5(a, b float64) float64 {
	return min(a, b)
}

func op6(a, b float64) float64 {
	return a + b
}

func h7(p0 float64, p1 int64) int64 {
	return (max(3, p1) + (p1 ^ p1))
}

func op8(a, b int64) int64 {
	return a | b
}

func h9(p0 int64, p1 int64) int64 {
	return (p0 * (0 + p1))
}

func h10(p0 int64) int64 {
	return 2
}

func op11(a, b int64) int64 {
	return min(a, b)
}

func h12(p0 int64) bool {
	return ((5 - p0) >> 1) >= 5
}

func h13(p0 int) int64 {
	return (((-1) ^ 6) >> 1)
}

func op14(a, b int64) int64 {
	return a & b
}

func h15(p0 int64, p1 int64) int64 {
	return ((p1 ^ p0) ^ max(p0, p0))
}

func h16(p0 float64) float64 {
	return float64((-2))
}

func op17(a, b int64) int64 {
	return max(a, b)
}

// spec0 has shapes reassign-read, cross-capture.
//
//soac:fuse Fused0
func spec0(xs []int64, ys []int64, fs []float64, gs []float64, k int64, c float64) (int64, int64, []float64, []float64, []int64) {
	var a1 []int64
	a1 = soac.Map(soac.Iota(len(gs)), func(i int) int64 { e := ys[i]; _ = e; return (k - max(k, e)) })
	cnt2 := int64(0)
	a3 := soac.Map(a1, func(x int64) int64 { cnt2++; return 7 })
	s4 := soac.Reduce(a3, math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	a5 := soac.Scan(gs, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	a6 := soac.Filter(ys, h0)
	a7 := soac.Map(a6, func(x int64) float64 { t := float64(((c + c) - c)); t = t + (t + c); return t })
	s8 := soac.Reduce(a7, 0, func(a, b float64) float64 { return a + b })
	a9 := soac.Scan(a5, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
	s10 := soac.Reduce(a5, 0, func(a, b float64) float64 { return a + b })
	s11 := (-2.25)
	a5 = soac.Map2(a9, a9, h1)
	var a12 = soac.StreamMap(a5, func(ch []float64) []float64 {
		out := make([]float64, len(ch))
		for i, v := range ch {
			out[i] = v + (c)
		}
		return out
	})
	f14 := func(x float64) float64 { return ((s8 - x) / 2) }
	a13 := soac.Map(a9, f14)
	s15 := soac.Reduce(soac.Map(a9, func(x float64) float64 {
		if (c - x) > c {
			return (-(-x))
		}
		return (-s11)
	}), 0, func(a, b float64) float64 { return a + b })
	s16 := soac.Reduce(soac.Map(a13, func(x float64) float64 { return c }), 0, func(a, b float64) float64 { return a + b })
	s17 := soac.Reduce(soac.Map(a13, h2), math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	a18 := soac.Filter(a9, func(v float64) bool { return v-s15+(s8-s11) > 0 })
	a19 := soac.Filter(a9, func(v float64) bool { return v-s16+s17+(s10) > 1.5 })
	n20 := len(a19)
	a21 := soac.Replicate(n20, int64((k ^ k)))
	return cnt2, s4, a12, a18, a21
}

// spec1 has hazard write-sort (producer p6, consumer q7).
// spec1 has shapes reassign-read, loop-counted.
//
//soac:fuse Fused1
func spec1(xs []int64, ys []int64, fs []float64, gs []float64, k int64) (int64, int64, int64, []float64, []float64, []int64, float64) {
	a1 := soac.Map(fs, func(x float64) float64 {
		return soac.Reduce(soac.Map(soac.Iota(3), func(i int) float64 { return float64(i) }), math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
	})
	cnt2 := int64(0)
	s4 := soac.Reduce(soac.Map(ys, func(x int64) int64 { cnt2++; return (x & (x | x)) }), 0, func(a, b int64) int64 { return a | b })
	var a5 = soac.Scan(a1, 0, func(a, b float64) float64 { return a + b })
	p6 := soac.Map(xs, func(fs int64) int64 { return (((-1) ^ fs) + (fs | fs)) })
	sort.Slice(xs, func(i, j int) bool { return xs[i] > xs[j] })
	q7 := soac.Reduce(p6, 1, op3)
	a8 := a5
	a9 := soac.Scan(a8, math.Inf(-1), op4)
	a10 := soac.Scan(a9, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	s11 := soac.Reduce(a9, math.Inf(1), op5)
	for it := int64(0); it < k; it++ {
		a8 = soac.Scan(a8, 0, op6)
		s11 = soac.Reduce(a8, math.Inf(-1), op4)
	}
	a12 := soac.Filter(a10, func(x float64) bool { return min(s11, (-0.5)) < x })
	a13 := soac.Map2(gs, xs, h7)
	s14 := soac.Reduce(a8, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	return cnt2, s4, q7, a9, a12, a13, s14
}

// spec2 has shapes cond-reassign, reassign-read.
//
//soac:fuse Fused2
func spec2(xs []int64, fs []float64, k int64, c float64) ([]int64, float64, []int, []int64, float64, []int64, []int64, int64) {
	var a2 []float64
	a2 = soac.Scan(soac.StreamMap(fs, func(ch []float64) []float64 {
		out := make([]float64, len(ch))
		for i, v := range ch {
			out[i] = v + (c)
		}
		return out
	}), math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	a3 := soac.Map2(a2, xs, func(x float64, y int64) int64 {
		if x > x {
			return ((k | y) / 3)
		}
		return (k ^ (k - 3))
	})
	s4 := soac.Reduce(fs, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
	a5 := soac.Iota(len(a3))
	a6 := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	a7 := xs
	s8 := soac.Reduce(a7, 0, op8)
	if len(a7)%2 == 1 {
		xs = soac.Map(a6, func(x int64) int64 { k := int64(k); k = k + max(x, (-1)); return (-1) })
	}
	a9 := soac.Map(a7, func(x int64) int64 { return (-3) })
	var a10 = soac.Map(a6, func(x int64) int64 {
		var out []int64
		out = append(out, 4, (x & x))
		if len(out) > 1 {
			out[1] = out[0] - out[1]
		}
		return out[1]
	})
	s11 := soac.Reduce(a2, 0, func(a, b float64) float64 { return a + b })
	a12 := soac.Map(a9, func(x int64) int64 { t := int64(x); t = t + ((-1) / 3); return max(s8, (1 / 3)) })
	a13 := soac.Map(a12, func(x int64) int64 {
		if (x & k) >= s8 {
			return (((-2) / 3) - 0)
		}
		return (0 % 7)
	})
	s14 := int64(2)
	s14 = soac.Reduce(soac.Map(a13, func(v int64) int64 { return v*2 - s14 + (-3) }), -1, func(a, b int64) int64 { return a & b })
	a13 = soac.Map(a13, func(x int64) int64 { return (2 | max(s14, k)) })
	return xs, s4, a5, a10, s11, a12, a13, s14
}

// spec3 has shapes reassign-read, loop-carried, double-buffer, loop-range, self-assign, cond-reassign.
//
//soac:fuse Fused3
func spec3(xs []int64, ys []int64, fs []float64, c float64) ([]int64, []int64, []int64, []int, []int64) {
	a1 := ys
	a2 := a1
	s3 := soac.Reduce(a1, math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	for range 3 {
		a1 = soac.Map2(a2, a2, h9)
		a1, a2 = a2, soac.Map(a1, func(x int64) int64 { return s3 })
		s3 = soac.Reduce(a1, -1, func(a, b int64) int64 { return a & b })
	}
	sc4 := make([]int64, len(a2))
	for i := range sc4 {
		sc4[i] = int64(i) * 3
	}
	if len(sc4) > 0 {
		sc4[0] = -1
	}
	a5 := a1
	a6 := soac.Map(a5, func(xs int64) int64 { return (s3 | (s3 | 6)) })
	s7 := int64(-1)
	s8 := soac.Reduce(a5, math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	a5 = soac.Map(a6, func(x int64) int64 { return (x + 6) })
	a6 = a6
	s7 = soac.Reduce(a6, 0, func(a, b int64) int64 { return a ^ b })
	if len(a6)%2 == 1 {
		a6 = soac.Map(a5, h10)
	}
	a9 := soac.Filter(a5, func(xs int64) bool { return ((xs - 8) * s3) >= s8 })
	a10 := soac.Iota(3)
	a11 := soac.Map(a1, func(x int64) int64 {
		if ((-3) % 7) >= x {
			return (s3 * (s3 | x))
		}
		return (s7 + ((-3) * x))
	})
	return sc4, a6, a9, a10, a11
}

// spec4 has shapes loop-carried, self-assign, double-buffer, loop-counted, reassign-read.
//
//soac:fuse Fused4
func spec4(xs []int64, ys []int64, k int64) ([]int64, []int64, []int64, []int64, []int64, int64, []int) {
	s1 := soac.Reduce(ys, -1, func(a, b int64) int64 { return a & b })
	a2 := soac.Iota(3)
	a3 := soac.Scan(ys, -1, func(a, b int64) int64 { return a & b })
	s4 := soac.Reduce(ys, math.MaxInt64, op11)
	for it := int64(0); it < k; it++ {
		a3 = a3
		a3 = soac.Map(a3, func(x int64) int64 { return ((s4 / 3) + max((-1), 5)) })
		a3, ys = ys, soac.Map(a3, func(x int64) int64 {
			if (it>>1)%3 == 0 {
				return ((x - s4) + x)
			}
			return ((s1 | s1) / 3)
		})
		s4 = soac.Reduce(a3, -1, func(a, b int64) int64 { return a & b })
		a3, ys = ys, soac.Map(a3, func(x int64) int64 { s1 := int64(((x % 7) * 4)); s1 = s1 + (x % 7); return it })
	}
	var a5 = soac.Filter(a3, h12)
	a6 := soac.Map(a2, h13)
	a7 := soac.Scan(xs, 1, func(a, b int64) int64 { return a * b })
	a8 := soac.Map(a7, func(x int64) int64 { return s4 })
	s9 := int64(-1)
	for it := int64(0); it < k; it++ {
		a8, xs = xs, soac.Map(a8, func(k int64) int64 { return k })
		a7 = soac.Map2(xs, xs, func(x int64, y int64) int64 {
			if (it + y) < 2 {
				return ((x / 3) | (y - k))
			}
			return s1
		})
		xs = soac.Map2(xs, xs, func(x int64, y int64) int64 {
			s1 := int64(((it * k) - (y + k)))
			s1 = s1 + (s4 * 2)
			return ((8 + (-2)) - (s4 ^ 5))
		})
		s9 = soac.Reduce(a7, math.MinInt64, func(a, b int64) int64 { return max(a, b) })
		xs = soac.Scan(a7, -1, func(a, b int64) int64 { return a & b })
	}
	n10 := len(xs)
	var a11 []int
	a11 = soac.Iota(n10)
	return ys, a5, a6, a7, a8, s9, a11
}

// spec5 has hazard write-sort (producer p7, consumer q8).
// spec5 has shapes self-assign, double-buffer, cond-reassign.
//
//soac:fuse Fused5
func spec5(xs []int64, ys []int64, fs []float64, k int64) ([]int64, []int64, []int64, []int64, []int64, int64, int64) {
	a1 := soac.Map2(xs, fs, func(x int64, y float64) int64 { return (-(k / 3)) })
	a2 := a1
	a3 := soac.Map(a2, func(x int64) int64 { return ((x ^ 2) - k) })
	s4 := soac.Reduce(a2, 0, func(a, b int64) int64 { return a | b })
	a3 = a3
	s4 = soac.Reduce(a3, math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	a3, a2 = a2, a3
	s5 := soac.Reduce(a1, 0, func(a, b int64) int64 { return a | b })
	f6 := func(x int64) int64 { return (x + (x & x)) }
	p7 := soac.Map(xs, f6)
	slices.Sort(xs)
	q8 := soac.Map(p7, func(x int64) int64 { k := int64(((8 | s4) + max(s5, x))); k = k + (s5 + (-3)); return ((-k) / 3) })
	a9 := soac.Map(q8, func(x int64) int64 { return ((x / 3) - (-k)) })
	a10 := soac.Scan(a9, -1, op14)
	a11 := a9
	s12 := soac.Reduce(a9, math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	s13 := soac.Reduce(a10, 1, op3)
	if len(a9)%2 == 0 {
		a9 = soac.Map(a11, func(x int64) int64 {
			if (s5 / 3) < s12 {
				return ((s5 >> 1) + (s5 ^ 6))
			}
			return (5 >> 1)
		})
	}
	return a2, a3, a9, a10, a11, s12, s13
}

// spec6 has shapes double-buffer, loop-carried, reassign-read, cond-reassign, loop-range.
//
//soac:fuse Fused6
func spec6(xs []int64, fs []float64, gs []float64, k int64, c float64) ([]int, []float64, float64, float64, []float64, []float64) {
	var a1 = soac.Map(gs, func(x float64) float64 {
		buf := make([]float64, 3)
		for i := range buf {
			buf[i] = ((c + c) + (-c)) + float64(i)
		}
		buf[1] = (float64(k) + (1.5 + x))
		return buf[0] + buf[1]*buf[2]
	})
	a2 := soac.Filter(a1, func(x float64) bool { return min(x, (c*0.25)) > x })
	a3 := soac.Iota(len(a2))
	a4 := soac.Scan(fs, 0, op6)
	a5 := fs
	s6 := 0.0
	s7 := (-2.25)
	for _, it := range a5[:min(len(a5), 3)] {
		a5, fs = fs, a5
		s6 = soac.Reduce(soac.Map(a5, func(v float64) float64 { return v*2 - s6 + (it + it) }), 0, op6)
		fs = soac.Map(a4, func(x float64) float64 { s6 := float64((s7 - (c - s7))); s6 = s6 + s6; return ((c - 0) / 2) })
		s6 = soac.Reduce(soac.Map(a5, func(v float64) float64 { return v*2 - s7 + (float64(k)) }), math.Inf(1), func(a, b float64) float64 { return min(a, b) })
		s7 = soac.Reduce(soac.Map(a5, func(v float64) float64 { return v*2 - s7 + (it + s7) }), math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
		if len(a5)%2 == 1 {
			fs = soac.Map(a5, func(x float64) float64 { return (2 + (float64(k) + c)) })
		}
	}
	a8 := soac.Scan(a5, 0, func(a, b float64) float64 { return a + b })
	var a9 []float64
	a9 = soac.Map(fs, func(x float64) float64 { return c })
	return a3, a4, s6, s7, a8, a9
}

// spec7 has hazard index-oob (producer p2, consumer q3).
// spec7 has shapes reassign-read, self-assign.
//
//soac:fuse Fused7
func spec7(xs []int64, ys []int64, fs []float64, k int64, c float64) ([]int64, int64, int64, []float64, []float64) {
	s1 := soac.StreamRed(xs, func(p, q int64) int64 { return p + q }, func(ch []int64) int64 {
		acc := int64(0)
		for _, v := range ch {
			acc = acc + (v + (v * (k >> 1)))
		}
		return acc
	})
	p2 := soac.Map(xs, func(x int64) int64 { return x + ys[x&7] })
	q3 := soac.Map(p2, func(x int64) int64 { return (s1 % 7) })
	a4 := soac.Map(q3, func(x int64) int64 { s1 := int64(k); s1 = s1 + (x + x); return ((8 + s1) - (s1 * k)) })
	a5 := a4
	a6 := soac.Scan(a4, 0, func(a, b int64) int64 { return a | b })
	s7 := int64(2)
	s8 := int64(3)
	a5 = soac.Map(a5, func(x int64) int64 { return (7 ^ max(s1, s8)) })
	a5 = a5
	a4 = soac.Map(a5, func(x int64) int64 { return (s8 % 7) })
	a5 = soac.Map2(a5, a5, h15)
	a9 := soac.Map(a4, func(x int64) int64 {
		return soac.Reduce(soac.Map(soac.Iota(2), func(i int) int64 { return k }), -1, op14)
	})
	a10 := soac.Map(a9, func(x int64) float64 { return ((c / 2) - min(c, c)) })
	var a11 []float64
	a11 = soac.Map2(a5, a9, func(x int64, s1 int64) float64 { return ((0 + 2) + 1.5) })
	return a6, s7, s8, a10, a11
}

// spec8 has shapes loop-carried, reassign-read, loop-range, double-buffer, cond-reassign, loop-counted.
//
//soac:fuse Fused8
func spec8(xs []int64, fs []float64, k int64) (int64, int64, []float64, []float64, []float64, []float64, float64) {
	a1 := soac.Map(xs, func(x int64) int64 {
		if k < k {
			return max((0 & x), x)
		}
		return max((k >> 1), (k >> 1))
	})
	a2 := soac.Map(soac.Iota(len(a1)), func(i int) int64 {
		if i%2 == 0 {
			return a1[i]
		}
		e := a1[i] * 2
		_ = e
		return k
	})
	a3 := soac.Iota(len(a2))
	a4 := soac.Map2(a3, a3, func(x int, y int) float64 { t := float64(2); t = t + min(float64(x), float64(x)); return float64(y) })
	a5 := soac.Map(a4, func(x float64) float64 { return (x - 2) })
	s6 := (-2.25)
	s7 := 0.0
	for it := range 3 {
		a4 = soac.Map(a5, func(x float64) float64 { return ((-s7) - min(float64(it), s6)) })
		a5 = soac.Map(a5, func(x float64) float64 {
			if s6 != s7 {
				return (min(s6, s6) - (x / 2))
			}
			return (x * 3.75)
		})
		s6 = soac.Reduce(soac.Map(a5, func(v float64) float64 { return v*2 - s6 + (float64(k)) }), 0, func(a, b float64) float64 { return a + b })
		s7 = soac.Reduce(soac.Map(a4, func(v float64) float64 { return v*2 - s6 + (s7 + float64(it)) }), math.Inf(1), func(a, b float64) float64 { return min(a, b) })
	}
	cnt8 := int64(0)
	a9 := soac.Map(xs, func(x int64) int64 { cnt8++; return ((k >> 1) >> 1) })
	s10 := soac.Reduce(a9, 0, func(a, b int64) int64 { return a ^ b })
	a11 := soac.Map(a5, func(x float64) float64 {
		buf := make([]float64, 3)
		for i := range buf {
			buf[i] = (float64(8)) + float64(i)
		}
		buf[1] = (s7 + min(s7, s7))
		return buf[0] + buf[1]*buf[2]
	})
	a12 := soac.Map(a4, h16)
	a13 := a12
	a14 := soac.Map(a13, func(x float64) float64 { return (float64(k) * 0) })
	s15 := soac.Reduce(a12, 0, func(a, b float64) float64 { return a + b })
	for it := int64(0); it < k; it++ {
		a13, a14 = a14, soac.Map(a13, func(x float64) float64 {
			if (s15 / 2) > s7 {
				return float64((it | k))
			}
			return float64((it & k))
		})
		a12, a13 = a13, soac.Map(a12, func(x float64) float64 {
			if min(s7, s15) > x {
				return s6
			}
			return ((s15 / 2) + (s15 + float64(it)))
		})
		a14 = soac.Map2(a13, a12, func(x float64, y float64) float64 { s7 := float64((y / 2)); s7 = s7 + x; return float64(k) })
		s15 = soac.Reduce(a14, math.Inf(1), func(a, b float64) float64 { return min(a, b) })
		if len(a14)%2 == 1 {
			a13 = soac.Map(a14, func(s7 float64) float64 { return min(s6, (s15 * (-0.5))) })
		}
	}
	return cnt8, s10, a11, a12, a13, a14, s15
}

// spec9 has shapes reassign-read, loop-carried, loop-counted, cross-capture.
//
//soac:fuse Fused9
func spec9(xs []int64, ys []int64, fs []float64, gs []float64, k int64) ([]int64, []int64, []int64, int64, []int64) {
	a1 := soac.Map2(ys, fs, func(x int64, y float64) int64 {
		if y > y {
			return ((1 / 3) & (x + 2))
		}
		return ((0 | 8) >> 1)
	})
	a2 := soac.Map2(a1, ys, func(x int64, y int64) int64 {
		if (k & x) >= y {
			return (k - y)
		}
		return max(2, (0 - 6))
	})
	a3 := soac.Map(a2, func(x int64) int64 { t := int64(max(((-2) % 7), (x - x))); t = t + (7 + 8); return ((0 / 3) | t) })
	a4 := a3
	a5 := soac.Scan(a4, 0, func(a, b int64) int64 { return a + b })
	s6 := soac.Reduce(a4, 1, func(a, b int64) int64 { return a * b })
	for it := int64(0); it < k; it++ {
		a4 = soac.Scan(a5, math.MinInt64, op17)
		s6 = soac.Reduce(soac.Map(a5, func(v int64) int64 { return v*2 - s6 + (s6 - 4) }), 1, func(a, b int64) int64 { return a * b })
	}
	var s7 int64
	s7 = soac.Reduce(a3, math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	a8 := soac.Map(a3, h10)
	s9 := soac.Reduce(a8, 0, op8)
	s10 := soac.Reduce(soac.Map(a3, func(x int64) int64 { return 5 }), math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	f12 := func(x int64) int64 { return ((k - 3) + (k % 7)) }
	s11 := soac.Reduce(soac.Map(a3, f12), 0, func(a, b int64) int64 { return a + b })
	a13 := soac.Filter(a8, func(v int64) bool { return v-s11+(0+s6) > 0 })
	a14 := soac.Reduce(soac.Map(a8, func(v int64) int64 { return v - s9 + s10 + (k % 7) }), 1, op3)
	a15 := soac.Filter(a8, func(v int64) bool { return v-s11+(s7/3) > (-3) })
	return a4, a5, a13, a14, a15
}

// tupleLoopSpec has shapes double-buffer, loop-counted.
//
//soac:fuse TupleLoop
func tupleLoopSpec(fs []float64, k int64) ([]float64, []float64, []float64) {
	a12 := soac.Map(fs, func(x float64) float64 { return x - 2 })
	a13 := soac.Map(fs, func(x float64) float64 { return x + 2 })
	var a14 []float64
	for it := int64(0); it < k; it++ {
		a12, a13 = a13, soac.Map(a12, func(x float64) float64 { return x/2 + float64(it) })
		a14 = soac.Map2(a13, a12, func(x float64, y float64) float64 { return x - y })
	}
	return a12, a13, a14
}
