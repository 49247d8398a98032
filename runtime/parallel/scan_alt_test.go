package parallel

// The classic three-phase scan, kept for the benchmarks that chose Scan
// over it (16-core host, 2026-11-23): reduce every chunk but the last (chunk 0 is
// scanned directly: its last output is its total), fold the totals
// sequentially into carries, then scan every chunk from its carry. It
// reads the input twice and computes the fused map twice, but writes each
// output once. This is the deterministic form of the "reduce only the
// first blocks" scheme measured on 2 cores: with chunks fixed by n
// rather than by the core count, only the first and last chunk are spared
// a pass.

// scanThreePhase computes an inclusive scan with reduce(lo, hi) (the
// chunk's fold from the neutral element) and scanFrom(lo, hi, carry)
// (the chunk's scan from carry, writing out[lo:hi], returning its last
// value). It returns the total.
func scanThreePhase[A any](n, grain int, ne A, reduce func(lo, hi int) A, scanFrom func(lo, hi int, carry A) A, op func(A, A) A) A {
	k := Chunks(n, grain)
	if k == 1 {
		return scanFrom(0, n, ne)
	}
	parts := make([]A, k)
	phase1 := func(_ *job, c int) {
		lo, hi := Bounds(n, k, c)
		if c == 0 {
			parts[0] = scanFrom(lo, hi, ne)
		} else {
			parts[c] = reduce(lo, hi)
		}
	}
	if k == 2 {
		phase1(nil, 0)
	} else {
		execute(k-1, phase1)
	}
	carries := make([]A, k)
	carries[1] = parts[0]
	for c := 2; c < k; c++ {
		carries[c] = op(carries[c-1], parts[c-1])
	}
	if k == 2 {
		lo, hi := Bounds(n, k, 1)
		return scanFrom(lo, hi, carries[1])
	}
	execute(k-1, func(_ *job, c int) {
		lo, hi := Bounds(n, k, c+1)
		parts[c+1] = scanFrom(lo, hi, carries[c+1])
	})
	return parts[k-1]
}
