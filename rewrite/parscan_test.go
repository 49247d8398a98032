package rewrite

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite/backend"
)

// TestParallelCarried generates testdata/parscan and checks the runtime
// call of each kernel (parallel.Carried for the kernels whose chunks
// need a carry, CarriedLevels where a scan's or a count's chunk totals
// need another scan's carry, also through an index read, the one-pass
// calls for starts that are not neutral), with no fallback. testdata/parscan/parscan_test.go, run
// by the differential test, checks the results against the specs.
func TestParallelCarried(t *testing.T) {
	pkgs := casePkgs(t, "parscan")
	results, err := RunPackages(pkgs, Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	out := results[0].Outputs[0]
	src := string(out.Content)
	for fn, call := range map[string]string{
		"ScanMap": "parallel.CarriedLocal(", "ScanMapInt": "parallel.CarriedLocal(", "ScanReduce": "parallel.Carried(",
		"ScanOut": "parallel.CarriedLocal(", "TwoScans": "parallel.CarriedLocal(", "FilterScan": "parallel.Carried(",
		"FilterScanMapReduce": "parallel.Carried(", "TwoFilters": "parallel.Carried(",
		"CheckedScanMap": "parallel.CarriedLocal(", "ScanMapChecked": "parallel.CarriedLocal(", "FilterScanChecked": "parallel.Carried(",
		"StartTen": "parallel.Reduce(", "Product": "parallel.Reduce(", "Xor": "parallel.Reduce(",
		"FloatStart": "parallel.Reduce(", "StartGiven": "parallel.ScanExact(", "FloatScanStart": "parallel.Scan(",
		"FilterSumStart": "parallel.FilterFold(", "ScanBesideSelect": "parallel.Carried(", "TwoSelects": "parallel.Carried(",
		"ScanOfScan": "parallel.CarriedLevels(", "FloatScanOfScan": "parallel.CarriedLevels(", "FilterOfScan": "parallel.CarriedLevels(",
		"ScanCheckedScan": "parallel.CarriedLevels(", "TwoPanics": "parallel.CarriedLocal(",
		"SqrtScanMap": "parallel.CarriedLocal(", "ScanZipMapped": "parallel.CarriedLocal(", "MapOutScan": "parallel.CarriedLocal(",
		"ExpScanMax": "parallel.CarriedLocal(", "ScratchChecked": "parallel.CarriedLocal(", "ScratchScanChecked": "parallel.CarriedLocal(",
		"GatherScanFilter": "parallel.CarriedLevels(", "ScanRead": "parallel.Carried(",
	} {
		body := funcBody(t, src, fn)
		if !strings.Contains(body, call) || !strings.Contains(body, "parallel.Sequential(") {
			t.Errorf("%s does not call %s with a sequential path", fn, call)
		}
	}
	// A float sum's chunks after the first start from -0.
	i := strings.Index(src, "\nfunc FloatStart(")
	if body := src[i : i+strings.Index(src[i:], "\n}\n")]; !strings.Contains(body, "math.Copysign(0, -1)") {
		t.Errorf("FloatStart's chunks do not start from -0")
	}
	if len(out.Warnings) != 0 {
		t.Errorf("warnings %q, want none", out.Warnings)
	}
}

// TestParallelGuardTypeChecks generates testdata/fma and testdata/scans
// with backend=parallel and type-checks the result: the unfused code of a
// kernel's length guard calls the function values evaluated at their
// SOACs, not the copies that only the parallel branch declares (it named
// an undefined fnN before).
func TestParallelGuardTypeChecks(t *testing.T) {
	for _, c := range []string{"fma", "scans"} {
		pkgs := casePkgs(t, c)
		results, err := RunPackages(pkgs, Options{Check: true, Backend: backend.Parallel})
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range pkgs[0].GoFiles {
			if IsOutputName(name) {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		for _, o := range results[0].Outputs {
			for _, gf := range o.Files() {
				if strings.Contains(gf.Path, simdStem) {
					continue // built with GOEXPERIMENT=simd only: its stubs stand in
				}
				f, err := parser.ParseFile(fset, gf.Path, gf.Content, 0)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
		}
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
		if _, err := conf.Check(pkgs[0].PkgPath, fset, files, nil); err != nil {
			t.Errorf("%s with backend=parallel: %v", c, err)
		}
	}
}
