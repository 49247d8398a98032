// Command soacgen fuses pipelines of runtime/soac combinators: for every
// function of a package whose doc comment holds a directive
//
//	//soac:fuse NAME [backend=cpu|parallel|opencl|auto]
//
// (a spec), it generates a function NAME with the spec's signature whose
// SOAC pipelines run as few passes over memory as fusion allows without
// changing what the spec computes. See CONTRACT.md for the contract.
//
// Usage:
//
//	soacgen [flags] [packages]
//
// The packages are go list patterns; the default is ".". Typical use is a
// //go:generate line in the package:
//
//	//go:generate go run github.com/soacgen/soacgen/cmd/soacgen
//
// The flags are:
//
//	-json
//		Print the fusion report (CONTRACT.md, "The fusion report") on
//		standard output: for every package its specs, each with its kernels
//		(the SOAC calls that run as one pass, by combinator and position),
//		the notes explaining fusions that were refused, and fusion
//		statistics. Positions are file:line:col with the file relative to
//		the module root directory of the package.
//	-stats
//		Print a table of fusion statistics (how often each fusion rule
//		fired, passes over memory before and after fusion, intermediate
//		arrays removed), one column per package, on standard output; on
//		standard error when -json is given too, so that standard output
//		stays valid JSON.
//	-check
//		Write nothing; exit 1 when a generated file is missing or would
//		change (a CI drift check), 0 otherwise.
//	-backend=B
//		The backend of every spec whose directive names none: cpu (the
//		default), parallel, opencl or auto. Any other value is an error.
//	-fuse.gas=N
//		Stop the fusion engine after N fusions per function (default 0: no
//		limit), to bisect a wrong fusion.
//
// Code generation is not implemented yet (issue 4): plain generation mode
// and -check print "soacgen: code generation is not implemented yet (see
// issue 4); use -json for the fusion report" and exit 2. -json and -stats
// print their output and exit 0.
//
// Exit status: 0 on success; 1 when a package has syntax, type or directive
// errors (each printed as file:line:col: message on standard error, the
// file relative to the current directory when it lies below it, and
// nothing is written); 2 for usage errors and for the modes not implemented
// yet.
package main
