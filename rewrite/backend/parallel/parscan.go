package parallel

// This file renders the kernels whose chunks need a carry before their
// members can run (carried: a scan whose elements another member reads,
// a scan beside a fold or an output of kept elements, several scans, a
// scan of a filter's kept elements, several outputs of kept elements) as
// a call of runtime/parallel's Carried, a two-pass chunked loop:
//
//   - pass 1 (total) runs over a chunk only the members the scans and the
//     kept counts depend on (a copy of the lowered kernel cut to them,
//     storing nothing) and returns the scans' accumulators, folded from
//     their neutral elements, and the kept counts, as a struct;
//   - the runtime combines those totals in chunk order into each chunk's
//     carry;
//   - pass 2 (body) runs the whole fused loop over the chunk with its
//     scans continuing from their carried accumulators and its kept
//     elements appended from their carried counts, so that every member
//     reads final scan values and every output is written in place, and
//     returns the state after the chunk and its folds' partials.
//
// It also holds where the chunks of every kernel start a fold or scan
// whose start is not provably its operator's neutral element
// (lower.Member.StartNotNeutral): chunk 0 (the chunk at lo == 0) starts
// from the spec's start, the others from the operator's own neutral
// element (identity), so that the start is combined once; that is the
// spec's left fold re-associated, exact for the integer operators and
// within rounding for floats (a float sum starts from -0, which leaves
// every float unchanged).
//
// A select's outputs (stored at the kept count) are stored, in a chunk,
// only for kept elements (hostgo.LoopParts.KeptStoresOnly): stored for
// every element, as the sequential loop does, a chunk's stores after its
// last kept element would land on the next chunk's first.
//
// With one level of carries (below), no kept counts and every scan in the
// root space, the kernel runs as parallel.CarriedLocal instead
// (scan-then-propagate, planLocal): pass 1 also stores each scan's local
// prefixes (from its identity) in an array — the scan's own output, an
// output of its element type that a later member writes, else a scratch
// array when that pays (scratchNanos) — and pass 2 runs only the members
// downstream of the scans, a scan's element being op(carry, prefix), so
// that the members only the scans read run once, not twice. A float
// element of chunk c > 0 is then carry + (x[lo] + ... + x[i]), not
// (carry + x[lo]) + ... + x[i]: fixed by n and the grain, the same bits
// for any number of cores.
//
// When the members a scan's or a count's totals depend on read another
// scan's elements (a scan of a map of a scan, a filter of scanned
// values), those totals need that scan's carry first: the kernel's scans
// and counts get levels (carryLevels), pass 1 runs once per level, the
// scans of lower levels continuing from their carries, and the runtime
// call is parallel.CarriedLevels.

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// carried reports whether lk's chunks need a carry before their members
// run (see the file comment), so that parCarried renders it.
func carried(lk *lower.Kernel) bool {
	scans, folds, kept := 0, 0, 0
	nested, read := false, false
	scanned := map[*ir.Var]bool{}
	for _, m := range lk.Members {
		switch m.Role {
		case lower.Scan:
			scans++
			scanned[m.SOAC.Out] = true
			nested = nested || m.Space != lower.Root
		case lower.Fold:
			folds++
		}
		if m.Store == lower.AtCount || m.Store == lower.Appended {
			kept++
		}
	}
	for _, m := range lk.Members {
		for _, v := range elementReads(lk, m.SOAC) {
			read = read || scanned[v]
		}
	}
	if scans == 0 {
		return kept > 1
	}
	return scans > 1 || folds > 0 || kept > 0 || nested || read
}

// elementReads returns the arrays member s of lk reads an element of at
// each iteration: its inputs, then the arrays its literals read at the
// iteration index (fusion.Kernel.Gathers), whose elements the loop takes
// from their producers, members of lk. Whatever follows a member's
// dependencies through the kernel follows both: a member cut out of a
// pass leaves an index read of its array naming no element.
func elementReads(lk *lower.Kernel, s *ir.SOAC) []*ir.Var {
	vs := slices.Clip(s.Inputs()) // appending leaves the SOAC's own slice alone
	for _, g := range lk.Src.Gathers {
		if g.SOAC == s {
			vs = append(vs, g.Var)
		}
	}
	return vs
}

