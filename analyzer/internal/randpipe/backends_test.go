package randpipe

// This file runs random specs with reassignment shapes (shapes.go)
// through the code generator with every backend and compares each
// generated function with its spec. The default run is small; a
// campaign chooses its programs with environment variables:
//
//	RANDPIPE_BACKENDS  backends to run, comma-separated (default cpu,parallel,opencl,auto)
//	RANDPIPE_SEED0     the first package seed (default: each backend's own, see backendRuns)
//	RANDPIPE_N         programs (specs) per backend; packages of 10 specs, seeds SEED0, SEED0+1, ...
//	RANDPIPE_BATCH     packages per `go test` run (default 10)
//	RANDPIPE_FAILLOG   a file the failing programs are appended to, one a line
//	RANDPIPE_KEEP      a directory the temporary modules are kept in
//
// for example (a campaign runs longer than go test's default timeout):
//
//	RANDPIPE_BACKENDS=parallel RANDPIPE_SEED0=200000 RANDPIPE_N=5000 \
//	  go test ./analyzer/internal/randpipe -run 'TestRandomShapes$' -timeout 0 -v
//
// A campaign runs every shape and fails on every mismatch; the default
// run leaves out the shapes, and logs the failures, that a pending
// regression file reproduces (pendingShapes, knownFailures). On a 2-core
// machine 100 programs took about 1 minute with cpu, 3 with parallel
// and 16 with opencl on PoCL, which builds every new kernel.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/soacgen/soacgen/rewrite"
)

// backendRun is the differential test's configuration for one backend.
type backendRun struct {
	name string
	// seed0 is the default first package seed; the defaults of the
	// backends and of the other tests of this package do not overlap.
	seed0 int64
	// specs and short are the default numbers of programs (specs), the
	// second under -short (0: the backend is skipped under -short, which
	// runs no OpenCL kernel: PoCL builds each new kernel in seconds).
	specs, short int
	// cpus is go test's -cpu list: the parallel backend's results must not
	// depend on GOMAXPROCS.
	cpus    string
	harness HarnessConfig
	// guard adds the OpenCL guard (GuardSource); device requires a
	// kernel to have run on the device in a package whose generated code
	// launches one (not under auto, whose cost model may choose the CPU).
	guard, device bool
	// nonAssociative generates operators that are not associative or
	// start from a value that is not neutral (Config.NonAssociative):
	// only the cpu backend promises the spec's result on them.
	nonAssociative bool
	// shapeRate, when not 0, is the fraction of specs with shapes
	// instead of shapeConfig's (all): the others are plain pipelines.
	shapeRate float64
	// pkgSpecs, when not 0, is the number of specs a package holds
	// instead of shapeConfig's: a spec the generator gets wrong in a way
	// a pending regression file reproduces keeps its whole package from
	// building, and a smaller package loses fewer specs.
	pkgSpecs int
	// fusedStreams requires a random program of the default run, or of
	// a campaign of at least minStreamSpecs programs, to run maps fused
	// into a stream (parallel.StreamRedChunks or StreamMapChunks), so that
	// the parallel backend's fused streams cannot drop out of the test
	// unnoticed.
	fusedStreams bool
}

// minStreamSpecs is the fewest random programs a campaign must have for
// backendRun.fusedStreams to apply: about one random program in five
// runs maps fused into a stream in parallel, so a smaller campaign (a run
// of the regression files alone, RANDPIPE_N=0) may have none; the default
// run's seeds have some.
const minStreamSpecs = 100

var backendRuns = []backendRun{
	{name: "cpu", seed0: 20000, specs: 40, short: 10, nonAssociative: true},
	{name: "parallel", seed0: 30000, specs: 20, short: 10, cpus: "1,4", harness: HarnessConfig{Approx: true, Large: true}, fusedStreams: true},
	{name: "opencl", seed0: 40000, specs: 10, harness: HarnessConfig{Approx: true, Large: true}, guard: true, device: true, shapeRate: 0.5, pkgSpecs: 5},
	{name: "auto", seed0: 50000, specs: 10, cpus: "1,4", harness: HarnessConfig{Approx: true, Large: true}, guard: true},
}

