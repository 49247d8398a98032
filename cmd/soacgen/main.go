package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/soacgen/soacgen/analyzer/report"
)

func main() {
	os.Exit(run(os.Args[1:], "", os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // source, type or directive errors; -check drift
	exitUsage = 2 // bad flags; modes not implemented yet
)

// notImplemented is printed by plain generation mode and -check until the
// code generator (issue 4) exists.
const notImplemented = "soacgen: code generation is not implemented yet (see issue 4); use -json for the fusion report"

const usageHeader = `usage: soacgen [flags] [packages]

soacgen generates, for every function with a //soac:fuse NAME directive in
the named packages (default "."), a function NAME whose SOAC pipelines are
fused. Code generation is not implemented yet; -json and -stats work.

Exit status: 0 success, 1 source/type/directive errors, 2 usage errors and
modes not implemented yet.

Flags:
`

// run is soacgen with the given arguments, loading packages relative to dir
// ("" for the current directory); it returns the exit status.
func run(args []string, dir string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("soacgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print the fusion report as JSON on standard output")
	stats := fs.Bool("stats", false, "print the fusion statistics table (on standard error when -json is given too)")
	check := fs.Bool("check", false, "write nothing; exit 1 if a generated file is missing or would change")
	gas := fs.Int("fuse.gas", 0, "stop the fusion engine after N fusions per function (0: no limit), to bisect a wrong fusion")
	backend := fs.String("backend", report.DefaultBackend, "backend of specs whose directive names none: "+strings.Join(report.Backends, ", "))
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHeader)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if !report.ValidBackend(*backend) {
		fmt.Fprintf(stderr, "soacgen: invalid -backend %q: want one of %s\n", *backend, strings.Join(report.Backends, ", "))
		return exitUsage
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}

	rep, errs, err := analyze(dir, patterns, *backend, *gas)
	if err != nil {
		fmt.Fprintf(stderr, "soacgen: %v\n", err)
		return exitError
	}
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return exitError
	}

	if *jsonOut {
		if err := rep.WriteJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "soacgen: %v\n", err)
			return exitError
		}
	}
	if *stats {
		w := stdout
		if *jsonOut {
			w = stderr
		}
		if err := report.WriteStats(w, rep); err != nil {
			fmt.Fprintf(stderr, "soacgen: %v\n", err)
			return exitError
		}
	}
	if *check || (!*jsonOut && !*stats) {
		fmt.Fprintln(stderr, notImplemented)
		return exitUsage
	}
	return exitOK
}
