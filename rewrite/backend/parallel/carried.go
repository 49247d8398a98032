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
// A select's outputs (stored at the kept count) are stored, in a chunk,
// only for kept elements (hostgo.LoopParts.KeptStoresOnly): stored for
// every element, as the sequential loop does, a chunk's stores after its
// last kept element would land on the next chunk's first.
//
// With one level of carries (below), no kept counts and every scan in the
// root space, the kernel runs as parallel.CarriedLocal instead
// (scan-then-propagate, planLocal: carriedlocal.go): pass 1 also stores
// each scan's local prefixes (from its identity) in an array — the scan's own output, an
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
// and counts get levels (carryLevels: carry.go), pass 1 runs once per level, the
// scans of lower levels continuing from their carries, and the runtime
// call is parallel.CarriedLevels.

import (
	"fmt"
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
