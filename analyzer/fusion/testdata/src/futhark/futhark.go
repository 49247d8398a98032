// Package futhark translates the programs of Futhark's own fusion test
// suite (diku-dk/futhark, tests/fusion/*.fut) into Go specs. Each spec's
// comment names the Futhark program and the structure Futhark states for
// it (`structure { Screma N }`), or, where the program states none, the
// structure Futhark's fusion gives it; analyzer/fusion's TestFutharkSuite
// checks that soacgen reaches as few depth-0 kernels, and the differential
// test in analyzer/internal/randpipe/pipelines runs every NAME against its
// spec.
//
// The programs Go cannot express, and why, are listed in EXCEPTIONS.md
// beside this file.
package futhark

import "github.com/soacgen/soacgen/runtime/soac"

type pair struct{ a, b float64 }

type pair32 struct{ a, b float32 }

// mapomap0 (Vers2.0/mapomap0.fut): structure { Screma 1 }.
//
//soac:fuse MapOMap0
func mapomap0(arr []float64) ([]float64, []float64, []float64) {
	x := soac.Map(arr, func(a float64) float64 { return a + 1 })
	y := soac.Map2(x, arr, func(a, b float64) float64 { return a + b })
	r := soac.Map(arr, func(a float64) float64 { return a + 5 })
	return r, x, y
}

// mapomap1 (Vers2.0/mapomap1.fut): structure { Screma 1 }. The tuple map
// and unzip are a map to a struct and two projections.
//
//soac:fuse MapOMap1
func mapomap1(arr []float64) ([]float64, []float64, []float64, []float64, []float64) {
	xy := soac.Map(arr, func(a float64) pair { return pair{a + 1, a + 2} })
	x := soac.Map(xy, func(p pair) float64 { return p.a })
	y := soac.Map(xy, func(p pair) float64 { return p.b })
	z := soac.Map(x, func(a float64) float64 { return a * 2 })
	w := soac.Map(y, func(a float64) float64 { return a * 3 })
	r := soac.Map(arr, func(a float64) float64 { return a * 4 })
	return r, x, y, z, w
}

// mapored0 (Vers2.0/mapored0.fut): structure { Screma 1 }.
//
//soac:fuse MapORed0
func mapored0(arr []float64) (float64, []float64) {
	r := soac.Reduce(arr, 0.0, func(a, b float64) float64 { return a + b })
	x := soac.Map(arr, func(a float64) float64 { return a + 1 })
	return r, x
}

// mapored1 (Vers2.0/mapored1.fut): structure { Screma 1 }.
//
//soac:fuse MapORed1
func mapored1(arr []float64) (float64, []float64, []float64, []float64) {
	a := soac.Map(arr, func(v float64) float64 { return v + 3 })
	b := soac.Map(arr, func(v float64) float64 { return v + 7 })
	s := soac.Reduce(a, 0.0, func(p, q float64) float64 { return p + q })
	x1 := soac.Map(a, func(v float64) float64 { return v * 3 })
	x2 := soac.Map(b, func(v float64) float64 { return v * 5 })
	x3 := soac.Map(arr, func(v float64) float64 { return v * 0.7 })
	return s, x1, x2, x3
}

// maposcan0 (Vers2.0/maposcan0.fut): structure { Screma 1 }.
//
//soac:fuse MapOScan0
func maposcan0(arr []float64) ([]float64, []float64) {
	sa := soac.Scan(arr, 0.0, func(a, b float64) float64 { return a + b })
	b := soac.Map(sa, func(v float64) float64 { return v * 2 })
	return sa, b
}

// maposcanomaposcan (Vers2.0/maposcanomaposcan.fut): structure { Screma 2 }.
//
//soac:fuse MapOScanOMapOScan
func maposcanomaposcan(arr []float64) (float64, []float64, []float64, []float64, []float64) {
	sa := soac.Scan(arr, 0.0, func(a, b float64) float64 { return a + b })
	b := soac.Map(sa, func(v float64) float64 { return v * 2 })
	sb := soac.Scan(b, 0.0, func(a, b float64) float64 { return a + b })
	c := soac.Map(sb, func(v float64) float64 { return v + 5 })
	r := soac.Reduce(b, 1.0, func(a, b float64) float64 { return a * b })
	return r, sa, b, sb, c
}

