package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/soacgen/soacgen/analyzer/fusion"
)

// Stats counts what fusion did, like Figure 18 of Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion]: how often each
// rule fired, how many passes over memory the unfused and the fused program
// make, and how many intermediate arrays are no longer materialised.
type Stats struct {
	// Rules counts rule firings, sorted by rule name; never nil.
	Rules []RuleCount `json:"rules"`
	// PassesBefore is the number of passes the unfused program makes (one
	// per SOAC, generators excepted); PassesAfter the number of kernels,
	// those of generators alone excepted likewise.
	PassesBefore int `json:"passesBefore"`
	PassesAfter  int `json:"passesAfter"`
	// IntermediatesRemoved counts arrays that are no longer materialised.
	IntermediatesRemoved int `json:"intermediatesRemoved"`
}

// PackageStats are the Stats of a package's generated functions, summed,
// with their number.
type PackageStats struct {
	// Specs counts the generated functions (Package.Functions): a spec
	// of several directives counts once per directive, as its plans do.
	Specs int `json:"specs"`
	Stats
}

// RuleCount is how often one fusion rule fired.
type RuleCount struct {
	Rule  string `json:"rule"`
	Count int    `json:"count"`
}

// SumStats adds up the engine's per-function statistics.
func SumStats(ss ...fusion.Stats) Stats {
	counts := map[string]int{}
	var out Stats
	for _, s := range ss {
		for rule, n := range s.Rules {
			counts[rule] += n
		}
		out.PassesBefore += s.PassesBefore
		out.PassesAfter += s.PassesAfter
		out.IntermediatesRemoved += s.IntermediatesRemoved
	}
	out.Rules = sortedCounts(counts)
	return out
}

// add returns the sum of s and t.
func (s Stats) add(t Stats) Stats {
	counts := map[string]int{}
	for _, rc := range s.Rules {
		counts[rc.Rule] += rc.Count
	}
	for _, rc := range t.Rules {
		counts[rc.Rule] += rc.Count
	}
	return Stats{
		Rules:                sortedCounts(counts),
		PassesBefore:         s.PassesBefore + t.PassesBefore,
		PassesAfter:          s.PassesAfter + t.PassesAfter,
		IntermediatesRemoved: s.IntermediatesRemoved + t.IntermediatesRemoved,
	}
}

func sortedCounts(counts map[string]int) []RuleCount {
	rcs := make([]RuleCount, 0, len(counts))
	for rule, n := range counts {
		if n != 0 {
			rcs = append(rcs, RuleCount{Rule: rule, Count: n})
		}
	}
	slices.SortFunc(rcs, func(a, b RuleCount) int { return cmp.Compare(a.Rule, b.Rule) })
	return rcs
}

// Count returns how often rule fired.
func (s Stats) Count(rule string) int {
	for _, rc := range s.Rules {
		if rc.Rule == rule {
			return rc.Count
		}
	}
	return 0
}

// WriteStats writes the statistics of the report's packages as a table in
// the manner of Figure 18 of [T2-fusion]: one column per package (and a
// "total" column when there are several), one row per fusion rule that
// fired anywhere (sorted by name), then the passes over memory before and
// after fusion and the intermediate arrays removed.
func WriteStats(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	cols := make([]PackageStats, 0, len(r.Packages)+1)
	header := []string{"fusion statistics"}
	var total PackageStats
	for _, p := range r.Packages {
		cols = append(cols, p.Stats)
		header = append(header, p.Path)
		total.Specs += p.Stats.Specs
		total.Stats = total.Stats.add(p.Stats.Stats)
	}
	if len(r.Packages) > 1 {
		cols = append(cols, total)
		header = append(header, "total")
	}
	row := func(name string, val func(PackageStats) int) {
		cells := []string{name}
		for _, c := range cols {
			cells = append(cells, strconv.Itoa(val(c)))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	row("specs", func(s PackageStats) int { return s.Specs })
	for _, rc := range total.Rules {
		row("rule "+rc.Rule, func(s PackageStats) int { return s.Count(rc.Rule) })
	}
	row("passes before", func(s PackageStats) int { return s.PassesBefore })
	row("passes after", func(s PackageStats) int { return s.PassesAfter })
	row("intermediates removed", func(s PackageStats) int { return s.IntermediatesRemoved })
	return tw.Flush()
}
