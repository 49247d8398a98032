package notours

// Inc2 is written by hand.
func Inc2(xs []int) []int { return inc2Spec(xs) }
