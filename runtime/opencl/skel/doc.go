// Package skel holds soacgen's parallel OpenCL kernel skeletons: map,
// map-reduce, horizontally fused map-reduce, map-scan and filter. Each
// takes its element code as OpenCL C text and element types as Type
// values (the six number types and structs of them), generates an OpenCL
// program, builds it through the device's program cache, and runs it
// either end to end from Go slices (Run: upload, launch, download) or on
// device-resident buffers (RunDevice), returning device times from
// profiling events.
//
// One canonical kernel, Redomap, covers map, map-reduce and horizontal
// fusion (several outputs and several reductions in one pass), as
// Futhark's Screma covers them; Scan and Filter reuse its first stage.
//
// Launch geometry comes from the device (see plan.go): the work-group
// size is a multiple of the kernel's preferred work-group size multiple,
// the number of groups a multiple of the compute units, and each
// work-item folds a run of elements sequentially (paper 003's efficient
// sequentialisation of excess parallelism).
package skel