// storeSpace is the space whose elements member m stores: a filter's kept
// elements, else its own space.
func storeSpace(m lower.Member) int {
	if m.Role == lower.Filter {
		return m.Kept
	}
	return m.Space
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

// identity returns the neutral element of m's operator (m.StartOp), where
// a chunk that does not hold m's start begins: 1 for *, -0 for a float +
// (x + -0 == x for every float x, -0 included), else 0.
func identity(f *hostgo.Func, m lower.Member) jen.Code {
	if m.StartOp == token.MUL {
		return hostgo.Lit(1)
	}
	t := m.SOAC.TypeArgs[0]
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 && m.StartOp == token.ADD {
		return f.Type(t).Call(f.Qual("math", "math", "Copysign").Call(jen.Lit(0), jen.Lit(-1)))
	}
	return hostgo.Lit(0)
}

// chunkStart returns the declaration of accumulator a of member m in a
// chunk function over [lo, ...): from a's neutral element, or, when m's
// start is not provably neutral, from the operator's identity, and from
// the start in chunk 0 only.
func chunkStart(f *hostgo.Func, a hostgo.LoopAcc, m lower.Member, lo string) hostgo.Stmts {
	if !m.StartNotNeutral {
		return hostgo.Stmts{hostgo.VarDecl(a.Name, a.Type, a.Neutral)}
	}
	return hostgo.Stmts{
		hostgo.VarDecl(a.Name, a.Type, identity(f, m)),
		jen.If(jen.Id(lo).Op("==").Lit(0)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(a.Name, a.Neutral)})),
	}
}