// pendingShapes are the shapes TestRandomShapes' default run leaves out
// while the pending regression file (testdata/regress) that reproduces
// their bug stays pending: enabling the file (deleting its first line)
// puts the shape back. A campaign (RANDPIPE_N set) runs every shape.
var pendingShapes = map[ShapeKind]string{
	CondReassign: "reassigncond.go",
	DoubleBuffer: "swapunused.go",
}

// knownFailures are failures of generated code that a pending
// regression file reproduces, by the message: while the file stays
// pending, the default run logs them instead of failing (a campaign
// fails on them too, labelled with the file).
var knownFailures = []struct {
	backends []string
	re       *regexp.Regexp
	file     string
}{}

// pendingFiles returns the pending regression files (pendingPrefix),
// with the bug their first line describes.
func pendingFiles(t *testing.T) map[string]string {
	files, _ := filepath.Glob(filepath.Join("testdata", "regress", "*.go"))
	m := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(first, pendingPrefix) {
			m[filepath.Base(f)] = strings.TrimPrefix(first, pendingPrefix)
		}
	}
	return m
}

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

// everyBackend are the regression files without shapes that
// TestRandomShapes runs on every backend. The others hold specs only the
// cpu backend must equal (the operators of issue14.go read a call counter: not
// associative, as the parallel backends' promise requires).
var everyBackend = []string{"gatherscan", "opencldev", "openclswap", "parallelbig"}

// shapeConfig is the generator's configuration for the shape tests:
// every spec has one or two shapes, a third a hazard too, and the steps
// of optionalsteps.go and divisions that may panic are on. The cpu run adds
// Config.NonAssociative (backendRun.nonAssociative).
var shapeConfig = Config{Specs: 10, ShapeRate: 1, HazardRate: 0.3, FlagBranches: true, ZipGenerators: true, IndexedStreams: true, DivideRate: 0.4}

// TestRandomShapes runs random specs with reassignment shapes through
// every backend (subtests named by backend) and compares each generated
// function with its spec; a fallback warning matching no expected
// fallback (expectedFallbacks) fails the test.
func TestRandomShapes(t *testing.T) {
	only := envList("RANDPIPE_BACKENDS")
	for _, br := range backendRuns {
		if only != nil && !slices.Contains(only, br.name) {
			continue
		}
		t.Run(br.name, func(t *testing.T) { runShapes(t, br) })
	}
}

func envList(name string) []string {
	v := os.Getenv(name)
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

func envInt(t *testing.T, name string, def int64) int64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, v, err)
	}
	return n
}

// config returns shapeConfig as br runs it, with shapes.
func (br backendRun) config(shapes []ShapeKind) Config {
	cfg := shapeConfig
	cfg.Shapes = shapes
	cfg.NonAssociative = br.nonAssociative
	if br.shapeRate > 0 {
		cfg.ShapeRate = br.shapeRate
	}
	if br.pkgSpecs > 0 {
		cfg.Specs = br.pkgSpecs
	}
	return cfg
}

// shapePackages returns the packages of n specs of cfg from seed0 on.
func shapePackages(seed0 int64, n int, cfg Config) []Package {
	var ps []Package
	for i := 0; n > 0; i++ {
		cfg.Specs = min(n, cfg.Specs)
		ps = append(ps, Generate(seed0+int64(i), cfg))
		n -= cfg.Specs
	}
	return ps
}

// shapeStats counts what a run exercised and found.
type shapeStats struct {
	specs     int
	shapes    map[string]int // specs per shape
	hazards   map[string]int
	fallbacks map[string]int // warnings per expected fallback
	shapeFall map[string]int // specs per shape with a fallback warning
	failed    []string       // "seed S specN [shapes]: message"
	failShape map[string]int // failing specs per shape
	goTest    time.Duration
	known     []string          // failures a pending regression file reproduces (default run)
	pending   map[string]string // pendingFiles
	campaign  bool
	divides   int            // specs that may divide by zero
	streams   map[string]int // kernels of maps fused into a stream run in parallel, per package
}