// redomap0 (Vers2.0/redomap0.fut): structure { Screma 1 }.
//
//soac:fuse RedOMap0
func redomap0(arr []float32) (float32, []float32, []float32) {
	x := soac.Map(arr, func(a float32) float32 { return a + 1 })
	y := soac.Map2(x, arr, func(a, b float32) float32 { return a + b })
	r := soac.Reduce(arr, 0, func(a, b float32) float32 { return a + b })
	return r, x, y
}

// redomap1 (Vers2.0/redomap1.fut): structure { Screma 1 }.
//
//soac:fuse RedOMap1
func redomap1(arr []float32) (float32, []float32, []float32, []float32, []float32) {
	xy := soac.Map(arr, func(a float32) pair32 { return pair32{a + 1, a + 2} })
	x := soac.Map(xy, func(p pair32) float32 { return p.a })
	y := soac.Map(xy, func(p pair32) float32 { return p.b })
	z := soac.Map(x, func(a float32) float32 { return a * 2 })
	w := soac.Map(y, func(a float32) float32 { return a * 3 })
	r := soac.Reduce(arr, 0, func(a, b float32) float32 { return a + b })
	return r, x, y, z, w
}

// redoredomapomap0 (Vers2.0/redoredomapomap0.fut): structure { /Screma 2 }.
// y indexes x inside its lambda, so x is materialised before y's kernel.
//
//soac:fuse RedORedOMapOMap0
func redoredomapomap0(arr []float64) (float64, []float64, float64, []float64, float64, []float64) {
	n := len(arr)
	r1 := soac.Reduce(arr, 0.0, func(a, b float64) float64 { return a + b })
	x := soac.Map(arr, func(a float64) float64 { return a + 1 })
	r2 := soac.Reduce(x, 1.0, func(a, b float64) float64 { return a * b })
	y := soac.Map(soac.Map(soac.Iota(n), func(i int) int32 { return int32(i) }), func(i int32) float64 { return x[i] * 2 })
	z := soac.Map(soac.Iota(n), func(i int) float64 { return float64(i) })
	r3 := soac.Reduce(z, 0.0, func(a, b float64) float64 { return a + b })
	return r1, x, r2, y, r3, z
}

// consumption1 (consumption1.fut): structure { /Screma 1 }. The in-place
// update of a copy is a lambda writing memory it allocated itself.
//
//soac:fuse Consumption1
func consumption1(as []int32, bs []bool) [][]int32 {
	css := soac.Map(bs, func(b bool) []int32 {
		if b {
			return soac.Map(as, func(a int32) int32 { return a + 1 })
		}
		return as
	})
	dss := soac.Map(css, func(cs []int32) []int32 {
		c := append([]int32(nil), cs...)
		c[0] = 42
		return c
	})
	return dss
}

// consumption2 (consumption2.fut): structure { /Screma 1 }.
//
//soac:fuse Consumption2
func consumption2(as []int32, bs []bool) []int32 {
	n := len(as)
	css := soac.Map(bs, func(b bool) []int32 {
		if b {
			return soac.Map(soac.Iota(n), func(i int) int32 { return int32(i) })
		}
		return as
	})
	dss := soac.Map(css, func(cs []int32) []int32 {
		c := make([]int32, len(cs))
		copy(c, cs)
		c[0] = 42
		return c
	})
	return soac.Reduce(dss, soac.Replicate(n, int32(0)), func(d0, d1 []int32) []int32 {
		return soac.Map2(d0, d1, func(a, b int32) int32 { return a + b })
	})
}

// consumption3 (consumption3.fut): structure { Screma 2 }: xs is written
// between ys and its consumer, so ys is not fused (write-between).
//
//soac:fuse Consumption3
func consumption3(xs []int32) ([]int32, []int32) {
	ys := soac.Map(xs, func(x int32) int32 { return x + 2 })
	if len(xs) > 0 {
		xs[0] = 2
	}
	zs := soac.Map(ys, func(y int32) int32 { return y * xs[1] })
	return xs, zs
}

