package opencl

// This file is the opencl backend's part for kernels over slices of
// slices (matmul: the outer map in parallel, one work-item per row, the
// SOACs nested in its lambda as loops of the work-item, which rewrite/clc
// translates). A [][]T input becomes the skeleton input of its rows'
// places (launch.Span) with its elements, back to back, as a read-only
// buffer; a map whose lambda returns a slice writes each row into room of
// a flat buffer (an argument the kernel writes, launch.Out) and stores the
// row's length as its element, and the host splits the buffer into rows
// (launch.Split). The room per row is the length of the captured slice or
// the longest row of the input that the returned Map or Scan runs over; a
// row longer than its room sets the panic flag, so that a wrong guess
// costs a re-run on the CPU, never a wrong result. It does not render
// slice results that are not stored, or that other members read.

import (
	"fmt"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"go/ast"
	"go/types"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// rowsInput makes p, an input whose element is a slice of numbers or of
// structs, a rows input, and reports whether it could.
func (ck *clKernel) rowsInput(p *clParam) bool {
	if p.goElem == nil {
		return false
	}
	if _, ok := p.goElem.Underlying().(*types.Slice); !ok {
		return false
	}
	rt, err := ck.unit.Type(p.goElem)
	if err != nil || rt.Kind != clc.Slice {
		return false
	}
	p.rows = rt
	p.fields = []string{"Int64", "Int64"} // launch.Span
	ck.cname[p.v] = fmt.Sprintf("%s__mk(%s__p + %s.f0, %s.f1)", rt.C, p.c, p.c, p.c)
	ck.args = append(ck.args, clArg{name: p.c + "__p", kind: clc.Slice, rowsIn: p.v,
		params: []string{fmt.Sprintf("__global const %s *restrict %s__p", rt.Elem.C, p.c), fmt.Sprintf("const long %s__n", p.c)}})
	ck.fp64 = ck.fp64 || rt.Elem.UsesFP64()
	return true
}

// rowsOutput renders map m, whose lambda lam (translated as fn) returns
// a slice: its rows go to a flat buffer, its element is the row's length.
func (ck *clKernel) rowsOutput(m lowered.Member, lam *ir.Lambda, fn *clc.Func, outs map[*ir.Var]string) string {
	if m.Space != lowered.Root || !stored(m, outs) || m.Store != lowered.Indexed || ck.compact != lowered.Root {
		return fmt.Sprintf("%s returns slices that are not stored as the rows of its result: the opencl backend writes slice results only as rows", soacPos(ck.f, m.SOAC))
	}
	args, why := ck.elements(m)
	if why != "" {
		return why
	}
	p := clParam{c: fmt.Sprintf("out__%d", len(ck.outs)), skel: "Int64", v: m.SOAC.Out, goElem: elemOf(m.SOAC.Out.Type), rows: fn.Result}
	p.capIn, p.capObj = ck.resultRoom(m, lam, fn)
	if p.capIn == nil && p.capObj == nil {
		return fmt.Sprintf("the lambda of %s does not end by returning a Map or Scan of a captured slice or of its parameter: the room of its slice results is not known before the kernel runs", soacPos(ck.f, m.SOAC))
	}
	ck.args = append(ck.args,
		clArg{name: p.c + "__p", params: []string{fmt.Sprintf("__global %s *restrict %s__p", fn.Result.Elem.C, p.c)}, rowsOut: p.v},
		clArg{name: p.c + "__c", params: []string{fmt.Sprintf("const long %s__c", p.c)}, rowCap: p.v})
	c := fmt.Sprintf("k__v%d", len(ck.cname))
	ck.cname[p.v] = c
	ck.space[p.v] = -1 // no member reads the rows: they are not an element
	room := fmt.Sprintf("%s__mk(%s__p + soac_index * %s__c, %s__c)", clc.OutView(fn.Result.Elem), p.c, p.c, p.c)
	fmt.Fprintf(&ck.body, "const long %s = %s.n;\n%s = %s;\n", c, fn.Call(args, room, "&k__e"), p.c, c)
	ck.outs = append(ck.outs, p)
	ck.fp64 = ck.fp64 || fn.Result.Elem.UsesFP64()
	return ""
}

// resultRoom returns what bounds the slices lam returns: the input of m
// (a rows input) whose row the returned Map or Scan runs over, or the
// captured slice it runs over, following the first array argument of
// nested SOAC calls. Neither is found when lam is not a literal ending
// with such a return.
func (ck *clKernel) resultRoom(m lowered.Member, lam *ir.Lambda, fn *clc.Func) (*ir.Var, *types.Var) {
	if lam.Lit == nil || len(lam.Lit.Body.List) == 0 {
		return nil, nil
	}
	ret, ok := lam.Lit.Body.List[len(lam.Lit.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, nil
	}
	e := ret.Results[0]
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		fun, ok := typeutil.Callee(ck.f.Info(), call).(*types.Func)
		if !ok || fun.Pkg() == nil || fun.Pkg().Path() != hostgo.SOACPath || len(call.Args) == 0 {
			return nil, nil
		}
		switch fun.Name() {
		case "Map", "Map2", "Map3", "Scan":
			e = call.Args[0]
		default:
			return nil, nil
		}
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	obj := ck.f.Info().Uses[id]
	i := 0
	for _, field := range lam.Lit.Type.Params.List {
		for _, name := range field.Names {
			if ck.f.Info().Defs[name] == obj && obj != nil && i < len(m.SOAC.Inputs()) {
				in := m.SOAC.Inputs()[i]
				for _, p := range ck.ins {
					if p.v == in && p.rows != nil {
						return in, nil
					}
				}
				return nil, nil
			}
			i++
		}
	}
	for _, c := range fn.Captures {
		if types.Object(c.Var) == obj && c.Type.IsView() {
			return nil, c.Var
		}
	}
	return nil, nil
}

// argName names a kernel argument for reasons: the captured variable, or
// the input or map it belongs to.
func (a clArg) argName() string {
	switch {
	case a.obj != nil:
		return a.obj.Name()
	case a.rowsIn != nil:
		return "the rows of " + a.rowsIn.Name
	case a.rowsOut != nil:
		return "the slice results " + a.rowsOut.Name
	}
	return "the room of the slice results " + a.rowCap.Name
}

// rowsHost writes, before the run, the host side of the kernel's rows:
// each [][]T input flattened into spans and elements, each slice result's
// room per row, flat buffer and lengths. It returns the Go names: of the
// spans and elements by input, of the room and flat buffer by output
// (lengths are in local, as every output's); n is the kernel's length.
func (ck *clKernel) rowsHost(c *hostgo.Stmts, local map[*ir.Var]string, n *jen.Statement) (spans, data, room, flat map[*ir.Var]string) {
	f := ck.f
	spans, data, room, flat = map[*ir.Var]string{}, map[*ir.Var]string{}, map[*ir.Var]string{}, map[*ir.Var]string{}
	for _, p := range ck.ins {
		if p.rows == nil {
			continue
		}
		spans[p.v], data[p.v] = f.Fresh("spans"), f.Fresh("rows")
		c.Add(jen.List(hostgo.Id(spans[p.v]), hostgo.Id(data[p.v])).Op(":=").Add(f.Qual(launchPath, "launch", "Flatten").Call(hostgo.Id(f.Name(p.v)))))
	}
	for _, p := range ck.outs {
		if p.rows == nil {
			continue
		}
		room[p.v], flat[p.v] = f.Fresh("room"), f.Fresh("flat")
		if p.capObj != nil {
			c.Add(hostgo.Define(room[p.v], jen.Len(f.ObjName(p.capObj))))
		} else {
			c.Add(hostgo.Define(room[p.v], f.Qual(launchPath, "launch", "MaxLen").Call(hostgo.Id(f.Name(p.capIn)))))
		}
		c.Add(hostgo.Define(flat[p.v], hostgo.MakeSlice(f.Type(p.goElem), n.Clone().Op("*").Id(room[p.v]))))
		local[p.v] = f.Fresh("clo")
		c.Add(hostgo.Define(local[p.v], hostgo.MakeSlice(jen.Index().Int64(), n.Clone())))
	}
	return spans, data, room, flat
}