// fail records failure line of backend b.
func (st *shapeStats) fail(b, line string) {
	if f := knownFailure(b, line, st.pending); f != "" {
		line = "known (" + f + "): " + line
		if !st.campaign {
			st.known = append(st.known, line)
			return
		}
	}
	st.failed = append(st.failed, line)
	logFailure(b, line)
}

func runShapes(t *testing.T, br backendRun) {
	n := br.specs
	if testing.Short() {
		n = br.short
		if n == 0 && os.Getenv("RANDPIPE_N") == "" {
			t.Skipf("-short: the %s backend runs without -short or with RANDPIPE_N", br.name)
		}
	}
	n = int(envInt(t, "RANDPIPE_N", int64(n)))
	seed0 := envInt(t, "RANDPIPE_SEED0", br.seed0)
	batch := int(envInt(t, "RANDPIPE_BATCH", 10))
	// The default run leaves out the shapes whose bugs are pending; a
	// campaign runs them all.
	campaign := os.Getenv("RANDPIPE_N") != ""
	pending := pendingFiles(t)
	var shapes []ShapeKind
	if !campaign {
		for _, k := range AllShapes() {
			if why, ok := pending[pendingShapes[k]]; ok {
				t.Logf("%s: shape %s left out of the default run: %s", br.name, k, why)
				continue
			}
			shapes = append(shapes, k)
		}
	}
	pkgs := shapePackages(seed0, n, br.config(shapes))
	st := &shapeStats{pending: pending, campaign: campaign, shapes: map[string]int{}, hazards: map[string]int{}, fallbacks: map[string]int{}, shapeFall: map[string]int{}, failShape: map[string]int{}, streams: map[string]int{}}
	// The committed regression specs of the shapes and of the other
	// backends, on every backend, in the last batch.
	var regress []Package
	for _, p := range regressPackages(t) {
		if slices.Contains(everyBackend, p.Name) || slices.ContainsFunc(p.Specs, func(s Spec) bool { return len(s.Shapes) > 0 }) {
			regress = append(regress, p)
		}
	}
	start := time.Now()
	for i := 0; i < len(pkgs) || i == 0; i += batch {
		b := pkgs[min(i, len(pkgs)):min(i+batch, len(pkgs))]
		if i+batch >= len(pkgs) {
			b = append(b[:len(b):len(b)], regress...)
		}
		if len(b) > 0 {
			runShapeBatch(t, br, b, st)
		}
	}
	total := time.Since(start)
	per100 := time.Duration(0)
	if st.specs > 0 {
		per100 = total * 100 / time.Duration(st.specs)
	}
	t.Logf("%s: %d programs, package seeds %d..%d, in %v (%v per 100 programs; go test %v)", br.name, st.specs, seed0, seed0+int64(len(pkgs))-1,
		total.Round(time.Millisecond), per100.Round(time.Millisecond), st.goTest.Round(time.Millisecond))
	t.Logf("%s: programs per shape: %s", br.name, fmtCounts(st.shapes))
	t.Logf("%s: hazards: %s", br.name, fmtCounts(st.hazards))
	t.Logf("%s: programs that may divide by zero: %d", br.name, st.divides)
	t.Logf("%s: expected fallbacks: %s", br.name, fmtCounts(st.fallbacks))
	t.Logf("%s: programs per shape with a fallback: %s", br.name, fmtCounts(st.shapeFall))
	t.Logf("%s: failing programs per shape: %s", br.name, fmtCounts(st.failShape))
	for _, k := range st.known {
		t.Logf("%s: %s", br.name, k)
	}
	if br.fusedStreams {
		streams, specs := 0, 0
		for _, p := range pkgs {
			streams += st.streams[p.Name]
			specs += len(p.Specs)
		}
		t.Logf("%s: %d kernels of maps fused into a stream run in parallel in the random programs", br.name, streams)
		if streams == 0 && (!campaign || specs >= minStreamSpecs) {
			t.Errorf("%s: no random program runs maps fused into a stream in parallel (parallel.StreamRedChunks, StreamMapChunks)", br.name)
		}
	}
	if len(st.failed) > 0 {
		t.Errorf("%s: %d mismatches:\n%s", br.name, len(st.failed), strings.Join(st.failed, "\n"))
	}
}

