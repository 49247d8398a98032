package parallel

// This file holds the two-pass chunked loop of kernels whose chunks need
// a carry from the chunks before them before any of their members can
// run: a scan whose elements other members read, a scan beside a fold or
// a filter's output, several scans, a scan of a filter's kept elements,
// several outputs of kept elements. Pass 1 computes a chunk's totals only
// (the scans' folds and the kept counts), the chunks' carries are the
// left fold of the totals (carry.go's look-back), and pass 2 runs the
// whole fused loop over the chunk from its carry, so that every member
// sees the final scan values and stores its kept elements at their final
// positions; CarriedLocal's pass 1 also keeps the scans' local prefixes
// so that its pass 2 runs only what follows the scans. It does not know
// what a total is or which members pass 1 runs (the generated code
// does).

// Carried runs a fused loop over [0, n) in parallel, in chunks that each
// start from a carry T (the scans' accumulators and the kept counts
// before the chunk), with three bodies the generator writes:
//
//   - body(lo, hi, carry) runs the fused loop over the chunk from carry
//     (scans continue from their carried accumulators, kept elements are
//     stored from their carried counts), and returns the state after the
//     chunk, in the same form as carry, and the chunk's partial P of the
//     kernel's folds, folded from their neutral elements;
//   - total(lo, hi) returns the chunk's own totals (the scans folded from
//     their neutral elements over the chunk, the counts of its kept
//     elements), running only the members those depend on;
//   - op(a, b) combines totals: the carry of chunk c > 0 is the left fold
//     start' ⊕ t1 ⊕ ... ⊕ t(c-1), where start' is the state after chunk 0.
//
// Chunk 0 runs body from start (the spec's starts and zero counts) and
// needs no first pass. Every other chunk runs total, publishes it, finds
// its carry and runs body; with exact set (every scan's operator is
// exactly associative), a chunk whose carry is already known when it
// starts (its look-back finds it without waiting, as when one goroutine
// runs the chunks in order) runs body only, its end state being then the
// same bits as carry ⊕ total. The association of every float
// depends on n and grain only, so the results are the same bits for any
// number of cores.
//
// Carried returns the state after the last chunk and the partials
// combined left to right in chunk order with comb. With one chunk it
// returns body(0, n, start) on the caller's goroutine: exactly the
// sequential loop. Panics as For: the panic of the lowest chunk that
// panicked, in total or in body; since total runs a subset of the
// members of body over the same elements in order, that is the panic of
// the lowest index.
func Carried[T, P any](n, grain int, start T, exact bool, total func(lo, hi int) T, op func(T, T) T, body func(lo, hi int, carry T) (T, P), comb func(P, P) P) (T, P) {
	return carried(n, grain, start, exact, total, op, body, nil, comb)
}

// CarriedLocal is Carried for a kernel whose pass 1 keeps what pass 2
// needs (scan-then-propagate): total(lo, hi) runs the members its scans
// depend on once, storing each scan's chunk-local prefixes (folded from
// its neutral element) in a buffer the generated code owns, and returns
// the chunk's totals; fix(lo, hi, carry) then runs only the members
// downstream of the scans, each scan's element i being carry ⊕ local[i],
// and returns the chunk's partial of the folds. body is Carried's: chunk
// 0 runs it from start, and so does a chunk whose carry is known when it
// starts with exact set. A chunk c > 0 that ran total never runs body.
//
// The association of a float scan's element in chunk c > 0 is
// carry ⊕ (x[lo] ⊕ ... ⊕ x[i]) instead of Carried's
// ((carry ⊕ x[lo]) ⊕ ...) ⊕ x[i]: it depends on n and grain only, so the
// results are the same bits for any number of cores. Returns, panics and
// the one-chunk case as Carried: total runs the members of body that the
// scans depend on and fix the others, each over the chunk's elements in
// order, so the panic of the lowest chunk that panicked is that of the
// lowest index of the member that panics (two members that may panic
// are rerun by the generated code as the spec).
func CarriedLocal[T, P any](n, grain int, start T, exact bool, total func(lo, hi int) T, op func(T, T) T, body func(lo, hi int, carry T) (T, P), fix func(lo, hi int, carry T) P, comb func(P, P) P) (T, P) {
	return carried(n, grain, start, exact, total, op, body, fix, comb)
}

