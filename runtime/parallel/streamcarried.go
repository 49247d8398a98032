package parallel

// This file holds the one-step parallel form of a StreamMap whose chunk
// loop runs more members after it (soacgen's ChunkedThen kernels: a
// stream followed by scans, filters, maps and folds): each runtime chunk
// computes the stream's output over its range and runs the members over
// those values while they are in cache, their first pass (the chunk's
// totals) and then, from the chunk's carry, their second, so that the
// stream's output never exists as an array of n elements unless the
// kernel returns it. The carries are Carried's (carried.go): the left
// fold of the chunks' totals in chunk order, found by look-back
// (carry.go). It does not know what the stream or a total computes (the
// generated code does) nor decide the chunks (chunk.go does).

// StreamCarried runs a stream followed by members over [0, n) in
// parallel, in the chunks of Chunks(n, grain), with four functions the
// generator writes. Every chunk [lo, hi) first runs
//
//   - stream(lo, hi, buf), which computes the stream's output of the
//     chunk (its maps' elements and the chunk function) and returns it
//     as s, with false when the chunk function returned a number of
//     elements other than hi-lo; with scratch set, buf is a slice of at
//     least hi-lo elements (contents unspecified) that the goroutine
//     running the chunk reuses for its later chunks once this chunk's
//     members are done (s may refer to it), otherwise nil;
//
// and then, on s, the members as Carried runs its bodies:
//
//   - total(s, lo, hi) returns the chunk's totals (its scans folded from
//     their neutral elements, its kept counts);
//   - op(a, b) combines totals: the carry of chunk c > 0 is the left fold
//     start' ⊕ t1 ⊕ ... ⊕ t(c-1), start' the state after chunk 0;
//   - body(s, lo, hi, carry) runs the members over the chunk from carry
//     and returns the state after it and the chunk's partial of the
//     folds;
//   - comb combines partials, left to right in chunk order.
//
// Chunk 0 runs body from start with no total. With exact set (every
// scan's operator is exactly associative) a chunk whose carry is known
// when its stream is done runs body only, as Carried does. With total
// nil the members carry nothing (maps and folds): every chunk runs body
// from start, and op is not called. The association of every value
// depends on n and grain only, so the results are the same bits for any
// number of cores.
//
// It returns the state after the last chunk (start when total is nil),
// the partials combined, and true; or false when any chunk panicked or
// returned a chunk of the wrong length (the other results then
// unspecified): the members of a chunk run before the stream of a later
// chunk, so the first panic raised here need not be the spec's (whose
// stream runs over every chunk before its members see an element), and
// the caller runs the spec's calls instead, which raise it. No goroutine
// is left running in either case. n <= 0 returns start, the zero P and
// true, running nothing. With one chunk everything runs on the caller's
// goroutine.
func StreamCarried[S, B, T, P any](n, grain int, scratch bool, start T, exact bool,
	stream func(lo, hi int, buf []B) (S, bool),
	total func(s S, lo, hi int) T,
	op func(T, T) T,
	body func(s S, lo, hi int, carry T) (T, P),
	comb func(P, P) P) (end T, part P, ok bool) {
	if n <= 0 {
		return start, part, true
	}
	k := Chunks(n, grain)
	defer func() {
		if e := recover(); e != nil {
			ok = false
		}
	}()
	// run computes the stream's output of [lo, hi) and passes it to
	// members, the chunk's buffer held until they return.
	size := maxLen(n, k)
	free := newScratchList[B](size, k)
	run := func(lo, hi int, members func(s S)) {
		var buf []B
		if scratch {
			buf = free.get(lo / max(size, 1))
		}
		s, good := stream(lo, hi, buf)
		if !good {
			panic(lengthMismatch{})
		}
		members(s)
		if scratch {
			free.put(lo/max(size, 1), buf) // not reached on a panic: that buffer is dropped
		}
	}
	if k == 1 {
		run(0, n, func(s S) { end, part = body(s, 0, n, start) })
		if total == nil {
			end = start
		}
		return end, part, true
	}
	parts := make([]P, k)
	if total == nil {
		executeIndependent(k, func(j *job, c int) {
			lo, hi := Bounds(n, k, c)
			run(lo, hi, func(s S) { _, parts[c] = body(s, lo, hi, start) })
		})
		return start, combine(parts, comb), true
	}
	slots := make([]slot[T], k)
	execute(k, func(j *job, c int) {
		lo, hi := Bounds(n, k, c)
		run(lo, hi, func(s S) {
			sl := &slots[c]
			if c == 0 {
				e, p := body(s, lo, hi, start)
				parts[c] = p
				sl.total = e
				publishIncl(j, sl, e)
				return
			}
			if exact {
				if carry, known := carryOf(j, slots, c, op, false); known {
					// Successors stop their look-back at this published
					// prefix and never read the total.
					e, p := body(s, lo, hi, carry)
					parts[c] = p
					publishIncl(j, sl, e)
					return
				}
			}
			t := total(s, lo, hi)
			publishTotal(j, sl, t)
			carry, known := carryOf(j, slots, c, op, true)
			if !known {
				return // a chunk below panicked: no result is used
			}
			publishIncl(j, sl, op(carry, t))
			_, parts[c] = body(s, lo, hi, carry)
		})
	})
	return slots[k-1].incl, combine(parts, comb), true
}

// combine returns the partials folded left to right with comb.
func combine[P any](parts []P, comb func(P, P) P) P {
	acc := parts[0]
	for _, p := range parts[1:] {
		acc = comb(acc, p)
	}
	return acc
}

// Reuse returns what make([]T, n) returns, a slice of n zero elements,
// in buf's array when it has room (else make's): generated code passes
// a chunk's scratch buffer (StreamCarried) where the stream's chunk
// function makes the array it returns, which the members read only
// until the chunk is done. A negative n panics as make does.
func Reuse[T any](buf []T, n int) []T { return ReuseCap(buf, n, n) }

// ReuseCap is Reuse for make([]T, n, c): a slice of length n and
// capacity c, its c elements zero. Lengths make rejects panic as make
// does.
func ReuseCap[T any](buf []T, n, c int) []T {
	if n < 0 || n > c || c > cap(buf) {
		return make([]T, n, c)
	}
	b := buf[:c:c]
	clear(b)
	return b[:n]
}
