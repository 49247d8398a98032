package launch

// This file keeps a grid kernel's result, a [][]T of rows × cols
// elements, on the device for the later kernels of the call that read
// it (the generator decides which: rewrite/backend/opencl's
// gridkept.go): the grid writes it into a buffer of the call's
// Session (KeepRows, Grid.RunOn) instead of downloading it, and a later
// grid reads it there as its rows or as the rows its inner Map runs
// over (RowsDev). The host copy is made only when host code needs it
// (Matrix.Host).

import "unsafe"

// Matrix is a [][]T a grid kernel left on the device: rows × cols
// elements, row-major, in one buffer of its Session, and their host
// rows once Host made them. A nil *Matrix is one the kernel that should
// have written it did not (it ran on the CPU): its Go variable holds it.
type Matrix[T any] struct {
	a          Array[T]
	rows, cols int
	host       [][]T
}

// Host returns the rows in Go memory (Chop's, of one downloaded
// slice), downloading them the first time; a failed download panics, as
// Array.Host's does.
func (m *Matrix[T]) Host() [][]T {
	if m.host == nil {
		m.host = Chop(m.a.Host(), m.rows, m.cols)
	}
	return m.host
}

// Release returns the device copy to the pool; a nil m is left as is.
func (m *Matrix[T]) Release() {
	if m != nil {
		m.a.Release()
	}
}

// KeepRows returns the kernel argument of a grid's result of rows ×
// cols elements kept on the device: after a run of Grid.RunOn that
// succeeds, *dst is the Matrix holding it (with KeepOnDevice false,
// already downloaded and released); after one that does not, *dst is
// left as it is.
func KeepRows[T any](dst **Matrix[T], rows, cols int) any {
	var zero T
	return view{out: true, n: int64(rows * cols), size: rows * cols * int(unsafe.Sizeof(zero)), keep: func(s *Session, h *held) {
		m := &Matrix[T]{a: Array[T]{s: s, h: h, n: rows * cols}, rows: rows, cols: cols}
		*dst = m
		if !KeepOnDevice {
			m.Host()
			m.Release()
		}
	}}
}

// RowsDev is Rows for a [][]T that an earlier grid of the call may have
// kept on the device (m) or that its Go variable holds (xss, when m is
// nil): the kernel reads m's buffer where it is, with the offsets of
// its rows (uploaded as a captured slice's are). A released m gives
// Rows of its host copy.
func RowsDev[T any](m *Matrix[T], xss [][]T) any {
	if m == nil {
		return Rows(xss)
	}
	if m.a.h.b == nil {
		return Rows(m.Host())
	}
	off := make([]int64, m.rows+1)
	for i := range off {
		off[i] = int64(i * m.cols)
	}
	return view{buf: m.a.h.b, off: off, n: int64(m.rows)}
}

// NumRows returns the number of rows of a [][]T that a grid may have
// left on the device (m) or that its Go variable holds (xss, when m is
// nil).
func NumRows[T any](m *Matrix[T], xss [][]T) int {
	if m != nil {
		return m.rows
	}
	return len(xss)
}

// InnerDev is Inner for a [][]T that a grid may have left on the device
// (m) or that its Go variable holds (xss, when m is nil).
func InnerDev[T any](m *Matrix[T], xss [][]T) int {
	if m == nil {
		return Inner(xss)
	}
	if m.rows == 0 {
		return 0
	}
	return m.cols
}

// RowLenDev is RowLen for operands that a grid may have left on the
// device (ma, mb) or that their Go variables hold (a, b, when nil).
func RowLenDev[T, U any](ma *Matrix[T], a [][]T, mb *Matrix[U], b [][]U) int {
	ka, kb := rowLenOf(ma, a), rowLenOf(mb, b)
	switch {
	case ka == -2 || kb == -2:
		return -1
	case ka == -1:
		return max(kb, 0)
	case kb == -1 || ka == kb:
		return ka
	}
	return -1
}

// rowLenOf returns the length every row of m (or xss, when m is nil)
// has: -1 when there are no rows, -2 when two differ.
func rowLenOf[T any](m *Matrix[T], xss [][]T) int {
	if m != nil {
		if m.rows == 0 {
			return -1
		}
		return m.cols
	}
	k := -1
	for _, r := range xss {
		if k >= 0 && len(r) != k {
			return -2
		}
		k = len(r)
	}
	return k
}
