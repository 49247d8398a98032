package parallel

// BenchmarkNestedAccum measures what nestedMinLen (nested.go) is
// chosen from: the time of an inner product of n float64s, the data in
// L1, as the plain loop (one accumulator: the cpu backend's, the spec's
// order) and as the split loop (4 accumulators, the unrolled loop and
// the pairwise combine), for n around the threshold and a few larger.
// Both mirror the generated code's shape (parnested's golden): products
// and sums rounded by conversions, inputs resliced to n. Compare the two
// within one run (-count 5, medians).

import (
	"fmt"
	"testing"
)

// dotPlain is the plain nested loop.
//
//go:noinline
func dotPlain(x, y []float64) float64 {
	n := len(x)
	in, in2 := x[:n], y[:n]
	var acc float64
	for i := 0; i < n; i++ {
		m := float64(in[i] * in2[i])
		acc = float64(acc + m)
	}
	return acc
}

// dotSplit is the split nested loop.
//
//go:noinline
func dotSplit(x, y []float64) float64 {
	n := len(x)
	in, in2 := x[:n], y[:n]
	var acc, acc2, acc3, acc4 float64
	i := 0
	for ; i < n-3; i += 4 {
		i1 := i
		acc = float64(acc + float64(in[i1]*in2[i1]))
		i2 := i + 1
		acc2 = float64(acc2 + float64(in[i2]*in2[i2]))
		i3 := i + 2
		acc3 = float64(acc3 + float64(in[i3]*in2[i3]))
		i4 := i + 3
		acc4 = float64(acc4 + float64(in[i4]*in2[i4]))
	}
	for j := i; j < n; j++ {
		acc = float64(acc + float64(in[j]*in2[j]))
	}
	acc = float64(acc + acc2)
	acc3 = float64(acc3 + acc4)
	return float64(acc + acc3)
}

func BenchmarkNestedAccum(b *testing.B) {
	const rows = 64
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32, 64, 300, 512} {
		xs, ys := make([][]float64, rows), make([][]float64, rows)
		for r := range xs {
			xs[r], ys[r] = make([]float64, n), make([]float64, n)
			for i := range n {
				xs[r][i], ys[r][i] = float64(i+r)/7, 1/float64(i+r+1)
			}
		}
		for _, v := range []struct {
			name string
			dot  func(x, y []float64) float64
		}{{"plain", dotPlain}, {"split", dotSplit}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, v.name), func(b *testing.B) {
				s := 0.0
				for b.Loop() {
					s += dots(xs, ys, v.dot)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/dot")
				_ = s
			})
		}
	}
}

// dots sums dot over the rows of xs and ys, each row against the next
// (a function, not a loop inside b.Loop, which Go compiles worse).
//
//go:noinline
func dots(xs, ys [][]float64, dot func(x, y []float64) float64) float64 {
	s := 0.0
	for r := range xs {
		s += dot(xs[r], ys[(r+1)%len(ys)])
	}
	return s
}
