package clc

// This file decides the C names of Go identifiers. Names the translator
// makes itself all contain a double underscore ("soac__t3",
// "blackscholes__cnd"); a Go local keeps its name when that is a plain
// ASCII identifier without a double underscore that names nothing in
// OpenCL C (keywords, types, the built-in functions and macros the
// translation uses), and is renamed "soac__vN" otherwise; a captured
// variable, a kernel parameter beside the skeletons' own variables, is
// always "cap__NAME" (func.go's captureName). It does not decide scopes:
// the translator numbers renamed locals.

import (
	"fmt"
	"regexp"
	"strings"
)

var plainIdent = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$`)

// vectorType matches OpenCL C's scalar and vector type names.
var vectorType = regexp.MustCompile(`^(bool|char|uchar|short|ushort|int|uint|long|ulong|half|float|double|size_t|ptrdiff_t|intptr_t|uintptr_t)(2|3|4|8|16)?$`)

// macroLike matches all-capital names such as INFINITY or M_PI, which
// OpenCL C may define as macros.
var macroLike = regexp.MustCompile(`^[A-Z][A-Z0-9_]+$`)

// reserved are C and OpenCL C keywords and the built-in functions the
// translation calls or a reader would expect to mean the built-in.
var reserved = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`auto break case char const continue default do double else enum
		extern float for goto if inline int long register restrict return short signed sizeof static
		struct switch typedef union unsigned void volatile while bool true false half
		kernel __kernel global __global local __local constant __constant private __private
		read_only write_only read_write image1d_t image2d_t image3d_t sampler_t event_t complex imaginary
		uniform pipe generic
		acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh erf erfc exp exp2 expm1
		fabs floor fma fmax fmin fmod hypot isinf isnan isfinite log log10 log1p log2 pow rint round
		signbit sin sinh sqrt tan tanh trunc min max abs clamp mix select step dot cross length
		as_double as_float as_long as_ulong as_int as_uint convert_long convert_int
		get_global_id get_local_id get_group_id get_global_size get_local_size barrier
		printf main`) {
		reserved[s] = true
	}
}

// safeLocal reports whether a Go identifier can be used unchanged as a
// C local, parameter or field name.
func safeLocal(name string) bool {
	return plainIdent.MatchString(name) && !reserved[name] && !vectorType.MatchString(name) &&
		!macroLike.MatchString(name) && !strings.HasPrefix(name, "soac")
}

// mangleGlobal returns the C name of a package-level Go name: the package
// name and the name joined by a double underscore, non-identifier runes
// spelled as _uXXXX.
func mangleGlobal(pkg, name string) string {
	return ascii(pkg) + "__" + ascii(name)
}

// ascii spells the non-ASCII-alphanumeric runes of s as _uXXXX.
func ascii(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "_u%04X", r)
	}
	return b.String()
}
