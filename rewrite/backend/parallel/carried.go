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
	"go/token"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// carried reports whether lk's chunks need a carry before their members
// run (see the file comment), so that parCarried renders it.
func carried(lk *lowered.Kernel) bool {
	scans, folds, kept := 0, 0, 0
	nested, read := false, false
	scanned := map[*ir.Var]bool{}
	for _, m := range lk.Members {
		switch m.Role {
		case lowered.Scan:
			scans++
			scanned[m.SOAC.Out] = true
			nested = nested || m.Space != lowered.Root
		case lowered.Fold:
			folds++
		}
		if m.Store == lowered.AtCount || m.Store == lowered.Appended {
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

// parCarried renders a carried kernel (form lowered.Loop) as the sequential
// loop below the grain and parallel.Carried above it.
func parCarried(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	at := lk.Src.At.Pos()
	c := &carriedLoop{f: f, lk: lk, outs: outs, at: at}
	// The spaces whose kept elements are stored: their counts are carried.
	counted := countedSpaces(lk)
	c.scanLevel, c.spaceLevel, c.levels = carryLevels(lk, counted)
	c.spaces = sortedSpaces(counted)

	seq, lp, combine, why := loopParts(f, lk, outs)
	if why != "" {
		return nil, why
	}
	c.lp = lp
	c.folds, c.scans = splitAccs(lp.Accs)
	c.plan = planLocal(f, lk, lp, c.scans, c.levels, len(c.spaces))
	c.counts = newSpaceCounts(lk.Members, lp.Stores)

	// Both passes run over chunks: twice a scan's grain.
	g := 2 * rtparallel.Grain(costsOf(f).kernelNanos(lk))
	grain, cg := hostgo.Lit(g), hostgo.Lit(rtparallel.ChunkGrain(g))
	c.lo, c.hi, c.carry = f.Fresh("lo"), f.Fresh("hi"), f.Fresh("carry")
	copies, restore := f.LocalFuncs(lk, at)
	defer restore()
	chunk, why := chunkLoops(lp, c.lo, c.hi)
	if why != "" {
		return nil, why
	}
	fixLoop, why := c.localLoop()
	if why != "" {
		return nil, why
	}
	if why := c.totalLoops(); why != "" {
		return nil, why
	}

	// The carry: the scans' accumulators (s0, s1, ...) and the kept
	// counts (k0, k1, ...), one field a line.
	fields, startVals, exact := c.fields()
	tname := f.Fresh("carried")
	c.typ = hostgo.Id(tname)
	var fns carriedFuncs
	if fns.op, fns.set, why = c.combineFuncs(); why != "" {
		return nil, why
	}
	fns.pass1 = c.pass1()
	// Pass 2: the whole loop from the carry.
	pt, ret, comb, assign, why := partials(f, c.folds, at)
	if why != "" {
		return nil, why
	}
	fns.pass2, fns.fix, fns.comb = c.pass2(chunk, pt, ret), c.fix(fixLoop, pt, ret), comb

	r, p := "_", "_"
	if len(c.spaces) > 0 {
		r = f.Fresh("r")
	}
	if len(c.folds) > 0 {
		p = f.Fresh("p")
	}
	par := append(hostgo.Stmts{jen.Type().Id(tname).Struct(fields...)}, copies...)
	par.Add(c.call(r, p, cg, jen.Add(c.typ).Values(startVals...), exact, fns)...)
	par.Add(c.counts.setFrom(c.spaces, r, false)...)
	if len(c.folds) > 0 {
		par.Add(assign(p)...)
	}
	// The guard's unfused code runs outside the chunk functions: it
	// calls the functions evaluated at their SOACs, not the copies.
	restore()
	return belowGrain(lp, grain, seq, par, combine), ""
}

// carriedLoop is a carried kernel being rendered (parCarried): its carry
// and what its chunk functions share.
type carriedLoop struct {
	f    *hostgo.Func
	lk   *lowered.Kernel
	outs map[*ir.Var]string
	at   token.Pos
	carryShape
	levels int
	// lp are the kernel's loop parts; folds its folds' accumulators.
	lp     *hostgo.LoopParts
	folds  []hostgo.LoopAcc
	plan   *localPlan // nil: not CarriedLocal
	counts *spaceCounts
	// lo, hi and carry name a chunk function's range and carry, typ the
	// carry's type; x and y name the operands of the combine of two
	// totals, level the level of CarriedLevels' functions.
	lo, hi, carry string
	typ           *jen.Statement
	x, y, level   string
	// passes are pass 1 of each level.
	passes []totalPass
}

// totalPass is pass 1 of one level: the kernel cut to what the level's
// scans and counts depend on (renum: the kernel's spaces to the cut
// kernel's), its loop parts and its loop over a chunk.
type totalPass struct {
	cut   *lowered.Kernel
	renum map[int]int
	lp    *hostgo.LoopParts
	loop  hostgo.Stmts
}

// carriedFuncs are the functions of a carried kernel's runtime call.
type carriedFuncs struct {
	pass1, op, set, pass2, fix, comb *jen.Statement
}

// chunkLoops returns lp's loop over the chunk [lo, hi), storing a
// select's elements only where kept (hostgo.LoopParts.KeptStoresOnly):
// stored at the count for every element, the stores after its last kept
// element would land on the next chunk's first.
func chunkLoops(lp *hostgo.LoopParts, lo, hi string) (hostgo.Stmts, string) {
	lp.KeptStoresOnly = true
	loop, why := lp.Loops(lo, hi)
	lp.KeptStoresOnly = false
	return loop, why
}

// localLoop returns CarriedLocal's pass 2 loop (nil when the kernel does
// not run as CarriedLocal): the members downstream of the scans, each
// scan's element from its carry and the local prefix pass 1 stored.
func (c *carriedLoop) localLoop() (hostgo.Stmts, string) {
	if c.plan == nil {
		return nil, ""
	}
	lp := c.lp
	lp.ScanFrom, lp.Skip = map[*ir.SOAC]hostgo.ScanLocal{}, c.plan.skip
	for i, a := range c.scans {
		lp.ScanFrom[a.Member] = hostgo.ScanLocal{Buf: c.plan.bufs[a.Member], Carry: jen.Id(c.carry).Dot(sField(i))}
	}
	loop, why := lp.Loops(c.lo, c.hi)
	lp.ScanFrom, lp.Skip = nil, nil
	if why != "" {
		return nil, why
	}
	return loop, ""
}

// totalLoops sets c.passes: pass 1 of each level, lk cut to what the
// level's scans and counts depend on, and its loop over a chunk.
func (c *carriedLoop) totalLoops() string {
	lk := c.lk
	c.passes = make([]totalPass, c.levels)
	for l := range c.passes {
		var targets []int
		for i, m := range lk.Members {
			if m.Role == lowered.Scan && c.scanLevel[m.SOAC] == l {
				targets = append(targets, i)
			}
		}
		for _, sp := range c.spaces {
			if c.spaceLevel[sp] == l {
				targets = append(targets, lk.Spaces[sp].Filter)
			}
		}
		tp := &c.passes[l]
		tp.cut, tp.renum = cutKernel(lk, targets)
		tp.lp = c.f.LoopParts(tp.cut, c.outs, nil)
		tp.lp.CountKept = map[int]bool{}
		for _, sp := range c.spaces {
			if c.spaceLevel[sp] == l {
				tp.lp.CountKept[tp.renum[sp]] = true
			}
		}
		if c.plan != nil {
			tp.lp.ScanTo = c.plan.bufs
		}
		var why string
		if tp.loop, why = tp.lp.Loops(c.lo, c.hi); why != "" {
			return why
		}
	}
	return ""
}

// combineFuncs returns the field-wise combine of two totals (op), and,
// for several levels, the function that sets one level's fields (set);
// both take the level first when there are several.
func (c *carriedLoop) combineFuncs() (opFn, setFn *jen.Statement, why string) {
	f, typ := c.f, c.typ
	c.x, c.y = f.Fresh("x"), f.Fresh("y")
	x, y := c.x, c.y
	if c.levels > 1 {
		c.level = f.Fresh("level")
	}
	if c.levels == 1 {
		opFn, why := c.combineFunc(f, x, y, typ, c.at)
		return opFn, nil, why
	}
	var cases, sets []jen.Code
	for l := range c.levels {
		body, why := c.combine(f, x, y, l, c.at)
		if why != "" {
			return nil, nil, why
		}
		cases = append(cases, jen.Case(jen.Lit(l)).Block(body...))
		sets = append(sets, jen.Case(jen.Lit(l)).Block(c.set(x, y, l)...))
	}
	level := c.level
	opFn = jen.Func().Params(jen.Id(level).Int(), hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(hostgo.Stmts{jen.Switch(hostgo.Id(level)).Block(cases...), jen.Return(hostgo.Id(x))}))
	setFn = jen.Func().Params(jen.Id(level).Int(), hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(hostgo.Stmts{jen.Switch(hostgo.Id(level)).Block(sets...), jen.Return(hostgo.Id(x))}))
	return opFn, setFn, ""
}

// total returns pass 1 of level l over a chunk: the totals of the
// chunk's level-l scans (from the identities) and counts, the scans of
// lower levels continuing from their carries.
func (c *carriedLoop) total(l int) hostgo.Stmts {
	f, tp := c.f, c.passes[l]
	var p1 hostgo.Stmts
	p1.Add(hostgo.Define(tp.lp.N, hostgo.Id(c.lp.N)), hostgo.AssignTo("_", hostgo.Id(tp.lp.N)))
	p1.Add(*tp.lp.Pre...)
	cutAccs := map[*ir.SOAC]string{}
	for _, a := range tp.lp.Accs {
		cutAccs[a.Member] = a.Name
		if c.scanLevel[a.Member] < l {
			for i, b := range c.scans {
				if b.Member == a.Member {
					p1.Add(hostgo.AssignTo(a.Name, jen.Id(c.carry).Dot(sField(i))))
				}
			}
		} else if m := memberOf(tp.cut, a.Member); m.StartNotNeutral {
			p1.Add(hostgo.AssignTo(a.Name, identity(f, m)))
		}
	}
	for _, in := range tp.lp.Inputs {
		cutToChunk(&p1, in, c.lo, c.hi, false)
	}
	if c.plan != nil {
		for _, b := range c.plan.names {
			cutToChunk(&p1, b, c.lo, c.hi, true)
		}
	}
	p1.Add(tp.loop...)
	if c.levels == 1 {
		var totals []jen.Code
		for _, a := range c.scans {
			totals = append(totals, hostgo.Id(cutAccs[a.Member]))
		}
		for _, s := range c.spaces {
			totals = append(totals, hostgo.Id(tp.lp.Counts[tp.renum[s]]))
		}
		p1.Add(jen.Return(jen.Add(c.typ).Values(totals...)))
		return p1
	}
	totals := jen.Dict{}
	for i, a := range c.scans {
		if c.scanLevel[a.Member] == l {
			totals[jen.Id(sField(i))] = hostgo.Id(cutAccs[a.Member])
		}
	}
	for i, s := range c.spaces {
		if c.spaceLevel[s] == l {
			totals[jen.Id(kField(i))] = hostgo.Id(tp.lp.Counts[tp.renum[s]])
		}
	}
	p1.Add(jen.Return(jen.Add(c.typ).Values(totals)))
	return p1
}

// pass1 returns the runtime's pass 1: func(lo, hi int) T for one level,
// else func(level, lo, hi int, carry T) T running the level's total.
func (c *carriedLoop) pass1() *jen.Statement {
	lo, hi, typ := c.lo, c.hi, c.typ
	if c.levels == 1 {
		return jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int()).Add(typ).Add(hostgo.Block(c.total(0)))
	}
	var cases []jen.Code
	for l := range c.levels {
		cases = append(cases, jen.Case(jen.Lit(l)).Block(c.total(l)...))
	}
	return jen.Func().Params(jen.Id(c.level).Int(), hostgo.Id(lo), jen.Id(hi).Int(), jen.Id(c.carry).Add(typ)).Add(typ).Add(hostgo.Block(hostgo.Stmts{jen.Switch(hostgo.Id(c.level)).Block(cases...), jen.Return(hostgo.Id(c.carry))}))
}

// pass2 returns the runtime's pass 2: the whole loop over a chunk
// (chunk) from its carry, returning the carry after it and the folds'
// partials (type pt, value ret).
func (c *carriedLoop) pass2(chunk hostgo.Stmts, pt, ret *jen.Statement) *jen.Statement {
	p2 := c.fromCarry(c.f, c.lk, c.folds, c.counts, c.carry, c.lo)
	for _, in := range c.lp.Inputs {
		cutToChunk(&p2, in, c.lo, c.hi, true)
	}
	for _, s := range c.lp.Stores {
		if s.How == lowered.Indexed {
			cutToChunk(&p2, s.Local, c.lo, c.hi, true)
		}
	}
	p2.Add(chunk...)
	p2.Add(c.end(c.counts, c.typ, ret))
	return jen.Func().Params(hostgo.Id(c.lo), jen.Id(c.hi).Int(), jen.Id(c.carry).Add(c.typ)).Params(c.typ, pt).Add(hostgo.Block(p2))
}

// fix returns CarriedLocal's pass 2 (nil when the kernel does not run
// as CarriedLocal): fixLoop over a chunk from its carry, returning the
// folds' partials (type pt, value ret).
func (c *carriedLoop) fix(fixLoop hostgo.Stmts, pt, ret *jen.Statement) *jen.Statement {
	if c.plan == nil {
		return nil
	}
	var p3 hostgo.Stmts
	for _, a := range c.folds {
		p3.Add(chunkStart(c.f, a, memberOf(c.lk, a.Member), c.lo)...)
	}
	for _, in := range c.lp.Inputs {
		cutToChunk(&p3, in, c.lo, c.hi, true)
	}
	for _, s := range c.lp.Stores {
		if s.How == lowered.Indexed {
			cutToChunk(&p3, s.Local, c.lo, c.hi, true)
		}
	}
	for _, sc := range c.plan.scratch {
		cutToChunk(&p3, sc.name, c.lo, c.hi, true)
	}
	p3.Add(fixLoop...)
	p3.Add(jen.Return(ret))
	return jen.Func().Params(hostgo.Id(c.lo), jen.Id(c.hi).Int(), jen.Id(c.carry).Add(c.typ)).Add(pt).Add(hostgo.Block(p3))
}

// call returns the runtime call, assigning the carry after the last
// chunk to r and the folds' combined partials to p ("_" for none):
// parallel.CarriedLocal (its scratch arrays allocated first), Carried or
// CarriedLevels, start the carry's value before chunk 0.
func (c *carriedLoop) call(r, p string, cg, start jen.Code, exact bool, fns carriedFuncs) hostgo.Stmts {
	n := hostgo.Id(c.lp.N)
	define := ":="
	if r == "_" && p == "_" {
		define = "="
	}
	lhs := jen.List(hostgo.Id(r), hostgo.Id(p)).Op(define)
	if c.plan != nil {
		var par hostgo.Stmts
		for _, sc := range c.plan.scratch {
			par.Add(hostgo.Define(sc.name, sc.alloc))
		}
		par.Add(lhs.Qual(hostgo.ParallelPath, "CarriedLocal").Call(n, cg, start, jen.Lit(exact), fns.pass1, fns.op, fns.pass2, fns.fix, fns.comb))
		return par
	}
	if c.levels == 1 {
		return hostgo.Stmts{lhs.Qual(hostgo.ParallelPath, "Carried").Call(n, cg, start, jen.Lit(exact), fns.pass1, fns.op, fns.pass2, fns.comb)}
	}
	return hostgo.Stmts{lhs.Qual(hostgo.ParallelPath, "CarriedLevels").Call(n, cg, jen.Lit(c.levels), start, fns.pass1, fns.op, fns.set, fns.pass2, fns.comb)}
}
