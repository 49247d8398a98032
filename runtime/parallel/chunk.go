package parallel

// This file fixes the chunk decomposition: how many chunks n elements are
// cut into and where each chunk starts and ends. It depends on n and the
// grain only — never on GOMAXPROCS, the pool or timing — which is what
// makes every result of this package independent of the number of cores.
// It does not run anything (pool.go does).

// MinChunkNanos is the estimated sequential running time, in nanoseconds,
// that one chunk must have before this package splits work at all.
//
// Measured (BENCHMARKS.md, "The parallel runtime"): one split costs the
// caller 0.3-0.7 µs (BenchmarkOverhead on the 16-core host), which is
// what it pays on top of the sequential time when no worker helps; 50 µs
// per chunk keeps that under 1% at the smallest split (two chunks). At
// that size reductions measured 1.05-2.3x the sequential loop; scans and
// filters, whose chunks make an extra pass when they run alone, measured
// 0.68-0.98x and need a larger grain (see BENCHMARKS.md).
const MinChunkNanos = 50_000

// MinChunks is the number of chunks a large input is cut into at least,
// whatever the number of cores: enough for dynamic load balancing on 64
// cores (four chunks per core) while the per-chunk cost (one atomic claim,
// one partial result) stays negligible.
const MinChunks = 256

// MaxChunkLen is the largest chunk, in elements, once an input has more
// than MinChunks*MaxChunkLen elements: 32768 float64 inputs and outputs of
// one chunk (256 KiB each) stay in a core's L2 cache, so the second look
// at a chunk (a scan's carry fix-up, a filter's copy) reads it from cache.
const MaxChunkLen = 32768

// Grain returns the smallest number of elements per chunk for a loop whose
// body costs about nanosPerElem nanoseconds per element on one core (the
// generator's estimate; values below 1 count as 1): MinChunkNanos divided
// by the cost, rounded up. Pass it to Chunks and to every function of this
// package.
func Grain(nanosPerElem int) int {
	if nanosPerElem < 1 {
		nanosPerElem = 1
	}
	return (MinChunkNanos + nanosPerElem - 1) / nanosPerElem
}

// ChunksPerGrain is how many chunks generated code cuts each grain of
// work into once it splits at all (ChunkGrain): the decision to split
// stays at two grains (Sequential), but the chunks are smaller, about
// MinChunkNanos/ChunksPerGrain = 6 µs of work, so that workers that wake
// up late still find chunks to take and the last round of chunks is
// short. At 1e6 elements a scan of 20 chunks on 16 cores measured 2.4x
// (two rounds, the second with 4 chunks); the per-chunk cost (an atomic
// claim, a partial result or a look-back: 0.1-0.3 µs) stays under 5%.
const ChunksPerGrain = 8

// ChunkGrain returns the grain generated code passes to an operation
// once Sequential(n, grain) has said to split: grain/ChunksPerGrain, at
// least 1. It depends on the grain only, so the chunk decomposition still
// depends on n and the grain only.
func ChunkGrain(grain int) int { return max(1, grain/ChunksPerGrain) }

// Chunks returns the number of chunks that n elements are cut into when
// each chunk must have at least grain elements (grain < 1 counts as 1):
//
//	k = min(n/grain, max(MinChunks, ceil(n/MaxChunkLen))), at least 1.
//
// k == 1 means the work is too small to split: every function of this
// package then calls its body once, on the caller's goroutine, over
// [0, n), which is exactly the sequential loop. The result depends only on
// n and grain.
func Chunks(n, grain int) int {
	if grain < 1 {
		grain = 1
	}
	if n <= 0 {
		return 1
	}
	k := n / grain
	limit := max(MinChunks, (n+MaxChunkLen-1)/MaxChunkLen)
	return max(1, min(k, limit))
}

// Sequential reports whether n elements with this grain form a single
// chunk, so that generated code can run its sequential loop directly
// (with no closure, allocation or call) exactly where the functions of
// this package would run the body once over [0, n). With a constant grain
// it compiles to one comparison.
func Sequential(n, grain int) bool { return n < 2*max(grain, 1) }

// Bounds returns the half-open range [lo, hi) of chunk c of n elements cut
// into k chunks: the first n%k chunks have one element more than the rest,
// so the chunk lengths differ by at most one. It requires 0 <= c < k.
func Bounds(n, k, c int) (lo, hi int) {
	q, r := n/k, n%k
	lo = c*q + min(c, r)
	hi = lo + q
	if c < r {
		hi++
	}
	return lo, hi
}

// maxLen returns the length of the longest chunk (the first).
func maxLen(n, k int) int {
	lo, hi := Bounds(n, k, 0)
	return hi - lo
}
