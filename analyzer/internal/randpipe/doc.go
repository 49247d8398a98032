// Package randpipe generates random spec packages for soacgen, Csmith
// style, and holds the tests that run them through the real analysis
// (build, fusion, Check); the test packages under pipelines and shapes
// run them, differentially, through the code generator.
//
// Generate(seed, cfg) returns the Go source of one package with cfg.Specs
// spec functions, each marked //soac:fuse NAME: a random DAG of Map, Map2,
// Map3, Filter, Reduce, Scan, Iota, Replicate, StreamMap and StreamRed over
// []int64, []float64 and []int, with small arithmetic lambdas written in
// every way the contract allows (function literals with captures,
// multi-statement bodies with early returns and shadowed names, named
// helpers, local function variables, SOACs nested in lambdas). A fraction
// of the specs carries one injected hazard (see HazardKind): a write,
// reassignment, impure lambda, branch, loop, size mismatch, early return or
// intentional panic between a producer and its consumer. Each hazard names
// its producer and consumer variables and the refusal rule the engine must
// give (Expected), so the engine test can check the plan, and the
// differential test can count the hazards it ran.
//
// Further constructs are switched on by Config, each drawing nothing from
// the generator's randomness when off: a bool parameter flag and
// reductions on one of its branches (FlagBranches), zips of an array with
// an Iota or a Replicate written inside the call (ZipGenerators),
// StreamReds whose chunk functions read their chunk by index, often fed
// by a Map (IndexedStreams), int64 expressions that may divide by zero
// (DivideRate), and, for the cpu backend only, reduction operators that
// are not associative or start from a value that is not their neutral
// element (NonAssociative). The cpu differential test (package
// pipelines, which also runs Futhark's fusion suite) runs them all; the
// shapes' runs of every backend all but NonAssociative, which only the
// cpu run adds.
//
// With Config.ShapeRate, specs also carry reassignment shapes (see
// ShapeKind): SOAC chains in counted and range loops whose variables are
// reassigned every round (xs = Map(xs, f) then a Reduce, a scalar a
// lambda of the next round reads), conditional reassignment, double
// buffers (tuple swaps), self-assignment, a local function assigning a
// captured variable between SOACs, and scalars of one kernel captured by
// lambdas of SOACs that could fuse with another. Each spec records its
// shapes (Spec.Shapes, and a "has shapes" comment) so that the tests
// count the programs exercising each. Package shapes runs them through
// the generator with every backend (cpu, parallel under GOMAXPROCS 1 and
// 4, opencl with a guard that fails a kernel which could not run on the
// device, auto; ShapeRuns configures each run), in shards, each the
// TestRandomShapes of a test package of its own under shapes/, so that
// each test binary stays well within go test's default timeout. It fails
// on a fallback warning its table of expected fallbacks does not explain,
// and on a parallel run in which no random program runs maps fused into
// a stream, and takes RANDPIPE_BACKENDS, RANDPIPE_SEED0, RANDPIPE_N,
// RANDPIPE_BATCH, RANDPIPE_FAILLOG and RANDPIPE_KEEP for campaigns of
// fresh programs (package shapes says how). Regression files of
// testdata/regress whose first line starts with "//randpipe:pending "
// reproduce a bug not fixed yet: the tests skip them, and deleting that
// line enables them.
//
// With Config.ReturnPathRate and Config.ClosureCallRate (ShapeConfig and
// MoreConfig set both), specs also carry path shapes (PathShapes): a
// producer consumed in a branch of an if or switch that ends in a return
// and again after the statement, fused into each path's kernel, and a
// local closure whose literal only returns a Map, called for a SOAC's
// array argument and seen through; each with twins that must not fuse so
// (a branch that falls through, a case that returns skipping a producer
// that may panic; a closure assigned again, a name its literal reads
// shadowed at the call). They draw from a source of their own, seeded by
// the package's seed and the spec's index, and go in once the spec is
// written, so that a spec without one is what it was without them. Each
// spec records them with the variable each is about (Spec.Paths and a
// "has path shape" comment), and the engine test checks the decision of
// each.
//
// The generator is deterministic: the same seed and Config give the same
// bytes. Lambdas do not panic, except the intentional Map2/Map3 length
// mismatches (any spec called with unequal input lengths), the
// index-out-of-range of the index-oob and panic-order hazards, and the
// divisions by zero of Config.DivideRate.
//
// WriteModule lays packages out as a temporary module that imports the
// repository through a replace directive; HarnessSource returns the
// generated _test.go that compares each NAME with its spec.
// RunDiff runs that test on a batch with a given generator.
// RegressPackages (the committed regression files), Batch, MoreConfig,
// ShapeRuns, LoadModule and FormatCounts are what the tests of this
// package and of packages shapes and pipelines share; this package's own
// tests are the generator's, the analysis's and the harness's, which
// build no generated code of the real generator.
package randpipe