// memberOf returns lk's member of SOAC s.
func memberOf(lk *lower.Kernel, s *ir.SOAC) lower.Member {
	for _, m := range lk.Members {
		if m.SOAC == s {
			return m
		}
	}
	return lower.Member{SOAC: s, Kept: -1}
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

// deps reports, by member index, the members that the members targets
// depend on in lk (themselves, their inputs' producers and the filters
// of their spaces, transitively).
func deps(lk *lower.Kernel, targets []int) []bool {
	prod := map[*ir.Var]int{}
	for i, m := range lk.Members {
		if m.SOAC.Out != nil {
			prod[m.SOAC.Out] = i
		}
	}
	need := make([]bool, len(lk.Members))
	var visit func(i int)
	visit = func(i int) {
		if i < 0 || need[i] {
			return
		}
		need[i] = true
		m := lk.Members[i]
		for _, v := range elementReads(lk, m.SOAC) {
			if j, ok := prod[v]; ok {
				visit(j)
			}
		}
		if m.Space != lower.Root {
			visit(lk.Spaces[m.Space].Filter)
		}
	}
	for _, i := range targets {
		visit(i)
	}
	return need
}

// cutKernel returns lk cut to the members that the members targets
// depend on (deps), storing nothing, with the spaces renumbered (the
// returned map: lk's space to the cut kernel's).
func cutKernel(lk *lower.Kernel, targets []int) (*lower.Kernel, map[int]int) {
	need := deps(lk, targets)
	cut := &lower.Kernel{Src: lk.Src, Form: lower.Loop, Length: lk.Length, Unroll: 1, Spaces: []lower.Space{lk.Spaces[lower.Root]}}
	renum := map[int]int{lower.Root: lower.Root}
	for i, m := range lk.Members {
		if !need[i] {
			continue
		}
		m.Store, m.Split = lower.NoStore, false
		m.Space = renum[m.Space]
		if m.Role == lower.Filter {
			sp := lk.Spaces[m.Kept]
			sp.Parent, sp.Filter = renum[sp.Parent], len(cut.Members)
			renum[m.Kept] = len(cut.Spaces)
			m.Kept = renum[m.Kept]
			cut.Spaces = append(cut.Spaces, sp)
		}
		cut.Members = append(cut.Members, m)
	}
	return cut, renum
}

// parCarried renders a carried kernel (form lower.Loop) as the sequential
// loop below the grain and parallel.Carried above it.
func parCarried(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	at := lk.Src.At.Pos()
	// The spaces whose kept elements are stored: their counts are carried.
	counted := map[int]bool{}
	for _, m := range lk.Members {
		if m.Store == lower.AtCount || m.Store == lower.Appended {
			counted[storeSpace(m)] = true
		}
	}
	scanLevel, spaceLevel, levels := carryLevels(lk, counted)
	spaces := make([]int, 0, len(counted))
	for s := range counted {
		spaces = append(spaces, s)
	}
	sort.Ints(spaces)

	// Below the grain, the cpu backend's loop (belowGrain).
	seq, why := f.Loop(lk, outs)
	if why != "" {
		return nil, why
	}
	lp := f.LoopParts(lk, outs, unclearedAlloc(f))
	// The first rendering declares the accumulators; its loop over
	// [0, n) is not placed.
	if _, why := lp.Loops("0", lp.N); why != "" {
		return nil, why
	}
	combine, why := lp.Combine()
	if why != "" {
		return nil, why
	}
	folds, scans := splitAccs(lp.Accs)
	plan := planLocal(f, lk, lp, scans, levels, len(spaces))
	counts := newSpaceCounts(lk.Members, lp.Stores)

	// Both passes run over chunks: twice a scan's grain.
	g := 2 * rtparallel.Grain(costsOf(f).kernelNanos(lk))
	grain, cg := hostgo.Lit(g), hostgo.Lit(rtparallel.ChunkGrain(g))
	lo, hi, carry := f.Fresh("lo"), f.Fresh("hi"), f.Fresh("carry")
	copies, restore := f.LocalFuncs(lk, at)
	defer restore()
	// A chunk stores a select's elements only where kept: stored at the
	// count for every element, the stores after its last kept element
	// would land on the next chunk's first.
	lp.KeptStoresOnly = true
	chunk, why := lp.Loops(lo, hi)
	lp.KeptStoresOnly = false
	if why != "" {
		return nil, why
	}
	// CarriedLocal's pass 2: the members downstream of the scans, each
	// scan's element from its carry and the local prefix pass 1 stored.
	var fixLoop hostgo.Stmts
	if plan != nil {
		lp.ScanFrom, lp.Skip = map[*ir.SOAC]hostgo.ScanLocal{}, plan.skip
		for i, a := range scans {
			lp.ScanFrom[a.Member] = hostgo.ScanLocal{Buf: plan.bufs[a.Member], Carry: jen.Id(carry).Dot(fmt.Sprintf("s%d", i))}
		}
		fixLoop, why = lp.Loops(lo, hi)
		lp.ScanFrom, lp.Skip = nil, nil
		if why != "" {
			return nil, why
		}
	}
	// Pass 1 of each level: lk cut to what the level's scans and counts
	// depend on.
	type totalPass struct {
		cut   *lower.Kernel
		renum map[int]int
		lp    *hostgo.LoopParts
		loop  hostgo.Stmts
	}
	passes := make([]totalPass, levels)
	for l := range passes {
		var targets []int
		for i, m := range lk.Members {
			if m.Role == lower.Scan && scanLevel[m.SOAC] == l {
				targets = append(targets, i)
			}
		}
		for _, sp := range spaces {
			if spaceLevel[sp] == l {
				targets = append(targets, lk.Spaces[sp].Filter)
			}
		}
		tp := &passes[l]
		tp.cut, tp.renum = cutKernel(lk, targets)
		tp.lp = f.LoopParts(tp.cut, outs, nil)
		tp.lp.CountKept = map[int]bool{}
		for _, sp := range spaces {
			if spaceLevel[sp] == l {
				tp.lp.CountKept[tp.renum[sp]] = true
			}
		}
		if plan != nil {
			tp.lp.ScanTo = plan.bufs
		}
		if tp.loop, why = tp.lp.Loops(lo, hi); why != "" {
			return nil, why
		}
	}

	// The carry: the scans' accumulators (s0, s1, ...) and the kept
	// counts (k0, k1, ...), one field a line.
	var fields, startVals []jen.Code
	exact := true
	for i, a := range scans {
		fields = append(fields, jen.Id(sField(i)).Add(a.Type))
		startVals = append(startVals, a.Neutral)
		exact = exact && exactType(a.Member.Out.Type)
	}
	for i := range spaces {
		fields = append(fields, jen.Id(kField(i)).Int())
		startVals = append(startVals, hostgo.Lit(0))
	}
	tname := f.Fresh("carried")
	typ := hostgo.Id(tname)

	// op: the field-wise combine of two totals (of one level's fields).
	x, y := f.Fresh("x"), f.Fresh("y")
	combineLevel := func(l int) (hostgo.Stmts, string) {
		var c hostgo.Stmts
		for i, a := range scans {
			if scanLevel[a.Member] != l {
				continue
			}
			fx := jen.Id(x).Dot(sField(i))
			if why := f.Apply(&c, a.Op, []jen.Code{fx, jen.Id(y).Dot(sField(i))}, fx, at); why != "" {
				return nil, why
			}
		}
		for i, sp := range spaces {
			if spaceLevel[sp] == l {
				c.Add(jen.Id(x).Dot(kField(i)).Op("+=").Id(y).Dot(kField(i)))
			}
		}
		return c, ""
	}
	var opFn, setFn *jen.Statement
	level := ""
	if levels > 1 {
		level = f.Fresh("level")
	}
	if levels == 1 {
		opBody, why := combineLevel(0)
		if why != "" {
			return nil, why
		}
		opBody.Add(jen.Return(hostgo.Id(x)))
		opFn = jen.Func().Params(hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(opBody))
	} else {
		var cases, sets []jen.Code
		for l := range levels {
			c, why := combineLevel(l)
			if why != "" {
				return nil, why
			}
			cases = append(cases, jen.Case(jen.Lit(l)).Block(c...))
			var set hostgo.Stmts
			for i, a := range scans {
				if scanLevel[a.Member] == l {
					set.Add(jen.Id(x).Dot(sField(i)).Op("=").Id(y).Dot(sField(i)))
				}
			}
			for i, sp := range spaces {
				if spaceLevel[sp] == l {
					set.Add(jen.Id(x).Dot(kField(i)).Op("=").Id(y).Dot(kField(i)))
				}
			}
			sets = append(sets, jen.Case(jen.Lit(l)).Block(set...))
		}
		opFn = jen.Func().Params(jen.Id(level).Int(), hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(hostgo.Stmts{jen.Switch(hostgo.Id(level)).Block(cases...), jen.Return(hostgo.Id(x))}))
		setFn = jen.Func().Params(jen.Id(level).Int(), hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(hostgo.Stmts{jen.Switch(hostgo.Id(level)).Block(sets...), jen.Return(hostgo.Id(x))}))
	}

	// The chunk's inputs and indexed outputs are cut at hi and checked
	// at lo once (as parLoop's chunks): no bounds check per element.
	bounds := func(c *hostgo.Stmts, name string, define bool) {
		cutAt := jen.Id(name).Index(jen.Empty(), hostgo.Id(hi))
		if define {
			c.Add(hostgo.Define(name, cutAt))
		} else {
			c.Add(hostgo.AssignTo(name, cutAt))
		}
		c.Add(hostgo.AssignTo("_", jen.Id(name).Index(hostgo.Id(lo), jen.Empty())))
	}

	// Pass 1: the totals of the chunk's level-l scans (from the
	// identities) and counts, the scans of lower levels continuing from
	// their carries.
	total := func(l int) hostgo.Stmts {
		tp := passes[l]
		var p1 hostgo.Stmts
		p1.Add(hostgo.Define(tp.lp.N, hostgo.Id(lp.N)), hostgo.AssignTo("_", hostgo.Id(tp.lp.N)))
		p1.Add(*tp.lp.Pre...)
		cutAccs := map[*ir.SOAC]string{}
		for _, a := range tp.lp.Accs {
			cutAccs[a.Member] = a.Name
			if scanLevel[a.Member] < l {
				for i, b := range scans {
					if b.Member == a.Member {
						p1.Add(hostgo.AssignTo(a.Name, jen.Id(carry).Dot(sField(i))))
					}
				}
			} else if m := memberOf(tp.cut, a.Member); m.StartNotNeutral {
				p1.Add(hostgo.AssignTo(a.Name, identity(f, m)))
			}
		}
		for _, in := range tp.lp.Inputs {
			bounds(&p1, in, false)
		}
		if plan != nil {
			for _, b := range plan.names {
				bounds(&p1, b, true)
			}
		}
		p1.Add(tp.loop...)
		if levels == 1 {
			var totals []jen.Code
			for _, a := range scans {
				totals = append(totals, hostgo.Id(cutAccs[a.Member]))
			}
			for _, s := range spaces {
				totals = append(totals, hostgo.Id(tp.lp.Counts[tp.renum[s]]))
			}
			p1.Add(jen.Return(jen.Add(typ).Values(totals...)))
			return p1
		}
		totals := jen.Dict{}
		for i, a := range scans {
			if scanLevel[a.Member] == l {
				totals[jen.Id(sField(i))] = hostgo.Id(cutAccs[a.Member])
			}
		}
		for i, s := range spaces {
			if spaceLevel[s] == l {
				totals[jen.Id(kField(i))] = hostgo.Id(tp.lp.Counts[tp.renum[s]])
			}
		}
		p1.Add(jen.Return(jen.Add(typ).Values(totals)))
		return p1
	}
	var pass1 *jen.Statement
	if levels == 1 {
		pass1 = jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int()).Add(typ).Add(hostgo.Block(total(0)))
	} else {
		var cases []jen.Code
		for l := range levels {
			cases = append(cases, jen.Case(jen.Lit(l)).Block(total(l)...))
		}
		pass1 = jen.Func().Params(jen.Id(level).Int(), hostgo.Id(lo), jen.Id(hi).Int(), jen.Id(carry).Add(typ)).Add(typ).Add(hostgo.Block(hostgo.Stmts{jen.Switch(hostgo.Id(level)).Block(cases...), jen.Return(hostgo.Id(carry))}))
	}

	// Pass 2: the whole loop from the carry.
	pt, ret, comb, assign, why := partials(f, folds, at)
	if why != "" {
		return nil, why
	}
	var p2 hostgo.Stmts
	for i, a := range scans {
		p2.Add(hostgo.VarDecl(a.Name, a.Type, jen.Id(carry).Dot(sField(i))))
	}
	for _, a := range folds {
		p2.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
	}
	p2.Add(counts.setFrom(spaces, carry, true)...)
	for _, in := range lp.Inputs {
		bounds(&p2, in, true)
	}
	for _, s := range lp.Stores {
		if s.How == lower.Indexed {
			bounds(&p2, s.Local, true)
		}
	}
	p2.Add(chunk...)
	var ends []jen.Code
	for _, a := range scans {
		ends = append(ends, hostgo.Id(a.Name))
	}
	for _, s := range spaces {
		ends = append(ends, counts.count(s))
	}
	p2.Add(jen.Return(jen.Add(typ).Values(ends...), ret))
	pass2 := jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), jen.Id(carry).Add(typ)).Params(typ, pt).Add(hostgo.Block(p2))

	var fix *jen.Statement
	if plan != nil {
		var p3 hostgo.Stmts
		for _, a := range folds {
			p3.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
		}
		for _, in := range lp.Inputs {
			bounds(&p3, in, true)
		}
		for _, s := range lp.Stores {
			if s.How == lower.Indexed {
				bounds(&p3, s.Local, true)
			}
		}
		for _, sc := range plan.scratch {
			bounds(&p3, sc.name, true)
		}
		p3.Add(fixLoop...)
		p3.Add(jen.Return(ret))
		fix = jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), jen.Id(carry).Add(typ)).Add(pt).Add(hostgo.Block(p3))
	}

	r, p := "_", "_"
	if len(spaces) > 0 {
		r = f.Fresh("r")
	}
	if len(folds) > 0 {
		p = f.Fresh("p")
	}
	n := hostgo.Id(lp.N)
	par := append(hostgo.Stmts{jen.Type().Id(tname).Struct(fields...)}, copies...)
	define := ":="
	if r == "_" && p == "_" {
		define = "="
	}
	if plan != nil {
		for _, sc := range plan.scratch {
			par.Add(hostgo.Define(sc.name, sc.alloc))
		}
		par.Add(jen.List(hostgo.Id(r), hostgo.Id(p)).Op(define).Qual(ParallelPath, "CarriedLocal").Call(n, cg, jen.Add(typ).Values(startVals...), jen.Lit(exact), pass1, opFn, pass2, fix, comb))
	} else if levels == 1 {
		par.Add(jen.List(hostgo.Id(r), hostgo.Id(p)).Op(define).Qual(ParallelPath, "Carried").Call(n, cg, jen.Add(typ).Values(startVals...), jen.Lit(exact), pass1, opFn, pass2, comb))
	} else {
		par.Add(jen.List(hostgo.Id(r), hostgo.Id(p)).Op(define).Qual(ParallelPath, "CarriedLevels").Call(n, cg, jen.Lit(levels), jen.Add(typ).Values(startVals...), pass1, opFn, setFn, pass2, comb))
	}
	par.Add(counts.setFrom(spaces, r, false)...)
	if len(folds) > 0 {
		par.Add(assign(p)...)
	}
	// The guard's unfused code runs outside the chunk functions: it
	// calls the functions evaluated at their SOACs, not the copies.
	restore()
	return belowGrain(lp, grain, seq, par, combine), ""
}

