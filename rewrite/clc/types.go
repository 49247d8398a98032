package clc

// This file maps Go types onto OpenCL C types: the scalars, structs and
// arrays of them, and the read-only slice views captured slices and slice
// parameters become. It emits the typedefs and the small per-type helpers
// (zero value, constructor, equality) a translation needs, in dependency
// order. It does not translate expressions.

import (
	"fmt"
	"go/types"
	"strings"
)

// Kind classifies a translated type.
type Kind int

// The kinds of translated types. Int and Uint are 64 bits (Int64, Uint64),
// as on every 64-bit Go target.
const (
	Bool Kind = iota
	Int8
	Uint8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float32
	Float64
	Struct
	Array
	Slice  // a read-only view of device memory: pointer and length
	Slice2 // a read-only view of a [][]T: data, row offsets and length
)

// Type is a Go type as OpenCL C sees it. Its layout (Size, Align, field
// offsets) is C's, which equals Go's on 64-bit targets for these types, so
// a Go value can be copied to the device byte for byte. Slice views have
// no Go layout: Size and Align are 0.
type Type struct {
	Kind   Kind
	C      string  // the OpenCL C type name
	Size   int     // bytes
	Align  int     // bytes
	Fields []Field // Struct
	Elem   *Type   // Array, Slice, Slice2 (the innermost element)
	Len    int     // Array
	Go     types.Type
}

// Field is a struct member.
type Field struct {
	Name   string // the Go name, which is also the C name unless it is a C keyword
	C      string
	Type   *Type
	Offset int
}

// IsScalar reports whether t is a bool, integer or float type.
func (t *Type) IsScalar() bool { return t.Kind <= Float64 }

// IsInteger reports whether t is an integer type.
func (t *Type) IsInteger() bool { return t.Kind >= Int8 && t.Kind <= Uint64 }

// IsSigned reports whether t is a signed integer type.
func (t *Type) IsSigned() bool {
	return t.Kind == Int8 || t.Kind == Int16 || t.Kind == Int32 || t.Kind == Int64
}

// IsFloat reports whether t is float32 or float64.
func (t *Type) IsFloat() bool { return t.Kind == Float32 || t.Kind == Float64 }

// IsView reports whether t is a slice view.
func (t *Type) IsView() bool { return t.Kind == Slice || t.Kind == Slice2 }

// Bits returns the width of a scalar type in bits.
func (t *Type) Bits() int { return t.Size * 8 }

// UsesFP64 reports whether t is or contains float64.
func (t *Type) UsesFP64() bool {
	switch t.Kind {
	case Float64:
		return true
	case Struct:
		for _, f := range t.Fields {
			if f.Type.UsesFP64() {
				return true
			}
		}
	case Array, Slice, Slice2:
		return t.Elem.UsesFP64()
	}
	return false
}

var scalars = map[types.BasicKind]*Type{
	types.Bool:    {Kind: Bool, C: "uchar", Size: 1, Align: 1},
	types.Int8:    {Kind: Int8, C: "char", Size: 1, Align: 1},
	types.Uint8:   {Kind: Uint8, C: "uchar", Size: 1, Align: 1},
	types.Int16:   {Kind: Int16, C: "short", Size: 2, Align: 2},
	types.Uint16:  {Kind: Uint16, C: "ushort", Size: 2, Align: 2},
	types.Int32:   {Kind: Int32, C: "int", Size: 4, Align: 4},
	types.Uint32:  {Kind: Uint32, C: "uint", Size: 4, Align: 4},
	types.Int64:   {Kind: Int64, C: "long", Size: 8, Align: 8},
	types.Int:     {Kind: Int64, C: "long", Size: 8, Align: 8},
	types.Uint64:  {Kind: Uint64, C: "ulong", Size: 8, Align: 8},
	types.Uint:    {Kind: Uint64, C: "ulong", Size: 8, Align: 8},
	types.Uintptr: {Kind: Uint64, C: "ulong", Size: 8, Align: 8},
	types.Float32: {Kind: Float32, C: "float", Size: 4, Align: 4},
	types.Float64: {Kind: Float64, C: "double", Size: 8, Align: 8},
}

// typeTable maps Go types to translated types, naming structs, arrays and
// views once per unit and remembering the order their typedefs must come
// in (a type after the types it contains).
type typeTable struct {
	byKey map[string]*Type // by the Go type string of the underlying type
	order []*Type          // structs, arrays and views in definition order
	names map[string]bool  // C names taken
}

