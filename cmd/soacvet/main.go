// Command soacvet runs the soacvet analyzer (package analyzer/soacvet): it
// reports SOAC pipelines that could be fused, fusions that are blocked,
// misuses of runtime/soac, and generated code that go generate would
// change. Use it on its own or as a vet tool:
//
//	soacvet [-flags] ./...
//	go vet -vettool=$(which soacvet) ./...
//
// It exits non-zero when it reports findings (3 on its own, 1 under go
// vet), as every go/analysis single checker does; -fix applies the
// suggested fixes.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/soacgen/soacgen/analyzer/soacvet"
)

func main() { singlechecker.Main(soacvet.Analyzer) }
