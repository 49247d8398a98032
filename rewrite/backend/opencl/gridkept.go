package opencl

// This file keeps a grid's result, a [][]T, on the device for the later
// kernels of the call that read it (residency.go's keepable
// decides; runtime/opencl/launch's matrix.go runs it): the grid writes
// it into a buffer of the call's Session (launch.KeepRows,
// Grid.RunOn), and a later grid reads it there as its rows or as the
// rows its inner Map runs over, a later kernel's lambda as a captured
// [][]T (launch.RowsDev). A reader that takes it as rows of its own
// (rows.go) and every CPU code download it first (the Matrix's
// Host), as for the other kept arrays.

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// gridOperand is one operand of a grid's Go code, a [][]T (rows) or a
// []T: its Go variable, and the device copy an earlier kernel of the
// call may have left (dev: a launch.Matrix or launch.Array), or nil.
type gridOperand struct {
	goVar jen.Code
	dev   *deviceArray
	rows  bool
}

// arg returns the operand's kernel argument (launch.Rows, RowsDev,
// View, ViewDev).
func (o gridOperand) arg(launchQ func(string) *jen.Statement) *jen.Statement {
	switch {
	case o.rows && o.dev != nil:
		return launchQ("RowsDev").Call(jen.Id(o.dev.Handle), o.goVar)
	case o.rows:
		return launchQ("Rows").Call(o.goVar)
	case o.dev != nil:
		return viewDev(launchQ, o.dev, o.goVar)
	}
	return launchQ("View").Call(o.goVar)
}

// length returns the operand's length (its number of rows).
func (o gridOperand) length(launchQ func(string) *jen.Statement) *jen.Statement {
	switch {
	case o.rows && o.dev != nil:
		return launchQ("NumRows").Call(jen.Id(o.dev.Handle), o.goVar)
	case o.dev != nil:
		return launchQ("Len").Call(jen.Id(o.dev.Handle), o.goVar)
	}
	return jen.Len(o.goVar)
}

// devOrNil returns the operand's device handle, or nil.
func (o gridOperand) devOrNil() *jen.Statement {
	if o.dev == nil {
		return jen.Nil()
	}
	return jen.Id(o.dev.Handle)
}

// keepGrid returns the handle of the grid's result when it stays on the
// device (a launch.Matrix declared in c, registered with the Func), or
// "": the result is used, and only later kernels read it (keepable).
func (ck *clKernel) keepGrid(g *gridShape, outs map[*ir.Var]string, c *hostgo.Stmts) string {
	f, v := ck.f, g.m.SOAC.Out
	name := outs[v]
	if name == "" || name == "_" {
		return ""
	}
	last := ck.keepable(v)
	if last == nil {
		return ""
	}
	return ck.declareKept(c, v, f.Qual(launchPath, "launch", "Matrix").Types(f.Type(g.rt)), last)
}

// declareKept declares in c the handle of array v kept on the device
// until kernel last reads it, a *typ (a launch.Array or launch.Matrix),
// and registers it with the Func: host code downloads it into v's Go
// variable, by the name the reader's code gives it (the kernel's may
// be a temporary that a tuple assignment then copies).
func (ck *clKernel) declareKept(c *hostgo.Stmts, v *ir.Var, typ *jen.Statement, last *lowered.PlanKernel) string {
	f := ck.f
	h := f.Fresh("dev")
	c.Add(hostgo.VarDecl(h, jen.Op("*").Add(typ), nil))
	f.setDeviceArray(v, &deviceArray{
		Handle: h,
		Host: func() hostgo.Stmts {
			return hostgo.Stmts{jen.If(jen.Id(h).Op("!=").Nil()).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(f.Name(v), jen.Id(h).Dot("Host").Call())}))}
		},
		Release: hostgo.Stmts{jen.Id(h).Dot("Release").Call()},
		Last:    last,
	})
	return h
}

// rowsInputsHost returns the statements that download, before kernel
// ck runs, its [][]T inputs an earlier grid left on the device (the
// row form reads them from Go memory: rows.go), and those that
// release the device copies it reads last.
func (ck *clKernel) rowsInputsHost() (host, release hostgo.Stmts) {
	for _, p := range ck.ins {
		if d := ck.f.deviceArrayOf(p.v); d != nil && p.rows != nil {
			host.Add(d.HostCode()...)
			if d.Last == ck.lk.Src {
				release.Add(d.Release...)
			}
		}
	}
	return host, release
}
