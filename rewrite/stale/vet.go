package stale

// This file combines soacvet's analyzer and this package's into the one
// analyzer that cmd/soacvet and its golangci-lint plugin run. It does not
// check anything itself.

import (
	"flag"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/soacvet"
)

// Vet runs soacvet.Analyzer and Analyzer as one analyzer named soacvet,
// with soacvet's documentation and flags (-categories gates both).
var Vet = suite(soacvet.Analyzer, Analyzer)

// suite returns one analyzer that runs the analyzers as, named and
// documented as the first and with its flags. Each runs on the suite's
// pass, so that their findings are the suite's (a driver prints those of
// the analyzers it was given, not of those they require); the suite
// requires what they all require and runs despite type errors only if
// they all do.
func suite(as ...*analysis.Analyzer) *analysis.Analyzer {
	first := as[0]
	s := &analysis.Analyzer{Name: first.Name, Doc: first.Doc, URL: first.URL, RunDespiteErrors: true}
	first.Flags.VisitAll(func(f *flag.Flag) { s.Flags.Var(f.Value, f.Name, f.Usage) })
	seen := map[*analysis.Analyzer]bool{}
	for _, a := range as {
		s.RunDespiteErrors = s.RunDespiteErrors && a.RunDespiteErrors
		for _, r := range a.Requires {
			if !seen[r] {
				seen[r] = true
				s.Requires = append(s.Requires, r)
			}
		}
	}
	s.Run = func(pass *analysis.Pass) (any, error) {
		for _, a := range as {
			if _, err := a.Run(pass); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	return s
}
