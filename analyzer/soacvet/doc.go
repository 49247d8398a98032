// Package soacvet defines an Analyzer that reports what fusion of
// runtime/soac pipelines would do, or cannot do, in the analysed package.
//
// # Analyzer soacvet
//
// soacvet: report SOAC pipelines that could be fused, fusions that are blocked, and misuses of runtime/soac
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
// Methods and init functions get the finding but no fix, since a directive
// applies to top-level functions only. Functions in generated files (a
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
// global memory, calls of impure functions). CONTRACT.md requires lambdas
// to be pure; soacgen does not reorder such calls, which blocks fusion.
//
// unsupported: in a spec, a SOAC call that soacgen cannot model (for
// example a combinator called through a function value, or inside && or
// ||): it stays as written and unfused.
//
// directive: a malformed //soac:fuse directive (missing or invalid name,
// unknown backend, a directive not in a top-level function's doc comment).
// soacgen refuses to run on such a package.
//
// Findings of the fusion engine that carry another category are reported
// under that category.
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
//
// # Usage
//
//	go vet -vettool=$(which soacvet) ./...
//	soacvet ./...
//	soacvet -fix ./...          # apply the unfused fixes
//	soacvet -categories=unfused,size ./...
package soacvet
