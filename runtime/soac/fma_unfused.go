//go:build !(amd64.v3 || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x)

package soac

// FMAContracts reports whether the Go compiler may contract a
// floating-point multiplication and an addition using its result into one
// fused multiply-add on this target: not on this one (see fma_fused.go).
const FMAContracts = false
