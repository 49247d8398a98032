// Package lo stands in for github.com/samber/lo in the tests: the
// signatures of the functions soacvet's lochain category knows, with
// plain loops as bodies.
package lo

// Map returns f of each element, with its index.
func Map[T, R any](collection []T, f func(item T, index int) R) []R {
	out := make([]R, len(collection))
	for i, x := range collection {
		out[i] = f(x, i)
	}
	return out
}

// Filter returns the elements for which pred holds.
func Filter[T any](collection []T, pred func(item T, index int) bool) []T {
	var out []T
	for i, x := range collection {
		if pred(x, i) {
			out = append(out, x)
		}
	}
	return out
}

// FilterMap returns f's values where it says to keep them.
func FilterMap[T, R any](collection []T, f func(item T, index int) (R, bool)) []R {
	var out []R
	for i, x := range collection {
		if r, ok := f(x, i); ok {
			out = append(out, r)
		}
	}
	return out
}

// Number is what Sum adds.
type Number interface {
	~int | ~int32 | ~int64 | ~float32 | ~float64
}

// Sum returns the sum of the elements.
func Sum[T Number](collection []T) T {
	var s T
	for _, x := range collection {
		s += x
	}
	return s
}

// SumBy returns the sum of f of the elements.
func SumBy[T any, R Number](collection []T, f func(item T) R) R {
	var s R
	for _, x := range collection {
		s += f(x)
	}
	return s
}

// Count returns how many elements equal value.
func Count[T comparable](collection []T, value T) int {
	n := 0
	for _, x := range collection {
		if x == value {
			n++
		}
	}
	return n
}

// CountBy returns how many elements pred holds for.
func CountBy[T any](collection []T, pred func(item T) bool) int {
	n := 0
	for _, x := range collection {
		if pred(x) {
			n++
		}
	}
	return n
}

// Reduce folds the elements left to right from initial.
func Reduce[T, R any](collection []T, f func(agg R, item T, index int) R, initial R) R {
	for i, x := range collection {
		initial = f(initial, x, i)
	}
	return initial
}
