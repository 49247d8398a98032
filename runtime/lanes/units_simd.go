//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// The CPU's vector units, read once: archsimd reports AVX-512 only when
// all of F, CD, BW, DQ and VL are present.
var (
	hasAVX2   = archsimd.X86.AVX2()
	hasAVX512 = archsimd.X86.AVX512()
)
