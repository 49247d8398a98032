// Regression spec: a12 fuses into the Map over Iota that reads a12[i]
// (an index read), in one kernel with the Scan a12 zips and the Filter
// of the Map's output; the parallel backend writes the read as "( [i])",
// and formatting the generated file fails.

package gatherscan

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse GatherScan
func gatherScanSpec(fs []float64, c float64) []float64 {
	a9 := soac.Scan(fs, 0, func(a, b float64) float64 { return a + b })
	a12 := soac.Map2(fs, a9, func(x, y float64) float64 { return c })
	a13 := soac.Map(soac.Iota(len(fs)), func(i int) float64 { return a12[i] })
	return soac.Filter(a13, func(x float64) bool { return x > c })
}
