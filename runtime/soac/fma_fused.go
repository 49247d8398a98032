//go:build amd64.v3 || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x

package soac

// FMAContracts reports whether the Go compiler may contract a
// floating-point multiplication and an addition or subtraction using its
// result into one fused multiply-add on this target (the Go specification
// allows it, "possibly across statements"; an explicit conversion such as
// float64(x*y) prevents it). The compiler does so exactly through the
// rewrite rules guarded by useFMA in cmd/compile/internal/ssa/_gen: amd64
// from GOAMD64=v3 (the build constraint amd64.v3 holds for v3 and v4),
// arm64, loong64, ppc64, ppc64le, riscv64 and s390x. On the other targets
// (amd64 v1 and v2, 386, arm, mips, wasm, ...) every operation is rounded
// on its own.
const FMAContracts = true
