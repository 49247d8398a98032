package ir

// Aliases is a union-find partition of a Function's Vars into classes that
// may share memory: a re-slice, a copy of a slice header, a struct holding a
// slice, append's result (which may share its argument's capacity) and the
// result of an unknown call on a slice all join their operand's class. SOAC
// results start in a class of their own (the runtime allocates them), unless
// their elements may hold references to their inputs' memory.
//
// The zero value is ready to use. Vars that were never joined are alone in
// their class.
type Aliases struct {
	parent map[int]int
}

func (a *Aliases) find(id int) int {
	if a.parent == nil {
		return id
	}
	for {
		p, ok := a.parent[id]
		if !ok || p == id {
			return id
		}
		if gp, ok := a.parent[p]; ok && gp != p {
			a.parent[id] = gp
		}
		id = p
	}
}

// Join records that x and y may share memory.
func (a *Aliases) Join(x, y *Var) {
	rx, ry := a.find(x.ID), a.find(y.ID)
	if rx == ry {
		return
	}
	if a.parent == nil {
		a.parent = make(map[int]int)
	}
	// Keep the smaller ID as the root so that classes print deterministically.
	if ry < rx {
		rx, ry = ry, rx
	}
	a.parent[ry] = rx
}

// MayAlias reports whether x and y may share memory.
func (a *Aliases) MayAlias(x, y *Var) bool {
	if x == y {
		return true
	}
	if x.Global && y.Global {
		return true
	}
	return a.find(x.ID) == a.find(y.ID)
}
