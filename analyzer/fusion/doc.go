// Package fusion is soacgen's fusion engine: for one IR function it decides
// which SOACs run together as one pass over memory (kernels), and explains
// every fusion that was possible in shape but refused (notes naming the
// rule, the variable and the position).
//
// The engine follows the bottom-up T2 reduction of Henriksen & Oancea,
// "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion]: it builds a dependency graph (graph.go), visits each block's SOACs
// from last to first and fuses a producer into the kernel of its consumers
// when a rule of the table allows it (rules.go) and every move is legal
// (legal.go), copying a producer into the kernels of disjoint branches
// (only into those that consume it when it has no effect and cannot
// panic, so that leaving it out elsewhere is unobservable), and into the
// kernels of a branch that returns and of the statements after its if
// or switch (each path computes it once);
// then it merges independent kernels over one iteration space
// horizontally. Iteration spaces follow the size inference of Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP],
// so a filter and the reductions of its output share a pass with other
// SOACs over the filter's input (space.go).
//
// Go is not Futhark: slices alias, lambdas capture variables by reference
// and may have side effects, functions may write their arguments. The
// legality checks therefore refuse to move a SOAC past a write to memory
// its inputs may alias, a reassignment of a variable it reads, a possible
// exit, or any side effect, and impure SOACs never fuse, except a Map
// into the pure Reduce it feeds, which performs the Map's effects in the
// same order (effects.go). Where a producer cannot move down to its
// consumers, the kernel may run at the producer instead, its later
// members moved up past what they commute with (placement, place.go).
// Each move is checked against the statements it passes, and the kernels
// as a whole against every dependency: running each SOAC at its kernel's
// position keeps every edge of the graph in program order (order.go).
// The driver asks before each fusion and merge, Check verifies it, and
// Fuse never returns a plan that breaks it, whatever the method.
//
// Which kernels to form is a clustering problem with other solutions than
// greedy's (Options.Cluster, the directive's cluster=): ilp solves the
// integer linear program of [Robinson-ILP] with gophersat (ilp.go), wsp the
// weighted subroutine partition of Kristensen et al., "Fusion of Array Operations at Runtime" (2016) [Bohrium-WSP] by branch and bound (wsp.go); both price
// clusterings with cost.go's models and realise their choice by replaying
// the greedy driver restricted to it (replay.go), so every fusion they
// make passed the same checks. Each has a time budget per function
// (Options.Budget) and falls back to the best clustering found. The
// environment variable SOACGEN_CLUSTER sets the default method, so that
// the differential tests can run under each.
//
// Entry points: Fuse (with Options), Check (validates a Plan), Dump (text
// form of a Plan), Rules and Refusals (the table and the refusal ids),
// NewGraph (the dependency graph). The engine reports nothing itself; the
// soacvet analyzer and the report package turn plans into diagnostics and
// JSON.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the engine: dependency
// graph (legality), the rule table (which fusion), the greedy bottom-up T2
// driver (driver.go; vertical fusion, vertical.go and fuseinto.go; copies
// into branches, branchcopy.go, and into the paths a return separates,
// returnpaths.go; merges, horizontal.go; a producer whose
// consumer kernels cannot merge fuses into the first with a map-out
// array, also into a stream's chunk loop; an impure Map fuses only into
// the pure Reduce it feeds, effects in order; placement: when a producer
// cannot move down to its consumers' kernel,
// the kernel runs at the producer and its members after it move up past
// the statements they commute with, place.go; two SOACs ordered only by
// their panics share a kernel, whose asserts and rerun keep the spec's
// first panic; a producer whose captured variable is reassigned before its
// consumers moves down reading a copy taken where it is written,
// Kernel.Copies, never of a value holding a lock; an index read, a Map's
// or Filter's literal reading a captured array only as ys[p], p its Iota
// element and len(ys) provably the Iota's length, is an element-wise flow
// of ys into it, Kernel.Gathers, tag index-read, gather.go); the
// clustering problem (cluster.go) and the engine's necessary conditions
// for two SOACs to share a kernel (implications.go); the clustering
// methods greedy, ilp (the integer linear program of
// [Robinson-ILP], solved by gophersat) and wsp (the branch and bound of
// [Bohrium-WSP]), which
// choose a clustering and have the greedy driver replay it under all its
// checks; returns a Plan per function with its cost. testdata/src/futhark
// holds Futhark's tests/fusion programs in Go with Futhark's structure as
// expectation.
package fusion