func newTypeTable() *typeTable {
	return &typeTable{byKey: map[string]*Type{}, names: map[string]bool{}}
}

// key identifies a type by its underlying structure. Two Go types with one
// underlying struct share a C type, so conversions between them are free.
func key(t types.Type) string {
	return types.TypeString(t.Underlying(), func(p *types.Package) string { return p.Path() })
}

// unique returns name, or name with a numeric suffix when taken.
func (tt *typeTable) unique(name string) string {
	n := name
	for i := 2; tt.names[n]; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	tt.names[n] = true
	return n
}

// of translates t. On failure it returns the construct that is not
// translatable, for a refusal.
func (tt *typeTable) of(t types.Type) (*Type, string) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if s, ok := scalars[u.Kind()]; ok {
			c := *s
			c.Go = t
			return &c, ""
		}
		switch {
		case u.Info()&types.IsString != 0:
			return nil, "string"
		case u.Info()&types.IsComplex != 0:
			return nil, "complex number"
		case u.Kind() == types.UnsafePointer:
			return nil, "unsafe.Pointer"
		}
		return nil, "untyped value " + u.String()
	case *types.Struct, *types.Array, *types.Slice:
		k := key(t)
		if c, ok := tt.byKey[k]; ok {
			return c, ""
		}
		var c *Type
		var bad string
		switch u := u.(type) {
		case *types.Struct:
			c, bad = tt.structOf(t, u)
		case *types.Array:
			c, bad = tt.arrayOf(t, u)
		case *types.Slice:
			c, bad = tt.sliceOf(t, u)
		}
		if bad != "" {
			return nil, bad
		}
		tt.byKey[k] = c
		tt.order = append(tt.order, c)
		return c, ""
	case *types.Pointer:
		return nil, "pointer"
	case *types.Map:
		return nil, "map"
	case *types.Chan:
		return nil, "channel"
	case *types.Interface:
		if _, ok := t.(*types.TypeParam); ok {
			return nil, "type parameter " + t.String()
		}
		return nil, "interface"
	case *types.Signature:
		return nil, "function value"
	case *types.Tuple:
		return nil, "multiple values"
	}
	return nil, "type " + t.String()
}

// structOf lays out a struct with C's rules, which give Go's layout.
func (tt *typeTable) structOf(t types.Type, u *types.Struct) (*Type, string) {
	name := "soac__s"
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		if n.TypeArgs().Len() > 0 {
			return nil, "generic type " + n.String()
		}
		name = mangleGlobal(n.Obj().Pkg().Name(), n.Obj().Name())
	}
	if u.NumFields() == 0 {
		return nil, "empty struct (its size differs between Go and C)"
	}
	c := &Type{Kind: Struct, Align: 1, Go: t}
	for i := range u.NumFields() {
		f := u.Field(i)
		ft, bad := tt.of(f.Type())
		if bad != "" {
			return nil, fmt.Sprintf("field %s of %s", f.Name(), bad)
		}
		if ft.IsView() {
			return nil, fmt.Sprintf("slice field %s (a slice inside a value would point into Go memory)", f.Name())
		}
		cn := f.Name()
		if cn == "_" {
			cn = fmt.Sprintf("soac__pad%d", i)
		} else if !safeLocal(cn) {
			cn += "_"
		}
		c.Size = alignUp(c.Size, ft.Align)
		c.Fields = append(c.Fields, Field{Name: f.Name(), C: cn, Type: ft, Offset: c.Size})
		c.Size += ft.Size
		c.Align = max(c.Align, ft.Align)
	}
	c.Size = alignUp(c.Size, c.Align)
	c.C = tt.unique(name)
	return c, ""
}

// arrayOf wraps a Go array in a C struct, so that it is a value (C arrays
// cannot be assigned, passed or returned).
func (tt *typeTable) arrayOf(t types.Type, u *types.Array) (*Type, string) {
	et, bad := tt.of(u.Elem())
	switch {
	case bad != "":
		return nil, "array of " + bad
	case et.IsView():
		return nil, "array of slices"
	case u.Len() == 0:
		return nil, "zero-length array (C has none)"
	}
	c := &Type{Kind: Array, Elem: et, Len: int(u.Len()), Size: et.Size * int(u.Len()), Align: et.Align, Go: t}
	c.C = tt.unique(fmt.Sprintf("soac__a%d_%s", u.Len(), et.C))
	return c, ""
}

