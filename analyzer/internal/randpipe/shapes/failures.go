package shapes

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
)

// knownFailures are failures of generated code that a pending
// regression file reproduces, by the message: while the file stays
// pending, the default run logs them instead of failing (a campaign
// fails on them too, labelled with the file).
var knownFailures = []struct {
	backends []string
	re       *regexp.Regexp
	file     string
}{}

// knownFailure returns the pending file that reproduces failure msg of
// backend b, or "".
func knownFailure(b, msg string, pending map[string]string) string {
	for _, k := range knownFailures {
		if _, ok := pending[k.file]; ok && slices.Contains(k.backends, b) && k.re.MatchString(msg) {
			return k.file
		}
	}
	return ""
}

// logFailure appends line to the file RANDPIPE_FAILLOG names, if any.
func logFailure(backend, line string) {
	if fl := os.Getenv("RANDPIPE_FAILLOG"); fl != "" {
		if fh, err := os.OpenFile(fl, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			first, _, _ := strings.Cut(line, "\n")
			fmt.Fprintf(fh, "%s %s\n", backend, first)
			fh.Close()
		}
	}
}

// buildLine is a compiler or vet message about a file of a package of
// the module (the package's directory starts its path).
var buildLine = regexp.MustCompile(`^(?:vet: )?(\w+)/\w+\.go:\d+:\d+: `)

// failure is one failing test (or a package that failed without one).
type failure struct{ test, msg string }

// packageFailures attributes the failures of `go test -v ./...` output to
// packages: each package's output ends with its "ok" or "FAIL" line.
func packageFailures(out string) map[string][]failure {
	res := map[string][]failure{}
	var pend []failure
	var cur, extra []string // the running test's output; lines outside tests
	buildErr := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if m := buildLine.FindStringSubmatch(l); m != nil {
			buildErr[m[1]] = append(buildErr[m[1]], l)
			continue
		}
		if strings.HasPrefix(l, "=== RUN") {
			cur = nil
			continue
		}
		if m := randpipe.FailLine.FindStringSubmatch(l); m != nil {
			msg := strings.Join(cur, " ")
			if len(msg) > 800 {
				msg = msg[:800] + "..."
			}
			pend = append(pend, failure{test: m[1], msg: msg})
			cur = nil
			continue
		}
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(l, " ") && !strings.Contains(l, ": hazard ") && !strings.HasPrefix(trimmed, "--- PASS") {
			cur = append(cur, trimmed)
			continue
		}
		if strings.HasPrefix(l, "RPGUARD:") || strings.HasPrefix(l, "panic:") || strings.Contains(l, ".go:") {
			extra = append(extra, l)
		}
		f := strings.Fields(l)
		if len(f) >= 2 && (f[0] == "FAIL" || f[0] == "ok") && strings.HasPrefix(f[1], randpipe.ModulePath+"/") {
			pkg := strings.TrimPrefix(f[1], randpipe.ModulePath+"/")
			if f[0] == "FAIL" {
				if len(pend) == 0 {
					msg := strings.Join(append(buildErr[pkg], extra...), " | ")
					if len(msg) > 800 {
						msg = msg[:800] + "..."
					}
					pend = append(pend, failure{test: "(package)", msg: msg + " " + strings.Join(f[2:], " ")})
				}
				res[pkg] = append(res[pkg], pend...)
			}
			pend, extra = nil, nil
		}
	}
	if len(pend) > 0 {
		res["?"] = append(res["?"], pend...)
	}
	return res
}
