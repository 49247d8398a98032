package ir

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"strings"
)

// This file names Vars for the user. A temporary the builder introduced
// (a nested SOAC's result "_soacN", a hoisted expression "_tmpN") has a
// name the user never wrote; every message, note and report list names it
// by what the source holds there instead, with its position.

// Temp reports whether v is a temporary of let-normalisation: a nested
// SOAC's result or a hoisted expression, named by the builder.
func (v *Var) Temp() bool { return v.Obj == nil && tempName.MatchString(v.Name) }

// tempName matches the names the builder gives temporaries.
var tempName = regexp.MustCompile(`^_(soac|tmp)[0-9]+$`)

// tempWord matches those names as words of a sentence.
var tempWord = regexp.MustCompile(`\b_(soac|tmp)[0-9]+\b`)

// Label names v for the user: its Go name, or for a temporary the call or
// expression it holds and where, "the Map at x.go:3:9" or
// "the expression xs[1:] at x.go:3:12" (file names without directories,
// as in fusion's reasons: Position).
func (v *Var) Label(fset *token.FileSet) string {
	return v.LabelAt(func(p token.Pos) string { return Position(fset, p) })
}

// LabelAt is Label with positions formatted by at.
func (v *Var) LabelAt(at func(token.Pos) string) string {
	if !v.Temp() {
		return v.Name
	}
	switch d := v.Def.(type) {
	case *SOAC:
		return "the " + d.Name + " at " + at(d.Pos())
	case *Plain:
		if d.Hoisted != nil {
			return "the expression " + types.ExprString(d.Hoisted) + " at " + at(d.Hoisted.Pos())
		}
	}
	return "the value at " + at(v.Pos)
}

// Position formats pos as "file.go:line:col", the file without its
// directories, or "pos N" when fset is nil or pos invalid.
func Position(fset *token.FileSet, pos token.Pos) string {
	if fset == nil || !pos.IsValid() {
		return fmt.Sprintf("pos %d", pos)
	}
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// UserText rewrites a sentence about f for the user: every name of one of
// f's temporaries in it becomes that temporary's Label. Messages built
// from Var names anywhere in the pipeline pass through it where they
// leave the generator (notes, warnings, diagnostics).
func (f *Function) UserText(fset *token.FileSet, s string) string {
	if f == nil || !strings.Contains(s, "_") {
		return s
	}
	return tempWord.ReplaceAllStringFunc(s, func(name string) string {
		for _, v := range f.Vars {
			if v != nil && v.Name == name && v.Temp() {
				return v.Label(fset)
			}
		}
		return name
	})
}