func div2(x int32) bool { return x%2 == 0 }

func div3(x int32) bool { return x%3 == 0 }

type pairI struct{ x, y int32 }

// filterFilter1 (filter-filter1.fut): no structure stated; Futhark fuses
// the zip, both filters and the projection into one Screma.
//
//soac:fuse FilterFilter1
func filterFilter1(a, b []int32) []int32 {
	c := soac.Filter(soac.Map2(a, b, func(x, y int32) pairI { return pairI{x, y} }), func(p pairI) bool { return div2(p.x) || div3(p.y) })
	c2 := soac.Map(c, func(p pairI) int32 { return p.y })
	return soac.Filter(c2, div2)
}

type five struct{ a1, a2, a3, a4, a5 float64 }

// fuseComplex1 (fuseComplex1.fut): structure { Screma 1 }.
//
//soac:fuse FuseComplex1
func fuseComplex1(x1 []float64, x2 [][]float64) five {
	row := x2[1]
	y1 := soac.Map2(x1, row, func(a1, a2 float64) float64 { return a1 * a2 })
	y2 := soac.Map2(x1, row, func(a1, a2 float64) float64 { return a1 + a2 })
	y3 := soac.Map2(x1, row, func(a1, a2 float64) float64 { return a1 - a2 })
	z1 := soac.Map2(y1, y2, func(a1, a2 float64) float64 { return a1 - a2 })
	z2 := soac.Map2(y1, y2, func(a1, a2 float64) float64 { return a1 + 2*a2 })
	q1 := soac.Map3(y3, z1, y2, func(a1, a2, a3 float64) float64 { return a1*a2 - a3*a1 })
	q2 := soac.Map3(y3, z1, y2, func(a1, a2, a3 float64) float64 { return a3 + a1 + a2 - a1 })
	t := soac.Map3(q1, q2, z2, func(a, b, c float64) five { return five{a, b, c, 0, 0} })
	u := soac.Map3(t, y1, y3, func(p five, d, e float64) five { p.a4, p.a5 = d, e; return p })
	return soac.Reduce(u, five{}, func(p, q five) five {
		return five{p.a1 + q.a1, p.a2 + q.a2, p.a3 + q.a3, p.a4 + q.a4, p.a5 + q.a5}
	})
}

func f3(a float64) float64 { return a + 3 }
func g3(a float64) float64 { return a * 3 }

// fuseEasy1 (fuseEasy1.fut): no structure stated; one Screma.
//
//soac:fuse FuseEasy1
func fuseEasy1(arr []float64) float64 {
	x := soac.Map(arr, f3)
	y := soac.Map(x, g3)
	z := soac.Map(y, g3)
	return z[0]
}

// fuseEasy2 (fuseEasy2.fut): no structure stated; one Screma.
//
//soac:fuse FuseEasy2
func fuseEasy2(arr []float64) float64 {
	x := soac.Map(arr, f3)
	y := soac.Map(arr, g3)
	z := soac.Map3(x, y, x, func(a1, a2, a3 float64) float64 { return a1*a2 + a3 })
	return z[0]
}

// fuseEasy3 (fuseEasy3.fut): no structure stated. y[0] is read in the else
// branch, so y is materialised; x and y form one kernel, each branch's map
// another.
//
//soac:fuse FuseEasy3
func fuseEasy3(arr []float64) []float64 {
	x := soac.Map(arr, f3)
	y := soac.Map(arr, g3)
	if arr[0] < 0 {
		return soac.Map3(x, y, x, func(a1, a2, a3 float64) float64 { return a1*a2 + a3 })
	}
	y0 := y[0]
	return soac.Map2(x, x, func(a2, a3 float64) float64 { return a2*a3 - y0 })
}

