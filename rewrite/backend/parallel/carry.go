package parallel

// This file holds the carry of a kernel whose chunks need one before
// their members run (carried.go, and the members of a StreamMap's chunks:
// parthen.go): the spaces whose kept counts are carried (countedSpaces),
// the levels of the carries (carryLevels), the fields of the carry struct
// (sField, kField), the counts of a chunk's spaces (spaceCounts), and a
// loop's accumulators split into folds and scans (splitAccs).

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// countedSpaces returns the spaces of lk whose kept elements are stored:
// their counts are carried from chunk to chunk.
func countedSpaces(lk *lower.Kernel) map[int]bool {
	counted := map[int]bool{}
	for _, m := range lk.Members {
		if m.Store == lower.AtCount || m.Store == lower.Appended {
			counted[storeSpace(m)] = true
		}
	}
	return counted
}

// carryLevels returns the level of each scan and counted space of lk:
// 0 when the members its chunk totals depend on (its inputs' producers
// and the filters of its space, transitively: deps) read no scan's
// elements, else one more than the highest level of the scans they
// read, whose carries its totals need first; and the number of levels.
func carryLevels(lk *lower.Kernel, counted map[int]bool) (scanLevel map[*ir.SOAC]int, spaceLevel map[int]int, levels int) {
	scanLevel, spaceLevel = map[*ir.SOAC]int{}, map[int]int{}
	var level func(i int) int
	// above is one more than the highest level of the scans that the
	// members deps(i) holds, besides i itself, are.
	above := func(i int) int {
		lv := 0
		for j, in := range deps(lk, []int{i}) {
			if in && j != i && lk.Members[j].Role == lower.Scan {
				lv = max(lv, level(j)+1)
			}
		}
		return lv
	}
	level = func(i int) int {
		s := lk.Members[i].SOAC
		if lv, ok := scanLevel[s]; ok {
			return lv
		}
		lv := above(i)
		scanLevel[s] = lv
		return lv
	}
	for i, m := range lk.Members {
		if m.Role == lower.Scan {
			levels = max(levels, level(i)+1)
		}
	}
	for sp := range counted {
		lv := above(lk.Spaces[sp].Filter)
		spaceLevel[sp] = lv
		levels = max(levels, lv+1)
	}
	return scanLevel, spaceLevel, levels
}

// sField and kField name the fields of a carry: the scans' accumulators
// s0, s1, ... and the counted spaces' kept counts k0, k1, ....
func sField(i int) string { return fmt.Sprintf("s%d", i) }
func kField(i int) string { return fmt.Sprintf("k%d", i) }

// spaceCounts are the counts of a loop's counted spaces (by storeSpace):
// a select's count variable (its outputs stored at the count), or the
// length of the first output that appends to it.
type spaceCounts struct {
	spaceOf            map[*ir.Var]int
	countVar, countOut map[int]string
	stores             []hostgo.LoopStore
}

// newSpaceCounts returns the counts of members' spaces in the loop whose
// stores are stores.
func newSpaceCounts(members []lower.Member, stores []hostgo.LoopStore) *spaceCounts {
	c := &spaceCounts{spaceOf: map[*ir.Var]int{}, countVar: map[int]string{}, countOut: map[int]string{}, stores: stores}
	for _, m := range members {
		if m.Store == lower.AtCount || m.Store == lower.Appended {
			c.spaceOf[m.SOAC.Out] = storeSpace(m)
		}
	}
	for _, s := range stores {
		if sp, ok := c.spaceOf[s.V]; ok {
			if s.How == lower.AtCount {
				c.countVar[sp] = s.Count
			} else if c.countOut[sp] == "" {
				c.countOut[sp] = s.Local
			}
		}
	}
	return c
}

// count is space sp's count.
func (c *spaceCounts) count(sp int) jen.Code {
	if v := c.countVar[sp]; v != "" {
		return hostgo.Id(v)
	}
	return jen.Len(hostgo.Id(c.countOut[sp]))
}

// setFrom returns the statements that take the counts of spaces (the
// i-th from field kField(i) of the carry value from): each select's
// count variable, and each output appending to the space cut to it;
// define declares them (a chunk's own), else they are assigned.
func (c *spaceCounts) setFrom(spaces []int, from string, define bool) hostgo.Stmts {
	set := hostgo.AssignTo
	if define {
		set = hostgo.Define
	}
	var out hostgo.Stmts
	for i, sp := range spaces {
		k := jen.Id(from).Dot(kField(i))
		if v := c.countVar[sp]; v != "" {
			out.Add(set(v, k))
		}
		for _, st := range c.stores {
			if s, ok := c.spaceOf[st.V]; ok && s == sp && st.How == lower.Appended {
				out.Add(set(st.Local, jen.Id(st.Local).Index(jen.Empty(), k)))
			}
		}
	}
	return out
}

// splitAccs returns a loop's accumulators of folds and of scans, each in
// declaration order.
func splitAccs(accs []hostgo.LoopAcc) (folds, scans []hostgo.LoopAcc) {
	for _, a := range accs {
		if a.Role == lower.Scan {
			scans = append(scans, a)
		} else {
			folds = append(folds, a)
		}
	}
	return folds, scans
}
