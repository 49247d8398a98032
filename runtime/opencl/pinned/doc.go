// Package pinned allocates Go slices in page-locked host memory that the
// OpenCL runtime transfers to and from the device without copying them
// first, so that uploads of user data reach the link's speed.
//
// # Why it exists
//
// A Go slice lives in pageable memory. A GPU's DMA engine reads only
// page-locked memory, so an upload from a Go slice is first copied into
// pinned memory on the host (by the driver, or by package skel's staging
// pipeline with several goroutines). That extra copy shares the host's
// memory bandwidth with the DMA and bounds the transfer well below the
// link: on the H100 (2026-11-23), 35.8 GB/s staged against 55 GB/s
// from pinned memory. CUDA programs reach the link by allocating their
// host data page-locked from the start (cudaMallocHost); Make is that
// allocation for soacgen: the returned slice is backed by a mapped
// CL_MEM_ALLOC_HOST_PTR buffer of the device the generated code runs on
// (device.Default), and package skel recognises a slice that lies wholly
// inside such memory of its device and transfers it with one
// clEnqueueWriteBuffer or clEnqueueReadBuffer, without staging.
//
//	xs, free := pinned.Make[float64](n)
//	defer free()
//	fill(xs)
//	sum := sumsq.SumSqCL(xs) // uploaded at the link's speed
//
// # Fallback
//
// Without OpenCL, on a CPU device (whose buffers are host memory already,
// so there is no link to feed), for an empty slice, for an element type of
// size zero, for more bytes than one buffer of the device may hold
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE), when the driver refuses the allocation
// or the mapping, or when the mapping is not aligned for T, Make returns
// ordinary Go memory (make([]T, n)) and a free that does nothing: code
// that uses Make runs unchanged everywhere, its transfers staged as for
// any Go slice. Is tells which one a slice got.
//
// # Lifetime
//
// The memory is not Go memory: the collector neither scans, moves nor
// frees it, which is why T must hold no pointers (numbers, bools, and
// arrays and structs of them; Make panics otherwise, since pointers stored
// there would be invisible to the collector). It lives until free is
// called, whatever references remain; memory never freed is held until the
// process exits. free is idempotent (a second call does nothing). After
// free, the slice and every slice derived from it must not be used, as
// after C's free: the pages are returned to the driver and an access may
// fault or see another allocation. free must not run while a call that
// reads or writes the slice (a generated function, a transfer) is in
// progress on another goroutine. The contents are set to zero by Make,
// as make does, and the capacity is the length: an append that grows the
// slice moves it to Go memory, which free does not affect.
//
// Page-locked memory is taken from what the operating system can page,
// and a driver may reserve device memory for the buffer as well: pin the
// large inputs that cross the link, not every slice, and free them.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): Go slices of pointer-
// free elements in page-locked host memory (Make: a mapped
// CL_MEM_ALLOC_HOST_PTR buffer of the default GPU, freed explicitly; Go
// memory without OpenCL, on CPU devices or when the driver refuses); skel
// moves a slice wholly inside such memory of its device with one write or
// read, without staging (skel.DirectTransfers counts them).
package pinned
