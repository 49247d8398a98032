// Package opencl is the opencl backend: each lowered kernel it can
// translate as an OpenCL program run through package
// runtime/opencl/launch, with the next backend's code as its run-time
// fallback; kernels it cannot translate are refused with a reason and get
// the next backend's code.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the opencl backend:
// spec.go (Begin: the per-spec generation, which runs the whole-spec
// analyses once and holds the arrays left on the device and the
// session), opencl.go (render), translate.go (the members, their lambdas and
// captures) and fold.go (the folds' operators, neutral elements and
// starts) translate a lowered kernel of maps, zips, Iota, folds and a
// final scan over one space into a skel Redomap or Scan (a Replicate's
// value a kernel argument; a map-reduce kernel reading no array over its
// Iota's or Replicate's length, when that is an expression without
// effects; an integer Reduce whose start is not its operator's neutral
// element folding from the operator's own, the host combining the start
// once; a float Reduce's or a scan's such start, a kernel argument,
// combined by element 0; max, min, | and & of integers from a variable
// (lowered.Member.IdemStart) folding from the operator's identity; a lambda
// reading a copy of a reassigned capture taking the copy as an argument of
// its own; method values, their receiver a capture
// (clc.Unit.MethodValue)), and one with filters (filter.go: a keep
// flag per kept-element space, members of a space run only when it is set)
// into a Redomap folding kept elements as selects, or, when it stores the
// kept elements of one space, a skel Filter (launch.Filter) (lambdas
// through rewrite/clc, captured values as kernel arguments, captured
// slices as read-only device buffers uploaded per call through
// launch.View/launch.Rows, a Map over the rows of a [][]T whose lambda
// only returns a Map over a captured slice as one work-item per element of
// the result (grid.go: skel Grid, a tiled dot product when the inner
// lambda is Reduce(Map2(row, col, f), constant, op);
// launch.Grid/RowLen/Chop; for backend=auto Grid.Use with its GridCost),
// other [][]T inputs as one work-item per row and slice results as rows of
// a flat buffer (rows.go: the outer map in parallel, its nested
// SOACs as the work-item's loops; launch.Flatten/Out/Split), inputs of
// numbers or structs of numbers (structs holding structs as their fields
// flattened, where that keeps the layout; a struct fold's start a literal
// of constants and math.Inf, built into the program; a fold of every
// element beside a filter's compacted output a Reduction.All)), or refuses
// it with a reason; a StreamRed as one work-item per chunk (stream.go:
// skel StreamRed), with, where its chunk function adds to integer bins
// and its operator adds rows, the bins skeleton beside it (bins.go:
// skel Bins, launch.StreamRed.Bins; the reason written where not); a
// StreamMap whose chunk function makes its row
// (make([]E, len(chunk)), or a capacity and appends; a literal or a
// declared function: clc.Unit.ChunkMap) as one work-item per chunk writing
// its row at the chunk's offset (streammap.go: skel StreamMap,
// launch.StreamMap), and one whose output later members read
// (lower.ChunkedThen) as that kernel, its output kept on the device, then
// the members' loop kernel reading it there (streamthen.go);
// residency.go decides which arrays stay on the device between a
// spec's kernels and unwritten.go which are uploaded once per call
// (see "Device arrays" below); emit.go writes the package-level
// launch value and the call with the next backend's code (next) as its
// fallback, emitrun.go the skeleton's run inside that call, and
// launchsteps.go the steps emit.go and split.go share (the inputs on the
// device, the kernel's length, backend=auto's guard, the CPU fallback);
// alloc.go: the slices results are downloaded into,
// uncleared (parallel.Alloc) where their elements hold no pointers, a
// filter's cut to its kept count and capacity; split.go runs a
// kernel whose scan is followed by other members (or beside a stored map)
// as two launches in one session, the scan skeleton keeping the scan on
// the device and a map-reduce or filter skeleton computing the rest from
// it; cost.go estimates bytes and arithmetic per element for
// backend=auto (map-reduce, scan and filter kernels; a grid's element and
// its steps along a row; a stream's chunk loop per element; a kernel
// leaving arrays on the device priced with the later kernels that read
// them, as inputs or captured slices, which then follow its choice (so do
// grids and stream reductions reading an array a kernel left there)).
// Imports nothing that links OpenCL.
//
// # Device arrays
//
// Within one call of a generated function, arrays stay on the device
// between its kernels where the generator proves it safe:
//
//   - An output of a map-reduce or scan kernel, the kept elements a filter
//     kernel stores (an Array of the kept count), a stream reduction's row
//     (an Array of the row's length), or a grid's [][]T result (a
//     launch.Matrix: KeepRows, Grid.RunOn; gridkept.go), is kept
//     (launch.Keep; Redomap.RunOn, Scan.RunOn, Filter.RunOn,
//     StreamRed.RunOn) when every statement of the spec that reads or writes
//     it is a later top-level kernel of the same block taking it as an input
//     (keepable): no other code reads its Go variable, which stays unset
//     while the device holds the array. Its handle (*launch.Array[T], nil
//     when the producing kernel ran on the CPU) is declared at the producer.
//     A later kernel may instead read it only through its lambdas' captures
//     (ys[i], no other variable of the Go variable captured beside it): a
//     reader on the device passes the Array as the captured buffer
//     (launch.ViewDev, captured.go; a grid too, for the []T its inner
//     Map runs over and its other captured []T; a kept Matrix as
//     launch.RowsDev, also a later grid's rows); a kernel another backend
//     generates, and a kernel of one work-item per row reading a kept Matrix
//     as its input (rows.go), download it first
//     (the spec's HostInputs covers captures).
//
//   - An input read by later kernels of the block is shared
//     (launch.Share): uploaded once, when nothing between those kernels
//     writes memory or has an effect, the first has no rerun guard (whose
//     closure would hide the handle) and no closure or pointer may
//     change the input's Go variable unseen (shareable).
//
//   - An input or captured slice of a kernel in a loop is uploaded once
//     per call (launch.Unwritten, launch.ViewUnwritten: the Session's
//     table keyed by the slice's base address and byte length) when it is
//     the same slice in every round (a parameter, or a variable defined once
//     outside every loop, closure and lambda, never reassigned) and no
//     statement of the spec may write it: none is impure or writes global
//     state, and none writes a Var that may alias it, a parameter (the
//     caller may pass one array twice) or a package-level variable
//     (unwritten, unwrittenIn).
//
//   - A reader running on the device takes the buffer (launch.Dev: a map-
//     reduce, scan, filter, stream reduction or stream map kernel, through
//     its skeleton's RunOn).
//
//   - A ChunkedThen kernel's stream output stays on the device for the
//     kernel's later members (launch.Keep in StreamMap.RunOn), unless the
//     spec reads it too; it is never kept past them. Every reader that runs
//     on the host downloads first, once: a device kernel's run-time fallback
//     (no device, failed build or launch, panic flag) starts with if h !=
//     nil { v = h.Host() }; a kernel another backend generates or the
//     reference calls get the same statements before their code
//     (the spec's HostInputs, which the chain calls before another
//     backend's code; the backend registers each handle with the spec's
//     setDeviceArray, spec.go).
//
//   - Buffers come from the device's pool: the last reader releases the
//     handle (Array.Release); a deferred Session.Release, declared once at
//     the start of the function (the spec's Prologue), returns the rest
//     when the call returns or panics.
//
// A handle is known to the code generated from its producer to its last
// reader (the spec forgets it once that reader's code is generated,
// Spec.Generated): a kernel
// after it, or outside the block that declares it (after a loop whose
// body shares an input, in the loop's next round), reads the Go variable.
// A kept array's Go variable is written, for host code, under the name
// the reader's code gives it (deviceArray.Host), not the
// temporary a tuple assignment's kernel wrote.
//
// Not kept: outputs of kernels with a rerun guard or placed members, row
// results, a stream reduction's number or struct, arrays read in another
// block, by a lambda's capture beside another read in the same kernel, or
// by any statement other than a kernel; a value a loop or branch passes
// on through its Go variable (ir.Effects.Flows: a loop body's value for
// the next round and after the loop, a branch's value after it) that
// something reads there; an array whose Go variable a closure captures
// or whose address is taken (code the IR does not place may read it). A
// failed download of a kept array panics (the device holds the only
// copy).
package opencl
