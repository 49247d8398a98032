// Package clc translates the Go that array lambdas are written in into
// OpenCL C, for the OpenCL backend: a function literal or a declared
// function (go/ast with its *types.Info) becomes an OpenCL C function,
// and the functions it calls become helpers, all in one Unit whose Source
// is the program text. It imports nothing that links OpenCL: the backend
// wraps the functions in its kernels (runtime/opencl/skel) and builds
// them at run time.
//
// # What is translated
//
// Types: bool (uchar), every sized integer and float type, int and uint
// as 64-bit long and ulong, structs and arrays of those (with Go's
// layout), and slices of them as read-only views of device memory. A
// lambda's result may be a slice (a nested Map or Scan, written through
// an out view of room the caller provides).
//
// Operators keep Go's semantics: integer arithmetic wraps (done in
// unsigned C types), division truncates, MinInt / -1 is MinInt and
// MinInt % -1 is 0, shifts by the width or more give 0 (or the sign for
// signed >>), float-to-integer conversions give what amd64 Go gives for
// NaN and out-of-range values, no multiply-add is contracted
// (FP_CONTRACT OFF), float32 division is correctly rounded
// (BuildOptions). math functions map onto OpenCL built-ins with the same
// special cases, or onto helpers that follow Go's definitions (Pow, Max,
// Min, Inf, NaN, IsInf; the builtins min and max on floats).
//
// Statements: locals, assignments (op= included), if, switch (as an
// if-chain; break leaves it), for and range loops over integers, slices
// and arrays (labels, break and continue), returns, panic; calls of
// functions and value-receiver methods whose source the Resolver finds;
// SOAC calls nested in a lambda as sequential loops of the work-item
// (Reduce of a slice, of Iota or Replicate, or of a Map, Map2 or Map3 of
// those, and a returned Map or Scan). A literal that reads arrays only
// at its iteration index (the fusion engine's index reads) may take
// each array's element as a parameter instead (Unit.LambdaReads): the
// kernel computes the element, and the array is not a capture.
//
// # Panics
//
// Where Go would panic (index or slice bounds, integer division by zero,
// negative shift count, unequal Map2 lengths, negative Iota length,
// panic) the code records the site's ID in the work-item's flag
// (int *soac__err, 0 on entry) and goes on with a zero value; loops not
// bounded by a length stop once the flag is set. Unit.Sites maps IDs to
// positions. The host re-runs the kernel on the CPU when any flag is set,
// so that Go raises its own panic; a flag set where Go would not panic
// only costs that re-run (a slice beyond a captured slice's length but
// within its capacity is one such case), a missed one would be a bug.
//
// # Refusals
//
// Anything else is refused with a *Refusal naming the construct and its
// position: strings, maps, interfaces, pointers, channels, complex
// numbers, function values and closures other than a nested SOAC's
// argument, calls of functions without source or of generic or
// recursive functions, lambdas of several results, allocation (make,
// new, append, slice literals), writes to captured variables or slice
// elements (except the row a StreamRed chunk function makes and
// returns, which Unit.Chunk translates as room the caller passes:
// chunk.go), package-level variables, go, defer, select, goto and
// fallthrough. float64 is translated; whether the device can run it
// (cl_khr_fp64) is the backend's decision, from Unit.NeedsFP64.
//
// # Names
//
// Names the translator makes contain a double underscore; Go locals keep
// their names unless those could mean something else in OpenCL C.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the OpenCL C
// translator: a Go lambda or declared function (and what it calls) →
// OpenCL C functions with Go's integer, shift, conversion and math
// semantics, panic sites as a per-work-item flag, captures as kernel
// arguments and read-only buffers, nested SOACs as sequential loops;
// refusals name the construct and position. Imports nothing that links
// OpenCL.
package clc
