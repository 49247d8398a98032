package kmeans

// clusterSizesHand is clusterSizesSpec as one loop into one counts slice.
func clusterSizesHand(ps []Point, centres []Point) []int {
	counts := make([]int, len(centres))
	for _, p := range ps {
		counts[nearest(p, centres)]++
	}
	return counts
}
