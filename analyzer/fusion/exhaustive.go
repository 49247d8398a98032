package fusion

// This file is the oracle that the tests and benchmarks compare ilp and
// wsp with: an exhaustive search of the legal clusterings of a function.
//
// It does NOT scale (the number of set partitions of n SOACs is the Bell
// number B(n), 115975 for n = 10); it gives up past a limit.

import "github.com/soacgen/soacgen/analyzer/ir"

// Exhaustive enumerates every clustering of fn's SOACs in which each two
// SOACs of a group may share one (see problem.possible), replays each
// through the engine, and returns the least cost of the realised ones
// under each model separately (Robinson's and Bytes may come from
// different clusterings) and how many were realised. It gives up, with
// ok = false, when more than limit clusterings are candidates.
func Exhaustive(fn *ir.Function, opts Options, limit int) (best Cost, realised int, ok bool) {
	pr := newProblem(fn, opts)
	n := len(pr.nodes)
	labels := make([]int, n)
	var cands []([]int)
	var rec func(i, groups int) bool
	rec = func(i, groups int) bool {
		if i == n {
			cands = append(cands, append([]int(nil), labels...))
			return len(cands) <= limit
		}
	next:
		for g := 0; g <= groups; g++ {
			for j := 0; j < i; j++ {
				if labels[j] == g && !pr.possible[i][j] {
					continue next
				}
			}
			labels[i] = g
			if !rec(i+1, max(groups, g+1)) {
				return false
			}
		}
		return true
	}
	if !rec(0, 0) {
		return Cost{}, 0, false
	}
	best = Cost{Robinson: -1, Bytes: -1}
	for _, ls := range cands {
		if _, _, bad := pr.impossiblePair(ls); bad {
			continue
		}
		if _, ok := pr.replay(ls, "exhaustive"); !ok {
			continue
		}
		realised++
		c := pr.cost(ls)
		if best.Robinson < 0 || c.Robinson < best.Robinson {
			best.Robinson = c.Robinson
		}
		if best.Bytes < 0 || c.Bytes < best.Bytes {
			best.Bytes = c.Bytes
		}
	}
	return best, realised, true
}
