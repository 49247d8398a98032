package parallel

// This file plans a carried kernel's parallel.CarriedLocal form
// (scan-then-propagate, planLocal; carried.go renders it): where pass 1
// stores each scan's local prefixes (the scan's own output, an output of
// its element type that a later member writes, else a scratch array
// when that pays: scratchNanos) and which members pass 2 leaves out
// (those only the scans read).

import (
	"go/types"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// scratchNanos is the least estimated work per element (cost.go) of
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
func planLocal(f *hostgo.Func, lk *lowered.Kernel, lp *hostgo.LoopParts, scans []hostgo.LoopAcc, levels, counted int) *localPlan {
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
		if lk.Members[i].Space != lowered.Root {
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
		if m.Space != lowered.Root {
			visit(lk.Spaces[m.Space].Filter)
		}
	}
	for i, m := range lk.Members {
		if !need[i] || isScan[i] || m.Store != lowered.NoStore {
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
		if m.Role == lowered.Filter {
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
		if s.How != lowered.Indexed {
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
			if s.How == lowered.Indexed && !used[s.Local] && ok && j > index[a.Member] && isSlice && types.Identical(sl.Elem(), elem) {
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
		alloc := f.UnclearedAlloc()(elem, lp.N)
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
