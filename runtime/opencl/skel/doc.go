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
// (scan1.go, filter1.go): each work-group takes one tile by a dynamic tile id, and
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
package skel
