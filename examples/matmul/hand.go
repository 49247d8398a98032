package matmul

import "github.com/soacgen/soacgen/runtime/soac"

// matMulHand is matMulSpec as three loops: the result rows share one backing
// array (each row capped so that appending to one cannot overwrite the
// next), the inner product is one loop with one accumulator, and unequal row
// lengths panic as soac.Map2 does. float64(x*y) rounds each product before
// the addition, as the spec's array does, so that Go cannot form an FMA
// (arm64, GOAMD64=v3) that would change the result.
func matMulHand(a, bt [][]float64) [][]float64 {
	m := len(bt)
	c := make([][]float64, len(a))
	back := make([]float64, len(a)*m)
	for i, row := range a {
		ci := back[i*m : (i+1)*m : (i+1)*m]
		for j, col := range bt {
			if len(row) != len(col) {
				panic(soac.LengthError("Map2", len(row), len(col)))
			}
			sum := 0.0
			for k, x := range row {
				sum += float64(x * col[k])
			}
			ci[j] = sum
		}
		c[i] = ci
	}
	return c
}
