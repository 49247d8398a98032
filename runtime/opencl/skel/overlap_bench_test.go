package skel

import (
	"fmt"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// BenchmarkOverlap runs map-reduces over host data end to end (upload,
// kernel, download), uncut and cut into pieces whose transfers overlap
// the kernel (overlap.go), from Go memory (pageable: staged) and from
// package pinned's memory (direct transfers). Kernels: "map", y = x*x+1
// (4 bytes up and 4 down per element: transfer-bound); "sumsq", a
// reduction (4 bytes up); "poly", y = a degree-64 polynomial of x by
// Horner (the same bytes as map, ~128 flops per element: a kernel of
// the order of its transfers on a GPU). Each case reports the device
// time per call of the uploads (up-ms), kernels (kernel-ms) and
// downloads (down-ms), the wall time (ns/op; wall-ms), and pct-of-link:
// the time the link needs for the call's bytes, max(up bytes / link up,
// down bytes / link down) with the link of BenchmarkLink measured in the
// same process (the two directions run at once on a full-duplex link),
// over the wall time. Without overlap the best is about
// up/(up+kernel+down); with it, up to 100%. cut-16M-x32 is the GPU's
// default (SetPieces(PieceBytes, MaxPieces)); the others vary the most
// pieces (x8, x64) and the least bytes of a piece's transfer (4M with
// up to 256 pieces): at n = 2^28 (1 GiB an array) they give 8, 32, 64
// and 256 pieces.
func BenchmarkOverlap(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	x := benchInput(n)
	xp, freeX := pinned.MakeOn[float32](d, n)
	defer freeX()
	yp, freeY := pinned.MakeOn[float32](d, n)
	defer freeY()
	copy(xp, x)
	y := make([]float32, n)
	poly := "float p = 1.0f;\nfor (int j = 0; j < 64; j++) { p = p * x + 0.5f; }\ny = p;"
	kernels := []struct {
		name string
		spec Redomap
	}{
		{"map", Redomap{Name: "ovmap", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}}, Body: "y = x * x + 1.0f;"}},
		{"sumsq", Redomap{Name: "ovsumsq", Inputs: []Param{{"x", Float32}}, Body: "s = x * x;",
			Reductions: []Reduction{{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}}},
		{"poly", Redomap{Name: "ovpoly", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}}, Body: poly}},
	}
	for _, kc := range kernels {
		k, err := kc.spec.Build(d)
		if err != nil {
			b.Fatal(err)
		}
		for _, mem := range []string{"pageable", "pinned"} {
			in, out := x, y
			if mem == "pinned" {
				in, out = xp, yp
			}
			for _, cut := range []struct{ bytes, most int }{{0, 0}, {PieceBytes, 8}, {PieceBytes, MaxPieces}, {PieceBytes, 64}, {4 << 20, 256}} {
				name := "uncut"
				if cut.bytes > 0 {
					name = fmt.Sprintf("cut-%dM-x%d", cut.bytes>>20, cut.most)
				}
				b.Run(kc.name+"/"+mem+"/"+name, func(b *testing.B) {
					defer SetPieces(cut.bytes, cut.most)()
					linkUp, linkDown := measureLink(b, d)
					var outs, res []HostSlice
					var s [1]float32
					if len(kc.spec.Outputs) > 0 {
						outs = []HostSlice{Slice(out)}
					} else {
						res = []HostSlice{Slice(s[:])}
					}
					call := func() (Timing, error) { return k.Run([]HostSlice{Slice(in)}, outs, res) }
					if _, err := call(); err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					var sum Timing
					for range b.N {
						t, err := call()
						if err != nil {
							b.Fatal(err)
						}
						sum.Up += t.Up
						sum.Down += t.Down
						sum.Kernel += t.Kernel
					}
					b.StopTimer()
					per := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / float64(b.N) / 1e6 }
					b.ReportMetric(per(sum.Up), "up-ms")
					b.ReportMetric(per(sum.Kernel), "kernel-ms")
					b.ReportMetric(per(sum.Down), "down-ms")
					wall := per(b.Elapsed())
					b.ReportMetric(wall, "wall-ms")
					need := float64(4*n) / linkUp // ns
					if len(outs) > 0 {
						need = max(need, float64(4*n)/linkDown)
					}
					b.ReportMetric(100*need/1e6/wall, "pct-of-link")
				})
			}
		}
	}
}

// BenchmarkPieceCost runs the map of BenchmarkOverlap over 2^20 float32s
// (4 MiB each way) uncut and cut into 64 pieces: the difference over 63
// is what one piece adds (a launch, two transfers, events, flushes), the
// figure behind PieceBytes.
func BenchmarkPieceCost(b *testing.B) {
	d := benchDevice(b)
	n := 1 << 20
	x := benchInput(n)
	y := make([]float32, n)
	k, err := Redomap{Name: "ovmap", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}}, Body: "y = x * x + 1.0f;"}.Build(d)
	if err != nil {
		b.Fatal(err)
	}
	for _, pieces := range []int{1, 64} {
		b.Run(fmt.Sprintf("pieces-%d", pieces), func(b *testing.B) {
			defer SetPieces(4*n/pieces*map[bool]int{false: 0, true: 1}[pieces > 1], pieces)()
			runE2E(b, func() error {
				_, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, nil)
				return err
			}, int64(8*n))
		})
	}
}
