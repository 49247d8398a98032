package stale

// This file reports the fallback category: each kernel whose generated
// code is not the backend its spec asked for, from the same regenerated
// outputs the stale check compares (rewrite.Output.Generated, which the
// generator's warnings and the report's backend-fallback notes come
// from). It does not decide anything about fallbacks: the generator's
// chain does (rewrite's chain.go).

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite"
)

// fallbacks reports, for every kernel of outs whose generation fell back
// from the backend the spec asked for, one finding at the kernel's
// position:
//
//	fallback: kernel 1 of Upper (Map, Reduce): asked for opencl, runs parallel: backend opencl does not generate this kernel: REASON
//
// with one sentence per step down the chain (opencl, then parallel, ...).
// Kernels are numbered as the fusion report lists them.
func (r *reporter) fallbacks(outs []rewrite.Output) {
	for _, o := range outs {
		for _, plan := range o.Plans {
			name := plan.Func.Name
			if plan.Func.Fuse != nil {
				name = plan.Func.Fuse.Name
			}
			for i, k := range plan.Kernels {
				g := o.Generated[k]
				if len(g.Fallbacks) == 0 {
					continue
				}
				ops := make([]string, len(k.SOACs))
				for j, s := range k.SOACs {
					ops[j] = s.Name
				}
				r.report(analysis.Diagnostic{
					Pos:      r.passPos(g.Fallbacks[0].Pos),
					Category: Fallback,
					Message:  fallbackMessage(fmt.Sprintf("kernel %d of %s (%s)", i+1, name, strings.Join(ops, ", ")), g),
				})
			}
		}
	}
}

// fallbackMessage is the finding of kernel (its description) that g
// records with fallbacks.
func fallbackMessage(kernel string, g report.Generated) string {
	notes := make([]string, len(g.Fallbacks))
	for i, fb := range g.Fallbacks {
		notes[i] = fb.Note()
	}
	return fmt.Sprintf("fallback: %s: asked for %s, runs %s: %s", kernel, g.Fallbacks[0].Backend, g.Backend, strings.Join(notes, "; "))
}

// passPos returns the position in the pass's own syntax of pos, a
// position in a file that rewrite.Regenerate parsed again (a spec's file
// with its stubs appended, under the same name, the spec's part at the
// same offsets), so that the finding lies in a file the driver knows.
func (r *reporter) passPos(pos token.Pos) token.Pos {
	fset := r.pass.Fset
	p := fset.Position(pos)
	for _, f := range r.pass.Files {
		if tf := fset.File(f.FileStart); tf != nil && tf.Name() == p.Filename && p.Offset <= tf.Size() {
			return tf.Pos(p.Offset)
		}
	}
	return pos
}