// fuseEasy4 (fuseEasy4.fut): no structure stated; one Screma (the
// replicate is index arithmetic). The size coercion arr :> [n] is the
// Map2 length check.
//
//soac:fuse FuseEasy4
func fuseEasy4(arr []float64) float64 {
	n := int(arr[0])
	x := soac.Replicate(n, 2.0)
	y := soac.Map2(x, arr, func(a, b float64) float64 { return a + 3 })
	z := soac.Map2(arr, x, func(a, b float64) float64 { return a * 3 })
	return y[0] + z[0]
}

// fuseFilter1 (fuseFilter1.fut): no structure stated; one Screma.
//
//soac:fuse FuseFilter1
func fuseFilter1(a, b []int32) []int32 {
	cd := soac.Filter(soac.Map2(a, b, func(x, y int32) pairI { return pairI{x, y} }), func(p pairI) bool { return p.x+p.y < 0 })
	d := soac.Map(cd, func(p pairI) int32 { return p.y })
	return soac.Filter(d, func(v int32) bool { return 0 < v })
}

// fuseFilter2 (fuseFilter2.fut): no structure stated; one Screma.
//
//soac:fuse FuseFilter2
func fuseFilter2(a, b []int32) int32 {
	ab := soac.Filter(soac.Map2(a, b, func(x, y int32) pairI { return pairI{x, y} }), func(p pairI) bool { return p.x < p.y })
	b2 := soac.Map(ab, func(p pairI) int32 { return p.y })
	return soac.Reduce(b2, 0, func(p, q int32) int32 { return p + q })
}

// fusion1 (fusion1.fut): no structure stated; one Screma.
//
//soac:fuse Fusion1
func fusion1(arr []float64) float64 {
	b := soac.Map(arr, f3)
	x := soac.Map(b, f3)
	y := soac.Map(b, g3)
	z := soac.Map2(x, y, func(a, b float64) float64 { return a*b - (a + b) })
	return z[0]
}

// fusion2 (fusion2.fut): no structure stated. x[1] is read before z, so
// x is materialised first: two Scremas ({b, x} writing b and x out, and
// {y, z}).
//
//soac:fuse Fusion2
func fusion2(arr []float64) float64 {
	b := soac.Map(arr, f3)
	x := soac.Map(b, f3)
	y := soac.Map(b, g3)
	x1 := x[1]
	z := soac.Map2(x, y, func(a, b float64) float64 { return a*b - (a + b) + x1 })
	return z[0]
}

// fusion3 (fusion3.fut): structure { Screma 1 }.
//
//soac:fuse Fusion3
func fusion3(arr []float64) float64 {
	arr2 := soac.Replicate(5, arr)
	y := soac.Map(arr2, func(x []float64) float64 {
		a := soac.Map(x, f3)
		return soac.Reduce(a, 0.0, func(p, q float64) float64 { return 1.0 * (p + q) })
	})
	return y[0]
}

// fusion4 (fusion4.fut): no structure stated ("filter can be fused into
// reduce"); one Screma.
//
//soac:fuse Fusion4
func fusion4(a []int32) int32 {
	threes := soac.Filter(a, func(y int32) bool { return y%3 == 0 })
	return soac.Reduce(threes, 0, func(p, q int32) int32 { return p + q })
}

type flag struct{ a, b int32 }

// fusion6 (fusion6.fut): structure { Screma 2 }. The scatter is a loop
// over a copy of xs.
//
//soac:fuse Fusion6
func fusion6(xs []int32) []int32 {
	bins := soac.Map(xs, func(x int32) int32 { return x & 1 })
	flags := soac.Map(bins, func(x int32) flag {
		if x == 0 {
			return flag{1, 0}
		}
		return flag{0, 1}
	})
	offsets := soac.Scan(flags, flag{}, func(p, q flag) flag { return flag{p.a + q.a, p.b + q.b} })
	var last flag
	if len(offsets) > 0 {
		last = offsets[len(offsets)-1]
	}
	is := soac.Map2(bins, offsets, func(bin int32, o flag) int32 {
		if bin == 0 {
			return o.a - 1
		}
		return last.a + o.b - 1
	})
	out := append([]int32(nil), xs...)
	for i, j := range is {
		if j >= 0 && int(j) < len(out) {
			out[j] = xs[i]
		}
	}
	return out
}

