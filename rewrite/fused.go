package rewrite

import (
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// fused returns k as one loop, or false when the loop emitter does not
// cover its form.
func (f *fgen) fused(k *fusion.Kernel, outs map[*ir.Var]string) (*code, bool) {
	return nil, false
}

// canInline reports whether lambda l's literal can be inlined at pos.
func (f *fgen) canInline(l *ir.Lambda, pos interface{}) bool { return false }
