// Package hostgo is soacgen's host-Go generator: for one spec it writes
// the generated function NAME (File.Function), copying the spec's
// statements in order (renamed where generated code needs a name, with
// the package references qualified through the spec file's imports),
// evaluating operands and function values where the spec evaluates them,
// inlining lambdas where no floating-point contraction can differ, and
// calling back (its Kernels) at each kernel's position so that the
// backends (package rewrite/backend and its subpackages) render it.
//
// It holds what every backend's code is made of: the sequential loop of
// a lowered kernel (Func.Loop) and its pieces (Func.LoopParts, which the
// parallel backend places per chunk), the chunk loop of a stream
// (Func.FusedStream), the unfused reference calls (Func.Unfused, and
// Func.Reference for a kernel no backend generates), the rerun guard
// that keeps the spec's first panic (Func.EmitGuarded), and the code
// blocks (Stmts, Block, Define, ...), all built as jennifer structure
// and printed once (File.Render).
//
// It does not choose a backend, decide a kernel's shape (rewrite/lower
// does), nor write files (package rewrite does). Its output for a spec
// is byte-identical for the same input.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the host-Go generator:
// File (one generated file, file.go: imports through the spec file's
// names, Qual, Type, Fresh, PackageVar, Render) and Func (one spec,
// func.go: copies its statements, renames locals, inlines lambdas, except
// those that may fuse x*y+z, which it calls through soac.Opaque as the
// runtime does (fma.go), evaluates operands where they are written:
// body.go, subst.go, compound.go, rename.go, inline.go, placed.go),
// calling its Kernels at each kernel's position; the code every backend's
// output is made of: the sequential loop of a lowered kernel and its
// pieces (Loop, LoopParts: fused.go; its body: loopbody.go, select.go),
// the chunk loop of a stream (FusedStream: kernel.go, chunkloop.go; its
// pieces for a backend that runs the chunks itself, StreamParts:
// streamparts.go), the reference calls (Unfused, Reference), the rerun
// guard (EmitGuarded), the code blocks (Stmts, Block, Define, …: code.go),
// slices allocated uncleared (Uncleared: alloc.go). Imports no backend,
// and reads the lowered form (rewrite/lowered), never the fusion plan.
package hostgo