// fusion7 (fusion7.fut): structure { Screma 1 }.
//
//soac:fuse Fusion7
func fusion7(is, xs []int32) (int32, int32) {
	foo := soac.Map(xs, func(x int32) int32 { return x + 1 })[0]
	bar := soac.Map(xs, func(x int32) int32 { return x + 2 })[0]
	return foo, bar
}

// horizontal0 (horizontal0.fut): structure { Screma 2 }: independent
// arrays (in Go, of lengths not known to be equal).
//
//soac:fuse Horizontal0
func horizontal0(x, y []int32) ([]int32, []int32) {
	return soac.Map(x, func(v int32) int32 { return v + 1 }), soac.Map(y, func(v int32) int32 { return v + 2 })
}

// iswim1 (iswim1.fut): structure { /Screma 1 }. Rows are [3]int32.
//
//soac:fuse ISWIM1
func iswim1(input [][3]int32) [][3]int32 {
	x := soac.Scan(input, [3]int32{}, func(a, b [3]int32) [3]int32 {
		return [3]int32{a[0] + b[0], a[1] + b[1], a[2] + b[2]}
	})
	return soac.Map(x, func(r [3]int32) [3]int32 { return [3]int32{r[0] + 2, r[1] + 2, r[2] + 2} })
}

type row2 struct{ a, b [3]int32 }

// iswim2 (iswim2.fut): structure { /Screma 1 }.
//
//soac:fuse ISWIM2
func iswim2(input1, input2 [][3]int32) [][3]int32 {
	input := soac.Map2(input1, input2, func(r1, r2 [3]int32) row2 { return row2{r1, r2} })
	x := soac.Scan(input, row2{}, func(p, q row2) row2 {
		var r row2
		for i := range 3 {
			r.a[i] = p.a[i] + q.a[i]
			r.b[i] = p.b[i] + q.b[i]
		}
		return r
	})
	return soac.Map(x, func(r row2) [3]int32 {
		return [3]int32{r.a[0] + r.b[0], r.a[1] + r.b[1], r.a[2] + r.b[2]}
	})
}

// mapScan1 (map-scan1.fut): structure { Screma 1 }.
//
//soac:fuse MapScan1
func mapScan1(a []int32) []int32 {
	return soac.Scan(soac.Map(a, func(x int32) int32 { return x + 2 }), 0, func(p, q int32) int32 { return p + q })
}

type pairI2 struct{ a, b int32 }

// mapScan2 (map-scan2.fut): structure { Screma 1 }.
//
//soac:fuse MapScan2
func mapScan2(a []int32) []int32 {
	ab := soac.Map(a, func(x int32) pairI2 { return pairI2{x + 2, x - 2} })
	b := soac.Map(ab, func(p pairI2) int32 { return p.b })
	return soac.Scan(b, 0, func(p, q int32) int32 { return p + q })
}

func pow123(x int) int {
	r := 1
	for range 123 {
		r *= x
	}
	return r
}

// mapScan3 (map-scan3.fut): structure { /Screma/Stream 1 /Screma 1 }: one
// kernel at depth 0, one (map-scan-reduce over iota) at depth 1.
//
//soac:fuse MapScan3
func mapScan3(n, m int) int32 {
	factors := soac.Map(soac.Iota(n), pow123)
	res := soac.Map(factors, func(factor int) int32 {
		return soac.Reduce(soac.Scan(soac.Map(soac.Map(soac.Iota(m), func(i int) int { return i * factor }), func(v int) int32 { return int32(v) }), 0, func(p, q int32) int32 { return p + q }), 0, func(p, q int32) int32 { return p + q })
	})
	return res[n-2]
}

type asbs struct {
	a  int32
	bs []int32
}

