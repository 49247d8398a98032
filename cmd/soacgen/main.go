package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite"
)

// absDir is dir ("" for the current directory) made absolute.
func absDir(dir string) string {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	return abs
}

func main() {
	os.Exit(run(os.Args[1:], "", os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // source, type or directive errors; -check drift
	exitUsage = 2 // bad flags
)

const usageHeader = `usage: soacgen [flags] [packages]

soacgen generates, for every function with a //soac:fuse NAME directive in
the named packages (default "."), a function NAME whose SOAC pipelines are
fused, into x_soac.go beside each file x.go holding specs. Generated files
are written only when their content changes; soacgen's outputs that no
longer correspond to a spec are deleted; files without soacgen's header are
never touched.

Exit status: 0 success, 1 source/type/directive errors or (-check) a
generated file that is missing or would change, 2 usage errors.

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
	backend := fs.String("backend", report.DefaultBackend, "backend of specs whose directive names none: "+strings.Join(ir.Backends, ", "))
	verify := fs.Bool("verify", false, "verify the IR, the fusion plans and the lowered kernels between the stages (a debugging switch: a broken invariant is an error)")
	graphDir := fs.String("graph", "", "write each spec's fusion graph to `DIR` as Graphviz DOT, and DIR/index.html")
	cluster := fs.String("cluster", fusion.DefaultMethod, "clustering method of specs whose directive names none: "+strings.Join(fusion.Methods(), ", "))
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
		fmt.Fprintf(stderr, "soacgen: invalid -backend %q: want one of %s\n", *backend, strings.Join(ir.Backends, ", "))
		return exitUsage
	}
	if fusion.PartitionerFor(*cluster) == nil {
		fmt.Fprintf(stderr, "soacgen: invalid -cluster %q: want one of %s\n", *cluster, strings.Join(fusion.Methods(), ", "))
		return exitUsage
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if done, err := deleteTombstone(absDir(dir)); done || err != nil {
		if err != nil {
			fmt.Fprintf(stderr, "soacgen: %v\n", err)
			return exitError
		}
		return exitOK
	}

	res, errs, err := analyze(dir, patterns, rewrite.Options{Backend: *backend, Gas: *gas, Cluster: *cluster, Check: *verify})
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

	rep := res.rep
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
	if *graphDir != "" {
		out := *graphDir
		if !filepath.IsAbs(out) {
			out = filepath.Join(dir, out)
		}
		if err := writeGraphs(out, res, stderr); err != nil {
			fmt.Fprintf(stderr, "soacgen: -graph: %v\n", err)
			return exitError
		}
	}
	wd := absDir(dir)
	for _, w := range res.warnings {
		fmt.Fprintf(stderr, "soacgen: %s\n", w)
	}
	for _, o := range res.outs {
		for _, w := range o.Warnings {
			fmt.Fprintf(stderr, "soacgen: %s\n", relFile(w, wd))
		}
	}
	for _, w := range importWarnings(res.outs, res.known, wd) {
		fmt.Fprintf(stderr, "soacgen: %s\n", w)
	}
	changes, err := rewrite.SyncPending(res.outs, res.files, *check, pendingUnderGenerate(wd, res.listed))
	if err != nil {
		fmt.Fprintf(stderr, "soacgen: %v\n", err)
		return exitError
	}
	if *check && len(changes) > 0 {
		done := map[string]string{"create": "created", "update": "updated", "delete": "deleted"}
		for _, c := range changes {
			fmt.Fprintf(stderr, "soacgen: %s: generated file would be %s (run go generate)\n", relFile(c.Path, wd), done[c.Kind])
		}
		return exitError
	}
	return exitOK
}
