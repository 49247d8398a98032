// Package soacvet defines an Analyzer that reports what fusion of
// runtime/soac pipelines would do, or cannot do, in the analysed package,
// and whether the code soacgen generated for it is up to date.
//
// # Analyzer soacvet
//
// soacvet: report SOAC pipelines that could be fused, fusions that are blocked, misuses of runtime/soac, stale generated code, and kernels that fall back from the backend asked for
//
// soacvet builds the IR of every function that calls runtime/soac (the
// soacir analyzer), runs the fusion engine on it exactly as soacgen does,
// and reports its findings in the following categories. Category names are
// stable: select them with -categories, and match them in tools that read
// the analysis.Diagnostic.Category of go vet -json output.
//
// unfused: in a function WITHOUT a //soac:fuse directive, a pipeline of
// SOAC calls that fusion would run as one pass. The message says what the
// pipeline costs now and fused, for example
//
//	pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass
//
// (generators, Iota and Replicate, make no pass of their own; an
// intermediate slice is one that fusion no longer materialises). The first
// such finding of each function carries a suggested fix that inserts the
// directive line
//
//	//soac:fuse NAMEFused
//
// directly above the func keyword (so it becomes the last line of the
// function's doc comment): the function's name with "Fused" appended, which
// is exported exactly when the function is; when that name is taken in the
// package scope, the first free name of NAMEFused2, NAMEFused3, ... is used.
// When no file of the package has a //go:generate line running soacgen,
// the fix also adds one after the package clause, so that "run go
// generate" generates NAMEFused. Methods and init functions get the
// finding but no fix, since a directive applies to top-level functions
// only. Functions of _test.go files get neither, since soacgen does not
// generate specs of test files. Functions in generated files (a
// "Code generated ... DO NOT EDIT." header) are not checked.
//
// blocked: in a spec (a function WITH a //soac:fuse directive), each fusion
// that was possible in shape but refused because it could change what the
// program computes: a slice written between producer and consumer, a
// captured variable reassigned, a result consumed twice, a loop boundary,
// ... The message is the fusion engine's reason, which names the variable
// and positions, followed by the refusal's rule identifier in brackets
// (fusion.Refusals lists them); the finding is at the hazard. A refusal
// that a size or impure finding at the same position already explains is
// not repeated.
//
// size: a Map2 or Map3 that zips a filtered array with the array it was
// filtered from (or with another array of the unfiltered length): their
// lengths differ, and the call panics, unless the filter keeps every
// element. Reported in every function, since it is almost certainly a bug.
//
// impure: in a spec, a lambda with side effects (I/O, writes to captured or
// global memory, calls of impure functions). docs/contract.md requires lambdas
// to be pure; soacgen does not reorder such calls, which blocks fusion.
//
// unsupported: in a spec, a SOAC call that soacgen cannot model (for
// example a combinator called through a function value, or inside && or
// ||): it stays as written and unfused. Also, at the package's first spec,
// a package soacgen fails to generate (a generator error, or a spec's NAME
// that the package declares by hand), whose generated files the stale
// check then cannot check; the stale analyzer (below) reports it when
// unsupported, stale or fallback is enabled, since go generate and
// soacgen -check fail on it.
//
// directive: a malformed //soac:fuse directive (missing or invalid name,
// unknown backend or key, a directive not in a top-level function's doc
// comment, a NAME that another directive of the package, on the same spec
// or another, already gives, or that the package declares itself).
// soacgen refuses to run on such a package.
//
// stale: generated code that is not what soacgen would write now, so that
// go generate would change it. This category is reported by the stale
// analyzer (package rewrite/stale: it runs the generator, which no package
// of analyzer/ imports), which cmd/soacvet runs beside this one under
// this one's flags. It generates the package as soacgen
// would, byte for byte (from the package as soacgen loads it, its previous
// outputs hidden, and with no -fuse.gas limit, as go generate runs it; see
// rewrite.Regenerate), compares each generated function with the one in
// the file on disk, and reports each that differs at its spec's
// //soac:fuse directive:
//
//	stale: Normalize2 in n_soac.go is out of date with normalize2Spec; run go generate
//	stale: Normalize2 is missing from n_soac.go; run go generate to generate it from normalize2Spec
//	stale: n_soac.go is missing (it holds Normalize2, generated from normalize2Spec); run go generate
//
// A generated function is out of date when its spec changed, and also when
// something else its code is generated from did: the specs' names (the
// generator's own names avoid them), or the generator itself. A generated
// file whose functions all match but whose bytes differ elsewhere (its
// imports, a hand edit) is reported once, at its first spec; a file at the
// output path without soacgen's header, which go generate refuses to
// overwrite, at each of its specs; a file soacgen generated that no spec
// generates any more, which go generate deletes, at its package clause. A
// spec whose signature changed also breaks the build: the generated file
// does not compile, with an error naming soacgenRerunGoGenerate_NAME. A
// package that soacgen would not generate (one with type errors even when
// its generated files are hidden, as soacgen loads it, or with a malformed
// directive) is not checked, nor are specs in _test.go files, which
// soacgen does not generate. A package with neither specs nor generated
// files costs the check nothing.
//
// The first stale finding of a generated file that exists carries a
// suggested fix: one edit that replaces the whole file with what go
// generate would write, visible in -json output and to tools that read
// it. soacvet -fix does not apply it: the x/tools drivers (soacvet -fix,
// go fix) never edit a file marked generated. No fix can create a
// missing file or delete a left-over one, and none is offered for a file
// soacgen did not write or one that build constraints exclude. The fix
// is what soacgen writes with its default flags (as the stale check
// compares with), so it differs from go generate's output when the
// //go:generate line passes soacgen flags. For every stale finding, run
// go generate.
//
// fallback: in a spec, a kernel whose generated code is not the backend
// the spec asked for: a backend of the chain (opencl, then parallel, then
// cpu) refused it at generation time, and the next one's code runs it.
// soacgen prints the same as a warning and the -json report as a
// backend-fallback note; this finding lets a CI gate require that what
// was asked for is what runs. Like stale, it is reported by the stale
// analyzer (package rewrite/stale) from the code soacgen would generate
// now, at the kernel's position, one finding per kernel naming the
// kernel as the report numbers it, its combinators, the backend asked
// for, the backend whose code runs it, and each refusal's reason:
//
//	fallback: kernel 1 of Lengths (Map): asked for opencl, runs parallel: backend opencl does not generate this kernel: REASON; it falls back to parallel
//
// The backend asked for is the directive's backend= (backend=auto tries
// opencl first); a spec whose directive names none is checked as cpu,
// soacgen's default, so a package generated with soacgen -backend should
// name its backend in its directives. Fallbacks at run time (no OpenCL
// device, a failed build, a call too large for the device) are not
// findings: package runtime/opencl/launch logs and lists them
// (launch.FallbackList).
//
// lochain: a pipeline written with github.com/samber/lo instead of
// runtime/soac (package analyzer/lochain finds it): calls of lo.Map,
// lo.Filter, lo.FilterMap, lo.Sum, lo.SumBy, lo.Count, lo.CountBy and
// lo.Reduce where each call's slice is the next one's collection, nested
// or through a local variable assigned once and read only there. Each
// call is a pass over the data and each slice between two calls an
// allocation; the finding, at the last call, says so and what one fused
// pass would allocate:
//
//	lo.Filter → lo.Map → lo.Sum makes 3 passes over its data and allocates 2 intermediate slices; one fused pass (a runtime/soac spec with a //soac:fuse directive) would allocate no slice
//
// A slice that another statement reads too ends the chain there (it must
// exist); a single call is no finding; test files are not searched (tests
// and benchmarks keep multi-pass lo code as the baseline a fused spec is
// compared with).
//
// Findings of the fusion engine that carry another category are reported
// under that category.
//
// A spec with several //soac:fuse directives is analysed once per
// clustering method its directives ask for (cluster=; the backend does not
// change which fusions are made or refused), and a finding that several
// of those analyses make (the same position, category and message) is
// reported once, not once per directive.
//
// A package with type errors is not analysed: the driver prints the type
// errors instead (soacvet requires the IR builder, which needs complete
// type information).
//
// # Flags
//
//	-categories=LIST
//		Report only the categories in the comma-separated LIST (default
//		"all": every category). Unknown names are an error.
//	-fuse.gas=N
//		Stop the fusion engine after N fusions per function (default 0: no
//		limit), as soacgen -fuse.gas does, to bisect a wrong fusion. With a
//		limit, unfused findings describe the limited fusion.
//	-cluster=greedy|ilp|wsp
//		The clustering method of specs whose directive names none, as
//		soacgen -cluster (default greedy). The stale check regenerates with
//		the directive's cluster= or the default, so a package generated
//		with soacgen -cluster should name its method in its directives.
//
// # Usage
//
//	go vet -vettool=$(which soacvet) ./...
//	soacvet ./...
//	soacvet -fix ./...          # apply the unfused fixes
//	soacvet -categories=unfused,size ./...
//	soacvet -categories=stale ./...   # what go generate would change
//	soacvet -categories=fallback ./...   # kernels not on the backend asked for
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): analyzer: unfused,
// blocked, size, impure, unsupported, directive, lochain diagnostics; its
// -categories flag also gates rewrite/stale (soacvet.Enabled) and the
// fallback category, which rewrite/stale reports.
package soacvet
