package shapes

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
	"github.com/soacgen/soacgen/rewrite"
)

// runShapeBatch generates pkgs with br's backend and runs their
// differential tests in one `go test`.
func runShapeBatch(t *testing.T, br randpipe.ShapeRun, pkgs []randpipe.Package, st *shapeStats) {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("RANDPIPE_KEEP"); keep != "" {
		dir = filepath.Join(keep, br.Backend, pkgs[0].Name)
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := randpipe.WriteModule(dir, randpipe.RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	st.count(pkgs)
	bySeed, launches := generate(t, br, dir, pkgs, st)
	for _, p := range pkgs {
		if _, ok := bySeed[p.Name]; !ok {
			continue // the generator failed on it
		}
		if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_rp_test.go"), randpipe.HarnessSourceFor(p, br.Harness), 0o644); err != nil {
			t.Fatal(err)
		}
		if br.Guard {
			if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_guard_test.go"), randpipe.GuardSource(p.Name, br.Device && launches[p.Name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"test", "-count=1", "-v"}
	if br.CPUs != "" {
		args = append(args, "-cpu", br.CPUs)
	}
	start := time.Now()
	cmd := exec.Command("go", append(args, "./...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, _ := cmd.CombinedOutput()
	st.goTest += time.Since(start)
	for pkg, fails := range packageFailures(string(out)) {
		p, ok := bySeed[pkg]
		for _, f := range fails {
			var shapes []string
			test, procs, _ := strings.Cut(f.test, "-") // -cpu 1,4: TestRandpipeFused3-4 ran with GOMAXPROCS 4
			if ok {
				for _, s := range p.Specs {
					if "TestRandpipe"+s.Name == test {
						for _, k := range s.Shapes {
							shapes = append(shapes, k.String())
							st.failShape[k.String()]++
						}
						f.test = s.Func
						if procs != "" {
							f.test += " (GOMAXPROCS " + procs + ")"
						}
					}
				}
			}
			line := fmt.Sprintf("%s %s [%s]: %s", pkg, f.test, strings.Join(shapes, " "), f.msg)
			st.fail(br.Backend, line)
		}
	}
}

// generate runs the code generator with br's backend on the packages
// pkgs of the module in dir and writes the generated files, checking
// its fallback warnings (expectedFallbacks). It returns the packages it
// generated, by name (a package the generator fails on is a failure,
// removed from dir), and whether each one's generated code launches an
// OpenCL kernel.
func generate(t *testing.T, br randpipe.ShapeRun, dir string, pkgs []randpipe.Package, st *shapeStats) (map[string]randpipe.Package, map[string]bool) {
	t.Helper()
	bySeed := map[string]randpipe.Package{}
	for _, p := range pkgs {
		bySeed[p.Name] = p
	}
	// rewrite.RunPackages stops at the first package the generator fails
	// on; a campaign goes on with the others.
	graph, err := checker.Analyze([]*analysis.Analyzer{rewrite.NewAnalyzer(rewrite.Options{Check: true, Backend: br.Backend})}, randpipe.LoadModule(t, dir), nil)
	if err != nil {
		t.Fatalf("%s: generator on seeds %d..: %v", br.Backend, pkgs[0].Seed, err)
	}
	launches := map[string]bool{}
	for _, act := range graph.Roots {
		pkg := strings.TrimPrefix(act.Package.PkgPath, randpipe.ModulePath+"/")
		if act.Err != nil {
			msg := act.Err.Error()
			if len(msg) > 800 {
				msg = msg[:800] + "..."
			}
			st.fail(br.Backend, fmt.Sprintf("%s (generator): %s", pkg, msg))
			// Leave the package out of go test.
			if err := os.RemoveAll(filepath.Join(dir, pkg)); err != nil {
				t.Fatal(err)
			}
			delete(bySeed, pkg)
			continue
		}
		for _, o := range act.Result.(*rewrite.Result).Outputs {
			pkg := filepath.Base(filepath.Dir(o.Path))
			fell := map[string]bool{}
			for _, w := range o.Warnings {
				why, ok := expectedFallback(br.Backend, w)
				if !ok {
					t.Errorf("%s: unexpected fallback (package %s): %s", br.Backend, pkg, w)
					continue
				}
				st.fallbacks[why]++
				if m := warnSpec.FindStringSubmatch(w); m != nil {
					fell[m[1]] = true
				}
			}
			for _, s := range bySeed[pkg].Specs {
				if fell[s.Func] {
					for _, k := range s.Shapes {
						st.shapeFall[k.String()]++
					}
				}
			}
			for _, gf := range o.Files() {
				if err := os.WriteFile(gf.Path, gf.Content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			launches[pkg] = launches[pkg] || bytes.Contains(o.Content, []byte(`"github.com/soacgen/soacgen/runtime/opencl/launch"`))
			st.streams[pkg] += bytes.Count(o.Content, []byte("parallel.StreamRedChunks(")) + bytes.Count(o.Content, []byte("parallel.StreamMapChunks("))
		}
	}
	return bySeed, launches
}
