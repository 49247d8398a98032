package purity

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// This file holds the standard-library table: the effects of builtins and
// of standard-library functions, as data. It does not decide anything about
// a call site (which arguments are fresh, whether function arguments are
// pure): callsite.go does that with the Effect a row gives.

// Effect is what calling a function does, as a row of the table states it.
type Effect struct {
	// Impure, when not empty, says why the function is impure beyond the
	// writes of WritesArgs ("I/O", "reads the clock"); such a function may
	// also write global state.
	Impure string
	// WritesArgs lists the arguments (0-based; -1 for a method's receiver)
	// whose pointed-to memory the function writes: sort.Ints writes
	// argument 0. A call that passes fresh local memory there stays pure.
	WritesArgs []int
	// CallsArgs lists the function-typed arguments the function calls
	// (sort.Slice calls argument 1): the call is pure only if they are.
	CallsArgs []int
	// MayPanic reports whether the function may panic.
	MayPanic bool
	// SafeIf, for a function that may panic, says when a call cannot: an
	// argument that is a constant of a set or range.
	SafeIf *ConstArg
	// NoReturn reports whether the function never returns normally.
	NoReturn bool
	// Fresh reports that the function's result is memory it allocated
	// itself that nothing else can reach (a copy of its argument's
	// elements, say): a caller may write its elements as it writes memory
	// from make. Elements that are references still share what they
	// refer to.
	Fresh bool
}

// StdFunc is a row of the standard-library table.
type StdFunc struct {
	// Pkg is the import path; "" for the universe builtins.
	Pkg string
	// Name is the function's name, or "Type.Method" for a method. A trailing
	// "*" matches every name with that prefix; a pattern without a "."
	// matches functions only, never methods.
	Name string
	Effect
	// Note explains a choice that is not obvious.
	Note string
}

// ConstArg is a condition on a call's argument Index (0-based): a
// constant among Values, or when Values is nil a constant within
// [Min, Max].
type ConstArg struct {
	Index    int
	Min, Max int64
	Values   []int64
}

// Holds reports whether the call's argument satisfies the condition; a
// nil condition holds for no call.
func (c *ConstArg) Holds(info *types.Info, call *ast.CallExpr) bool {
	if c == nil || info == nil || c.Index >= len(call.Args) {
		return false
	}
	v, exact := constant.Int64Val(constant.ToInt(info.Types[call.Args[c.Index]].Value))
	if !exact {
		return false
	}
	if c.Values != nil {
		for _, w := range c.Values {
			if v == w {
				return true
			}
		}
		return false
	}
	return c.Min <= v && v <= c.Max
}

// Key returns the row's "pkg.Name" key, unique in the table.
func (r StdFunc) Key() string {
	if r.Pkg == "" {
		return r.Name
	}
	return r.Pkg + "." + r.Name
}

// Effects used by many rows.
var (
	pure      = Effect{}
	panics    = Effect{MayPanic: true}
	writes0   = Effect{WritesArgs: []int{0}}
	writesRcv = Effect{WritesArgs: []int{-1}}
	io        = Effect{Impure: "I/O", MayPanic: true}
	globalRNG = Effect{Impure: "uses the global random source"}
	callsArg0 = Effect{CallsArgs: []int{0}}
	callsArg1 = Effect{CallsArgs: []int{1}}
	rngPanics = Effect{Impure: globalRNG.Impure, MayPanic: true}
	copies    = Effect{Fresh: true}
)

// panicsUnless is a row's effect that may panic unless argument i is a
// constant within [lo, hi], or among values when they are given.
func panicsUnless(e Effect, i int, lo, hi int64, values ...int64) Effect {
	e.MayPanic = true
	e.SafeIf = &ConstArg{Index: i, Min: lo, Max: hi, Values: values}
	return e
}

