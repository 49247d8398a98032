//go:build amd64.v3

package lanes

// MayContract reports whether this build's compiler may contract a
// floating-point x*y+z into one fused multiply-add (GOAMD64=v3 and
// above). A generated kernel whose lambdas it could contract runs its
// vector form only when it cannot: the vector form rounds the product,
// and the spec's compiled lambda might not.
const MayContract = true
