package launch

import "github.com/soacgen/soacgen/runtime/opencl/skel"

// RunN is Run for a kernel without inputs (its Spec has none): its n
// elements are computed from their index alone (a map or fold of
// Iota(n) and of captured values), writing outputs of n elements each
// and results. It reports false, for the caller's CPU code, in Run's
// cases: n is not positive, the kernel is unavailable, a launch failed,
// or a work-item's panic flag is set.
func (r *Redomap) RunN(n int, args []any, outputs, results []skel.HostSlice) bool {
	if n <= 0 {
		return false
	}
	for _, o := range outputs {
		if o.Len() != n {
			return false
		}
	}
	k := r.Kernel()
	if k == nil {
		return false
	}
	var flag [1]int32
	res := append(append([]skel.HostSlice(nil), results...), skel.Slice(flag[:]))
	u := uploads{d: r.b.d}
	defer u.release()
	vals, err := u.expand(args)
	var t skel.Timing
	if err == nil {
		t, err = k.RunArgsN(n, vals, outputs, res)
	}
	if err == nil && flag[0] == 0 {
		err = u.download()
	}
	if err != nil {
		r.b.fail(r.At, r.Spec.Name, err)
		return false
	}
	count(t)
	countRun(0, len(outputs))
	return flag[0] == 0
}
