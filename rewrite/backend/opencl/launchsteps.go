package opencl

// This file holds the steps of a launch's Go code that the map-reduce,
// scan and filter kernels (emit.go), the kernels split after a scan
// (split.go) and the streams (stream.go, streammap.go) share: which
// inputs an earlier kernel left on the device, the kernel's length,
// backend=auto's guard, the host arrays and outputs a skeleton's run
// takes, and the CPU fallback.

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// deviceInputs returns the inputs of ins (but [][]T inputs, which the
// row form reads from Go memory: gridkept.go) that an earlier kernel
// left on the device (residency.go), by variable: the launch reads them
// there, and the fallback downloads them. A stream's inputs are never
// [][]T (clStream.translateInputs refuses them), so it skips none of
// theirs.
func deviceInputs(f *spec, ins []clParam) map[*ir.Var]*deviceArray {
	devIn := map[*ir.Var]*deviceArray{}
	for _, p := range ins {
		if d := f.deviceArrayOf(p.v); d != nil && p.rows == nil {
			devIn[p.v] = d
		}
	}
	return devIn
}

// inputLen returns the length of input v: its device copy's (launch.Len,
// its Go variable unset while the device holds it) when an earlier
// kernel left it there (devIn), else its Go variable's.
func inputLen(f *spec, v *ir.Var, devIn map[*ir.Var]*deviceArray) *jen.Statement {
	if d := devIn[v]; d != nil {
		return f.Qual(launchPath, "launch", "Len").Call(jen.Id(d.Handle), hostgo.Id(f.Name(v)))
	}
	return jen.Len(hostgo.Id(f.Name(v)))
}

// inputsOnDevice returns, for backend=auto, a condition per input of
// ins an earlier kernel left on the device (devIn): that kernel ran
// there (its handle is not nil).
func inputsOnDevice(ins []clParam, devIn map[*ir.Var]*deviceArray) []jen.Code {
	var on []jen.Code
	for _, p := range ins {
		if d := devIn[p.v]; d != nil {
			on = append(on, jen.Id(d.Handle).Op("!=").Nil())
		}
	}
	return on
}

// autoGuard returns cond preceded by backend=auto's choice of the
// device for launch value kv over n elements: when one of on holds (an
// earlier kernel left an operand on the device: it ran there by the
// model's verdict on the two together, so this one does too), else when
// the cost model says so (Use).
func autoGuard(kv string, n jen.Code, on []jen.Code, cond *jen.Statement) *jen.Statement {
	return either(on, jen.Id(kv).Dot("Use").Call(n)).Op("&&").Add(cond)
}

// redParams returns the parameters of the fold results reds.
func redParams(reds []clRed) []clParam {
	var ps []clParam
	for _, r := range reds {
		ps = append(ps, r.clParam)
	}
	return ps
}

// hostSlices returns the []skel.HostSlice of ps, each the Go slice name
// returns, as a skeleton's Run takes its host arrays, or nil for none.
func hostSlices(f *spec, ps []clParam, name func(clParam) *jen.Statement) *jen.Statement {
	if len(ps) == 0 {
		return jen.Nil()
	}
	hostSlice := f.Qual(skelPath, "skel", "HostSlice")
	var list []jen.Code
	for _, p := range ps {
		list = append(list, f.Qual(skelPath, "skel", "Slice").Call(name(p)))
	}
	return jen.Index().Add(hostSlice).Values(list...)
}

// launchList returns the []launch.<name> of l (the inputs or outputs of
// a skeleton's RunOn), or nil for none.
func launchList(f *spec, name string, l []jen.Code) jen.Code {
	if len(l) == 0 {
		return jen.Nil()
	}
	return jen.Index().Add(f.Qual(launchPath, "launch", name)).Values(l...)
}

// fallbackCode returns the statement that runs fb, the next backend's
// code, when the launch did not (ok is false), after downloading kernel
// k's inputs ins left on the device (devIn) and its captured slices left
// there, which the CPU code reads from Go memory (fallbackHost); and the
// statements that release the device copies k reads last.
func fallbackCode(f *spec, k *lowered.PlanKernel, ins []clParam, devIn map[*ir.Var]*deviceArray, ok string, fb hostgo.Stmts) (jen.Code, hostgo.Stmts) {
	host, release := fallbackHost(f, k, ins, devIn)
	return jen.If(jen.Op("!").Id(ok)).Add(hostgo.Block(append(host, fb...))), release
}
