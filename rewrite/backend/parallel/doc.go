// Package parallel is the parallel backend: each lowered kernel as the
// same loops as the cpu backend's, run over chunks on every core through
// package runtime/parallel, with the cpu backend's code below a work
// threshold (the grain).
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the parallel backend,
// between the opencl backend (which embeds it) and the cpu backend (whose
// code it runs below the grain). Its files, by what they hold:
//
//   - parallel.go: the entry, Spec.Kernel, which renders a kernel by its
//     form; impure kernels are refused with the reason; a lone stream
//     (parStream) runs the cpu backend's call below the grain, so that a
//     small input allocates what the cpu backend's code does.
//   - loop.go: a loop kernel below a grain, tested first, as the cpu
//     backend's code of the kernel itself (belowGrain;
//     TestSequentialBranchIsCPU compares the examples' Par functions with
//     their cpu twins), above it hostgo.LoopParts as the per-chunk body of
//     a runtime/parallel call, by its shape (For, Reduce, Scan,
//     FilterFold).
//   - cost.go: the work estimate behind the grain (math costs measured
//     by BenchmarkOpCosts, the package's own functions counted through
//     their bodies, and a call only where Go's compiler does not inline
//     them); inlining.go: the inliner's budget rule from the callee's
//     syntax (TestInlineRuleOnExamples against go build -gcflags=-m=2).
//   - alloc.go: outputs allocated uncleared, exact scan types.
//   - accum.go: a reduction's chunks (parallel.Reduce) of a cheap
//     kernel fold each commutative fold (lowered.Member.Commutative) into 4
//     interleaved accumulators, combined pairwise in the chunk (the kernel
//     unrolled 4 times for the chunk only; the elements still run in index
//     order, so panics need no rerun).
//   - stream.go: maps fused into a stream's chunks, the cpu backend's
//     chunk loop below the grain and parallel.StreamRedChunks or
//     StreamMapChunks above it, each chunk computing its range's elements
//     and applying the chunk function (hostgo.StreamParts).
//   - then.go: a StreamMap followed by members over its chunks
//     (lower.ChunkedThen), the cpu backend's chunk loop (FusedStreamThen)
//     below twice the grain of the stream's and the members' work, above
//     it one parallel step (streamcarried.go) or, where the carries come
//     in levels, two steps: the stream's output into a local array
//     (parallel.StreamMapChunks or StreamMapOr), then the members' loop
//     over it as any loop kernel (ThenPart, read through
//     hostgo.Func.BindName, 16 of the stream's grains:
//     twoStepGrainFactor).
//   - streamcarried.go: the one step, parallel.StreamCarried
//     (thenGrainFactor): each runtime chunk computes the stream's output
//     of its range (stream.go's pieces, or the chunk function on a
//     slice of the stream's input) and runs the members over it while it
//     is in cache (hostgo.Func.ChunkLoopParts), pass 1 (scan totals, kept
//     counts: deps.go's cut kernel) and, from the chunk's carry, pass 2;
//     an inlined chunk function's make of the array it returns becomes
//     parallel.Reuse of the goroutine's buffer (hostgo.Func.ReplaceExpr);
//     any panic or a chunk of the wrong length runs the spec's calls (the
//     stream's panics come first there).
//   - carried.go: kernels whose chunks need a carry (a scan read by
//     another member, beside a fold or kept elements, of a filter's kept
//     elements, several scans, several kept-element outputs) as
//     parallel.Carried, pass 1 the kernel cut to what the scans and kept
//     counts depend on (parallel.CarriedLocal when there is one carry
//     level, no kept counts and every scan in the root space;
//     parallel.CarriedLevels, one pass 1 per level, where those read
//     another scan's elements).
//   - carry.go: the carry of those kernels and of streamcarried.go's: the
//     counted spaces, the levels, the carry struct's fields, its combine
//     and a chunk's pass 2 from it.
//   - deps.go: the members' dependencies inside a kernel, the kernel cut
//     to them.
//   - carriedlocal.go: CarriedLocal's plan (planLocal): pass 1 stores the
//     local prefixes in the scan's output, in a later member's output of
//     its type or, where pass 2 saves at least scratchNanos an element,
//     in a scratch array; pass 2 leaves out the members only the scans
//     read.
//   - chunkstart.go: a fold or scan whose start is not provably its
//     operator's neutral element (lowered.Member.StartNotNeutral, StartOp)
//     started from the start in chunk 0 only, the operator's identity
//     elsewhere.
//   - nested.go: nested kernels run as the cpu backend's loops inside
//     their parent's element; from 8 elements on, a nested kernel that
//     accum.go would split folds its commutative folds over 4
//     interleaved accumulators, combined pairwise (the association depends
//     on the inner length only).
//
// The code of the parallel branch calls copies, made there, of the
// function literals evaluated at their SOAC (hostgo.Func.LocalFuncs;
// LocalFuncsUsed declares only those used), and a loop's or fused
// stream's chunk function its own copies, declared at its start, which
// the compiler inlines into the chunk's loop as into cpu's (ChunkFuncs;
// TestChunkLiteralsInlined).
package parallel