// scratchNanos is the least estimated work per element (parcost.go) of
// the members that a chunk's pass 2 leaves out for which a kernel whose
// outputs cannot hold its scans' local prefixes runs as CarriedLocal
// with a scratch array per call. runtime/parallel's
// BenchmarkCarriedForms (n = 1e6, 2-core VM under load): on 2 cores a
// fresh scratch per call (page faults, a GC cycle sooner) took 3.8 ms
// where Carried took 2.2-2.9 ms with a Sqrt before the scan, so it does
// not pay for cheap members; in CPU time on one core it was less work
// than Carried even for a bare scan (3.3-3.9 against 4.3-4.9 ms), so the
// 16-core host may move this down. An output of the kernel costs
// nothing and is always used (1.4 against 2.2-2.9 ms, 2.7 against 4.3
// CPU ms).
const scratchNanos = 4

// localPlan is how parCarried renders a kernel as parallel.CarriedLocal
// (scan-then-propagate): pass 1 stores each scan's local prefixes in
// bufs (an output of the kernel, else a scratch array), pass 2 leaves
// out skip and takes each scan's element from its carry and bufs.
type localPlan struct {
	bufs    map[*ir.SOAC]string
	names   []string // the distinct arrays of bufs, in the scans' order
	skip    map[*ir.SOAC]bool
	scratch []scratchBuf
}

