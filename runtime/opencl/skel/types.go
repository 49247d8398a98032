package skel

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// Type is an element type as both sides see it: its OpenCL C name, size
// and alignment, and for a struct its fields. Scalars are the predefined
// values Float32 ... Uint64, Int8 ... Uint16 and Bool; structs are made
// by Struct.
type Type struct {
	Name   string  // OpenCL C type name: "float", "long", or the struct's typedef name
	Size   int     // bytes, as in C: a struct's size includes trailing padding
	Align  int     // bytes
	Fields []Field // nil for scalars
	goKind reflect.Kind
}

// Field is a struct member.
type Field struct {
	Name   string
	Type   Type
	Offset int // set by Struct
}

// The scalar element types. OpenCL C's long and ulong are 64 bits on every
// device, unlike C's.
var (
	Float32 = Type{Name: "float", Size: 4, Align: 4, goKind: reflect.Float32}
	Float64 = Type{Name: "double", Size: 8, Align: 8, goKind: reflect.Float64}
	Int32   = Type{Name: "int", Size: 4, Align: 4, goKind: reflect.Int32}
	Int64   = Type{Name: "long", Size: 8, Align: 8, goKind: reflect.Int64}
	Uint32  = Type{Name: "uint", Size: 4, Align: 4, goKind: reflect.Uint32}
	Uint64  = Type{Name: "ulong", Size: 8, Align: 8, goKind: reflect.Uint64}
	Int8    = Type{Name: "char", Size: 1, Align: 1, goKind: reflect.Int8}
	Uint8   = Type{Name: "uchar", Size: 1, Align: 1, goKind: reflect.Uint8}
	Int16   = Type{Name: "short", Size: 2, Align: 2, goKind: reflect.Int16}
	Uint16  = Type{Name: "ushort", Size: 2, Align: 2, goKind: reflect.Uint16}
	// Bool is Go's bool as a uchar holding 0 or 1 (OpenCL C's bool has
	// no size a buffer may rely on); translated code reads and writes it
	// as rewrite/clc does.
	Bool = Type{Name: "uchar", Size: 1, Align: 1, goKind: reflect.Bool}
)

// IsStruct reports whether t is a struct type.
func (t Type) IsStruct() bool { return t.Fields != nil }

var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Struct lays out a struct of scalar fields with C's rules (each field at
// the next multiple of its alignment, the size rounded up to the largest
// alignment), which OpenCL C follows and which matches Go's layout of a
// struct with the same fields in the same order on 64-bit targets.
func Struct(name string, fields ...Field) (Type, error) {
	if !ident.MatchString(name) {
		return Type{}, fmt.Errorf("struct name %q is not a C identifier", name)
	}
	if len(fields) == 0 {
		return Type{}, fmt.Errorf("struct %s has no fields", name)
	}
	t := Type{Name: name, Align: 1, goKind: reflect.Struct}
	seen := map[string]bool{}
	for _, f := range fields {
		if !ident.MatchString(f.Name) || seen[f.Name] {
			return Type{}, fmt.Errorf("struct %s: bad or repeated field name %q", name, f.Name)
		}
		if f.Type.IsStruct() || f.Type.Size == 0 {
			return Type{}, fmt.Errorf("struct %s: field %s must be a scalar type", name, f.Name)
		}
		seen[f.Name] = true
		t.Size = alignUp(t.Size, f.Type.Align)
		f.Offset = t.Size
		t.Size += f.Type.Size
		t.Align = max(t.Align, f.Type.Align)
		t.Fields = append(t.Fields, f)
	}
	t.Size = alignUp(t.Size, t.Align)
	return t, nil
}

func alignUp(x, a int) int { return (x + a - 1) / a * a }

// Typedef returns the OpenCL C declaration of a struct type, or "" for a
// scalar.
func (t Type) Typedef() string {
	if !t.IsStruct() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "typedef struct {")
	for _, f := range t.Fields {
		fmt.Fprintf(&b, " %s %s;", f.Type.Name, f.Name)
	}
	fmt.Fprintf(&b, " } %s;\n", t.Name)
	return b.String()
}

