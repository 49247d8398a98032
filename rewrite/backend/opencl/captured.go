package opencl

// This file lets a kernel's lambda read, as a captured slice, an array
// an earlier kernel of the call left on the device (residency.go):
// the capture is passed as the kept Array's buffer (launch.ViewDev),
// and the kernel's CPU fallback downloads it first (the handle's Host).

import (
	"go/types"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// capturedVars returns the variables the lambdas of k's members
// capture, each once, in order.
func capturedVars(k *lowered.PlanKernel) []*ir.Var {
	var vs []*ir.Var
	for _, m := range k.SOACs {
		for _, l := range m.Lambdas() {
			for _, v := range l.Free {
				if !slices.Contains(vs, v) {
					vs = append(vs, v)
				}
			}
		}
	}
	return vs
}

// readsOnlyCaptured reports whether SOAC m reads v only through its
// lambdas' captures: not as an input, an operand or a method value's
// receiver, and at least one lambda captures it.
func readsOnlyCaptured(m *ir.SOAC, v *ir.Var) bool {
	if slices.Contains(m.Inputs(), v) || readsOperand(m, v) {
		return false
	}
	for _, l := range m.Lambdas() {
		if slices.Contains(l.Free, v) {
			return true
		}
	}
	return false
}

// capturesOne reports whether every variable k's lambdas capture of v's
// Go variable is v: the capture's name in k's code then means v.
func capturesOne(k *lowered.PlanKernel, v *ir.Var) bool {
	for _, c := range capturedVars(k) {
		if c != v && c.Obj != nil && c.Obj == v.Obj {
			return false
		}
	}
	return true
}

// capturedDev returns the device copy of the slice k's lambdas capture
// as obj, when an earlier kernel left it on the device, or nil.
func capturedDev(f *spec, k *lowered.PlanKernel, obj *types.Var) *deviceArray {
	var found *deviceArray
	for _, v := range capturedVars(k) {
		if v.Obj == types.Object(obj) {
			if found != nil || f.deviceArrayOf(v) == nil {
				return nil
			}
			found = f.deviceArrayOf(v)
		}
	}
	return found
}

// fallbackHost returns the statements that download, for the CPU code
// of kernel k, its inputs ins left on the device (devIn) and its
// captured slices left there, and those that release the device copies
// k reads last.
func fallbackHost(f *spec, k *lowered.PlanKernel, ins []clParam, devIn map[*ir.Var]*deviceArray) (host, release hostgo.Stmts) {
	for _, p := range ins {
		if d := devIn[p.v]; d != nil {
			host.Add(d.HostCode()...)
			if d.Last == k {
				release.Add(d.Release...)
			}
		}
	}
	capHost, capRelease := capturedHost(f, k, func(v *ir.Var) bool { return devIn[v] != nil })
	return append(host, capHost...), append(release, capRelease...)
}

// capturedHost returns the statements that download the captured
// slices of k an earlier kernel left on the device (for code that reads
// them from Go memory) and those that release the device copies k reads
// last, skipping the arrays in skip (k's inputs, handled with them).
func capturedHost(f *spec, k *lowered.PlanKernel, skip func(*ir.Var) bool) (host, release hostgo.Stmts) {
	for _, v := range capturedVars(k) {
		d := f.deviceArrayOf(v)
		if d == nil || skip(v) {
			continue
		}
		host.Add(d.HostCode()...)
		if d.Last == k {
			release.Add(d.Release...)
		}
	}
	return host, release
}

// capturedOnDevice returns, for backend=auto, a condition per captured
// slice of k an earlier kernel left on the device, skipping those skip
// reports: that kernel ran there (its handle is not nil). A kernel
// reading one runs on the device when its producer did, whose model
// priced the two together (groupCost), as for an input left there.
func capturedOnDevice(f *spec, k *lowered.PlanKernel, skip func(*ir.Var) bool) []jen.Code {
	var on []jen.Code
	for _, v := range capturedVars(k) {
		if d := f.deviceArrayOf(v); d != nil && !skip(v) {
			on = append(on, jen.Id(d.Handle).Op("!=").Nil())
		}
	}
	return on
}

// either returns the disjunction of conds or'ed with use, or use alone.
func either(conds []jen.Code, use *jen.Statement) *jen.Statement {
	if len(conds) == 0 {
		return use
	}
	e := jen.Add(conds[0])
	for _, c := range conds[1:] {
		e = e.Op("||").Add(c)
	}
	return jen.Parens(e.Op("||").Add(use))
}

// viewDev returns the kernel argument of captured slice obj held by
// device array d (launch.ViewDev).
func viewDev(launchQ func(string) *jen.Statement, d *deviceArray, obj jen.Code) *jen.Statement {
	return launchQ("ViewDev").Call(jen.Id(d.Handle), obj)
}
