// Package skel holds soacgen's parallel OpenCL kernel skeletons: map,
// map-reduce, horizontally fused map-reduce, map-scan, filter, and
// stream reduce (streamred.go: a row per chunk, rows combined in chunk
// order). Each
// takes its element code as OpenCL C text and element types as Type
// values (the six number types and structs of them), generates an OpenCL
// program, builds it through the device's program cache, and runs it
// either end to end from Go slices (Run: upload, launch, download) or on
// device-resident buffers (RunDevice), returning device times from
// profiling events.
//
// One canonical kernel, Redomap, covers map, map-reduce and horizontal
// fusion (several outputs and several reductions in one pass), as
// Futhark's Screma covers them. Its layout (plan.go) is interleaved
// (coalesced) on GPUs when every operator is declared commutative,
// Tiled (order-preserving runs loaded coalesced through local memory)
// on GPUs otherwise, and chunked on CPU devices.
//
// Scan and Filter run by default on GPUs as single-pass kernels
// (scanonepass.go, filteronepass.go): each work-group takes one tile by a dynamic tile id, and
// learns the scan of the tiles before it by decoupled look-back
// (lookback.go, Merrill and Garland), so each element is read once. The
// older multi-kernel forms (reduce-then-scan, count-scan-scatter) remain
// for devices without 64-bit atomics, for filters whose reductions are
// not commutative or that run over 2^31 elements or more, for CPU
// devices (where they measured faster), and on request (Algorithm); a
// filter without outputs runs only its counting pass.
//
// Launch geometry comes from the device (see plan.go): the work-group
// size is a multiple of the kernel's preferred work-group size multiple,
// the number of groups a multiple of the compute units, and each
// work-item folds a run of elements sequentially (the efficient
// sequentialisation of excess parallelism of Henriksen et al., "Futhark: Purely Functional GPU-Programming with Nested Parallelism and In-Place Array Updates" (2017) [Futhark-PLDI17]).
//
// Transfers of a GPU (transfer.go) go through two pinned, host-mapped
// staging buffers: chunks are copied in by several goroutines while the
// DMA engine moves the previous one.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): OpenCL binding
// (purego) and kernel skeletons (skel: Redomap; StreamRed and StreamMap
// (one work-item per chunk); single-pass Scan and Filter by decoupled
// look-back, a Filter's reductions folding kept elements or,
// Reduction.All, every element, and its Scan the kept elements' running
// combination (single pass only); the three take captured values as kernel
// parameters, Args, passed to every call of the element code; Grid, a 2-D
// map with one work-item per element, its element general code or a dot
// product loaded through local memory in tiles and folded in order; pinned
// staging of transfers, also of launch's captured slices: Write/Read;
// overlap.go: on GPUs a map-reduce whose moved host arrays all lie in
// pinned memory (cut runs from pageable memory measured slower: their
// staged copies, not the link, bound them) and whose smallest moved array
// (host input or output) has 32 MiB or more runs in 2 to 32 pieces of at
// least 16 MiB of it, a count that depends on n and the element sizes
// only, piece i+1 uploading on a transfer queue and piece i-1 downloading
// on another while the kernel runs piece i (cross-queue events), the
// pieces' partials folded by one stage 2 in piece order (RunArgs;
// RunDeviceHost for launch's RunOn; SetPieces for tests and benchmarks)).
package skel
