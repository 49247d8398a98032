package matmul

// This file holds matmul over float32 matrices (the 4096² float32
// benchmark): half the bytes of the float64 form to move and, on GPUs,
// float32 arithmetic at full rate. One spec per backend, identical apart
// from their names. The opencl variant runs one work-item per element of
// the product, the inner product as a dot product whose operands the
// work-group loads through local memory in tiles; every element is still
// summed left to right, with each product rounded to float32 before its
// addition, as Go does.

import "github.com/soacgen/soacgen/runtime/soac"

// matMul32Spec is matMulSpec over float32: c[i][j] = Σ_k a[i][k]*bt[j][k],
// summed left to right.
//
// Its directives generate MatMul32 (cpu), MatMul32Par (parallel),
// MatMul32CL (opencl) and MatMul32Auto (auto).
//
//soac:fuse MatMul32
//soac:fuse MatMul32Par backend=parallel
//soac:fuse MatMul32CL backend=opencl
//soac:fuse MatMul32Auto backend=auto
func matMul32Spec(a, bt [][]float32) [][]float32 {
	return soac.Map(a, func(row []float32) []float32 {
		return soac.Map(bt, func(col []float32) float32 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float32) float32 { return x * y }),
				0,
				func(s, t float32) float32 { return s + t })
		})
	})
}
