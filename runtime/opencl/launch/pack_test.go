package launch

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestPackRows packs rows of random lengths (empty ones included) in
// amounts that run one goroutine and several, at several GOMAXPROCS, and
// compares with the rows appended one after another.
func TestPackRows(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range []struct{ rows, maxLen int }{
		{0, 0}, {1, 0}, {1, 5}, {3, 1}, {7, 1 << 18}, {2048, 2048}, {5000, 40}, {2, 1 << 20},
	} {
		xss := make([][]float64, shape.rows)
		var want []float64
		for i := range xss {
			n := 0
			if shape.maxLen > 0 && r.IntN(8) != 0 {
				n = r.IntN(shape.maxLen + 1)
			}
			xss[i] = make([]float64, n)
			for j := range xss[i] {
				xss[i][j] = r.Float64()
			}
			want = append(want, xss[i]...)
		}
		for _, procs := range []int{1, 3, 16} {
			runtime.GOMAXPROCS(procs)
			spans, got := Flatten(xss)
			if !slices.Equal(got, want) {
				t.Fatalf("rows %d, max %d, GOMAXPROCS %d: packed elements differ", shape.rows, shape.maxLen, procs)
			}
			for i, sp := range spans {
				if sp.Len != int64(len(xss[i])) || !slices.Equal(got[sp.Start:sp.Start+sp.Len], xss[i]) {
					t.Fatalf("rows %d, GOMAXPROCS %d: span %d is %+v", shape.rows, procs, i, sp)
				}
			}
			v := Rows(xss).(view)
			if len(v.data) != 8*len(want) || v.n != int64(len(xss)) || v.off[len(xss)] != int64(len(want)) {
				t.Fatalf("rows %d, GOMAXPROCS %d: Rows gives %d bytes, %d rows, total %d", shape.rows, procs, len(v.data), v.n, v.off[len(xss)])
			}
		}
	}
}
