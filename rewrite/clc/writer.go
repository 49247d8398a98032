package clc

// This file holds the indenting text writer the translator prints OpenCL C
// through. It formats nothing but indentation and keeps the first error
// any caller reported (a sticky error), so that translation code can write
// on without checking after every line and report once at the end. It
// does not decide what is written.

import (
	"fmt"
	"strings"
)

// writer is an indenting line writer with a sticky error.
type writer struct {
	b      strings.Builder
	indent int
	err    error
}

// line writes one line at the current indentation.
func (w *writer) line(format string, args ...any) {
	for range w.indent {
		w.b.WriteByte('\t')
	}
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

// open writes a line that opens a block and indents what follows.
func (w *writer) open(format string, args ...any) {
	w.line(format, args...)
	w.indent++
}

// close dedents and writes a line closing a block.
func (w *writer) close(format string, args ...any) {
	w.indent--
	w.line(format, args...)
}

// fail records err unless an error is already recorded.
func (w *writer) fail(err error) {
	if w.err == nil && err != nil {
		w.err = err
	}
}

// raw appends text written by another writer, re-indented to the current
// level.
func (w *writer) raw(text string) {
	for l := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		if l == "" {
			continue
		}
		for range w.indent {
			w.b.WriteByte('\t')
		}
		w.b.WriteString(l)
		w.b.WriteByte('\n')
	}
}

// String returns what was written.
func (w *writer) String() string { return w.b.String() }

// empty reports whether nothing was written.
func (w *writer) empty() bool { return w.b.Len() == 0 }