// CheckGo reports whether the Go type of v (a value, pointer or slice of
// it) has exactly t's layout: same size, and for structs the same fields
// in order with the same kinds and offsets, so that a []T can be copied to
// the device byte for byte.
func (t Type) CheckGo(v any) error {
	rt := reflect.TypeOf(v)
	for rt != nil && (rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array) {
		rt = rt.Elem()
	}
	if rt == nil {
		return fmt.Errorf("CheckGo(%s): nil value", t.Name)
	}
	if int(rt.Size()) != t.Size {
		return fmt.Errorf("Go type %v has size %d, OpenCL type %s has %d", rt, rt.Size(), t.Name, t.Size)
	}
	if !t.IsStruct() {
		if rt.Kind() != t.goKind {
			return fmt.Errorf("Go type %v is %v, OpenCL type %s needs %v", rt, rt.Kind(), t.Name, t.goKind)
		}
		return nil
	}
	if rt.Kind() != reflect.Struct || rt.NumField() != len(t.Fields) {
		return fmt.Errorf("Go type %v is not a struct of %d fields like %s", rt, len(t.Fields), t.Name)
	}
	for i, f := range t.Fields {
		gf := rt.Field(i)
		if gf.Type.Kind() != f.Type.goKind || int(gf.Offset) != f.Offset {
			return fmt.Errorf("field %d: Go %s %v at offset %d, OpenCL %s %s at offset %d", i, gf.Name, gf.Type, gf.Offset, f.Type.Name, f.Name, f.Offset)
		}
	}
	return nil
}

// Param is a named array (or value) of a kernel: an input, a map output or
// a reduction's value.
type Param struct {
	Name string
	Type Type
}

// Arg is a value every work-item reads: a kernel parameter passed by
// value, declared by Decl (OpenCL C, e.g. "const double k") and read by
// the element code as Name.
type Arg struct {
	Name string
	Decl string
}

// Reduction is an associative operator with its neutral element.
type Reduction struct {
	// Name is the variable the element code assigns; the reduction folds
	// its values.
	Name string
	Type Type
	// Op is OpenCL C statements that combine the constants a and b (in
	// this order) into r, all of Type, e.g. "r = a + b;". It must be
	// associative.
	Op string
	// Neutral is an initializer for the neutral element, e.g. "0.0f" or
	// "{0, INT_MAX}" for a struct; with NeutralArg, the name of an Arg.
	Neutral string
	// NeutralArg, in a Redomap, says that Neutral names one of its Args,
	// a value given at run time (a parameter of the spec, a variable
	// computed before the kernel): every kernel of the program reads it
	// there (the stage-2 kernel takes it after its own parameters). Scan
	// and Filter refuse it.
	NeutralArg bool
	// Commutative, when true, lets the kernel fold elements in any order,
	// which enables the coalesced interleaved layout on GPUs. Float
	// addition is commutative (though not associative; results then differ
	// from a sequential sum by reassociation only).
	Commutative bool
	// All, in a Filter, folds every element, kept or not (a fold beside
	// the filter in one pass over the input); without it a Filter folds
	// the kept elements only. Redomap and Scan fold every element anyway.
	All bool
}

// typedefs returns the struct declarations needed by ts, each once.
func typedefs(ts ...Type) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, t := range ts {
		if t.IsStruct() && !seen[t.Name] {
			seen[t.Name] = true
			b.WriteString(t.Typedef())
		}
	}
	return b.String()
}

// needsFP64 reports whether any of ts uses double.
func needsFP64(ts ...Type) bool {
	for _, t := range ts {
		if t.Name == "double" {
			return true
		}
		for _, f := range t.Fields {
			if f.Type.Name == "double" {
				return true
			}
		}
	}
	return false
}
