// Command soacvet runs soacgen's checks: the soacvet analyzer (package
// analyzer/soacvet), which reports SOAC pipelines that could be fused,
// fusions that are blocked and misuses of runtime/soac, and beside it the
// stale analyzer (package rewrite/stale), which reports generated code
// that go generate would change. Use it on its own or as a vet tool:
//
//	soacvet [-flags] ./...
//	go vet -vettool=$(which soacvet) ./...
//
// Both analyzers run as one, named soacvet, with soacvet's flags
// (-categories selects the stale category too). It exits non-zero when
// it reports findings (3 on its own, 1 under go vet), as every go/analysis
// single checker does; -fix applies the suggested fixes.
package main

import (
	"flag"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/soacgen/soacgen/analyzer/soacvet"
	"github.com/soacgen/soacgen/rewrite/stale"
)

func main() { singlechecker.Main(suite(soacvet.Analyzer, stale.Analyzer)) }

// suite returns one analyzer that runs the analyzers as, named and
// documented as the first and with its flags. Each runs on the suite's
// pass, so that their findings are the suite's (a driver prints those of
// the analyzers it was given, not of those they require); the suite
// requires what they all require.
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
			if len(pass.TypeErrors) > 0 && !a.RunDespiteErrors {
				continue
			}
			if _, err := a.Run(pass); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	return s
}