// carried is Carried, and CarriedLocal when fix is not nil.
func carried[T, P any](n, grain int, start T, exact bool, total func(lo, hi int) T, op func(T, T) T, body func(lo, hi int, carry T) (T, P), fix func(lo, hi int, carry T) P, comb func(P, P) P) (T, P) {
	k := Chunks(n, grain)
	if k == 1 {
		return body(0, n, start)
	}
	slots := make([]slot[T], k)
	parts := make([]P, k)
	execute(k, func(j *job, c int) {
		lo, hi := Bounds(n, k, c)
		s := &slots[c]
		if c == 0 {
			end, p := body(lo, hi, start)
			parts[c] = p
			s.total = end
			publishIncl(j, s, end)
			return
		}
		if exact {
			if carry, ok := carryOf(j, slots, c, op, false); ok {
				// Successors stop their look-back at this published
				// prefix and never read the total.
				end, p := body(lo, hi, carry)
				parts[c] = p
				publishIncl(j, s, end)
				return
			}
		}
		t := total(lo, hi)
		publishTotal(j, s, t)
		carry, ok := carryOf(j, slots, c, op, true)
		if !ok {
			return
		}
		publishIncl(j, s, op(carry, t))
		if fix != nil {
			parts[c] = fix(lo, hi, carry)
			return
		}
		_, p := body(lo, hi, carry)
		parts[c] = p
	})
	acc := parts[0]
	for _, p := range parts[1:] {
		acc = comb(acc, p)
	}
	return slots[k-1].incl, acc
}

// CarriedLevels is Carried for a kernel whose carries depend on each
// other in levels: a scan of values computed from another scan's
// elements, or a filter of them, has chunk totals that need the other
// scan's carry first. Each chunk c > 0 runs, for level 0, 1, ...,
// levels-1, total(level, lo, hi, carry) with carry holding its final
// carries of the levels below (its fields of the others unset), which
// returns the chunk's totals of that level's scans and counts; the
// level's carries are the left fold, with op(level, ·, ·), of the totals
// of the chunks before (chunk 0's being its state after body from
// start), and set(level, carry, c) copies that level's fields of c into
// carry. Then body runs from the carry as in Carried. op(level, a, b)
// combines the level's fields of a and b into a's and leaves the others.
//
// Every chunk but the first makes levels+1 passes; the association of
// every value depends on n and grain only. It returns the state after
// the last chunk (from body) and the partials combined in chunk order.
// With one chunk it returns body(0, n, start). Panics as For.
func CarriedLevels[T, P any](n, grain, levels int, start T, total func(level, lo, hi int, carry T) T, op func(level int, a, b T) T, set func(level int, carry, c T) T, body func(lo, hi int, carry T) (T, P), comb func(P, P) P) (T, P) {
	k := Chunks(n, grain)
	if k == 1 {
		return body(0, n, start)
	}
	slots := make([][]slot[T], levels)
	for l := range slots {
		slots[l] = make([]slot[T], k)
	}
	parts := make([]P, k)
	var end T
	execute(k, func(j *job, c int) {
		lo, hi := Bounds(n, k, c)
		if c == 0 {
			e, p := body(lo, hi, start)
			parts[c] = p
			for l := range slots {
				slots[l][0].total = e
				publishIncl(j, &slots[l][0], e)
			}
			return
		}
		var carry T
		for l := range slots {
			opl := func(a, b T) T { return op(l, a, b) }
			t := total(l, lo, hi, carry)
			s := &slots[l][c]
			publishTotal(j, s, t)
			cl, ok := carryOf(j, slots[l], c, opl, true)
			if !ok {
				return
			}
			publishIncl(j, s, opl(cl, t))
			carry = set(l, carry, cl)
		}
		e, p := body(lo, hi, carry)
		parts[c] = p
		if c == k-1 {
			end = e
		}
	})
	acc := parts[0]
	for _, p := range parts[1:] {
		acc = comb(acc, p)
	}
	return end, acc
}
