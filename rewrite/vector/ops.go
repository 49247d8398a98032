package vector

// This file holds the operations the translator writes, as data: for
// each Go operator or function, the archsimd method that computes it
// bit for bit on each class of lane, and where its 256-bit form needs
// AVX-512 (an AVX2-only CPU has no such instruction). Go 1.26's archsimd
// documents each method's instruction and CPU feature; an operation
// missing here is refused with its reason.

import "go/token"

// rule is how one operation is computed on lanes.
type rule struct {
	// method is the archsimd method (x.method(y)).
	method string
	// on holds the classes of lane it applies to.
	on []class
	// wide64, wideAll: its 256-bit form needs AVX-512 on 64-bit integer
	// lanes, or on every lane (no AVX2 instruction computes it).
	wide64, wideAll bool
}

func (r rule) applies(c class) bool {
	for _, o := range r.on {
		if o == c {
			return true
		}
	}
	return false
}

var (
	numbers  = []class{floating, signed, unsigned}
	integers = []class{signed, unsigned}
	floats   = []class{floating}
)

// binaryRules are the arithmetic and bit operators. Integer + - *
// wrap as Go's do; float / is IEEE division (integer division may panic
// and has no vector instruction: refused). &^ is written x.And(y.Not()):
// Go 1.26.8's compiler computes AndNot next to Or and Xor wrongly in
// 512-bit code.
var binaryRules = map[token.Token]rule{
	token.ADD: {method: "Add", on: numbers},
	token.SUB: {method: "Sub", on: numbers},
	token.MUL: {method: "Mul", on: numbers, wide64: true},
	token.QUO: {method: "Div", on: floats},
	token.AND: {method: "And", on: integers},
	token.OR:  {method: "Or", on: integers},
	token.XOR: {method: "Xor", on: integers},
}

// compareRules are the comparisons, each a mask. On floats they follow
// Go's (IEEE) rules: every comparison with a NaN is false but !=, which
// is true (archsimd's NotEqual is the unordered compare).
var compareRules = map[token.Token]rule{
	token.LSS: {method: "Less", on: numbers},
	token.LEQ: {method: "LessEqual", on: numbers},
	token.GTR: {method: "Greater", on: numbers},
	token.GEQ: {method: "GreaterEqual", on: numbers},
	token.EQL: {method: "Equal", on: numbers},
	token.NEQ: {method: "NotEqual", on: numbers},
}

// shiftRules are the shifts by a constant count, written as shifts of
// each lane by a broadcast count (VPSLLVQ and kin): they give Go's
// results for counts of the lane's width and more (0 for << and an
// unsigned >>, the sign for a signed >>). The shifts of all lanes by one
// count (ShiftAllLeft) are not used: Go 1.26.8 compiles them, merged into
// a select, to an invalid masked instruction.
var shiftRules = map[token.Token]map[class]rule{
	token.SHL: {
		signed:   {method: "ShiftLeft", on: integers},
		unsigned: {method: "ShiftLeft", on: integers},
	},
	token.SHR: {
		signed:   {method: "ShiftRight", on: integers, wide64: true},
		unsigned: {method: "ShiftRight", on: integers},
	},
}

// builtinRules are the builtins min and max on integers; on floats,
// whose NaN and ±0 rules are not one instruction's, they are composed
// (apply.go's floatMinMax).
var builtinRules = map[string]rule{
	"min": {method: "Min", on: integers, wide64: true},
	"max": {method: "Max", on: integers, wide64: true},
}

// mathRules are the functions of package math computed exactly on
// lanes: square root is correctly rounded in IEEE-754 and so in both
// Go and the instruction. math.Abs clears the sign bit (a rule of its
// own in lambda.go).
var mathRules = map[string]rule{
	"Sqrt": {method: "Sqrt", on: floats},
}

// convertRules are the conversions between lanes of one width that the
// hardware computes as Go does, keyed by from and to: between integer
// classes a reinterpretation of the bits (Go's conversion between
// integers of one size), from integers to floats a conversion rounding
// to nearest even (Go's). Float to integer conversions are refused: Go
// leaves out-of-range results to the implementation, so the scalar
// code's need not be the instruction's.
var convertRules = map[[2]class]rule{
	{signed, floating}:   {method: "ConvertTo", on: []class{signed}, wide64: true},
	{unsigned, floating}: {method: "ConvertTo", on: []class{unsigned}, wideAll: true},
	{signed, unsigned}:   {method: "As", on: []class{signed}},
	{unsigned, signed}:   {method: "As", on: []class{unsigned}},
}

// needsAVX512 reports whether rule r's 256-bit form on lane l needs an
// AVX-512 instruction.
func (r rule) needsAVX512(l lane) bool {
	return r.wideAll || r.wide64 && l.bits == 64 && l.class != floating
}
