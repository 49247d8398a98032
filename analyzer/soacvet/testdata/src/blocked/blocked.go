// Package blocked holds specs in which a fusion that is possible in shape
// would change what the program computes; soacvet explains each refusal
// at the hazard.
package blocked

import (
	"sync"

	"github.com/soacgen/soacgen/runtime/soac"
)

func square(x float64) float64 { return x * x }

func add(a, b float64) float64 { return a + b }

// writeBetween writes the producer's input between producer and consumer:
// moving the map down to the reduction would make it read 100.
//
//soac:fuse WriteBetween
func writeBetween(xs []float64) float64 {
	ys := soac.Map(xs, square)
	xs[0] = 100 // want `xs.*\[write-between\]$`
	return soac.Reduce(ys, xs[0], add)
}

// writeIntermediate writes the intermediate itself before the consumer:
// fusing would lose the write.
//
//soac:fuse WriteIntermediate
func writeIntermediate(xs []float64) float64 {
	ys := soac.Map(xs, square)
	ys[0] = 100 // want `ys is used at blocked.go:32:2, before the kernel runs.*\[used-before\]$`
	return soac.Reduce(ys, 0, add)
}

// captureReassigned reassigns the producer's captured c before the
// consumer: fusing would compute the map with c.k = 3, and c holds a lock,
// which the generated code never copies.
//
//soac:fuse CaptureReassigned
func captureReassigned(xs []float64) float64 {
	c := locked{k: 2}
	ys := soac.Map(xs, func(x float64) float64 { return x * c.k })
	c = locked{k: 3} // want `c.*\[capture-reassigned\]$`
	return soac.Reduce(ys, c.k, add) + c.k
}

// locked is a factor guarded by a lock.
type locked struct {
	mu sync.Mutex
	k  float64
}

// loop consumes ys inside a loop: fusing the map into the loop body would
// recompute it on every iteration.
//
//soac:fuse Loop
func loop(xs []float64, n int) float64 {
	ys := soac.Map(xs, square)
	total := 0.0
	for i := 0; i < n; i++ {
		total += soac.Reduce(ys, 0, add) // want `ys.*\[loop-boundary\]$`
	}
	return total
}

// fused is a spec whose pipeline fuses: no finding.
//
//soac:fuse Fused
func fused(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, square), 0, add)
}

// severalDirectives writes the producer's input between producer and
// consumer, like writeBetween; of its directives, two cluster alike and
// one by the integer linear program, and each refusal is reported once.
//
//soac:fuse SeveralDirectives
//soac:fuse SeveralDirectivesPar backend=parallel
//soac:fuse SeveralDirectivesILP cluster=ilp
func severalDirectives(xs []float64) float64 {
	ys := soac.Map(xs, square)
	xs[0] = 100 // want `xs.*\[write-between\]$`
	return soac.Reduce(ys, xs[0], add)
}
