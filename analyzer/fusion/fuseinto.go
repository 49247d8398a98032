package fusion

// This file fuses one producer into one kernel (fuseInto): the other uses
// of the producer's output must come after the kernel (the output is then
// written out, map-out), the producer must move to the kernel's position,
// and the rule table must fuse it into every member that consumes it. When
// the producer's consumer kernels cannot merge, mapOutFirst fuses it into
// the first of them with a map-out array instead of refusing (Spiegelhauer & Sprent, "Implementing Map-Scan Fusion in the Futhark Compiler" (2016) [Map-scan]
// §5.2); when a target clustering keeps some consumers
// out of the producer's group, mapOutChosen fuses it into the others'.
//
// It does NOT choose the kernels or the order producers are visited
// (driver.go, vertical.go), nor decide legality (legal.go) or rules (rules.go).

import (
	"fmt"
	"slices"
	"sort"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// mapOutFirst fuses P into the consumer kernel that runs first when its
// consumer kernels cannot merge: the fused kernel writes x out (a map-out
// array, [Map-scan] §5.2) and the later kernels read it, so no work is
// duplicated. It reports whether it fused (or ran out of gas).
func (st *state) mapOutFirst(P *ir.SOAC, x *ir.Var, cons []consumer, others []Use) bool {
	// The consumers' kernels now: a failed mergeAll may have merged some.
	var ks []*kstate
	for _, c := range cons {
		if k := st.kernelOf(c.soac); k != nil && !containsK(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(ks) < 2 {
		return false
	}
	first := ks[0]
	for _, k := range ks[1:] {
		if k.block != first.block {
			return false
		}
		if st.g.Index(st.at(k)) < st.g.Index(st.at(first)) {
			first = k
		}
	}
	return st.mapOutInto(P, x, first, others, nil) == nil
}

// mapOutChosen is map-out under a target clustering (cluster.go's
// replay) that puts only some of P's consumers in P's group: P fuses into
// the kernel of those (merged first when they are several), and the
// others read x after it. It returns why not, or nil when it fused (or
// ran out of gas); unchosen is the refusal when no consumer is in P's
// group.
func (st *state) mapOutChosen(P *ir.SOAC, x *ir.Var, cons []consumer, others []Use, unchosen *Refusal) *Refusal {
	var ks []*kstate
	for _, c := range cons {
		if k := st.kernelOf(c.soac); k != nil && st.target[c.soac] == st.target[P] && !containsK(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return unchosen
	}
	K := ks[0]
	var tags []string
	if len(ks) > 1 {
		m, r := st.mergeAll(ks)
		if r != nil {
			return withConsumer(r, cons[0].soac)
		}
		if m == nil { // out of gas
			return nil
		}
		K, tags = m, []string{TagMerge}
	}
	// Every consumer outside K reads x materialised; its edge gets a note:
	// consumed-twice as greedy's when its kernel cannot merge with K
	// (asked before P joins K), else the clustering's choice.
	apart := map[*ir.SOAC]*Refusal{}
	for _, c := range cons {
		if k := st.kernelOf(c.soac); k != nil && k != K {
			apart[c.soac] = st.canMerge(K, k)
		}
	}
	if r := st.mapOutInto(P, x, K, others, tags); r != nil {
		return r
	}
	for _, c := range cons {
		if k := st.kernelOf(c.soac); k != nil && k.members[P] {
			continue
		}
		if r := apart[c.soac]; r != nil {
			st.mapOutNote(P, x, c.soac, r)
			continue
		}
		st.refuse(P, x, &Refusal{Rule: RefClustering, Pos: c.soac.Pos(), Consumer: c.soac,
			Reason: fmt.Sprintf("the %s clustering keeps %s apart from %s, so %s fuses into the kernel of its other consumers and is written out (map-out) for this one", st.method, st.p.soac(P), st.p.soac(c.soac), x.Name)})
	}
	return nil
}

// mapOutNote notes the edge from P to consumer c, left out of the kernel
// P fused into because c's kernel cannot merge with it (why): c reads x
// written out (map-out).
func (st *state) mapOutNote(P *ir.SOAC, x *ir.Var, c *ir.SOAC, why *Refusal) {
	st.refuse(P, x, &Refusal{Rule: RefConsumedTwice, Pos: c.Pos(), Consumer: c,
		Reason: fmt.Sprintf("it is also consumed by a kernel that cannot merge with this one (%s), so it fuses into the first consumer and is written out (map-out) for this one", why.Reason)})
}

// mapOutInto fuses P into kernel K, which holds some of the SOACs that
// consume x: the others become later uses of x, which fuseInto requires
// to run after K and writes x out for (map-out).
func (st *state) mapOutInto(P *ir.SOAC, x *ir.Var, K *kstate, others []Use, tags []string) *Refusal {
	later := append([]Use(nil), others...)
	var in []consumer
	for _, u := range st.g.Uses[x] {
		c, ok := u.Stmt.(*ir.SOAC)
		if !ok || u.Kind != ArrayFlow {
			continue
		}
		if K.members[c] {
			in = append(in, classify(c, P.Parent))
		} else {
			later = append(later, u)
		}
	}
	return st.fuseInto(P, x, K, in, later, false, tags)
}

// fuseInto fuses P into kernel K (whose members cons consume x) if the
// legality checks and the rule table allow, and returns why not otherwise
// (nil also when gas ran out). The other uses of x must come after the
// kernel runs: x is then written out (map-out).
func (st *state) fuseInto(P *ir.SOAC, x *ir.Var, K *kstate, cons []consumer, others []Use, boundary bool, tags []string) *Refusal {
	mapOut, r := st.usesAfter(P, x, K, st.at(K), others, boundary)
	moveR := r
	if r == nil {
		if r = st.pathMove(P, K, nil); r != nil {
			r = withConsumer(r, cons[0].soac)
		}
	}
	var pos ir.Stmt
	if r != nil && !boundary {
		// Placement (place.go): the kernel runs at P's position instead,
		// its members after P moving up to it.
		if up, ru := st.usesAfter(P, x, K, P, others, false); ru == nil && st.placeUp(P, K) == nil {
			mapOut, r, pos = up, nil, P
		}
	}
	var copies []*ir.Var
	if r != nil && r.Rule == RefCaptureReassigned && moveR == nil && !st.modelOnly() {
		// P moves down reading copies of its reassigned captures, taken
		// where it is written (Kernel.Copies).
		if rc := st.pathMove(P, K, &copies); rc == nil {
			r = nil
		} else {
			copies = nil
		}
	}
	if r != nil {
		return r
	}
	if mapOut && st.modelOnly() {
		// The clustering models (cluster.go) take a stream kernel not to
		// write its input out; only greedy makes map-out into a stream.
		for _, c := range K.list {
			if consumes(c, x) && ClassOf(c)&streamClasses != 0 {
				return &Refusal{Rule: RefNoRule, Pos: c.Pos(), Consumer: c, Var: x,
					Reason: fmt.Sprintf("%s is needed after %s, and the clustering model does not write a stream's input out (map-out into a stream: greedy only)", x.Name, st.p.soac(c))}
			}
		}
	}
	names, asserts, r := st.vertical(P, K, x)
	if r != nil {
		return withConsumer(r, cons[0].soac)
	}
	if r := st.unchosen(P, K.list); r != nil {
		return r
	}
	members := append(append([]*ir.SOAC{}, K.list...), P)
	at := pos
	if at == nil {
		at = st.atWith(K, P)
	}
	if r := st.orderAfter(members, at, P, copies, append(slices.Clone(st.of[P]), K)...); r != nil {
		return withConsumer(r, cons[0].soac)
	}
	if !st.useGas() {
		return nil
	}
	st.join(P, K, asserts)
	if len(copies) > 0 {
		st.copies[P] = copies
		tags = append(tags, TagCaptureCopy)
	}
	if pos != nil {
		K.pos = pos
		if pos == st.last(K) {
			K.pos = nil
		}
		tags = append(tags, TagPlaced)
	}
	if mapOut {
		tags = append(tags, TagMapOut)
	}
	st.fire(K, append(names, tags...)...)
	return nil
}

// usesAfter checks the uses of x other than as an input of K's members
// (others) against K running at statement at: each must come after it
// (x is then written out, map-out, which it reports), none may be a
// member of K reading x whole, and none may lie outside a boundary
// consumer's loop, closure or lambda.
func (st *state) usesAfter(P *ir.SOAC, x *ir.Var, K *kstate, at ir.Stmt, others []Use, boundary bool) (bool, *Refusal) {
	atB := AncestorIn(at, P.Parent)
	mapOut := false
	for _, o := range others {
		anc := AncestorIn(o.Stmt, P.Parent)
		if boundary {
			return false, &Refusal{Rule: RefLoopBoundary, Pos: o.Pos,
				Reason: fmt.Sprintf("%s is also used at %s outside %s, so it would be materialised anyway", x.Name, st.p.at(o.Pos), st.boxName(atB))}
		}
		if soac, ok := o.Stmt.(*ir.SOAC); ok && K.members[soac] {
			return false, &Refusal{Rule: RefUsedBefore, Pos: o.Pos, Consumer: soac,
				Reason: fmt.Sprintf("%s reads %s whole at %s (not as an input array), so it must be complete before the kernel runs ([T2-fusion] Fig. 9 case 5)", st.p.soac(soac), x.Name, st.p.at(o.Pos))}
		}
		if anc != nil && st.g.Index(anc) <= st.g.Index(atB) {
			return false, &Refusal{Rule: RefUsedBefore, Pos: o.Pos,
				Reason: fmt.Sprintf("%s is used at %s, before the kernel runs at %s ([T2-fusion] Fig. 9 case 5)", x.Name, st.p.at(o.Pos), st.p.at(at.Pos()))}
		}
		if soac, ok := anc.(*ir.SOAC); ok && K.members[soac] {
			// Inside a member's lambda: the kernel computes x as it runs.
			return false, &Refusal{Rule: RefUsedBefore, Pos: o.Pos, Consumer: soac,
				Reason: fmt.Sprintf("%s is used at %s, inside %s, while the kernel computes it ([T2-fusion] Fig. 9 case 5)", x.Name, st.p.at(o.Pos), st.p.soac(soac))}
		}
		mapOut = true
	}
	return mapOut, nil
}

// operandOrder checks the panic order of a kernel's operands
// (panics.go's operandOrder) over members sorted in program order.
func (st *state) operandOrder(members []*ir.SOAC) *Refusal {
	sorted := append([]*ir.SOAC(nil), members...)
	sort.Slice(sorted, func(i, j int) bool { return st.g.Order(sorted[i]) < st.g.Order(sorted[j]) })
	return operandOrder(st.fn, st.p, sorted)
}
