package randpipe

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// BenchmarkClusterWorst measures the slowest function of at most 20 SOACs
// for each method, over the random specs of BenchmarkClusterSolve's
// generator at 5, 10, 15 and 20 steps (those of more than 20 SOACs left
// out): each iteration solves every function once; worst-ms/func is the
// largest, over the functions, of each function's median time over the
// iterations, worst-cpu-ms/func the same with the process's CPU time
// (user and system, GC included), which other processes' load on
// the machine inflates far less than the wall clock, and funcs how many
// functions were timed.
func BenchmarkClusterWorst(b *testing.B) {
	type spec struct {
		fn   *ir.Function
		n    int
		ops  int
		opts fusion.Options
	}
	var specs []spec
	for _, ops := range []int{5, 10, 15, 20} {
		fns, sizes, prog := clusterBenchFuncs(b, ops)
		for i, fn := range fns {
			if sizes[i] <= 20 {
				specs = append(specs, spec{fn, sizes[i], ops, fusion.Options{Fset: prog.Fset}})
			}
		}
	}
	for _, m := range fusion.Methods() {
		b.Run(m, func(b *testing.B) {
			times := make([][]float64, len(specs))
			cpus := make([][]float64, len(specs))
			for b.Loop() {
				for i, s := range specs {
					opts := s.opts
					opts.Cluster = m
					start, cpu := time.Now(), cpuTime()
					fusion.Fuse(s.fn, opts)
					cpus[i] = append(cpus[i], float64((cpuTime()-cpu).Microseconds())/1000)
					times[i] = append(times[i], float64(time.Since(start).Microseconds())/1000)
				}
			}
			median := func(ts []float64) float64 {
				slices.Sort(ts)
				return ts[len(ts)/2]
			}
			med := make([]float64, len(specs))
			cpuMed := make([]float64, len(specs))
			for i := range times {
				med[i], cpuMed[i] = median(times[i]), median(cpus[i])
			}
			if os.Getenv("CLUSTER_WORST_LIST") != "" {
				order := make([]int, len(specs))
				for i := range order {
					order[i] = i
				}
				sort.Slice(order, func(a, c int) bool { return med[order[a]] > med[order[c]] })
				for _, i := range order[:min(5, len(order))] {
					fmt.Printf("%s ops=%d %s (%d SOACs) %.1f ms\n", m, specs[i].ops, specs[i].fn.Name, specs[i].n, med[i])
				}
			}
			b.ReportMetric(slices.Max(med), "worst-ms/func")
			b.ReportMetric(slices.Max(cpuMed), "worst-cpu-ms/func")
			b.ReportMetric(float64(len(specs)), "funcs")
		})
	}
}

// cpuTime returns the CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
