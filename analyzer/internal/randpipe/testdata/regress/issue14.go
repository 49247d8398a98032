// Differential cases of fusion quality: map-out arrays read by
// a later kernel, writes proven in range between a producer whose lambda
// may panic and its consumer, lambdas writing memory they allocated, and
// lengths held in variables. Their structure is checked in
// analyzer/fusion/testdata/src/issue; here each NAME runs against its spec
// (panics included: the ints are in [-9, 9], so divisions by zero happen).

package issue14

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse MapOutDependent
func mapOutDependentSpec(xs []int64) ([]int64, int64) {
	x := soac.Map(xs, func(v int64) int64 { return v * 3 })
	s := soac.Reduce(x, 0, func(a, b int64) int64 { return a + b })
	w := soac.Map(x, func(e int64) int64 { return e - s })
	return w, s
}

//soac:fuse MapOutWriteBetween
func mapOutWriteBetweenSpec(xs []int64) ([]int64, int64) {
	x := soac.Map(xs, func(v int64) int64 { return v + 1 })
	s := soac.Reduce(x, 0, func(a, b int64) int64 { return a + b })
	if len(x) > 0 {
		x[0] = s
	}
	w := soac.Map(x, func(e int64) int64 { return e * 2 })
	return w, s
}

//soac:fuse MapOutPanics
func mapOutPanicsSpec(xs, ys []int64) ([]int64, int64) {
	x := soac.Map2(xs, ys, func(a, b int64) int64 { return a / b })
	s := soac.Reduce(x, 0, func(a, b int64) int64 { return a + b })
	w := soac.Map(x, func(e int64) int64 { return e / s })
	return w, s
}

//soac:fuse MapOutFloat
func mapOutFloatSpec(gs []float64) ([]float64, float64, float64) {
	x := soac.Map(gs, func(v float64) float64 { return v * v })
	s := soac.Reduce(x, 0, func(a, b float64) float64 { return a + b })
	m := soac.Reduce(x, 0, func(a, b float64) float64 { return max(a, b) })
	w := soac.Map(x, func(e float64) float64 { return e / s })
	return w, s, m
}

//soac:fuse RangeWriteBetween
func rangeWriteBetweenSpec(xs []int64) (int64, []int64) {
	x := soac.Map(xs, func(v int64) int64 { return 100 / v })
	scratch := make([]int64, len(xs))
	for i := range scratch {
		scratch[i] = int64(i)
	}
	return soac.Reduce(x, 0, func(a, b int64) int64 { return a + b }), scratch
}

//soac:fuse GuardedWriteBetween
func guardedWriteBetweenSpec(xs []int64, k int64) (int64, []int64) {
	x := soac.Map(xs, func(v int64) int64 { return 100 / v })
	scratch := make([]int64, 4)
	i := int(k)
	if i >= 0 && i < len(scratch) {
		scratch[i] = 1
	}
	return soac.Reduce(x, 0, func(a, b int64) int64 { return a + b }), scratch
}

//soac:fuse UnguardedWriteBetween
func unguardedWriteBetweenSpec(xs []int64) (int64, []int64) {
	x := soac.Map(xs, func(v int64) int64 { return 100 / v })
	scratch := make([]int64, 4)
	for i := range xs {
		scratch[i] = int64(i)
	}
	return soac.Reduce(x, 0, func(a, b int64) int64 { return a + b }), scratch
}

//soac:fuse LambdaLocal
func lambdaLocalSpec(xs, ys []int64) (int64, int64) {
	x := soac.Map(xs, func(v int64) int64 {
		buf := make([]int64, 2)
		buf[0] = v
		buf[1] = v * v
		return buf[0] + buf[1]
	})
	first := ys[0]
	return soac.Reduce(x, 0, func(a, b int64) int64 { return a + b }), first
}

//soac:fuse LambdaLocalOutOfRange
func lambdaLocalOutOfRangeSpec(xs, ys []int64) (int64, int64) {
	x := soac.Map(xs, func(v int64) int64 {
		buf := []int64{v, v}
		if v > 3 {
			return buf[v]
		}
		return buf[0]
	})
	first := ys[0]
	return soac.Reduce(x, 0, func(a, b int64) int64 { return a + b }), first
}

//soac:fuse LenVar
func lenVarSpec(xs []int64, k int64) ([]int64, []int64, []int64) {
	n := len(xs)
	a := soac.Map(xs, func(v int64) int64 { return v * 2 })
	b := soac.Map(soac.Iota(n), func(i int) int64 { return int64(i * i) })
	c := soac.Map2(xs, soac.Replicate(n, k), func(v, w int64) int64 { return v + w })
	return a, b, c
}

//soac:fuse LenVarChanged
func lenVarChangedSpec(xs []int64, k int64) ([]int64, []int64) {
	n := len(xs)
	n += int(k)
	a := soac.Map(xs, func(v int64) int64 { return v * 2 })
	b := soac.Map2(xs, soac.Replicate(n, k), func(v, w int64) int64 { return v + w })
	return a, b
}

//soac:fuse EffectsReduce
func effectsReduceSpec(xs, ys []int64) (int64, int64) {
	calls := int64(0)
	x := soac.Map(xs, func(v int64) int64 {
		calls++
		if len(ys) > 0 {
			ys[0] += v
		}
		return 10 / v
	})
	s := soac.Reduce(x, 0, func(a, b int64) int64 { return a + b })
	return s, calls
}

//soac:fuse EffectsReduceReads
func effectsReduceReadsSpec(xs []int64) (int64, int64) {
	calls := int64(0)
	x := soac.Map(xs, func(v int64) int64 {
		calls++
		return v
	})
	s := soac.Reduce(x, 0, func(a, b int64) int64 { return a + b + calls })
	return s, calls
}

//soac:fuse ScanScan
func scanScanSpec(xs []int64, gs []float64) ([]int64, []float64, []float64) {
	s := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	t := soac.Scan(s, 1, func(a, b int64) int64 { return a * b % 1000003 })
	f := soac.Scan(gs, 0, func(a, b float64) float64 { return a + b })
	g := soac.Scan(soac.Map(f, func(v float64) float64 { return v / 3 }), 0, func(a, b float64) float64 { return max(a, b) })
	return t, f, g
}

// NeutralPanics: with xs not empty and ys empty the spec panics in a's
// lambda (10 / 0) before it evaluates ys[0].
//
//soac:fuse NeutralPanics
func neutralPanicsSpec(xs, ys []int64) int64 {
	a := soac.Map(xs, func(v int64) int64 { return 10 / (v - v) })
	return soac.Reduce(a, ys[0], func(p, q int64) int64 { return p + q })
}

// TwoIotas: two maps over Iota(n) of one n.
//
//soac:fuse TwoIotas
func twoIotasSpec(xs []int64, k int64) ([]int64, []int64) {
	n := int(k) + len(xs)
	a := soac.Map(soac.Iota(n), func(i int) int64 { return int64(i) * k })
	b := soac.Map(soac.Iota(n), func(i int) int64 { return int64(i) + k })
	return a, b
}

// IotaReplicate: with n < 0 the spec panics in Iota, not in Replicate.
//
//soac:fuse IotaReplicate
func iotaReplicateSpec(k int64) ([]int64, []int64) {
	n := int(k)
	a := soac.Map(soac.Iota(n), func(i int) int64 { return int64(i) })
	b := soac.Map(soac.Replicate(n, k), func(v int64) int64 { return v * 2 })
	return a, b
}
