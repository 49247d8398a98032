package imports

import (
	. "github.com/soacgen/soacgen/runtime/soac"
	s "github.com/soacgen/soacgen/runtime/soac"
)

func inc(x int) int { return x + 1 }

// Renamed and dot imports, explicit instantiation; LengthError is an
// ordinary call.
func renamed(xs []int) []int {
	a := s.Map(xs, inc)
	b := Map(a, inc)
	c := s.Map[int, int](b, inc)
	d := Map[int](c, inc)
	_ = s.LengthError("Map2", len(a), len(b))
	return d
}
