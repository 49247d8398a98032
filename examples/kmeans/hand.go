package kmeans

// clusterSizesHand is clusterSizesSpec as one loop into one counts slice.
func clusterSizesHand(ps []Point, centres []Point) []int {
	counts := make([]int, len(centres))
	for _, p := range ps {
		counts[nearest(p, centres)]++
	}
	return counts
}

// kmeansSums is one round's per-centre sums of ps, as one loop.
func kmeansSums(ps []Point, centres []Point) []Sum {
	acc := make([]Sum, len(centres))
	for _, p := range ps {
		i := nearest(p, centres)
		acc[i].X += p.X
		acc[i].Y += p.Y
		acc[i].N++
	}
	return acc
}

// kmeansHand is kmeansSpec as a Go programmer writes it: each round's
// sums by sums(ps, centres) (one loop, or one per goroutine added in
// order), then the means.
func kmeansHand(ps []Point, centres []Point, iters int, sums func(ps, centres []Point) []Sum) []Point {
	for range iters {
		acc := sums(ps, centres)
		next := make([]Point, len(centres))
		for i, s := range acc {
			if s.N == 0 {
				next[i] = centres[i]
				continue
			}
			n := float64(s.N)
			next[i] = Point{s.X / n, s.Y / n}
		}
		centres = next
	}
	return centres
}
