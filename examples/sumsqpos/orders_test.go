package sumsqpos

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// randomOrders returns n orders with statuses 0-3 drawn uniformly (a
// quarter shipped, in no predictable pattern) and prices and quantities
// in [0, 100).
func randomOrders(r *rand.Rand, n int) []Order {
	os := make([]Order, n)
	for i := range os {
		os[i] = Order{ID: int64(i), Status: uint8(r.IntN(4)), Price: r.Float64() * 100, Qty: float64(r.IntN(100))}
	}
	return os
}

// orderImpls are the implementations of ordersTotalSpec that the test
// compares with the spec and the benchmark measures.
var orderImpls = []struct {
	name string
	fn   func([]Order) float64
}{
	{"spec", ordersTotalSpec},
	{"fused", OrdersTotal},
	{"hand", ordersTotalHand},
}

func TestOrdersTotalKnown(t *testing.T) {
	os := []Order{{Status: Shipped, Price: 2, Qty: 3}, {Status: 1, Price: 5, Qty: 5}, {Status: Shipped, Price: 0.5, Qty: 4}}
	if got := ordersTotalSpec(os); got != 8 {
		t.Errorf("ordersTotalSpec = %v, want 8", got)
	}
}

func TestOrdersTotal(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		os := randomOrders(extest.Rand(11, n), n)
		want := ordersTotalSpec(os)
		for _, im := range orderImpls[1:] {
			if got := im.fn(os); !extest.SameFloat(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
	}
}

// BenchmarkOrdersTotal measures the orders at 1e3, 1e5 and 1e6, with
// their statuses in random order (the branch mispredicts on about a
// quarter of the orders) and grouped by status (the branch predicts).
func BenchmarkOrdersTotal(b *testing.B) {
	sizes := []extest.BenchSize{extest.BenchSizes[0], {Name: "n=1e5", N: 100_000}, extest.BenchSizes[1]}
	for _, size := range sizes {
		random := randomOrders(extest.Rand(11, size.N), size.N)
		grouped := slices.Clone(random)
		slices.SortStableFunc(grouped, func(a, b Order) int { return int(a.Status) - int(b.Status) })
		for _, layout := range []struct {
			name string
			os   []Order
		}{{"random", random}, {"grouped", grouped}} {
			b.Run(size.Name+"/"+layout.name, func(b *testing.B) {
				for _, im := range orderImpls {
					b.Run(im.name, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(len(layout.os)) * int64(unsafe.Sizeof(Order{})))
						for b.Loop() {
							im.fn(layout.os)
						}
					})
				}
			})
		}
	}
}
