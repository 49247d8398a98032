// Package shapes runs random programs with reassignment shapes
// (randpipe.Config.ShapeRate) through the code generator with every
// backend and compares each generated function with its spec: the cpu
// backend, parallel under GOMAXPROCS 1 and 4, opencl with a guard that
// fails a kernel which could not run on the device, and auto
// (randpipe.ShapeRuns configures each). A fallback warning that its table
// of expected fallbacks does not explain fails the run, and so does a
// parallel run in which no random program runs maps fused into a stream.
// Each backend's run also runs the regression files of testdata/regress
// that hold shapes or run on every backend (everyBackend).
//
// The runs are cut into shards (Shards), each run by the TestRandomShapes
// of a test package of its own under this directory, so that each test
// binary of go test ./... stays well within go test's default timeout of
// 10 minutes on two cores: cpu, parallel and auto run a backend each;
// PoCL builds every new OpenCL kernel, which makes the opencl run the
// longest, and opencl (its random programs), openclregress and openclnil
// (its regression files) share it. Run runs a shard.
//
// The default run is small; a campaign chooses its programs with
// environment variables:
//
//	RANDPIPE_BACKENDS  backends to run, comma-separated (default cpu,parallel,opencl,auto):
//	                   the shards of the other backends skip
//	RANDPIPE_SEED0     the first package seed (default: each backend's own, randpipe.ShapeRun.Seed0)
//	RANDPIPE_N         programs (specs) per backend; packages of 10 specs, seeds SEED0, SEED0+1, ...
//	RANDPIPE_BATCH     packages per `go test` run (default 10)
//	RANDPIPE_FAILLOG   a file the failing programs are appended to, one a line
//	RANDPIPE_KEEP      a directory the temporary modules are kept in
//
// for example (a campaign runs longer than go test's default timeout):
//
//	RANDPIPE_BACKENDS=parallel RANDPIPE_SEED0=200000 RANDPIPE_N=5000 \
//	  go test ./analyzer/internal/randpipe/shapes/... -run 'TestRandomShapes$' -timeout 0 -v
//
// runs the shard packages of the parallel backend (here one,
// shapes/parallel) and skips the others; naming a shard package instead
// of ./analyzer/internal/randpipe/shapes/... runs that shard alone (the
// opencl backend's random programs without its regression files:
// ./analyzer/internal/randpipe/shapes/opencl). A
// campaign runs every shape and fails on every mismatch; the default run
// leaves out the shapes, and logs the failures, that a pending regression
// file reproduces (pendingShapes, knownFailures). On a 2-core machine 100
// programs took about 1 minute with cpu, 3 with parallel and 16 with
// opencl on PoCL, which builds every new kernel.
package shapes
