// Regression spec (random, seed 710007, spec7): a5 := a4 is assigned by
// a closure and then by a Map whose only reader, a Filter, fuses with it;
// the Map's result is still written to a5 (the closure may read it), so
// the generated code assigned a5 and read it nowhere, which Go rejects
// ("declared and not used").

package unreadvar

import "github.com/soacgen/soacgen/runtime/soac"

func op4(a, b int64) int64 {
	return a + b
}

func h11(p0 int64) int64 {
	return ((p0 % 7) + (p0 | p0))
}

func op12(a, b int64) int64 {
	return a ^ b
}

// unreadVarSpec has shapes reassign-read, closure-assign, double-buffer.
//
//soac:fuse UnreadVar
func unreadVarSpec(xs []int64, ys []int64, fs []float64, k int64, c float64) (int64, int64, int64, []int, int64, int64, []int64, []int64, int64, []int64) {
	n1 := len(fs)
	a2 := soac.Replicate(n1, int64(k))
	a3 := soac.Map(ys, func(x int64) int64 {
		var out []int64
		out = append(out, ((k / 3) >> 1), max((k&x), (k+x)))
		if len(out) > 1 {
			out[1] = out[0] - out[1]
		}
		return out[1]
	})
	a4 := soac.Map(a3, h11)
	a5 := a4
	a6 := soac.Map(a4, func(x int64) int64 { return k })
	s7 := soac.Reduce(a6, 0, op12)
	s8 := int64(-2)
	upd9 := func() { a5 = a6 }
	s7 = soac.Reduce(soac.Map(a4, func(v int64) int64 { return v*2 - s7 + (max(k, s7)) }), 1, func(a, b int64) int64 { return a * b })
	upd9()
	a5 = soac.Map(a6, func(x int64) int64 { return x })
	a10 := soac.Filter(a5, func(x int64) bool { return ((x^k)^(2&x))%3 == 0 })
	cnt11 := int64(0)
	s13 := soac.Reduce(soac.Map(a4, func(x int64) int64 { cnt11++; return max(4, 8) }), -1, func(a, b int64) int64 { return a & b })
	a14 := soac.Iota(len(a10))
	cnt15 := int64(0)
	s17 := soac.Reduce(soac.Map(a4, func(x int64) int64 { cnt15++; return (k + (x - s7)) }), 0, op4)
	a18 := soac.Scan(a2, 0, func(a, b int64) int64 { return a + b })
	a19 := soac.Map(a18, func(x int64) int64 { return s7 })
	s20 := soac.Reduce(a18, 0, func(a, b int64) int64 { return a | b })
	a18, a19 = a19, soac.Map(a18, h11)
	a21 := soac.Map(soac.Iota(len(a6)), func(i int) int64 {
		if i%2 == 0 {
			return a6[i]
		}
		e := a6[i] * 2
		_ = e
		return (-3)
	})
	return s8, cnt11, s13, a14, cnt15, s17, a18, a19, s20, a21
}
