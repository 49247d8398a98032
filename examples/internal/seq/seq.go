// Package seq holds the small generic push-iterator adapters (Go 1.23
// iter.Seq) that the examples' "/iter" benchmarks are written with.
//
// It is the baseline soacgen's fused code is compared with: a chain of these
// adapters runs as one pass without intermediate slices, which is what a Go
// programmer without soacgen would write to avoid allocation. A pipeline
// whose arrays have several consumers needs one chain per consumer, each a
// separate pass over its input.
//
// The folds keep the reference order of runtime/soac (left to right, starting
// from the neutral element), so a chain gives bit-identical floating-point
// results to the corresponding soac pipeline.
package seq

import (
	"iter"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Values returns an iterator over the elements of xs, in order.
// (slices.Values does the same; it is repeated here so that every adapter a
// chain uses lives in one place.)
func Values[T any](xs []T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, x := range xs {
			if !yield(x) {
				return
			}
		}
	}
}

// Map returns an iterator over f(x) for every x of s, in order.
func Map[T, U any](s iter.Seq[T], f func(T) U) iter.Seq[U] {
	return func(yield func(U) bool) {
		for x := range s {
			if !yield(f(x)) {
				return
			}
		}
	}
}

// Map2 returns an iterator over f(xs[i], ys[i]) for every index i, in order.
// Like soac.Map2 it panics with soac.LengthError, before calling f, if the
// lengths differ; it panics when iterated, not when called.
func Map2[T1, T2, U any](xs []T1, ys []T2, f func(T1, T2) U) iter.Seq[U] {
	return func(yield func(U) bool) {
		if len(xs) != len(ys) {
			panic(soac.LengthError("Map2", len(xs), len(ys)))
		}
		for i, x := range xs {
			if !yield(f(x, ys[i])) {
				return
			}
		}
	}
}

// Filter returns an iterator over the elements x of s for which pred(x)
// holds, in order.
func Filter[T any](s iter.Seq[T], pred func(T) bool) iter.Seq[T] {
	return func(yield func(T) bool) {
		for x := range s {
			if pred(x) && !yield(x) {
				return
			}
		}
	}
}

// Scan returns an iterator over the inclusive prefix folds of s under op,
// starting from ne: ne⊕x0, ne⊕x0⊕x1, ... (left to right, as soac.Scan).
func Scan[T any](s iter.Seq[T], ne T, op func(T, T) T) iter.Seq[T] {
	return func(yield func(T) bool) {
		acc := ne
		for x := range s {
			acc = op(acc, x)
			if !yield(acc) {
				return
			}
		}
	}
}

// Reduce folds s from the left, starting from init:
// f(...f(f(init, x0), x1)..., x(n-1)). With A = T and an associative f with
// neutral element init it is soac.Reduce; the general form also serves as
// the fold into a mutable accumulator (a counts slice, say) that Go
// programmers write.
func Reduce[T, A any](s iter.Seq[T], init A, f func(A, T) A) A {
	acc := init
	for x := range s {
		acc = f(acc, x)
	}
	return acc
}
