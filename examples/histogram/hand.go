package histogram

// histogramHand is histogramSpec as one loop into one bins slice.
func histogramHand(xs []float64, lo, hi float64, nbins int) []int {
	bins := make([]int, nbins)
	for _, x := range xs {
		bins[bin(x, lo, hi, nbins)]++
	}
	return bins
}
