// Package cl is a thin binding to the OpenCL 1.2 host API, loaded at run
// time with purego, so that programs using it build with CGO_ENABLED=0 and
// start on machines that have no OpenCL at all.
//
// The API follows github.com/jgillich/go-opencl: GetPlatforms,
// Platform.GetDevices, CreateContext, Context.CreateCommandQueue,
// Context.CreateEmptyBuffer, Context.CreateProgramWithSource,
// Program.BuildProgram, Program.CreateKernel, Kernel.SetArgs,
// CommandQueue.EnqueueNDRangeKernel, EnqueueReadBuffer, EnqueueWriteBuffer,
// EnqueueCopyBuffer, events with profiling times, Finish and Release.
//
// # Loading
//
// The library is opened on the first call that needs it, never at package
// initialisation. Its path is "libOpenCL.so.1" (the ICD loader), or the
// value of the environment variable SOACGEN_OPENCL_LIBRARY when that is set.
// The three ways OpenCL can be absent are distinct sentinel errors, to be
// tested with errors.Is so that callers can fall back to the CPU:
// ErrNoLibrary (the loader cannot be opened or lacks a symbol),
// ErrNoPlatform (no ICD answers) and ErrNoDevice (a platform has no device
// of the requested type).
//
// # Errors
//
// Every failing OpenCL call returns an *Error naming the call and the
// symbolic name of the status code, e.g.
// "clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE (-54)". A failed
// build returns a *BuildError that carries the compiler's log.
//
// # Memory
//
// Handles are kept as uintptr values that are never converted back to Go
// pointers. Go memory is passed to the driver only for the duration of a
// synchronous call, except for non-blocking reads and writes, whose host
// slice stays pinned (runtime.Pinner) until the returned event is waited
// for or released.
package cl
