package sumsq

// sumSqHand is sumSqSpec as one loop with one accumulator. float64(x*x)
// rounds the square before the addition, as the spec's array does, so that
// Go cannot fuse them into an FMA (arm64, GOAMD64=v3) and change the result.
func sumSqHand(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += float64(x * x)
	}
	return sum
}
