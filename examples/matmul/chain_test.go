package matmul

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestMatMulChainCL compares the two products, run on the device with
// the first kept there, with the spec, bit for bit: nothing but the
// result is downloaded. With launch.KeepOnDevice false (the round
// trip) the results are the same and the first product is downloaded
// too.
func TestMatMulChainCL(t *testing.T) {
	cltest.Require(t, soacgenCLMatMulChainCL, soacgenCLMatMulChainCL2)
	for _, s := range append(shapes, [3]int{130, 70, 33}) {
		r := extest.Rand(17, s[0]*s[1]*s[2]+s[0])
		a, bt, c := randMatrix(r, s[0], s[2]), randMatrix(r, s[1], s[2]), randMatrix(r, s[0]+1, s[1])
		want := matMulChainCLSpec(a, bt, c)
		for _, keep := range []bool{true, false} {
			launch.KeepOnDevice = keep
			u0, d0 := launch.Transfers()
			got := MatMulChainCL(a, bt, c)
			u1, d1 := launch.Transfers()
			launch.KeepOnDevice = true
			if d := diff(got, want); d != "" {
				t.Errorf("%v kept %v: %s", s, keep, d)
			}
			// Downloads: the result, and p unless kept (empty grids run
			// on the CPU).
			var wantDown int64
			if s[0] > 0 {
				wantDown++
			}
			if !keep && s[0]*s[1] > 0 {
				wantDown++
			}
			if u1 != u0 || d1-d0 != wantDown {
				t.Errorf("%v kept %v: %d uploads, %d downloads; want 0, %d", s, keep, u1-u0, d1-d0, wantDown)
			}
		}
	}
}

// BenchmarkMatMulChainCL measures what keeping the first product on the
// device saves, in one run: "kept" against "roundtrip"
// (launch.KeepOnDevice false: p downloaded and uploaded again), square
// matrices of side SOACGEN_BENCH_SIDE (default 256).
func BenchmarkMatMulChainCL(b *testing.B) {
	side := 256
	if s := os.Getenv("SOACGEN_BENCH_SIDE"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			side = v
		}
	}
	r := extest.Rand(18, side)
	a, bt, c := randMatrix(r, side, side), randMatrix(r, side, side), randMatrix(r, side, side)
	for _, keep := range []bool{true, false} {
		b.Run(fmt.Sprintf("side=%d/%s", side, map[bool]string{true: "kept", false: "roundtrip"}[keep]), func(b *testing.B) {
			if soacgenCLMatMulChainCL.Kernel() == nil || soacgenCLMatMulChainCL2.Kernel() == nil {
				b.Skip("no usable OpenCL device")
			}
			launch.KeepOnDevice = keep
			defer func() { launch.KeepOnDevice = true }()
			MatMulChainCL(a, bt, c) // builds the programs
			b.ReportAllocs()
			b.SetBytes(int64(2 * 8 * side * side * side))
			for b.Loop() {
				MatMulChainCL(a, bt, c)
			}
		})
	}
}
