package fusion

// This file is the oracle that the tests and benchmarks compare ilp and
// wsp with: an exhaustive search of the legal clusterings of a function,
// and the check that the replay decides each group of a clustering alone
// (groupLocal), which the searches' group cuts rely on.
//
// It does NOT scale (the number of set partitions of n SOACs is the Bell
// number B(n), 115975 for n = 10); it gives up past a limit.

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Exhaustive enumerates every clustering of fn's SOACs in which each two
// SOACs of a group may share one (see problem.possible), replays each
// through the engine, and returns the least cost of the realised ones
// under each model separately (Robinson's and Bytes may come from
// different clusterings) and how many were realised. It gives up, with
// ok = false, when more than limit clusterings are candidates.
func Exhaustive(fn *ir.Function, opts Options, limit int) (best Cost, realised int, ok bool) {
	pr := newProblem(fn, opts)
	cands, ok := pr.candidates(limit, false)
	if !ok {
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

// GroupLocal replays every clustering of fn's SOACs (every set partition
// when all, else those whose pairs may share a group) and returns an
// error when the engine treats one group differently in two of them: the
// same SOACs as a group, split into different kernels (or realised in
// one and split in the other). ilp and wsp cut off every clustering
// holding a group that one replay split (replay.go's groupLocal); this
// checks that premise. It gives up, with checked = 0, past limit
// clusterings.
func GroupLocal(fn *ir.Function, opts Options, limit int, all bool) (checked int, err error) {
	pr := newProblem(fn, opts)
	if !pr.groupLocal() {
		return 0, nil
	}
	cands, ok := pr.candidates(limit, all)
	if !ok {
		return 0, nil
	}
	type seen struct {
		parts  string
		labels []int
	}
	outcome := map[string]seen{}
	for _, ls := range cands {
		plan, _ := pr.replay(ls, "exhaustive")
		got := pr.labelsOf(plan)
		for _, g := range membersOf(ls) {
			sub := make([]int, len(g))
			for k, i := range g {
				sub[k] = got[i]
			}
			key, parts := fmt.Sprint(g), fmt.Sprint(canonical(sub))
			if prev, ok := outcome[key]; !ok {
				outcome[key] = seen{parts, ls}
			} else if prev.parts != parts {
				return checked, fmt.Errorf("%s: group %s replays as parts %s in %s, as %s in %s", fn.Name, pr.groupNames(g), prev.parts, pr.clusteringNames(prev.labels), parts, pr.clusteringNames(ls))
			}
		}
		checked++
	}
	return checked, nil
}

// groupNames renders group g (node indices) by its SOACs' outputs.
func (pr *problem) groupNames(g []int) string {
	var ms []string
	for _, i := range g {
		if s := pr.nodes[i]; s.Out != nil {
			ms = append(ms, s.Out.Name)
		} else {
			ms = append(ms, fmt.Sprintf("%s#%d", s.Name, i))
		}
	}
	return "{" + strings.Join(ms, " ") + "}"
}

// clusteringNames renders canonical labels group by group.
func (pr *problem) clusteringNames(labels []int) string {
	var parts []string
	for _, g := range membersOf(labels) {
		parts = append(parts, pr.groupNames(g))
	}
	return strings.Join(parts, " ")
}

// candidates enumerates the clusterings of the problem's SOACs as
// canonical labels: every set partition when all, else those in which
// each two SOACs of a group are possible. ok is false past limit.
func (pr *problem) candidates(limit int, all bool) (cands [][]int, ok bool) {
	n := len(pr.nodes)
	labels := make([]int, n)
	var rec func(i, groups int) bool
	rec = func(i, groups int) bool {
		if i == n {
			cands = append(cands, append([]int(nil), labels...))
			return len(cands) <= limit
		}
	next:
		for g := 0; g <= groups; g++ {
			if !all {
				for j := 0; j < i; j++ {
					if labels[j] == g && !pr.possible[i][j] {
						continue next
					}
				}
			}
			labels[i] = g
			if !rec(i+1, max(groups, g+1)) {
				return false
			}
		}
		return true
	}
	return cands, rec(0, 0)
}
