package fusion

// This file prints a Plan as deterministic text, for golden files and the
// -explain style output of the tools.
//
// It does NOT print generated code.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// String returns Dump of the plan.
func (plan *Plan) String() string { return Dump(plan) }

// Dump renders plan deterministically: kernels in order with their
// members, inputs, outputs, internal arrays and rules; then notes,
// diagnostics and statistics. Positions are file:line:col with the file's
// base name.
func Dump(plan *Plan) string {
	p := posFmt{plan.Fset}
	var b strings.Builder
	name := "?"
	if plan.Func != nil {
		name = plan.Func.Name
	}
	fmt.Fprintf(&b, "func %s (%s)\n", name, plan.Partitioner)
	for _, k := range plan.Kernels {
		fmt.Fprintf(&b, "kernel %d depth %d form %s at %s", k.ID, k.Depth, k.Form, p.stmt(k.At))
		if k.Parent != nil {
			fmt.Fprintf(&b, " parent %d", k.Parent.ID)
		}
		b.WriteString("\n")
		for _, m := range k.SOACs {
			out := ""
			if m.Out != nil {
				out = " -> " + m.Out.Name
			}
			moved := ""
			for _, x := range k.Moved {
				if x == m {
					moved = " (moved in)"
				}
			}
			fmt.Fprintf(&b, "  %s%s%s\n", p.soac(m), out, moved)
		}
		line := func(label string, vs []*ir.Var) {
			if len(vs) == 0 {
				return
			}
			var ns []string
			for _, v := range vs {
				ns = append(ns, v.Name)
			}
			fmt.Fprintf(&b, "  %s: %s\n", label, strings.Join(ns, ", "))
		}
		line("inputs", k.Inputs)
		line("outputs", k.Outputs)
		line("internal", k.Internal)
		if len(k.Asserts) > 0 {
			var ns []string
			for _, a := range k.Asserts {
				ns = append(ns, p.soac(a))
			}
			fmt.Fprintf(&b, "  asserts: %s\n", strings.Join(ns, ", "))
		}
		if len(k.Copies) > 0 {
			var ns []string
			for _, c := range k.Copies {
				ns = append(ns, c.Var.Name+" at "+p.soac(c.SOAC))
			}
			fmt.Fprintf(&b, "  copies: %s\n", strings.Join(ns, ", "))
		}
		if len(k.Rules) > 0 {
			fmt.Fprintf(&b, "  rules: %s\n", strings.Join(k.Rules, ", "))
		}
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(&b, "note %s at %s: %s\n", n.Rule, p.at(n.Pos), n.Reason)
	}
	for _, d := range plan.Diagnostics {
		fmt.Fprintf(&b, "diagnostic %s at %s: %s\n", d.Category, p.at(d.Pos), d.Message)
	}
	s := plan.Stats
	var rs []string
	for n, c := range s.Rules {
		rs = append(rs, fmt.Sprintf("%s=%d", n, c))
	}
	sort.Strings(rs)
	fmt.Fprintf(&b, "stats: passes %d -> %d, intermediates removed %d", s.PassesBefore, s.PassesAfter, s.IntermediatesRemoved)
	if len(rs) > 0 {
		fmt.Fprintf(&b, ", rules %s", strings.Join(rs, " "))
	}
	b.WriteString("\n")
	if plan.GasExhausted {
		b.WriteString("gas exhausted\n")
	}
	return b.String()
}
