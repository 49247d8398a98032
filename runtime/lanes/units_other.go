//go:build !goexperiment.simd || !amd64

package lanes

// Without the experiment (or off amd64) no vector form is compiled.
const (
	hasAVX2   = false
	hasAVX512 = false
)