// scratchBuf is a scratch array of a localPlan: its name and allocation.
type scratchBuf struct {
	name  string
	alloc jen.Code
}

// planLocal returns the plan of lk's CarriedLocal form, or nil for
// Carried's: the form needs one level of carries, no counted spaces, no
// gathers, and every scan in the root space. A scan keeps its local
// prefixes in its own output when it is stored at every index, else in
// another output of its element type stored at every index by a later
// member (pass 2 reads element i before that member writes it), else in
// a scratch array, only when pass 2 leaves out at least scratchNanos of
// work per element. Members that pass 2 leaves out are the scans'
// dependencies (deps) that no other member reads and that store nothing.
func planLocal(f *hostgo.Func, lk *lower.Kernel, lp *hostgo.LoopParts, scans []hostgo.LoopAcc, levels, counted int) *localPlan {
	if levels != 1 || counted > 0 || len(lk.Src.Gathers) > 0 || len(scans) == 0 {
		return nil
	}
	index := map[*ir.SOAC]int{}
	prod := map[*ir.Var]int{}
	for i, m := range lk.Members {
		index[m.SOAC] = i
		if m.SOAC.Out != nil {
			prod[m.SOAC.Out] = i
		}
	}
	var targets []int
	isScan := map[int]bool{}
	for _, a := range scans {
		i := index[a.Member]
		if lk.Members[i].Space != lower.Root {
			return nil
		}
		targets = append(targets, i)
		isScan[i] = true
	}
	need := deps(lk, targets)
	// keep: what pass 2 runs, the scans' inputs not followed.
	keep := make([]bool, len(lk.Members))
	var visit func(i int)
	visit = func(i int) {
		if keep[i] {
			return
		}
		keep[i] = true
		m := lk.Members[i]
		if isScan[i] {
			return
		}
		for _, v := range elementReads(lk, m.SOAC) {
			if j, ok := prod[v]; ok {
				visit(j)
			}
		}
		if m.Space != lower.Root {
			visit(lk.Spaces[m.Space].Filter)
		}
	}
	for i, m := range lk.Members {
		if !need[i] || isScan[i] || m.Store != lower.NoStore {
			visit(i)
		}
	}
	plan := &localPlan{bufs: map[*ir.SOAC]string{}, skip: map[*ir.SOAC]bool{}}
	c := costsOf(f)
	units := 0
	for i, m := range lk.Members {
		if keep[i] {
			continue
		}
		if m.Role == lower.Filter {
			return nil
		}
		plan.skip[m.SOAC] = true
		units += unitsOp
		for _, l := range m.SOAC.Lambdas() {
			units += c.lambdaUnits(l, false)
		}
	}
	used := map[string]bool{}
	for _, s := range lp.Stores {
		if s.How != lower.Indexed {
			continue
		}
		if i, ok := prod[s.V]; ok && isScan[i] {
			plan.bufs[lk.Members[i].SOAC] = s.Local
			used[s.Local] = true
		}
	}
	for _, a := range scans {
		if plan.bufs[a.Member] != "" {
			continue
		}
		elem := a.Member.TypeArgs[0]
		for _, s := range lp.Stores {
			j, ok := prod[s.V]
			sl, isSlice := s.V.Type.Underlying().(*types.Slice)
			if s.How == lower.Indexed && !used[s.Local] && ok && j > index[a.Member] && isSlice && types.Identical(sl.Elem(), elem) {
				plan.bufs[a.Member] = s.Local
				used[s.Local] = true
				break
			}
		}
		if plan.bufs[a.Member] != "" {
			continue
		}
		if units/unitsPerNanos < scratchNanos {
			return nil
		}
		name := f.Fresh("local")
		alloc := unclearedAlloc(f)(elem, lp.N)
		if alloc == nil {
			alloc = hostgo.MakeSlice(f.Type(types.NewSlice(elem)), hostgo.Id(lp.N))
		}
		plan.bufs[a.Member] = name
		plan.scratch = append(plan.scratch, scratchBuf{name, alloc})
	}
	for _, a := range scans {
		if b := plan.bufs[a.Member]; !slices.Contains(plan.names, b) {
			plan.names = append(plan.names, b)
		}
	}
	return plan
}