// runShapeBatch generates pkgs with br's backend and runs their
// differential tests in one `go test`.
func runShapeBatch(t *testing.T, br backendRun, pkgs []Package, st *shapeStats) {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("RANDPIPE_KEEP"); keep != "" {
		dir = filepath.Join(keep, br.name, pkgs[0].Name)
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteModule(dir, RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	bySeed := map[string]Package{}
	for _, p := range pkgs {
		bySeed[p.Name] = p
		for _, s := range p.Specs {
			st.specs++
			for _, k := range s.Shapes {
				st.shapes[k.String()]++
			}
			if s.Hazard != nil {
				st.hazards[s.Hazard.Kind.String()]++
			}
			if s.Divides {
				st.divides++
			}
		}
	}
	// rewrite.RunPackages stops at the first package the generator fails
	// on; a campaign goes on with the others.
	graph, err := checker.Analyze([]*analysis.Analyzer{rewrite.NewAnalyzer(rewrite.Options{Check: true, Backend: br.name})}, loadModule(t, dir), nil)
	if err != nil {
		t.Fatalf("%s: generator on seeds %d..: %v", br.name, pkgs[0].Seed, err)
	}
	launches := map[string]bool{}
	for _, act := range graph.Roots {
		pkg := strings.TrimPrefix(act.Package.PkgPath, ModulePath+"/")
		if act.Err != nil {
			msg := act.Err.Error()
			if len(msg) > 800 {
				msg = msg[:800] + "..."
			}
			st.fail(br.name, fmt.Sprintf("%s (generator): %s", pkg, msg))
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
				why, ok := expectedFallback(br.name, w)
				if !ok {
					t.Errorf("%s: unexpected fallback (package %s): %s", br.name, pkg, w)
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
			if err := os.WriteFile(o.Path, o.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			launches[pkg] = launches[pkg] || bytes.Contains(o.Content, []byte(`"github.com/soacgen/soacgen/runtime/opencl/launch"`))
			st.streams[pkg] += bytes.Count(o.Content, []byte("parallel.StreamRedChunks(")) + bytes.Count(o.Content, []byte("parallel.StreamMapChunks("))
		}
	}
	for _, p := range pkgs {
		if _, ok := bySeed[p.Name]; !ok {
			continue // the generator failed on it
		}
		if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_rp_test.go"), HarnessSourceFor(p, br.harness), 0o644); err != nil {
			t.Fatal(err)
		}
		if br.guard {
			if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_guard_test.go"), GuardSource(p.Name, br.device && launches[p.Name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"test", "-count=1", "-v"}
	if br.cpus != "" {
		args = append(args, "-cpu", br.cpus)
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
			st.fail(br.name, line)
		}
	}
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

var warnSpec = regexp.MustCompile(`^\S+: (spec\d+): `)

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
		if m := failLine.FindStringSubmatch(l); m != nil {
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
		if len(f) >= 2 && (f[0] == "FAIL" || f[0] == "ok") && strings.HasPrefix(f[1], ModulePath+"/") {
			pkg := strings.TrimPrefix(f[1], ModulePath+"/")
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

// expectedFallbacks lists, per backend, the kernels it is known not to
// generate in the random specs, with the reason: a warning of the run
// that matches no entry fails it, so that a kernel the backend should
// render cannot fall back unnoticed. Only the opencl backend (also under
// auto) and the parallel backend may fall back; the shapes add no entry:
// a loop, a condition, a swap, a closure call or a captured scalar around
// a kernel never keeps it off a backend.
var expectedFallbacks = []struct {
	backends []string
	re       *regexp.Regexp
	why      string
}{
	// Every backend.
	{all, regexp.MustCompile(`backend (cpu|parallel) does not generate this kernel: its members do not run as one loop: `),
		"sequence: the lowering runs a stream beside or before members outside its chunk loop, a zip in a chunk loop, or a kernel reading no array, as the reference calls"},
	{all, regexp.MustCompile(`backend (cpu|parallel) does not generate this kernel: the function at \S+ reads \w+ at the iteration index but is called through a function value`),
		"index read through a function value: a lambda of stepIndexRead bound to a local function variable; the loop cannot put the producer's element in its body"},
	// parallel (and the opencl chain's parallel step).
	{par, regexp.MustCompile(`backend parallel does not generate this kernel: the function of \w+ at \S+ is not pure`),
		"impure: a lambda counting its calls in a captured variable (stepEffects, the impure hazards) never runs in parallel"},
	// opencl and auto.
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the lambda of \w+ at \S+ is not translated to OpenCL C: (assignment to \w+ at \S+: a lambda may not write variables it captures|builtin (append|make) at|composite literal of \[\])`),
		"untranslated lambda: it allocates (stepLocalLambda) or writes a capture (stepEffects, the impure hazards)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the chunk function of StreamMap at \S+ is not translated to OpenCL C: `),
		"stream map: a chunk function not of the form row := make([]E, len(chunk)) (a nested Map, an out slice filled by a range loop)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: it is nested in the lambda of \w+: it would launch once per element`),
		"nested: a kernel in a lambda (stepNested, a Map in a chunk function) runs in its parent's work-items"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: (Reduce|Scan) at \S+: its neutral element is not a constant`),
		"math.Inf start: a float max or min from math.Inf(±1) is not a constant to the opencl backend"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: Replicate at \S+: its value is not a constant, a variable or arithmetic of those`),
		"replicate value: a conversion or call (min, max) of captured values"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: its form is sequence: only single loops become OpenCL kernels`),
		"sequence: the lowering runs the kernel's members one after another"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: (\w+ at \S+ and \w+ at \S+ store the kept elements of two filters|\w+ at \S+: its output is stored at the index beside the kept elements|Reduce at \S+ folds the kept elements of another filter|Scan at \S+ shares its kernel with a filter)`),
		"filter skeleton: it compacts the kept elements of one filter and nothing else"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: (Scan at \S+ is not the last member of its kernel|a lambda of the scan's kernel may panic|it materialises \w+ beside the scan)`),
		"scan skeleton: it ends with the scan, writes only it and has no panic flag"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: \w+ at \S+: its output is materialised beside the stream`),
		"stream skeletons: they write only the stream's output"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the lambda of \w+ at \S+ reads a copy of \w+ taken where it is written .*a copy is passed only for a number or struct of a map-reduce, scan or filter kernel`),
		"capture copy: a kernel other than a map-reduce, scan or filter whose lambda reads a captured variable reassigned before it runs (a call counter of stepEffects, a loop's scalar)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: it reads no array \(a generated space\) and ends with a scan or stores a filter's kept elements`),
		"generated space: the scan and filter skeletons need an input array"},
}

var (
	all = []string{"cpu", "parallel", "opencl", "auto"}
	par = []string{"parallel", "opencl", "auto"}
	ocl = []string{"opencl", "auto"}
)

// expectedFallback returns the entry of expectedFallbacks that explains
// warning w of backend b.
func expectedFallback(b, w string) (string, bool) {
	for _, e := range expectedFallbacks {
		if slices.Contains(e.backends, b) && e.re.MatchString(w) {
			return e.why, true
		}
	}
	return "", false
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
