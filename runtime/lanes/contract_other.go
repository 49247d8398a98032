//go:build !amd64.v3

package lanes

// MayContract reports whether this build's compiler may contract a
// floating-point x*y+z into one fused multiply-add (GOAMD64=v3 and
// above on amd64). A generated kernel whose lambdas it could contract
// runs its vector form only when it cannot.
const MayContract = false
