package normalize2

// normalize2Hand is normalize2Spec as a Go programmer writes it by hand: one
// pass for both sums (each a left fold from 0, as soac.Reduce, so the results
// are bit-identical), one pass for both outputs.
func normalize2Hand(xs []float64) (ys1, ys2 []float64) {
	sum1, sum2 := 0.0, 0.0
	for _, x := range xs {
		sum1 += x
		if x > 0 {
			sum2 += x
		}
	}
	ys1 = make([]float64, len(xs))
	ys2 = make([]float64, len(xs))
	for i, x := range xs {
		ys1[i] = x / sum1
		ys2[i] = x / sum2
	}
	return ys1, ys2
}