// StdTable is the standard-library table: one row per function (or family
// of functions, by prefix) whose effect is known without reading its body.
// Functions of the standard library not in the table are judged by the
// facts computed from their source, like any other package.
var StdTable = []StdFunc{
	// Universe builtins.
	{Pkg: "", Name: "len", Effect: pure},
	{Pkg: "", Name: "cap", Effect: pure},
	{Pkg: "", Name: "min", Effect: pure},
	{Pkg: "", Name: "max", Effect: pure},
	{Pkg: "", Name: "complex", Effect: pure},
	{Pkg: "", Name: "real", Effect: pure},
	{Pkg: "", Name: "imag", Effect: pure},
	{Pkg: "", Name: "make", Effect: panics, Note: "panics on a negative or too large size; callsite.go refines this: constant, len and cap sizes do not panic"},
	{Pkg: "", Name: "new", Effect: pure},
	{Pkg: "", Name: "append", Effect: writes0, Note: "may write the spare capacity of argument 0; harmless when argument 0 is fresh"},
	{Pkg: "", Name: "copy", Effect: writes0},
	{Pkg: "", Name: "clear", Effect: writes0},
	{Pkg: "", Name: "delete", Effect: writes0},
	{Pkg: "", Name: "panic", Effect: Effect{MayPanic: true, NoReturn: true}},
	{Pkg: "", Name: "print", Effect: Effect{Impure: "I/O"}},
	{Pkg: "", Name: "println", Effect: Effect{Impure: "I/O"}},
	{Pkg: "", Name: "close", Effect: Effect{Impure: "closes a channel", MayPanic: true}},
	{Pkg: "", Name: "recover", Effect: Effect{Impure: "recovers from a panic"}},
	{Pkg: "unsafe", Name: "Sizeof", Effect: pure},
	{Pkg: "unsafe", Name: "Alignof", Effect: pure},
	{Pkg: "unsafe", Name: "Offsetof", Effect: pure},
	{Pkg: "unsafe", Name: "Add", Effect: pure, Note: "computes a pointer; writes through it are judged where they happen"},
	{Pkg: "unsafe", Name: "Slice", Effect: panics},
	{Pkg: "unsafe", Name: "SliceData", Effect: pure},
	{Pkg: "unsafe", Name: "String", Effect: panics},
	{Pkg: "unsafe", Name: "StringData", Effect: pure},

	// Numeric packages.
	{Pkg: "math", Name: "*", Effect: pure},
	{Pkg: "math/bits", Name: "*", Effect: pure},
	{Pkg: "math/bits", Name: "Div*", Effect: panics, Note: "panics on a zero divisor or overflow"},
	{Pkg: "math/bits", Name: "Rem*", Effect: panics, Note: "panics on a zero divisor"},
	{Pkg: "math/cmplx", Name: "*", Effect: pure},
	{Pkg: "cmp", Name: "*", Effect: pure},

	// Text.
	{Pkg: "strings", Name: "*", Effect: pure, Note: "package functions only; Builder and Reader methods are below or judged from source"},
	{Pkg: "strings", Name: "Repeat", Effect: panics},
	{Pkg: "strings", Name: "NewReplacer", Effect: panics, Note: "panics on an odd number of arguments"},
	{Pkg: "strings", Name: "Map", Effect: callsArg0},
	{Pkg: "strings", Name: "IndexFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "LastIndexFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "ContainsFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "FieldsFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "FieldsFuncSeq", Effect: pure, Note: "returns an iterator; calling it is a call of a function value"},
	{Pkg: "strings", Name: "TrimFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "TrimLeftFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "TrimRightFunc", Effect: callsArg1},
	{Pkg: "strings", Name: "Builder.String", Effect: pure},
	{Pkg: "strings", Name: "Builder.Len", Effect: pure},
	{Pkg: "strings", Name: "Builder.*", Effect: writesRcv},
	{Pkg: "strings", Name: "Builder.Grow", Effect: Effect{WritesArgs: []int{-1}, MayPanic: true}, Note: "panics on a negative size"},
	{Pkg: "strconv", Name: "Parse*", Effect: pure},
	{Pkg: "strconv", Name: "Format*", Effect: pure},
	{Pkg: "strconv", Name: "FormatInt", Effect: panicsUnless(pure, 1, 2, 36), Note: "panics on a base outside 2..36"},
	{Pkg: "strconv", Name: "FormatUint", Effect: panicsUnless(pure, 1, 2, 36), Note: "panics on a base outside 2..36"},
	{Pkg: "strconv", Name: "FormatFloat", Effect: panicsUnless(pure, 3, 0, 0, 32, 64), Note: "panics on a bitSize other than 32 and 64"},
	{Pkg: "strconv", Name: "FormatComplex", Effect: panicsUnless(pure, 3, 0, 0, 64, 128), Note: "panics on a bitSize other than 64 and 128"},
	{Pkg: "strconv", Name: "Itoa", Effect: pure},
	{Pkg: "strconv", Name: "Atoi", Effect: pure},
	{Pkg: "strconv", Name: "Quote*", Effect: pure},
	{Pkg: "strconv", Name: "Unquote*", Effect: pure},
	{Pkg: "strconv", Name: "Append*", Effect: writes0, Note: "appends to argument 0, like append"},
	{Pkg: "strconv", Name: "AppendInt", Effect: panicsUnless(writes0, 2, 2, 36), Note: "panics on a base outside 2..36"},
	{Pkg: "strconv", Name: "AppendUint", Effect: panicsUnless(writes0, 2, 2, 36), Note: "panics on a base outside 2..36"},
	{Pkg: "strconv", Name: "AppendFloat", Effect: panicsUnless(writes0, 4, 0, 0, 32, 64), Note: "panics on a bitSize other than 32 and 64"},
	{Pkg: "unicode", Name: "*", Effect: pure},
	{Pkg: "unicode/utf8", Name: "*", Effect: pure},
	{Pkg: "unicode/utf8", Name: "EncodeRune", Effect: Effect{WritesArgs: []int{0}, MayPanic: true}},
	{Pkg: "unicode/utf8", Name: "AppendRune", Effect: writes0},
	{Pkg: "bytes", Name: "Equal", Effect: pure},
	{Pkg: "bytes", Name: "Compare", Effect: pure},
	{Pkg: "bytes", Name: "Contains", Effect: pure},
	{Pkg: "bytes", Name: "ContainsAny", Effect: pure},
	{Pkg: "bytes", Name: "ContainsRune", Effect: pure},
	{Pkg: "bytes", Name: "Count", Effect: pure},
	{Pkg: "bytes", Name: "Index", Effect: pure},
	{Pkg: "bytes", Name: "IndexByte", Effect: pure},
	{Pkg: "bytes", Name: "LastIndex", Effect: pure},
	{Pkg: "bytes", Name: "HasPrefix", Effect: pure},
	{Pkg: "bytes", Name: "HasSuffix", Effect: pure},
	{Pkg: "bytes", Name: "EqualFold", Effect: pure},
	{Pkg: "bytes", Name: "ToUpper", Effect: pure, Note: "returns a fresh slice"},
	{Pkg: "bytes", Name: "ToLower", Effect: pure, Note: "returns a fresh slice"},
	{Pkg: "bytes", Name: "Clone", Effect: copies, Note: "a fresh copy (nil for nil)"},
	{Pkg: "bytes", Name: "Repeat", Effect: Effect{MayPanic: true, Fresh: true}, Note: "panics on a negative count or an overflow; a fresh slice"},

	// Slices and sorting.
	{Pkg: "slices", Name: "Index", Effect: pure},
	{Pkg: "slices", Name: "Contains", Effect: pure},
	{Pkg: "slices", Name: "Max", Effect: panics, Note: "panics on an empty slice"},
	{Pkg: "slices", Name: "Min", Effect: panics, Note: "panics on an empty slice"},
	{Pkg: "slices", Name: "Equal", Effect: pure},
	{Pkg: "slices", Name: "Compare", Effect: pure},
	{Pkg: "slices", Name: "BinarySearch", Effect: pure},
	{Pkg: "slices", Name: "Clone", Effect: copies, Note: "a fresh copy of the elements (nil for nil); elements that are references are shared"},
	{Pkg: "slices", Name: "Concat", Effect: Effect{MayPanic: true, Fresh: true}, Note: "panics when the total length overflows; a fresh slice"},
	{Pkg: "slices", Name: "Repeat", Effect: Effect{MayPanic: true, Fresh: true}, Note: "panics on a negative count or an overflow; a fresh slice"},
	{Pkg: "maps", Name: "Clone", Effect: copies, Note: "a fresh map (nil for nil); values that are references are shared"},
	{Pkg: "slices", Name: "Sort", Effect: writes0},
	{Pkg: "slices", Name: "SortFunc", Effect: Effect{WritesArgs: []int{0}, CallsArgs: []int{1}}},
	{Pkg: "slices", Name: "Reverse", Effect: writes0},
	{Pkg: "sort", Name: "Ints", Effect: writes0},
	{Pkg: "sort", Name: "Float64s", Effect: writes0},
	{Pkg: "sort", Name: "Strings", Effect: writes0},
	{Pkg: "sort", Name: "Slice", Effect: Effect{WritesArgs: []int{0}, CallsArgs: []int{1}, MayPanic: true}, Note: "panics if argument 0 is not a slice"},
	{Pkg: "sort", Name: "SearchInts", Effect: pure},
	{Pkg: "sort", Name: "Search", Effect: Effect{CallsArgs: []int{1}}},

	// Errors and formatting.
	{Pkg: "errors", Name: "New", Effect: pure},
	{Pkg: "fmt", Name: "Sprintf", Effect: pure, Note: "calls String and Error methods of its operands; treated as pure, and fmt recovers their panics"},
	{Pkg: "fmt", Name: "Sprint", Effect: pure, Note: "as Sprintf"},
	{Pkg: "fmt", Name: "Sprintln", Effect: pure, Note: "as Sprintf"},
	{Pkg: "fmt", Name: "Errorf", Effect: pure, Note: "as Sprintf"},
	{Pkg: "fmt", Name: "Print*", Effect: io},
	{Pkg: "fmt", Name: "Fprint*", Effect: io},
	{Pkg: "log", Name: "*", Effect: io},
	{Pkg: "log", Name: "Fatal*", Effect: Effect{Impure: "I/O", NoReturn: true}},
	{Pkg: "log", Name: "Panic*", Effect: Effect{Impure: "I/O", MayPanic: true, NoReturn: true}},
	{Pkg: "os", Name: "*", Effect: io},
	{Pkg: "os", Name: "Exit", Effect: Effect{Impure: "exits the program", NoReturn: true}},
	{Pkg: "runtime", Name: "Goexit", Effect: Effect{Impure: "exits the goroutine", NoReturn: true}},

	// Clock and randomness.
	{Pkg: "time", Name: "Now", Effect: Effect{Impure: "reads the clock"}},
	{Pkg: "time", Name: "Since", Effect: Effect{Impure: "reads the clock"}},
	{Pkg: "math/rand", Name: "*", Effect: globalRNG},
	{Pkg: "math/rand/v2", Name: "*", Effect: globalRNG},
	{Pkg: "math/rand", Name: "Intn", Effect: rngPanics, Note: "panics on n <= 0"},
	{Pkg: "math/rand", Name: "Int31n", Effect: rngPanics, Note: "panics on n <= 0"},
	{Pkg: "math/rand", Name: "Int63n", Effect: rngPanics, Note: "panics on n <= 0"},
	{Pkg: "math/rand", Name: "Perm", Effect: rngPanics, Note: "panics on n < 0"},
	{Pkg: "math/rand/v2", Name: "IntN", Effect: rngPanics, Note: "panics on n <= 0"},
	{Pkg: "math/rand/v2", Name: "Int32N", Effect: rngPanics, Note: "panics on n <= 0"},
	{Pkg: "math/rand/v2", Name: "Int64N", Effect: rngPanics, Note: "panics on n <= 0"},
	{Pkg: "math/rand/v2", Name: "UintN", Effect: rngPanics, Note: "panics on n == 0"},
	{Pkg: "math/rand/v2", Name: "Uint32N", Effect: rngPanics, Note: "panics on n == 0"},
	{Pkg: "math/rand/v2", Name: "Uint64N", Effect: rngPanics, Note: "panics on n == 0"},
	{Pkg: "math/rand/v2", Name: "N", Effect: rngPanics, Note: "panics on n <= 0"},
}

// LookupStd returns the table row for the function name (a function name or
// "Type.Method") of the package with import path pkg ("" for builtins): the
// row with exactly that name, else the row with the longest matching
// prefix pattern.
func LookupStd(pkg, name string) (StdFunc, bool) {
	best, bestLen := -1, -1
	isMethod := strings.Contains(name, ".")
	for i, r := range StdTable {
		if r.Pkg != pkg {
			continue
		}
		if r.Name == name {
			return r, true
		}
		prefix, ok := strings.CutSuffix(r.Name, "*")
		if !ok || !strings.HasPrefix(name, prefix) || isMethod != strings.Contains(prefix, ".") {
			continue
		}
		if len(prefix) > bestLen {
			best, bestLen = i, len(prefix)
		}
	}
	if best < 0 {
		return StdFunc{}, false
	}
	return StdTable[best], true
}
