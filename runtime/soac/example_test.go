package soac_test

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Example shows the normalize2 pipeline of the package documentation run on
// the reference semantics.
func Example() {
	xs := []float64{2, -1, 3, 4}
	add := func(a, b float64) float64 { return a + b }

	sum1 := soac.Reduce(xs, 0.0, add)
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sum2 := soac.Reduce(gts, 0.0, add)
	ys1 := soac.Map(xs, func(x float64) float64 { return x / sum1 })
	ys2 := soac.Map(xs, func(x float64) float64 { return x / sum2 })

	fmt.Println(sum1, sum2)
	fmt.Println(ys1)
	fmt.Println(ys2)
	// Output:
	// 8 9
	// [0.25 -0.125 0.375 0.5]
	// [0.2222222222222222 -0.1111111111111111 0.3333333333333333 0.4444444444444444]
}

func ExampleMap() {
	words := []string{"fuse", "map", "reduce"}
	fmt.Println(soac.Map(words, func(w string) int { return len(w) }))
	fmt.Println(soac.Map(nil, strings.ToUpper) != nil)
	// Output:
	// [4 3 6]
	// true
}

func ExampleMap2() {
	prices := []float64{1.5, 2, 10}
	counts := []int{2, 3, 1}
	fmt.Println(soac.Map2(prices, counts, func(p float64, n int) float64 { return p * float64(n) }))
	// Output: [3 6 10]
}

// ExampleMap2_lengthMismatch shows the panic on unequal lengths; f is not
// called.
func ExampleMap2_lengthMismatch() {
	defer func() { fmt.Println(recover()) }()
	soac.Map2([]int{1, 2, 3}, []int{1, 2, 3, 4}, func(x, y int) int { return x + y })
	// Output: soac.Map2: unequal lengths 3 and 4
}

func ExampleMap3() {
	a := []int{1, 2, 3}
	x := []int{10, 20, 30}
	b := []int{5, 5, 5}
	fmt.Println(soac.Map3(a, x, b, func(a, x, b int) int { return a*x + b }))
	// Output: [15 45 95]
}

func ExampleReduce() {
	xs := []int{3, 1, 4, 1, 5}
	fmt.Println(soac.Reduce(xs, 0, func(a, b int) int { return a + b }))
	fmt.Println(soac.Reduce(xs, 1, func(a, b int) int { return a * b }))
	fmt.Println(soac.Reduce(nil, 0, func(a, b int) int { return a + b }))
	// Output:
	// 14
	// 60
	// 0
}

func ExampleScan() {
	xs := []int{3, 1, 4, 1, 5}
	fmt.Println(soac.Scan(xs, 0, func(a, b int) int { return a + b }))
	fmt.Println(soac.Scan(xs, 0, func(a, b int) int { return max(a, b) }))
	// Output:
	// [3 4 8 9 14]
	// [3 3 4 4 5]
}

func ExampleFilter() {
	xs := []int{3, 1, 4, 1, 5, 9, 2, 6}
	fmt.Println(soac.Filter(xs, func(x int) bool { return x%2 == 0 }))
	none := soac.Filter(xs, func(x int) bool { return x > 100 })
	fmt.Println(none, len(none), none != nil)
	// Output:
	// [4 2 6]
	// [] 0 true
}

func ExampleStreamMap() {
	// A chunk function that maps each element independently satisfies the
	// chunk-independence promise for every partition of xs.
	double := func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 2 * x
		}
		return out
	}
	fmt.Println(soac.StreamMap([]int{1, 2, 3}, double))
	// Output: [2 4 6]
}

func ExampleStreamRed() {
	// Sum of squares: f reduces a chunk, op combines partial sums, and
	// f(empty) = 0 is op's neutral element.
	sumSquares := func(chunk []int) int {
		s := 0
		for _, x := range chunk {
			s += x * x
		}
		return s
	}
	add := func(a, b int) int { return a + b }
	fmt.Println(soac.StreamRed(soac.Iota(10_000), add, sumSquares))
	fmt.Println(soac.StreamRed(nil, add, sumSquares))
	// Output:
	// 333283335000
	// 0
}

func ExampleIota() {
	fmt.Println(soac.Iota(5))
	fmt.Println(soac.Iota(0) != nil)
	// Output:
	// [0 1 2 3 4]
	// true
}

func ExampleReplicate() {
	fmt.Println(soac.Replicate(3, "ab"))
	fmt.Println(soac.Replicate(4, 0.5))
	// Output:
	// [ab ab ab]
	// [0.5 0.5 0.5 0.5]
}

func ExampleLengthError() {
	fmt.Println(soac.LengthError("Map2", 3, 4))
	fmt.Println(soac.LengthError("Map3", 3, 3, 5))
	// Output:
	// soac.Map2: unequal lengths 3 and 4
	// soac.Map3: unequal lengths 3, 3 and 5
}
