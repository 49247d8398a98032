package sumsqpos

import "github.com/soacgen/soacgen/runtime/soac"

// Order is one line of an order book: its status, unit price and quantity.
type Order struct {
	ID     int64
	Status uint8
	Price  float64
	Qty    float64
}

// Shipped is the status of the orders that ordersTotalSpec sums.
const Shipped = 2

// ordersTotalSpec returns the sum of Price*Qty over the shipped orders, left
// to right: a filter over structs feeding a float sum. The filter stays a
// branch in the fused loop: as a select, the product would be computed for
// every order (see rewrite/select.go's cost model).
//
// Its directives generate OrdersTotal (cpu), OrdersTotalPar (parallel:
// par_test.go) and OrdersTotalCL (opencl: a struct input with a uint8
// field, filtered on it; opencl_test.go, examples/internal/clbench).
//
//soac:fuse OrdersTotal
//soac:fuse OrdersTotalPar backend=parallel
//soac:fuse OrdersTotalCL backend=opencl
func ordersTotalSpec(os []Order) float64 {
	shipped := soac.Filter(os, func(o Order) bool { return o.Status == Shipped })
	return soac.Reduce(
		soac.Map(shipped, func(o Order) float64 { return o.Price * o.Qty }),
		0.0,
		func(a, b float64) float64 { return a + b })
}
