package parallel

// This file holds the carry of a kernel whose chunks need one before
// their members run (carried.go, and the members of a StreamMap's chunks:
// then.go): the spaces whose kept counts are carried (countedSpaces,
// sortedSpaces), the levels of the carries (carryLevels), the carry
// struct (carryShape: its fields, the combine of two chunks' totals, and
// a chunk's pass 2 starting from its carry and returning the next), the
// counts of a chunk's spaces (spaceCounts), and a loop's accumulators
// split into folds and scans (splitAccs).

import (
	"fmt"
	"go/token"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// countedSpaces returns the spaces of lk whose kept elements are stored:
// their counts are carried from chunk to chunk.
func countedSpaces(lk *lowered.Kernel) map[int]bool {
	counted := map[int]bool{}
	for _, m := range lk.Members {
		if m.Store == lowered.AtCount || m.Store == lowered.Appended {
			counted[storeSpace(m)] = true
		}
	}
	return counted
}

// sortedSpaces returns the spaces of counted in increasing order, the
// order of their counts' fields in the carry.
func sortedSpaces(counted map[int]bool) []int {
	spaces := make([]int, 0, len(counted))
	for s := range counted {
		spaces = append(spaces, s)
	}
	sort.Ints(spaces)
	return spaces
}

// carryLevels returns the level of each scan and counted space of lk:
// 0 when the members its chunk totals depend on (its inputs' producers
// and the filters of its space, transitively: deps) read no scan's
// elements, else one more than the highest level of the scans they
// read, whose carries its totals need first; and the number of levels.
func carryLevels(lk *lowered.Kernel, counted map[int]bool) (scanLevel map[*ir.SOAC]int, spaceLevel map[int]int, levels int) {
	scanLevel, spaceLevel = map[*ir.SOAC]int{}, map[int]int{}
	var level func(i int) int
	// above is one more than the highest level of the scans that the
	// members deps(i) holds, besides i itself, are.
	above := func(i int) int {
		lv := 0
		for j, in := range deps(lk, []int{i}) {
			if in && j != i && lk.Members[j].Role == lowered.Scan {
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
		if m.Role == lowered.Scan {
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

// carryShape is the carry of a kernel's chunks: the scans' accumulators
// (fields s0, s1, ...) and the kept counts of the counted spaces (fields
// k0, k1, ..., spaces in increasing order), with each one's level
// (carryLevels); a kernel of one level may leave the level maps nil.
type carryShape struct {
	scans      []hostgo.LoopAcc
	spaces     []int
	scanLevel  map[*ir.SOAC]int
	spaceLevel map[int]int
}

// fields returns the carry struct's fields, one a line, the values it
// starts from (the scans' neutral elements, counts 0), and whether every
// scan's type is exactly associative.
func (cs carryShape) fields() (fields, startVals []jen.Code, exact bool) {
	exact = true
	for i, a := range cs.scans {
		fields = append(fields, jen.Id(sField(i)).Add(a.Type))
		startVals = append(startVals, a.Neutral)
		exact = exact && exactType(a.Member.Out.Type)
	}
	for i := range cs.spaces {
		fields = append(fields, jen.Id(kField(i)).Int())
		startVals = append(startVals, hostgo.Lit(0))
	}
	return fields, startVals, exact
}

// combine returns the field-wise combine of two totals x and y of the
// fields of level l into x: each scan's operator, each count's sum.
func (cs carryShape) combine(f *hostgo.Func, x, y string, l int, at token.Pos) (hostgo.Stmts, string) {
	var c hostgo.Stmts
	for i, a := range cs.scans {
		if cs.scanLevel[a.Member] != l {
			continue
		}
		fx := jen.Id(x).Dot(sField(i))
		if why := f.Apply(&c, a.Op, []jen.Code{fx, jen.Id(y).Dot(sField(i))}, fx, at); why != "" {
			return nil, why
		}
	}
	for i, sp := range cs.spaces {
		if cs.spaceLevel[sp] == l {
			c.Add(jen.Id(x).Dot(kField(i)).Op("+=").Id(y).Dot(kField(i)))
		}
	}
	return c, ""
}

// combineFunc returns the combine of two totals of a carry of one level,
// typ: func(x, y typ) typ.
func (cs carryShape) combineFunc(f *hostgo.Func, x, y string, typ *jen.Statement, at token.Pos) (*jen.Statement, string) {
	body, why := cs.combine(f, x, y, 0, at)
	if why != "" {
		return nil, why
	}
	body.Add(jen.Return(hostgo.Id(x)))
	return jen.Func().Params(hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(body)), ""
}

// set returns the assignments of the fields of level l from y to x.
func (cs carryShape) set(x, y string, l int) hostgo.Stmts {
	var set hostgo.Stmts
	for i, a := range cs.scans {
		if cs.scanLevel[a.Member] == l {
			set.Add(jen.Id(x).Dot(sField(i)).Op("=").Id(y).Dot(sField(i)))
		}
	}
	for i, sp := range cs.spaces {
		if cs.spaceLevel[sp] == l {
			set.Add(jen.Id(x).Dot(kField(i)).Op("=").Id(y).Dot(kField(i)))
		}
	}
	return set
}

// fromCarry returns the start of a chunk's pass 2 over [lo, ...): the
// scans' accumulators from the carry value named carry, the folds' from
// their starts (chunkStart; lk is the folds' kernel), and the kept
// counts (counts) from the carry.
func (cs carryShape) fromCarry(f *hostgo.Func, lk *lowered.Kernel, folds []hostgo.LoopAcc, counts *spaceCounts, carry, lo string) hostgo.Stmts {
	var p2 hostgo.Stmts
	for i, a := range cs.scans {
		p2.Add(hostgo.VarDecl(a.Name, a.Type, jen.Id(carry).Dot(sField(i))))
	}
	for _, a := range folds {
		p2.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
	}
	p2.Add(counts.setFrom(cs.spaces, carry, true)...)
	return p2
}

// end returns the return of a chunk's pass 2: the carry after the chunk
// (a value of typ: the scans' accumulators, the kept counts) and ret,
// the folds' partials.
func (cs carryShape) end(counts *spaceCounts, typ, ret *jen.Statement) jen.Code {
	var ends []jen.Code
	for _, a := range cs.scans {
		ends = append(ends, hostgo.Id(a.Name))
	}
	for _, s := range cs.spaces {
		ends = append(ends, counts.count(s))
	}
	return jen.Return(jen.Add(typ).Values(ends...), ret)
}

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
func newSpaceCounts(members []lowered.Member, stores []hostgo.LoopStore) *spaceCounts {
	c := &spaceCounts{spaceOf: map[*ir.Var]int{}, countVar: map[int]string{}, countOut: map[int]string{}, stores: stores}
	for _, m := range members {
		if m.Store == lowered.AtCount || m.Store == lowered.Appended {
			c.spaceOf[m.SOAC.Out] = storeSpace(m)
		}
	}
	for _, s := range stores {
		if sp, ok := c.spaceOf[s.V]; ok {
			if s.How == lowered.AtCount {
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
			if s, ok := c.spaceOf[st.V]; ok && s == sp && st.How == lowered.Appended {
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
		if a.Role == lowered.Scan {
			scans = append(scans, a)
		} else {
			folds = append(folds, a)
		}
	}
	return folds, scans
}
