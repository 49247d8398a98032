package sumsqpos

// sumSqPosHand is sumSqPosSpec as one loop with one accumulator. float64(x*x)
// keeps the square rounded before the addition, as in the spec (no FMA).
func sumSqPosHand(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		if x > 0 {
			sum += float64(x * x)
		}
	}
	return sum
}

// ordersTotalHand is ordersTotalSpec as one loop with a branch.
// float64(o.Price * o.Qty) keeps the product rounded before the addition,
// as in the spec (no FMA).
func ordersTotalHand(os []Order) float64 {
	sum := 0.0
	for _, o := range os {
		if o.Status == Shipped {
			sum += float64(o.Price * o.Qty)
		}
	}
	return sum
}
