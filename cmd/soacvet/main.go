// Command soacvet runs soacgen's checks: the soacvet analyzer (package
// analyzer/soacvet), which reports SOAC pipelines that could be fused,
// fusions that are blocked and misuses of runtime/soac, and beside it the
// stale analyzer (package rewrite/stale), which reports generated code
// that go generate would change and kernels whose generated code is not
// the backend their spec asked for (the fallback category); both run as one analyzer named soacvet
// with soacvet's flags (stale.Vet). Use it on its own or as a vet tool:
//
//	soacvet [flags] [packages]
//	go vet -vettool=$(which soacvet) [flags] [packages]
//
// It is a go/analysis single checker: the usual flags of go vet and of
// singlechecker work, among them -json (findings, with their categories
// and suggested fixes, as JSON on standard output), -c=N (N lines of
// context), -fix and -diff (apply, or show, the suggested fixes), -test
// (also analyse test files; default true), -flags and -V=full (the vet
// tool protocol), and the analyzer's own -categories and -fuse.gas.
//
// Exit status, the same on its own as under go vet:
//
//	0  no findings; or -json (findings are in the output); or -fix
//	1  findings; or packages that fail to load or type-check
//	2  a usage error on its own, such as an unknown flag (go vet
//	   exits 1 for a bad value of a soacvet flag)
//
// A go/analysis single checker exits 3 for findings; soacvet runs it in a
// child process and turns that 3 into go vet's 1.
//
// Suggested fixes: an unfused pipeline's finding carries the fix that adds
// //soac:fuse to its function, which -fix applies. A stale finding whose
// generated file exists carries the fix that rewrites that file as go
// generate would (it is in the -json output), but -fix, like every
// x/tools driver, never edits a generated file, and no fix can create a
// missing file or delete a left-over one: for stale findings, run go
// generate.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/soacgen/soacgen/rewrite/stale"
)

// childEnv marks the child process that runs the single checker.
const childEnv = "SOACVET_CHECKER"

// exitFindings is the status a go/analysis single checker exits with when
// it reports findings; go vet exits 1.
const exitFindings = 3

func main() {
	if os.Getenv(childEnv) != "" || vetProtocol(os.Args[1:]) {
		singlechecker.Main(stale.Vet)
	}
	os.Exit(runChecker(os.Args[1:]))
}

// vetProtocol reports whether go vet runs the tool: with one *.cfg file
// (a unit to check), -flags or -V=full. go vet interprets the exit status
// itself then.
func vetProtocol(args []string) bool {
	return len(args) == 1 && (strings.HasSuffix(args[0], ".cfg") || args[0] == "-flags" || strings.HasPrefix(args[0], "-V"))
}

// runChecker runs this executable again as the single checker with args,
// sharing standard input and output, and returns its exit status, with
// the single checker's 3 (findings) turned into go vet's 1.
func runChecker(args []string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "soacvet: %v\n", err)
		return 1
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() == exitFindings:
		return 1
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return ee.ExitCode()
	}
	fmt.Fprintf(os.Stderr, "soacvet: %v\n", err)
	return 1
}
