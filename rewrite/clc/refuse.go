package clc

// This file defines the error every refusal returns. It does not decide
// what is refused; the translator does, where it meets the construct.

import (
	"fmt"
	"go/token"
)

// Refusal says why a function cannot be translated: the construct that
// is not in the translatable subset, where it is, and why.
type Refusal struct {
	Pos       token.Position // where the construct is
	Construct string         // what it is, as a user would name it: "string", "map index", "call of fmt.Println"
	Reason    string         // why it is not translated
}

// Error implements error as "file:line:col: construct: reason".
func (r *Refusal) Error() string {
	return fmt.Sprintf("%v: %s: %s", r.Pos, r.Construct, r.Reason)
}
