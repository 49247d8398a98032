package blackscholes

// This file holds Black-Scholes over float32 options (the 1e8
// options benchmark): the data a GPU moves is half of the float64
// form's, while the arithmetic stays float64 (Go's math functions are
// float64: each term is computed in float64 and the price rounded to
// float32 once). One spec per backend, identical apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// Option32 is an Option with float32 fields.
type Option32 struct {
	S, K, T, R, V float32
}

// callPrice32 is callPrice on an Option32, in float64, rounded to
// float32.
func callPrice32(o Option32) float32 {
	return float32(callPrice(Option{S: float64(o.S), K: float64(o.K), T: float64(o.T), R: float64(o.R), V: float64(o.V)}))
}

// callPrices32Spec returns the call price of every option.
//
// Its directives generate CallPrices32 (cpu), CallPrices32Par (parallel)
// and CallPrices32CL (opencl).
//
//soac:fuse CallPrices32
//soac:fuse CallPrices32Par backend=parallel
//soac:fuse CallPrices32CL backend=opencl
func callPrices32Spec(opts []Option32) []float32 {
	return soac.Map(opts, callPrice32)
}
