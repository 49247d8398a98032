package ir

import (
	"errors"
	"fmt"
)

// Verify checks the invariants of the package documentation on fn and
// returns an error describing every violation, or nil:
//   - Vars[i].ID == i, and every Var a statement mentions is in Vars;
//   - every statement is in exactly one Block, Stmt.Block() is that block,
//     and every nested block's Parent is the statement owning it;
//   - every Var with a Def is listed in that statement's Effects.Defs, no
//     Var is defined by two statements, and a Var without a Def is a
//     parameter, a package-level variable or a lambda parameter;
//   - a SOAC's Out is non-nil, defined by it, and its Inputs are Vars;
//   - every Var a statement uses (Effects.Uses, SOAC inputs, operands and
//     lambda captures) is a parameter or package-level variable, a
//     parameter of an enclosing lambda, or is defined by an enclosing
//     statement or by an earlier statement of the same or an enclosing
//     block.
func Verify(fn *Function) error {
	v := &verifier{
		fn:     fn,
		loc:    make(map[Stmt]loc),
		defBy:  make(map[*Var]Stmt),
		lparam: make(map[*Var]*SOAC),
		known:  make(map[*Var]bool),
	}
	for i, x := range fn.Vars {
		if x == nil {
			v.errorf("Vars[%d] is nil", i)
			continue
		}
		if x.ID != i {
			v.errorf("Vars[%d] is %s with ID %d", i, vname(x), x.ID)
		}
		v.known[x] = true
	}
	if fn.Body == nil {
		v.errorf("function %s has no body", fn.Name)
		return v.err()
	}
	if fn.Body.Parent != nil {
		v.errorf("function body has a parent")
	}
	v.layout(fn.Body)
	v.defs()
	v.uses(fn.Body)
	return v.err()
}

type loc struct {
	block *Block
	index int
}

type verifier struct {
	fn     *Function
	loc    map[Stmt]loc
	defBy  map[*Var]Stmt
	lparam map[*Var]*SOAC // lambda parameters and the SOAC of their lambda
	known  map[*Var]bool
	errs   []error
}

func (v *verifier) errorf(format string, args ...any) {
	const max = 50 // enough to diagnose; more is noise
	if len(v.errs) < max {
		v.errs = append(v.errs, fmt.Errorf(format, args...))
	}
}

func (v *verifier) err() error {
	if len(v.errs) == 0 {
		return nil
	}
	return fmt.Errorf("ir.Verify(%s): %w", v.fn.Name, errors.Join(v.errs...))
}

func stmtName(s Stmt) string { return fmt.Sprintf("%T@%d", s, s.Pos()) }

// layout checks block membership and parent links.
func (v *verifier) layout(b *Block) {
	for i, s := range b.Stmts {
		if s == nil {
			v.errorf("nil statement in block")
			continue
		}
		if _, dup := v.loc[s]; dup {
			v.errorf("%s is in two blocks", stmtName(s))
			continue
		}
		v.loc[s] = loc{b, i}
		if s.Block() != b {
			v.errorf("%s: Block() is not the block holding it", stmtName(s))
		}
		if soac, ok := s.(*SOAC); ok {
			for _, l := range soac.Lambdas() {
				for _, p := range l.Params {
					v.lparam[p] = soac
				}
			}
		}
		for _, nb := range Children(s) {
			if nb.Parent != s {
				v.errorf("%s: nested block's Parent is not the statement", stmtName(s))
			}
			v.layout(nb)
		}
	}
}

// defs checks that each Var is defined once.
func (v *verifier) defs() {
	for s := range v.loc {
		for _, d := range s.Effects().Defs {
			if d == nil {
				v.errorf("%s defines nil", stmtName(s))
				continue
			}
			if !v.known[d] {
				v.errorf("%s defines %s, which is not in Function.Vars", stmtName(s), vname(d))
			}
			if prev, ok := v.defBy[d]; ok && prev != s {
				v.errorf("%s is defined by %s and by %s", vname(d), stmtName(prev), stmtName(s))
			}
			v.defBy[d] = s
			if d.Def != s {
				v.errorf("%s is in the Defs of %s but its Def is another statement", vname(d), stmtName(s))
			}
		}
		if soac, ok := s.(*SOAC); ok {
			if soac.Out == nil {
				v.errorf("%s has no Out", stmtName(s))
			} else if soac.Out.Def != soac {
				v.errorf("%s: Out %s is not defined by it", stmtName(s), vname(soac.Out))
			}
			for _, in := range soac.Inputs() {
				if in == nil {
					v.errorf("%s has a nil input", stmtName(s))
				}
			}
			if soac.Op == nil {
				v.errorf("%s has no Op", stmtName(s))
			}
		}
	}
	params := make(map[*Var]bool)
	for _, p := range v.fn.Params {
		params[p] = true
	}
	for _, x := range v.fn.Vars {
		if x == nil {
			continue
		}
		switch {
		case x.Def != nil:
			if _, in := v.loc[x.Def]; !in {
				v.errorf("%s: its Def is not a statement of the function", vname(x))
			} else if v.defBy[x] != x.Def {
				v.errorf("%s: its Def does not list it in Effects.Defs", vname(x))
			}
		case params[x], x.Global, v.lparam[x] != nil:
		default:
			v.errorf("%s has no Def and is not a parameter or package-level variable", vname(x))
		}
	}
}

// parent returns the statement owning the block holding s, or nil.
func (v *verifier) parent(s Stmt) Stmt {
	l, ok := v.loc[s]
	if !ok {
		return nil
	}
	return l.block.Parent
}

// reaches reports whether Var x is available at statement s.
func (v *verifier) reaches(x *Var, s Stmt) bool {
	if x.Def == nil {
		if soac := v.lparam[x]; soac != nil {
			for a := v.parent(s); a != nil; a = v.parent(a) {
				if a == soac {
					return true
				}
			}
			return false
		}
		return true
	}
	dl, ok := v.loc[x.Def]
	if !ok {
		return false
	}
	for a := s; a != nil; a = v.parent(a) {
		if a != s && a == x.Def {
			return true
		}
		if al := v.loc[a]; al.block == dl.block && dl.index < al.index {
			return true
		}
	}
	return false
}

// uses checks that every use is reached by its definition.
func (v *verifier) uses(b *Block) {
	Walk(b, func(s Stmt) bool {
		check := func(what string, xs []*Var) {
			for _, x := range xs {
				switch {
				case x == nil:
					v.errorf("%s: nil Var in %s", stmtName(s), what)
				case !v.known[x]:
					v.errorf("%s: %s %s is not in Function.Vars", stmtName(s), what, vname(x))
				case !v.reaches(x, s):
					v.errorf("%s: %s %s is not defined before it", stmtName(s), what, vname(x))
				}
			}
		}
		e := s.Effects()
		check("use", e.Uses)
		if soac, ok := s.(*SOAC); ok {
			check("input", soac.Inputs())
			for _, o := range soac.Operands() {
				check("operand use", o.Uses)
				if o.Len != nil {
					check("operand length", []*Var{o.Len})
				}
			}
			for _, l := range soac.Lambdas() {
				check("lambda capture", l.Free)
				if l.Body != nil && l.Lit == nil {
					v.errorf("%s: lambda has a Body but no Lit", stmtName(s))
				}
			}
		}
		return true
	})
}
