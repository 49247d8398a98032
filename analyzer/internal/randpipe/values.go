package randpipe

// This file holds the values of a spec body (val): the arrays and
// scalars bound to Go variables, how a step binds a new one (in one of
// Go's forms, sometimes reusing a used-up name), reads one (by name, or by
// inlining its defining call into its only consumer), and chooses its
// inputs among the available ones (preferring values nobody used, and
// arrays of one length class for zips).

// val is a value of the spec body: an array or a scalar bound to a Go
// variable.
type val struct {
	name  string
	typ   string // the element type of an array, the type of a scalar
	arr   bool
	cls   int // arrays: length class (0: the inputs' length); scalars: unused
	uses  int
	avail bool // may be an input of later steps
	// inl is the call expression that defined the value when its
	// definition is the last line written so far and it may be inlined
	// into its single consumer.
	inl     string
	inlLine int
	param   bool
	// captured reports that a lambda reads the variable (it must not be
	// reassigned other than by a hazard).
	captured bool
	// line is the index of the last line of the value's definition (-1
	// for a parameter), depth the blocks it is written in, and gone
	// reports that the definition was inlined into its consumer: the
	// path shapes (pathshapes.go) read only values defined at the top
	// level before the line they are inserted at.
	line, depth int
	gone        bool
}

// goType is the Go type of v.
func (v *val) goType() string {
	if v.arr {
		return "[]" + v.typ
	}
	return v.typ
}

// define records a new value bound by the line just emitted.
func (g *gen) define(name, typ string, arr bool, cls int, call string) *val {
	v := &val{name: name, typ: typ, arr: arr, cls: cls, avail: true, line: len(g.lines) - 1, depth: g.depth}
	if call != "" {
		v.inl = call
		v.inlLine = len(g.lines) - 1
	}
	g.vals = append(g.vals, v)
	return v
}

// bind emits `name := call` in one of Go's forms and defines the value.
func (g *gen) bind(typ string, arr bool, cls int, call string) *val {
	goT := typ
	if arr {
		goT = "[]" + typ
	}
	// Reuse a name whose value is used up and never captured.
	if g.chance(0.1) {
		for _, v := range g.vals {
			if !v.param && v.uses > 0 && !v.captured && v.avail && v.arr == arr && v.typ == typ && v.inl == "" {
				v.avail = false
				g.emit("%s = %s", v.name, call)
				nv := g.define(v.name, typ, arr, cls, "")
				return nv
			}
		}
	}
	name := g.fresh(map[bool]string{true: "a", false: "s"}[arr])
	switch g.pick(10) {
	case 0:
		g.emit("var %s = %s", name, call)
		return g.define(name, typ, arr, cls, "")
	case 1:
		g.emit("var %s %s", name, goT)
		g.emit("%s = %s", name, call)
		return g.define(name, typ, arr, cls, "")
	default:
		g.emit("%s := %s", name, call)
		return g.define(name, typ, arr, cls, call)
	}
}

// use returns the text by which a step reads v: its name, or, when v was
// defined by the previous line and nothing else reads it, sometimes the
// defining call itself (a nested call).
func (g *gen) use(v *val) string {
	v.uses++
	if v.inl != "" && v.uses == 1 && v.inlLine == len(g.lines)-1 && g.chance(0.35) {
		g.lines = g.lines[:len(g.lines)-1]
		v.avail = false
		v.gone = true
		// The value is gone: mark it used so it is not returned.
		call := v.inl
		v.inl = ""
		return call
	}
	return v.name
}

// ref returns v's name for a read that is not a SOAC input.
func (g *gen) ref(v *val) string {
	v.uses++
	v.inl = ""
	return v.name
}

// clearInl forgets the inlining candidates (after lines that must stay
// between a producer and its consumer).
func (g *gen) clearInl() {
	for _, v := range g.vals {
		v.inl = ""
	}
}

// arrays returns the available arrays matching ok.
func (g *gen) arrays(ok func(*val) bool) []*val {
	var out []*val
	for _, v := range g.vals {
		if v.avail && v.arr && (ok == nil || ok(v)) {
			out = append(out, v)
		}
	}
	return out
}

// choose picks one of vs, preferring values nobody used yet.
func (g *gen) choose(vs []*val) *val {
	var fresh []*val
	for _, v := range vs {
		if v.uses == 0 {
			fresh = append(fresh, v)
		}
	}
	if len(fresh) > 0 && g.chance(0.7) {
		return fresh[g.pick(len(fresh))]
	}
	return vs[g.pick(len(vs))]
}

// scalars returns the available scalars as lambda leaves.
func (g *gen) scalars() []leaf {
	var out []leaf
	for _, v := range g.vals {
		if v.avail && !v.arr {
			out = append(out, leaf{v.name, v.typ, v})
		}
	}
	return out
}

func (g *gen) newCls() int { g.cls++; return g.cls }

// sameClass returns the available arrays of v's length class.
func (g *gen) sameClass(v *val) []*val {
	return g.arrays(func(w *val) bool { return w.cls == v.cls })
}
