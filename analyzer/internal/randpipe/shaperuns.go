package randpipe

// This file configures the differential runs of the random programs with
// reassignment shapes, one per backend: package shapes runs them, each
// part in a test package of its own, and TestRandomShapesEngine analyses
// the cpu run's programs.

// ShapeRun is the configuration of the shapes' differential run of one
// backend.
type ShapeRun struct {
	Backend string
	// Seed0 is the default first package seed; the defaults of the
	// backends and of the other tests of this package do not overlap.
	Seed0 int64
	// Specs and Short are the default numbers of programs (specs), the
	// second under -short (0: the backend is skipped under -short, which
	// runs no OpenCL kernel: PoCL builds each new kernel in seconds).
	Specs, Short int
	// CPUs is go test's -cpu list: the parallel backend's results must not
	// depend on GOMAXPROCS.
	CPUs    string
	Harness HarnessConfig
	// Guard adds the OpenCL guard (GuardSource); Device requires a
	// kernel to have run on the device in a package whose generated code
	// launches one (not under auto, whose cost model may choose the CPU).
	Guard, Device bool
	// NonAssociative generates operators that are not associative or
	// start from a value that is not neutral (Config.NonAssociative):
	// only the cpu backend promises the spec's result on them.
	NonAssociative bool
	// ShapeRate, when not 0, is the fraction of specs with shapes
	// instead of ShapeConfig's (all): the others are plain pipelines.
	ShapeRate float64
	// PkgSpecs, when not 0, is the number of specs a package holds
	// instead of ShapeConfig's: a spec the generator gets wrong in a way
	// a pending regression file reproduces keeps its whole package from
	// building, and a smaller package loses fewer specs.
	PkgSpecs int
	// FusedStreams requires a random program of the default run, or of
	// a campaign of at least MinStreamSpecs programs, to run maps fused
	// into a stream (parallel.StreamRedChunks or StreamMapChunks), so that
	// the parallel backend's fused streams cannot drop out of the test
	// unnoticed.
	FusedStreams bool
}

// MinStreamSpecs is the fewest random programs a campaign must have for
// ShapeRun.FusedStreams to apply: about one random program in five runs
// maps fused into a stream in parallel, so a smaller campaign (a run of
// the regression files alone, RANDPIPE_N=0) may have none; the default
// run's seeds have some.
const MinStreamSpecs = 100

// ShapeRuns are the shapes' differential runs, one per backend.
var ShapeRuns = []ShapeRun{
	{Backend: "cpu", Seed0: 20000, Specs: 40, Short: 10, NonAssociative: true},
	{Backend: "parallel", Seed0: 30000, Specs: 20, Short: 10, CPUs: "1,4", Harness: HarnessConfig{Approx: true, Large: true}, FusedStreams: true},
	{Backend: "opencl", Seed0: 40000, Specs: 10, Harness: HarnessConfig{Approx: true, Large: true}, Guard: true, Device: true, ShapeRate: 0.5, PkgSpecs: 5},
	{Backend: "auto", Seed0: 50000, Specs: 10, CPUs: "1,4", Harness: HarnessConfig{Approx: true, Large: true}, Guard: true},
}

// ShapeRunOf returns the run of backend b.
func ShapeRunOf(b string) (ShapeRun, bool) {
	for _, r := range ShapeRuns {
		if r.Backend == b {
			return r, true
		}
	}
	return ShapeRun{}, false
}

// ShapeConfig is the generator's configuration for the shape tests:
// every spec has one or two shapes, a third a hazard too, and the steps
// of optionalsteps.go, divisions that may panic and, in one spec in ten
// each, the path shapes (pathshapes.go) are on. The cpu run adds
// Config.NonAssociative (ShapeRun.NonAssociative).
var ShapeConfig = Config{Specs: 10, ShapeRate: 1, HazardRate: 0.3, FlagBranches: true, ZipGenerators: true, IndexedStreams: true, DivideRate: 0.4,
	ReturnPathRate: 0.1, ClosureCallRate: 0.1}

// Config returns ShapeConfig as r runs it, with shapes.
func (r ShapeRun) Config(shapes []ShapeKind) Config {
	cfg := ShapeConfig
	cfg.Shapes = shapes
	cfg.NonAssociative = r.NonAssociative
	if r.ShapeRate > 0 {
		cfg.ShapeRate = r.ShapeRate
	}
	if r.PkgSpecs > 0 {
		cfg.Specs = r.PkgSpecs
	}
	return cfg
}

// ShapePackages returns the packages of n specs of cfg from seed0 on:
// packages of cfg.Specs specs (the last one smaller), seeds seed0,
// seed0+1, ...
func ShapePackages(seed0 int64, n int, cfg Config) []Package {
	var ps []Package
	for i := 0; n > 0; i++ {
		cfg.Specs = min(n, cfg.Specs)
		ps = append(ps, Generate(seed0+int64(i), cfg))
		n -= cfg.Specs
	}
	return ps
}