// mapScan4 (map-scan4.fut): structure { Screma 1 }: bs passes from the
// map before the scan to the map after it.
//
//soac:fuse MapScan4
func mapScan4(m int, xs []int32) []int32 {
	p := soac.Map(xs, func(x int32) asbs {
		tmp := make([]int32, m)
		for i := range tmp {
			tmp[i] = x
		}
		for i := 0; i < m; i++ {
			tmp[i] = tmp[i] + int32(i)
		}
		return asbs{x, tmp}
	})
	as := soac.Map(p, func(q asbs) int32 { return q.a })
	bs := soac.Map(p, func(q asbs) []int32 { return q.bs })
	as2 := soac.Scan(as, 0, func(p, q int32) int32 { return p + q })
	return soac.Map2(as2, bs, func(a int32, b []int32) int32 { return a + b[0] + b[1] })
}

// noFusion1 (noFusion1.fut): no structure stated: x is not fused into the
// loop's map (loop-boundary).
//
//soac:fuse NoFusion1
func noFusion1(arr []float64) float64 {
	n := int(arr[0])
	x := soac.Map(arr, f3)
	for i := 0; i < n; i++ {
		c := arr[i]
		arr = soac.Map(x, func(b float64) float64 { return c * b })
	}
	return arr[0]
}

// noFusion2 (noFusion2.fut): no structure stated; x, y and z fuse into
// one Screma (vertical into both, which merge horizontally).
//
//soac:fuse NoFusion2
func noFusion2(arr []float64) float64 {
	x := soac.Map(arr, f3)
	y := soac.Map(x, f3)
	z := soac.Map(x, g3)
	return y[0] + z[0]
}

// noFusion3 (noFusion3.fut): structure { Screma 3 }: each map's lambda
// indexes the array its input is.
//
//soac:fuse NoFusion3
func noFusion3(arr []float64) float64 {
	x := soac.Map(arr, f3)
	y := soac.Map(x, func(b float64) float64 { return x[0] * b })
	y0 := y[0]
	z := soac.Map(y, func(b float64) float64 { return y0 * b })
	return z[0]
}

// noFusion4 (noFusion4.fut): no structure stated; arr is written between
// x and y, so x does not move down to y (write-between): two Scremas in
// Futhark. y reads only x, so it moves up to x instead (placement): one.
//
//soac:fuse NoFusion4
func noFusion4(arr []float64) float64 {
	x := soac.Map(arr, func(a float64) float64 { return a + 1 })
	arr[1] = 3.33
	y := soac.Map(x, func(a float64) float64 { return a * 2 })
	return y[0] + arr[1]
}

// noFusion5 (noFusion5.fut, issue #2474): no structure stated; the map of
// rows fuses into the reduce, the final map stays its own: two Scremas.
//
//soac:fuse NoFusion5
func noFusion5(xss [][]float64, ys []float64) []float64 {
	n := len(xss)
	r := soac.Reduce(soac.Map(xss, func(xs []float64) []float64 {
		return soac.Map2(ys, xs, func(a, b float64) float64 { return a + b })
	}), soac.Replicate(n, 0.0), func(a, b []float64) []float64 {
		return soac.Map2(a, b, func(p, q float64) float64 { return p + q })
	})
	return soac.Map(r, func(v float64) float64 { return v + 2 })
}

// redRedFusion (red-red-fusion.fut): structure { Screma 1 }.
//
//soac:fuse RedRedFusion
func redRedFusion(xs []int32) (int32, float32) {
	s := soac.Reduce(xs, 0, func(a, b int32) int32 { return a + b })
	f := soac.Reduce(soac.Map(xs, func(x int32) float32 { return float32(x) }), 0, func(a, b float32) float32 { return a + b })
	return s, f
}

// scanomapScanomap1 (scanomap-scanomap1.fut): structure { Screma 1 }.
//
//soac:fuse ScanomapScanomap1
func scanomapScanomap1(inp []int32) ([]int32, []int32, []int32) {
	a := soac.Map(inp, func(x int32) int32 { return x + 1 })
	b := soac.Scan(a, 0, func(p, q int32) int32 { return p + q })
	c := soac.Scan(a, 1, func(p, q int32) int32 { return p * q })
	return a, b, c
}

