package blackscholes

// callPricesHand is callPricesSpec as a loop into a preallocated slice.
func callPricesHand(opts []Option) []float64 {
	out := make([]float64, len(opts))
	for i, o := range opts {
		out[i] = callPrice(o)
	}
	return out
}

// portfolioValueHand sums the prices in one loop, left to right from 0 as
// soac.Reduce does. The conversion float64(...) keeps the price rounded
// before it is added, as it is when the spec stores it in its array: without
// it, Go may fuse the price's last multiply-subtract with the addition into
// one FMA on platforms that have one (arm64, GOAMD64=v3), and the sum would
// differ from the spec's in its last bits.
func portfolioValueHand(opts []Option) float64 {
	sum := 0.0
	for _, o := range opts {
		sum += float64(callPrice(o))
	}
	return sum
}
