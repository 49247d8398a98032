package randpipe

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// clusterBenchFuncs returns the specs of a generated package whose random
// steps number ops (MinOps = MaxOps = ops, no hazards), with their SOAC
// counts.
func clusterBenchFuncs(b *testing.B, ops int) ([]*ir.Function, []int, *ir.Program) {
	pkg := Generate(int64(9000+ops), Config{Specs: 12, MinOps: ops, MaxOps: ops, HazardRate: -1})
	dir := b.TempDir()
	if err := WriteModule(dir, RepoRoot(), []Package{pkg}); err != nil {
		b.Fatal(err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, LoadModule(b, dir), nil)
	if err != nil {
		b.Fatal(err)
	}
	var fns []*ir.Function
	var sizes []int
	var prog *ir.Program
	for _, act := range graph.Roots {
		prog = act.Result.(*ir.Program)
		for _, fn := range prog.Funcs {
			if fn.Fuse == nil {
				continue
			}
			fns = append(fns, fn)
			sizes = append(sizes, len(fusion.NewGraph(fn, nil).SOACs))
		}
	}
	return fns, sizes, prog
}

// BenchmarkClusterSolve measures the time each clustering method takes per
// function on random specs of 5, 10, 20 and 40 steps (SOAC counts in the
// soacs/func metric): ns/op is one function on average; p50-ms/func and
// max-ms/func the median and slowest function of one timed pass;
// optimal/func the fraction proved optimal within the default budget.
func BenchmarkClusterSolve(b *testing.B) {
	for _, ops := range []int{5, 10, 20, 40} {
		fns, sizes, prog := clusterBenchFuncs(b, ops)
		total := 0
		for _, n := range sizes {
			total += n
		}
		for _, m := range fusion.Methods() {
			b.Run(fmt.Sprintf("ops=%d/%s", ops, m), func(b *testing.B) {
				opts := fusion.Options{Fset: prog.Fset, Cluster: m}
				var times, cpus []float64
				optimal := 0
				for _, fn := range fns {
					start, cpu := time.Now(), cpuTime()
					p := fusion.Fuse(fn, opts)
					cpus = append(cpus, float64((cpuTime()-cpu).Microseconds())/1000)
					times = append(times, float64(time.Since(start).Microseconds())/1000)
					if p.Optimal {
						optimal++
					}
				}
				i := 0
				for b.Loop() {
					fusion.Fuse(fns[i%len(fns)], opts)
					i++
				}
				slices.Sort(times)
				b.ReportMetric(times[len(times)/2], "p50-ms/func")
				b.ReportMetric(slices.Max(times), "max-ms/func")
				b.ReportMetric(slices.Max(cpus), "max-cpu-ms/func")
				b.ReportMetric(float64(total)/float64(len(fns)), "soacs/func")
				b.ReportMetric(float64(optimal)/float64(len(fns)), "optimal/func")
			})
		}
	}
}
