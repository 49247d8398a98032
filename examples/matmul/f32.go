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
//soac:fuse MatMul32
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

// matMul32CLSpec is matMul32Spec for the opencl backend.
//
//soac:fuse MatMul32CL backend=opencl
func matMul32CLSpec(a, bt [][]float32) [][]float32 {
	return soac.Map(a, func(row []float32) []float32 {
		return soac.Map(bt, func(col []float32) float32 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float32) float32 { return x * y }),
				0,
				func(s, t float32) float32 { return s + t })
		})
	})
}

// matMul32ParSpec is matMul32Spec for the parallel backend.
//
//soac:fuse MatMul32Par backend=parallel
func matMul32ParSpec(a, bt [][]float32) [][]float32 {
	return soac.Map(a, func(row []float32) []float32 {
		return soac.Map(bt, func(col []float32) float32 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float32) float32 { return x * y }),
				0,
				func(s, t float32) float32 { return s + t })
		})
	})
}

// matMul32AutoSpec is matMul32Spec for backend=auto.
//
//soac:fuse MatMul32Auto backend=auto
func matMul32AutoSpec(a, bt [][]float32) [][]float32 {
	return soac.Map(a, func(row []float32) []float32 {
		return soac.Map(bt, func(col []float32) float32 {
			return soac.Reduce(
				soac.Map2(row, col, func(x, y float32) float32 { return x * y }),
				0,
				func(s, t float32) float32 { return s + t })
		})
	})
}