// scanomapScanomap2 (scanomap-scanomap2.fut): structure { Screma 1 }.
//
//soac:fuse ScanomapScanomap2
func scanomapScanomap2(inp []int32) ([]int32, []int32, []int32, []int32) {
	a := soac.Map(inp, func(x int32) int32 { return x + 1 })
	b := soac.Scan(a, 0, func(p, q int32) int32 { return p + q })
	c := soac.Map(a, func(x int32) int32 { return x + 1 })
	d := soac.Scan(c, 1, func(p, q int32) int32 { return p * q })
	return a, b, c, d
}

// scanreduce0 (scanreduce0.fut): structure { Screma 1 }.
//
//soac:fuse ScanReduce0
func scanreduce0(xs []int32) ([]int32, int32) {
	return soac.Scan(xs, 0, func(p, q int32) int32 { return p + q }), soac.Reduce(xs, 1, func(p, q int32) int32 { return p * q })
}

// scanreduce1 (scanreduce1.fut): structure { Screma 1 }.
//
//soac:fuse ScanReduce1
func scanreduce1(xs []int32) (int32, []bool, int32) {
	r1 := soac.Reduce(xs, 0, func(p, q int32) int32 { return p + q })
	s := soac.Scan(soac.Map(xs, func(x int32) bool { return x < 0 }), true, func(p, q bool) bool { return p && q })
	r2 := soac.Reduce(xs, 0, func(p, q int32) int32 { return p * q })
	return r1, s, r2
}

// tabulate0 (tabulate0.fut): structure { Screma 1 }. Futhark first turns
// indexing by an iota element into a map over the indexed array; soacgen
// fuses the index read ys[i] (i the Iota's element, len(ys) its length) as
// an element-wise input (rule tag index-read).
//
//soac:fuse Tabulate0
func tabulate0(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * xs[i] })
}

// tabulate1 (tabulate1.fut): structure { Screma 1 }. As tabulate0, with
// a length n given apart from xs: ys has n elements, the index reads of
// the second map are in range by construction.
//
//soac:fuse Tabulate1
func tabulate1(n int, xs []int32) []int32 {
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * xs[i] })
}

// tabulate2 (tabulate2.fut): structure { Iota 0 }: the iota is not
// materialised; one kernel.
//
//soac:fuse Tabulate2
func tabulate2(j int, xs [][]int32) []int32 {
	n := 0
	if len(xs) > 0 {
		n = len(xs[0])
	}
	return soac.Map(soac.Iota(n), func(i int) int32 { return xs[j][i] * 2 })
}

// bugCalib (Vers2.0/bugCalib.fut): no structure stated; one Screma.
//
//soac:fuse BugCalib
func bugCalib(result []float64) []float64 {
	m := len(result)
	return soac.Map(soac.Iota(m), func(j int) float64 {
		if j < m-1 {
			return result[j+1]
		}
		return 0
	})
}

// iswim3 (iswim3.fut): structure { Map 1 Redomap 1 Scanomap 1 }: the map
// of correlateDeltas fuses into the scan of blackScholes (one kernel at
// depth 0); inside it a map over iota, and inside that a redomap.
//
//soac:fuse ISWIM3
func iswim3(mdC, bbArr [][]float64, mdStarts []float64) [][]float64 {
	numUnd := len(mdC)
	noises := soac.Map(bbArr, func(zi []float64) []float64 {
		return soac.Map(soac.Iota(numUnd), func(j int) float64 {
			return soac.Reduce(soac.Map2(zi, mdC[j], func(a, b float64) float64 { return a * b }), 0, func(a, b float64) float64 { return a + b })
		})
	})
	return soac.Scan(noises, mdStarts, func(x, y []float64) []float64 {
		return soac.Map2(x, y, func(a, b float64) float64 { return a * b })
	})
}

