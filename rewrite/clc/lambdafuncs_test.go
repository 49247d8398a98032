package clc

// The specs of this file each return soac.Map(xs, lambda) where the
// lambda captures other parameters of the spec. TestLambdaDifferential
// (which parses and type-checks this file) translates each lambda, runs
// it at every element of xs on the device with the captures as kernel
// arguments, and compares with the spec. The example lambdas are here in
// their examples' words (blackscholes, kmeans, mss, histogram, quickhull).

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func addInt(a, b int) int { return a + b }

func lamSums(xs []int, ws []int, k int) []int {
	return soac.Map(xs, func(x int) int {
		s := soac.Reduce(ws, 0, addInt)
		t := soac.Reduce(soac.Map(soac.Iota(x%8), func(i int) int { return i * k }), 0, addInt)
		u := soac.Reduce(soac.Replicate(k%5, x), 0, addInt)
		if x > 0 && soac.Reduce(ws[1:], 0, addInt) > 3 {
			return s + t + u
		}
		return soac.Reduce(soac.Map3(ws, ws, ws, func(a, b, c int) int { return a*b - c }), x, addInt)
	})
}

func lamIndex(xs []int, ws []int32) []int32 {
	return soac.Map(xs, func(x int) int32 { return ws[x] * 2 })
}

func lamDot(xs []float64, ws []float64, vs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 {
		return x * soac.Reduce(soac.Map2(ws, vs, func(a, b float64) float64 { return a * b }), 0.0, func(a, b float64) float64 { return a + b })
	})
}

// blackscholes

type option struct {
	S, K, T, R, V float64
}

func cnd(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

func lamBlackScholes(opts []option) []float64 {
	return soac.Map(opts, func(o option) float64 {
		vst := o.V * math.Sqrt(o.T)
		d1 := (math.Log(o.S/o.K) + (o.R+0.5*o.V*o.V)*o.T) / vst
		d2 := d1 - vst
		return o.S*cnd(d1) - o.K*math.Exp(-o.R*o.T)*cnd(d2)
	})
}

// kmeans

type point struct{ X, Y float64 }

func nearest(p point, centres []point) int {
	best, bestD := 0, 0.0
	for i, c := range centres {
		dx, dy := p.X-c.X, p.Y-c.Y
		d := dx*dx + dy*dy
		if i == 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

func lamNearest(ps []point, centres []point) []int {
	return soac.Map(ps, func(p point) int { return nearest(p, centres) })
}

// mss

type segs struct {
	Best, Prefix, Suffix, Total int
}

func combine(x, y segs) segs {
	return segs{
		Best:   max(x.Best, y.Best, x.Suffix+y.Prefix),
		Prefix: max(x.Prefix, x.Total+y.Prefix),
		Suffix: max(y.Suffix, x.Suffix+y.Total),
		Total:  x.Total + y.Total,
	}
}

func lamMSS(xs []int, ys []int) []segs {
	return soac.Map(xs, func(x int) segs {
		m := max(x, 0)
		return combine(segs{m, m, m, x}, soac.Reduce(soac.Map(ys, func(y int) segs {
			n := max(y, 0)
			return segs{n, n, n, y}
		}), segs{}, combine))
	})
}

// histogram

func bin(x, lo, hi float64, nbins int) int {
	i := int((x - lo) / (hi - lo) * float64(nbins))
	return min(max(i, 0), nbins-1)
}

func lamBin(xs []float64, lo, hi float64, nbins int) []int {
	return soac.Map(xs, func(x float64) int { return bin(x, lo, hi, nbins) })
}

// quickhull

type distPoint struct {
	P point
	D float64
}

func cross(a, b, p point) float64 {
	return (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
}

func lamCross(ps []point, a, b point) []distPoint {
	return soac.Map(ps, func(p point) distPoint { return distPoint{p, cross(a, b, p)} })
}

// matMulSpec is examples/matmul: the outer Map in parallel, the inner
// Map of a redomap per work-item (TestMatMulDifferential).
func matMulSpec(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float64) float64 { return x * y }),
				0.0,
				func(s, t float64) float64 { return s + t })
		})
	})
}
