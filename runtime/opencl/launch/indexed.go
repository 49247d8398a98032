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
	return r.runWith(args, results, 0, len(outputs), func(k *skel.RedomapKernel, vals []any, res []skel.HostSlice) (skel.Timing, error) {
		return k.RunArgsN(n, vals, outputs, res)
	})
}