// fusion5 (fusion5.fut): structure { /Screma 3 /Screma/Screma 1 }: the
// two iota maps, and one Screma for the rest, whose nested maps fuse into
// one. tv18, a transposed replicate of tv6 in Futhark (a view), is in Go
// the map that builds its rows: row i repeats tv6[i] 30 times. The shift
// 1 >> v panics in Go on a negative v; v counts from 0 here.
//
//soac:fuse Fusion5
func fusion5(tv1 []int32, tv3 [][]int32) [][]bool {
	n := 3
	tv6 := soac.Map(soac.Map(soac.Iota(n), func(i int) int32 { return int32(i) }), func(x int32) int32 { return x + 1 })
	tv12 := soac.Map(soac.Map(soac.Iota(30), func(i int) int32 { return int32(i) }), func(x int32) int32 { return x + 1 })
	tv18 := soac.Map(tv6, func(x int32) []int32 { return soac.Replicate(30, x) })
	tv19 := soac.Replicate(n, tv12)
	shifted := soac.Map(tv18, func(row []int32) []int32 {
		return soac.Map(row, func(v int32) int32 { return v << 1 })
	})
	tv27 := soac.Map2(tv18, shifted, func(xs, ys []int32) []int32 {
		return soac.Map2(xs, ys, func(a, b int32) int32 { return a ^ b })
	})
	dec := soac.Map(tv19, func(row []int32) []int32 {
		return soac.Map(row, func(v int32) int32 { return v - 1 })
	})
	ones := soac.Map(dec, func(row []int32) []int32 {
		return soac.Map(row, func(v int32) int32 { return 1 >> v })
	})
	masked := soac.Map2(tv27, ones, func(xs, ys []int32) []int32 {
		return soac.Map2(xs, ys, func(a, b int32) int32 { return a & b })
	})
	return soac.Map(masked, func(row []int32) []bool {
		return soac.Map(row, func(v int32) bool { return v != 0 })
	})
}

// optBool is Futhark's opt bool: #some v when some, #none otherwise.
type optBool struct{ some, v bool }

// span is a slice A[lo:hi] of inner0's array.
type span struct{ lo, hi int }

// inner0 (inner0.fut): structure { Screma 2 }: the minimum's reduce, and
// in its operator the comparison's map2 fused with first_some's reduce.
// The sum type opt is a struct with a presence flag; take minlen is the
// slice a[:minlen]; the polymorphic le is written for int32's <=, inline
// in the operator (its SOACs are then the operator's own).
//
//soac:fuse Inner0
func inner0(arr []int32, ijs []span) span {
	return soac.Reduce(ijs, ijs[0], func(x, y span) span {
		a, b := arr[x.lo:x.hi], arr[y.lo:y.hi]
		n, m := len(a), len(b)
		minlen := min(n, m)
		cmp := soac.Map2(a[:minlen], b[:minlen], func(p, q int32) optBool {
			if p <= q && !(q <= p) {
				return optBool{true, true}
			}
			if q <= p && !(p <= q) {
				return optBool{true, false}
			}
			return optBool{}
		})
		first := soac.Reduce(cmp, optBool{}, func(p, q optBool) optBool {
			if p.some {
				return p
			}
			if q.some {
				return q
			}
			return optBool{}
		})
		le := n <= m
		if first.some {
			le = first.v
		}
		if le {
			return x
		}
		return y
	})
}

// horizontalSharedInput (horizontal-fusion-shared-input.fut): structure
// { Screma 3 }: one Screma at each depth, the two dot products of a row of
// w horizontally fused, reading the row once. Futhark maps over the
// columns of A and WH (transpose, a view); Go has no transposed view, so
// the spec takes the transposed matrices at and wht (the fusion of the
// two reductions sharing wr is what the test is about).
//
//soac:fuse HorizontalSharedInput
func horizontalSharedInput(w, at, wht [][]int32) [][]int32 {
	wta := soac.Map(w, func(wr []int32) []int32 {
		return soac.Map(at, func(ac []int32) int32 {
			return soac.Reduce(soac.Map2(wr, ac, func(a, b int32) int32 { return a * b }), 0, func(a, b int32) int32 { return a + b })
		})
	})
	wtwh := soac.Map(w, func(wr []int32) []int32 {
		return soac.Map(wht, func(whc []int32) int32 {
			return soac.Reduce(soac.Map2(wr, whc, func(a, b int32) int32 { return a * b }), 0, func(a, b int32) int32 { return a + b })
		})
	})
	return soac.Map2(wta, wtwh, func(xs, ys []int32) []int32 {
		return soac.Map2(xs, ys, func(a, b int32) int32 { return a / b })
	})
}
