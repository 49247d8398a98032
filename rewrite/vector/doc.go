// Package vector translates a kernel's loop into vector forms: the same
// members computed on a vector register's lanes at once, with Go 1.26's
// simd/archsimd (built with GOEXPERIMENT=simd, amd64), at 512 bits
// (AVX-512) and 256 bits (AVX2).
//
// A vectorised kernel calls a generated function soacgenVec_SPEC in the
// file's vector companion, x_soacsimd.go (the kernels of one spec share
// it where theirs would be the same): it runs the first n - n%lanes
// iterations of the loop on vectors and returns where it stopped, with
// the folds' accumulators and the kept counts; the kernel's scalar loop
// in x_soac.go runs the rest from there. The parallel backend's chunks
// of maps and of folds (before their split accumulators' loop) call it on
// each chunk. A build without the experiment compiles the scalar
// companion, x_soacscalar.go, whose stub returns 0 and the accumulators
// unchanged: the compiler inlines it, and the loop is today's.
//
// # Exactness
//
// A lane computes exactly what the scalar loop computes for its element.
// The translator accepts only operations whose vector instruction gives
// the scalar operation's bits (the rules of ops.go): IEEE-754 + - * / and
// square root, comparisons with Go's NaN rules, integer arithmetic with
// wraparound, bit operations, shifts by constants, conversions that the
// hardware rounds as Go does; math.Abs and unary minus as sign-bit
// operations, and min and max of floats composed so that NaN and ±0 come
// out as Go's. A fold runs in lanes only where its order cannot change
// its result: integer + * ^ | & min max; a scan with those operators
// takes each vector's prefix in registers, then folds in the running
// accumulator (scan.go). Float folds and scans keep their left-to-right
// order on the cpu backend, so a kernel with one is not vectorised. A lambda whose products the compiler may fuse with an
// addition (an FMA under GOAMD64=v3; hostgo's MayFuse) is vectorised only
// for builds that cannot fuse (lanes.MayContract). Everything a lambda
// does must be a pure expression: no call but math.Sqrt, math.Abs, min
// and max, no division of integers (it may panic), no indexing. A
// filter's kept elements are a mask: a fold reads them as a select (a
// dropped lane contributes the operator's identity), and an array of
// them is stored compressed at the kept count (AVX-512's compress, so a
// 512-bit form only). Every refusal says why (Outcome.Reason).
//
// The vector loops hold no scalar float operation: Go compiles those to
// SSE instructions, each of which pays a state transition while the
// upper halves of the vector registers are in use (a prototype inner
// product gathering its lanes with scalar loads ran 40 times slower than
// the scalar loop). Constants and captured values are broadcast before
// the loop; lanes move by permutations. For the same reason an array of
// structs is refused (its elements are not numbers), where loading it
// field by field would need scalar loads or deinterleaving permutations.
//
// Two miscompilations of Go 1.26.8's archsimd are kept out: a shift of
// all lanes by one count merged into a select (constant shifts are
// written as per-lane shifts by a broadcast count), and a chain of bit
// operations at 512 bits (such a kernel keeps its 256-bit form only).
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the cpu backend
// asks Build for a kernel of form lowered.Loop before it renders the
// loop; lanes.go describes element types as lanes, ops.go holds the
// operations as data, lambda.go translates a lambda's body, kernel.go
// checks a kernel's members, members.go and scan.go translate them, and
// render.go writes the functions and the call.
package vector
