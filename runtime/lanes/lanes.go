// Package lanes says which vector unit generated vector kernels use in
// this process: the widest the CPU has, chosen once when the program
// starts, or none.
//
// soacgen writes a kernel's vector forms into a file that builds only with
// GOEXPERIMENT=simd on amd64 (x_soacsimd.go); a build without the
// experiment compiles the scalar stubs beside it (x_soacscalar.go), and
// this package's Width is then always Scalar. With the experiment, Width
// is AVX512 where the CPU has AVX-512 (F, CD, BW, DQ and VL), else AVX2
// where it has AVX2, else Scalar: CPUs without either, and GOAMD64=v1
// builds on them, keep running the scalar loops.
//
// The environment variable SOACGEN_SIMD narrows the choice for tests and
// comparisons: "off" (or "scalar") forces the scalar loops, "avx2" the
// 256-bit forms where the CPU has AVX2; any other value (or none) keeps
// the widest.
package lanes

import "os"

// The widths a generated kernel's vector forms come in, in bits.
const (
	// Scalar: no vector form runs; the scalar loop does all the work.
	Scalar = 0
	// AVX2: the 256-bit forms (4 lanes of 64 bits, 8 of 32).
	AVX2 = 256
	// AVX512: the 512-bit forms (8 lanes of 64 bits, 16 of 32).
	AVX512 = 512
)

// Width is the width of the vector forms generated kernels run: Scalar,
// AVX2 or AVX512. It is set once, before main runs, and never changes.
var Width = Choose(hasAVX2, hasAVX512, os.Getenv("SOACGEN_SIMD"))

// Choose returns the width to use on a CPU with the given units, narrowed
// by the SOACGEN_SIMD setting env (see the package doc).
func Choose(avx2, avx512 bool, env string) int {
	switch env {
	case "off", "scalar":
		return Scalar
	case "avx2":
		if avx2 {
			return AVX2
		}
		return Scalar
	}
	switch {
	case avx512:
		return AVX512
	case avx2:
		return AVX2
	}
	return Scalar
}
