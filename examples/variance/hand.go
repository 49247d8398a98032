package variance

// meanVarHand is meanVarSpec as one loop with two accumulators.
// float64(x*x) rounds the square before the addition, as the spec's array
// of moments does, so that Go cannot fuse them into an FMA (arm64,
// GOAMD64=v3) and change the result.
func meanVarHand(xs []float64) (mean, variance float64) {
	sum, sumSq := 0.0, 0.0
	for _, x := range xs {
		sum += x
		sumSq += float64(x * x)
	}
	n := float64(len(xs))
	mean = sum / n
	return mean, sumSq/n - mean*mean
}
