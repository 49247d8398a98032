package fusion

// This file merges kernels (horizontal fusion): two independent kernels of
// one block over one iteration space run as one pass, at the later one's
// position or, when its members cannot move down to it, at the earlier
// one's (placement, place.go). The driver merges the consumer kernels of a
// producer before fusing it (vertical.go), then the kernels of each block
// greedily in program order.

import (
	"fmt"
	"sort"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// mergeAll merges kernels of one block into one, in program order. It
// returns nil, nil when gas ran out.
func (st *state) mergeAll(ks []*kstate) (*kstate, *Refusal) {
	for _, k := range ks {
		if k.block != ks[0].block {
			return nil, &Refusal{Rule: RefConsumedTwice, Reason: "the consumers are in different blocks"}
		}
	}
	sorted := append([]*kstate(nil), ks...)
	sort.Slice(sorted, func(i, j int) bool { return st.g.Index(st.at(sorted[i])) < st.g.Index(st.at(sorted[j])) })
	acc := sorted[0]
	for _, k := range sorted[1:] {
		m, r := st.merge(acc, k)
		if r != nil {
			return nil, r
		}
		if m == nil {
			return nil, nil
		}
		acc = m
	}
	return acc, nil
}

// merge joins kernel a into kernel b (a runs no later than b) when they
// are independent, their members can move to b's position, and they share
// an iteration space. It returns nil, nil when gas ran out.
func (st *state) merge(a, b *kstate) (*kstate, *Refusal) {
	pos, r := st.mergePos(a, b)
	if r != nil {
		return nil, r
	}
	if !st.useGas() {
		return nil, nil
	}
	rule := lookupHorizontal(kernelClasses(a.list), kernelClasses(b.list))
	m := &kstate{id: b.id, block: b.block, members: map[*ir.SOAC]bool{}}
	for _, s := range append(append([]*ir.SOAC{}, a.list...), b.list...) {
		if !m.members[s] {
			m.members[s] = true
			m.list = append(m.list, s)
		}
	}
	sort.Slice(m.list, func(i, j int) bool { return st.g.Order(m.list[i]) < st.g.Order(m.list[j]) })
	m.rules = append(append([]string{}, a.rules...), b.rules...)
	m.asserts, _ = st.sp.compat(m.list)
	if pos != st.last(m) {
		m.pos = pos
		if pos != a.pos && pos != b.pos {
			st.fire(m, TagPlaced)
		}
	}
	a.dead, b.dead = true, true
	st.kernels = append(st.kernels, m)
	for s := range m.members {
		st.of[s] = append(st.of[s], m)
	}
	st.fire(m, rule.Name)
	return m, nil
}

// canMerge reports why kernels a and b cannot run as one pass.
func (st *state) canMerge(a, b *kstate) *Refusal {
	_, r := st.mergePos(a, b)
	return r
}

// mergePos returns where kernels a and b can run as one pass: at the
// later one's position, or, when the earlier one's members cannot move
// down to it, at the earlier one's (placement, place.go); else it reports
// why they cannot.
func (st *state) mergePos(a, b *kstate) (ir.Stmt, *Refusal) {
	if st.g.Index(st.at(a)) > st.g.Index(st.at(b)) {
		a, b = b, a
	}
	for _, k := range []*kstate{a, b} {
		for _, m := range k.list {
			if soacImpure(m) != nil {
				why, pos := impureReason(st.p, m)
				return nil, &Refusal{Rule: RefImpure, Pos: pos, Consumer: m, Reason: why}
			}
		}
	}
	in := func(s ir.Stmt) bool { soac, ok := s.(*ir.SOAC); return ok && (a.members[soac] || b.members[soac]) }
	// No dependency between the two kernels' members...
	for _, pair := range [][2]*kstate{{a, b}, {b, a}} {
		for _, m := range pair[0].list {
			for _, e := range st.g.Out[m] {
				if to, ok := e.To.(*ir.SOAC); ok && pair[1].members[to] && !pair[0].members[to] && !st.panicOrdered(e, m, to) {
					what := "must run after " + st.p.soac(m)
					if e.Var != nil && e.Kind != Hazard {
						what = fmt.Sprintf("reads %s, computed by %s, so it must wait for it", e.Var.Name, st.p.soac(m))
					} else if e.Reason != "" {
						what += ": " + e.Reason
					}
					return nil, &Refusal{Rule: RefConsumedTwice, Pos: e.Pos, Var: e.Var,
						Reason: fmt.Sprintf("%s %s", st.p.soac(to), what)}
				}
			}
		}
	}
	// ...and every member of a can move down to b's position, past the
	// statements of neither kernel (this also rules out any path between
	// them through other statements).
	// When they cannot, every member of b may move up to a's position
	// instead (placement, place.go).
	at := st.at(b)
	if a.block != b.block {
		return nil, &Refusal{Rule: RefLoopBoundary, Pos: at.Pos(),
			Reason: fmt.Sprintf("%s and %s are in different blocks", st.p.stmt(st.at(a)), st.p.stmt(at))}
	}
	members := append(append([]*ir.SOAC{}, a.list...), b.list...)
	if r := st.moveTo(a.list, b.block, at, in); r != nil {
		if st.moveTo(members, a.block, st.at(a), in) != nil {
			return nil, r
		}
		at = st.at(a)
	}
	if _, r := st.sp.compat(members); r != nil {
		return nil, r
	}
	if r := st.operandOrder(members); r != nil {
		return nil, r
	}
	if r := shapeCheck(st.p, members); r != nil {
		return nil, r
	}
	if lookupHorizontal(kernelClasses(a.list), kernelClasses(b.list)) == nil {
		return nil, &Refusal{Rule: RefNoRule, Pos: at.Pos(), Reason: "no horizontal rule joins these kernels"}
	}
	if r := st.orderAfter(members, at, nil, nil, a, b); r != nil {
		return nil, r
	}
	return at, nil
}

// horizontal merges the kernels of block b greedily in program order: each
// kernel joins the first later kernel it can.
func (st *state) horizontal(b *ir.Block) {
	var ks []*kstate
	for _, k := range st.kernels {
		if !k.dead && k.block == b && st.at(k) != nil {
			ks = append(ks, k)
		}
	}
	sort.SliceStable(ks, func(i, j int) bool { return st.g.Index(st.at(ks[i])) < st.g.Index(st.at(ks[j])) })
	for i := 0; i < len(ks); i++ {
		for j := i + 1; j < len(ks); j++ {
			if st.gasOut {
				return
			}
			if !st.sameGroup(ks[i], ks[j]) || st.canMerge(ks[i], ks[j]) != nil {
				continue
			}
			m, _ := st.merge(ks[i], ks[j])
			if m == nil {
				return
			}
			ks[j] = m
			break
		}
	}
}
