package lowered

// This file prints lowered kernels as text, for golden files and
// debugging. The text is stable: positions are file:line:col with the
// file's base name, members and spaces in order.

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Dump returns the text of every kernel of fn, one block per kernel.
func Dump(fn *Function) string {
	var b strings.Builder
	fmt.Fprintf(&b, "func %s -> %s\n", fn.Func.Name, fn.Func.Fuse.Name)
	for _, k := range fn.Kernels {
		DumpKernel(&b, fn.Fset, k)
	}
	return b.String()
}

// shortPos formats p as base:line:col.
func shortPos(p token.Position) string {
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// DumpKernel writes the text of k to b; fset (may be nil) renders
// positions.
func DumpKernel(b *strings.Builder, fset *token.FileSet, k *Kernel) {
	pos := func(n interface{ Pos() token.Pos }) string {
		if fset == nil || n == nil || !n.Pos().IsValid() {
			return "-"
		}
		return shortPos(fset.Position(n.Pos()))
	}
	length := func(l Length) string {
		if l.Var != nil {
			return "len(" + l.Var.Name + ")"
		}
		if l.Gen != nil {
			return "n of " + l.Gen.Name + "@" + pos(l.Gen)
		}
		return "?"
	}
	fmt.Fprintf(b, "  kernel %d at %s depth %d: %s", k.Src.ID, pos(k.Src.At), k.Src.Depth, k.Form)
	switch k.Form {
	case Sequence:
		fmt.Fprintf(b, " (%s)", k.Reason)
	case Loop, Chunked, ChunkedThen:
		fmt.Fprintf(b, " over %s", length(k.Length))
		if k.Unroll > 1 {
			fmt.Fprintf(b, ", unrolled %d", k.Unroll)
		}
	}
	if k.Rerun {
		b.WriteString(", rerun on panic")
	}
	for i, m := range k.Later {
		if i == 0 {
			b.WriteString(", placed before")
		}
		fmt.Fprintf(b, " %s@%s", m.Name, pos(m))
	}
	b.WriteString("\n")
	for _, a := range k.Asserts {
		var ls []string
		for _, l := range a.Lengths {
			ls = append(ls, length(l))
		}
		fmt.Fprintf(b, "    assert %s@%s: %s\n", a.SOAC.Name, pos(a.SOAC), strings.Join(ls, " == "))
	}
	if k.Form == Loop {
		for _, g := range k.Src.Gathers {
			prod := slices.IndexFunc(k.Members, func(m Member) bool { return m.SOAC.Out == g.Var })
			fmt.Fprintf(b, "    index read %s@%s: %d reads of %s at the index are the element of member %d\n", g.SOAC.Name, pos(g.SOAC), len(g.Reads), g.Var.Name, prod)
		}
	}
	for i, s := range k.Spaces[1:] {
		kind := "branch"
		if s.Select {
			kind = "select"
		}
		fmt.Fprintf(b, "    space %d: kept by member %d, in space %d, %s\n", i+1, s.Filter, s.Parent, kind)
	}
	for i, m := range k.Members {
		fmt.Fprintf(b, "    member %d: %s@%s %s", i, m.SOAC.Name, pos(m.SOAC), m.Role)
		if k.Form == Loop || k.Form == ChunkedThen && k.Chunk.Then <= i {
			fmt.Fprintf(b, " in space %d", m.Space)
		}
		if m.Kept >= 0 {
			fmt.Fprintf(b, ", keeps space %d", m.Kept)
		}
		if m.Store != NoStore {
			fmt.Fprintf(b, ", stored %s", m.Store)
		}
		if m.Split {
			fmt.Fprintf(b, ", split %d", k.Unroll)
		}
		if m.NeutralSelect {
			b.WriteString(", neutral for dropped")
		}
		if m.StartNotNeutral {
			b.WriteString(", start not neutral")
		}
		if m.Unread {
			b.WriteString(", unread")
		}
		b.WriteString("\n")
	}
	if c := k.Chunk; c != nil {
		fmt.Fprintf(b, "    chunks: buffer %s", c.Buffer)
		if c.Range != nil {
			fmt.Fprintf(b, ", range at %s fused (%d len calls)", pos(c.Range), len(c.Lens))
		}
		if c.Then > 0 {
			fmt.Fprintf(b, ", members %d.. after the stream", c.Then)
		}
		b.WriteString("\n")
	}
}