// sliceOf makes the view type of a []T or [][]T.
func (tt *typeTable) sliceOf(t types.Type, u *types.Slice) (*Type, string) {
	et, bad := tt.of(u.Elem())
	switch {
	case bad != "":
		return nil, "slice of " + bad
	case et.Kind == Slice2:
		return nil, "slice of slices of slices"
	case et.Kind == Slice:
		return &Type{Kind: Slice2, Elem: et.Elem, Go: t, C: tt.unique("soac__sl2_" + et.Elem.C)}, ""
	}
	return &Type{Kind: Slice, Elem: et, Go: t, C: tt.unique("soac__sl_" + et.C)}, ""
}

func alignUp(x, a int) int { return (x + a - 1) / a * a }

// outView returns the C name of the writable view of element type e, used
// for a function's slice result.
func outView(e *Type) string { return "soac__out_" + e.C }

// OutView returns the C name of the writable view (pointer and capacity,
// made by NAME__mk(p, n)) that a function returning a slice of e writes
// its result through.
func OutView(e *Type) string { return outView(e) }

// emit writes the typedefs and helpers of every struct, array and view,
// each after the types it uses. outs are the element types that need a
// writable view.
func (tt *typeTable) emit(w *writer, outs []*Type) {
	for _, t := range tt.order {
		switch t.Kind {
		case Struct:
			w.open("typedef struct {")
			for _, f := range t.Fields {
				w.line("%s %s;", f.Type.C, f.C)
			}
			w.close("} %s;", t.C)
			var ps, as []string
			for _, f := range t.Fields {
				ps = append(ps, fmt.Sprintf("const %s %s", f.Type.C, f.C))
				as = append(as, fmt.Sprintf("r.%s = %s;", f.C, f.C))
			}
			w.line("static inline %s %s__mk(%s) { %s r; %s return r; }", t.C, t.C, strings.Join(ps, ", "), t.C, strings.Join(as, " "))
			var zs, eq []string
			for _, f := range t.Fields {
				zs = append(zs, zeroOf(f.Type))
				eq = append(eq, equalOf(f.Type, "a."+f.C, "b."+f.C))
			}
			w.line("static inline %s %s__zero(void) { return %s__mk(%s); }", t.C, t.C, t.C, strings.Join(zs, ", "))
			w.line("static inline int %s__eq(const %s a, const %s b) { return %s; }", t.C, t.C, t.C, strings.Join(eq, " && "))
		case Array:
			w.line("typedef struct { %s a[%d]; } %s;", t.Elem.C, t.Len, t.C)
			w.line("static inline %s %s__zero(void) { %s r; for (int i = 0; i < %d; i++) r.a[i] = %s; return r; }", t.C, t.C, t.C, t.Len, zeroOf(t.Elem))
			w.line("static inline int %s__eq(const %s a, const %s b) { for (int i = 0; i < %d; i++) if (!(%s)) return 0; return 1; }", t.C, t.C, t.C, t.Len, equalOf(t.Elem, "a.a[i]", "b.a[i]"))
		case Slice:
			w.line("typedef struct { __global const %s *p; long n; } %s;", t.Elem.C, t.C)
		case Slice2:
			w.line("typedef struct { __global const %s *p; __global const long *off; long n; } %s;", t.Elem.C, t.C)
		}
	}
	for _, e := range outs {
		w.line("typedef struct { __global %s *p; long n; } %s;", e.C, outView(e))
	}
}

// zeroOf returns the C expression of t's zero value.
func zeroOf(t *Type) string {
	switch t.Kind {
	case Struct, Array:
		return t.C + "__zero()"
	case Float32:
		return "0.0f"
	case Float64:
		return "0.0"
	}
	return "(" + t.C + ")0"
}

// equalOf returns the C expression comparing a and b of type t with Go's ==.
func equalOf(t *Type, a, b string) string {
	switch t.Kind {
	case Struct, Array:
		return fmt.Sprintf("%s__eq(%s, %s)", t.C, a, b)
	}
	return fmt.Sprintf("(%s == %s)", a, b)
}
