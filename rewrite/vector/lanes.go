package vector

import (
	"fmt"
	"go/types"
)

// class is what a lane's bits mean.
type class int

const (
	floating class = iota
	signed
	unsigned
)

// lane is a Go element type as a vector lane: a basic numeric type of 32
// or 64 bits (int and uint are 64 on amd64), possibly under a name of
// its own.
type lane struct {
	t     types.Type
	class class
	bits  int
}

// laneOf returns t as a lane, or why it cannot be one.
func laneOf(t types.Type) (lane, string) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return lane{}, fmt.Sprintf("its elements are %s, not numbers", t)
	}
	switch b.Kind() {
	case types.Float64:
		return lane{t, floating, 64}, ""
	case types.Float32:
		return lane{t, floating, 32}, ""
	case types.Int, types.Int64:
		return lane{t, signed, 64}, ""
	case types.Int32:
		return lane{t, signed, 32}, ""
	case types.Uint, types.Uint64, types.Uintptr:
		return lane{t, unsigned, 64}, ""
	case types.Uint32:
		return lane{t, unsigned, 32}, ""
	}
	return lane{}, fmt.Sprintf("its elements are %s, which no vector form holds (32- and 64-bit numbers only)", t)
}

// stem is the archsimd name of the lane's element: "Float64", "Int32".
func (l lane) stem() string {
	switch l.class {
	case floating:
		return fmt.Sprintf("Float%d", l.bits)
	case signed:
		return fmt.Sprintf("Int%d", l.bits)
	}
	return fmt.Sprintf("Uint%d", l.bits)
}

// count is the number of lanes of a width-bit vector.
func (l lane) count(width int) int { return width / l.bits }

// vec is the archsimd vector type of width bits: "Float64x8".
func (l lane) vec(width int) string { return fmt.Sprintf("%sx%d", l.stem(), l.count(width)) }

// mask is the archsimd mask type of width bits: "Mask64x8".
func (l lane) mask(width int) string { return fmt.Sprintf("Mask%dx%d", l.bits, l.count(width)) }

// ints is the signed integer lane of the same width (a mask's vector).
func (l lane) ints() lane { return lane{types.Typ[types.Int64], signed, l.bits} }

// uints is the unsigned integer lane of the same width (bit patterns).
func (l lane) uints() lane { return lane{types.Typ[types.Uint64], unsigned, l.bits} }
