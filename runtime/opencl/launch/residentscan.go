package launch

// This file runs scan and filter kernels within a Session (resident.go):
// on inputs already on the device (Dev, Share, Unwritten), with outputs
// that may stay there (Keep; a filter's kept Array holds its kept
// elements only).

import (
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// inputBuffers returns the device buffers of inputs within s: the
// buffers of those on the device, uploads of the others. The uploads of
// shared and unwritten inputs are s's from then on; the rest are in
// temp, for the caller to return to the pool after the run.
func inputBuffers(d *device.Device, s *Session, inputs []Input) (ins, temp []*cl.MemObject, err error) {
	ins = make([]*cl.MemObject, len(inputs))
	for i, in := range inputs {
		if in.buf != nil {
			ins[i] = in.buf
			continue
		}
		b, t, err := skel.Upload(d, in.host)
		if err != nil {
			return nil, temp, err
		}
		if in.share != nil {
			in.share(s, s.hold(b))
		} else {
			temp = append(temp, b)
		}
		count(t)
		uploadN.Add(1)
		ins[i] = b
	}
	return ins, temp, nil
}

// inputLength returns the common length of inputs, or 0 when there are
// none, one is empty or two differ.
func inputLength(inputs []Input) int {
	if len(inputs) == 0 {
		return 0
	}
	n := inputs[0].n
	for _, in := range inputs {
		if in.n != n {
			return 0
		}
	}
	return n
}

// RunOn is Run within session s, on inputs that may be on the device
// already and an output that may stay there (Keep). It reports whether
// the output holds the scan, as Run does; after false nothing was kept.
func (sc *Scan) RunOn(s *Session, args []any, inputs []Input, out Output) bool {
	n := inputLength(inputs)
	if n == 0 || out.keep == nil && out.host.Len() != n {
		return false
	}
	k := sc.Kernel()
	if k == nil {
		return false
	}
	d := sc.b.d
	s.on(d)
	var temp []*cl.MemObject
	defer func() { d.Recycle(temp...) }()
	ins, up, err := inputBuffers(d, s, inputs)
	temp = append(temp, up...)
	var ob *cl.MemObject
	if err == nil {
		ob, err = d.Buffer(n * out.elem)
	}
	if err == nil {
		u := uploads{d: d}
		defer u.release()
		var vals []any
		if vals, err = u.expand(args); err == nil {
			var t skel.Timing
			t, err = k.RunDeviceArgs(n, vals, ins, ob)
			count(t)
		}
	}
	if err == nil && out.keep == nil {
		var t skel.Timing
		t, err = skel.Download(d, ob, out.host)
		count(t)
		downloadN.Add(1)
	}
	if err != nil {
		if ob != nil {
			temp = append(temp, ob)
		}
		return fellBack(sc.At, sc.Spec.Name, sc.b.fail(sc.At, sc.Spec.Name, err))
	}
	if out.keep == nil {
		temp = append(temp, ob)
		return true
	}
	out.keep(s, s.hold(ob), n)
	if !KeepOnDevice {
		out.eager()
	}
	return true
}

// RunOn is Run within session s, on inputs that may be on the device
// already and outputs that may stay there (Keep: an Array of the kept
// elements). It returns the number kept and whether the outputs and
// results hold the kernel's, as Run does; after false nothing was kept.
func (f *Filter) RunOn(s *Session, args []any, inputs []Input, outputs []Output, results []skel.HostSlice) (int, bool) {
	n := inputLength(inputs)
	if n == 0 {
		return 0, false
	}
	for _, o := range outputs {
		if o.keep == nil && o.host.Len() != n {
			return 0, false
		}
	}
	k := f.Kernel()
	if k == nil {
		return 0, false
	}
	d := f.b.d
	s.on(d)
	kept, ok, err := f.runOn(k, d, s, n, args, inputs, outputs, results)
	if err != nil {
		return 0, fellBack(f.At, f.Spec.Name, f.b.fail(f.At, f.Spec.Name, err))
	}
	return kept, ok || fellBack(f.At, f.Spec.Name, whyFlag)
}

// runOn is Filter.RunOn's device part: false with a nil error when a
// work-item's panic flag is set.
func (f *Filter) runOn(k *skel.FilterKernel, d *device.Device, s *Session, n int, args []any, inputs []Input, outputs []Output, results []skel.HostSlice) (int, bool, error) {
	var temp, keptBufs []*cl.MemObject
	success := false
	defer func() {
		d.Recycle(temp...)
		if !success {
			d.Recycle(keptBufs...)
		}
	}()
	ins, up, err := inputBuffers(d, s, inputs)
	temp = append(temp, up...)
	if err != nil {
		return 0, false, err
	}
	outs := make([]*cl.MemObject, len(outputs))
	for i, o := range outputs {
		b, err := d.Buffer(n * o.elem)
		if err != nil {
			return 0, false, err
		}
		if o.keep == nil {
			temp = append(temp, b)
		} else {
			keptBufs = append(keptBufs, b)
		}
		outs[i] = b
	}
	reds := f.Spec.Reductions
	res := make([]*cl.MemObject, len(reds))
	for i, red := range reds {
		b, err := d.Buffer(red.Type.Size)
		if err != nil {
			return 0, false, err
		}
		temp = append(temp, b)
		res[i] = b
	}
	u := uploads{d: d}
	defer u.release()
	vals, err := u.expand(args)
	if err != nil {
		return 0, false, err
	}
	kept, t, err := k.RunDeviceArgs(n, vals, ins, outs, res)
	count(t)
	if err != nil {
		return 0, false, err
	}
	download := func(b *cl.MemObject, h skel.HostSlice) error {
		t, err := skel.Download(d, b, h)
		count(t)
		return err
	}
	var flag [1]int32
	if err := download(res[len(res)-1], skel.Slice(flag[:])); err != nil || flag[0] != 0 {
		return 0, false, err
	}
	for i, h := range results {
		if err := download(res[i], h); err != nil {
			return 0, false, err
		}
	}
	for i, o := range outputs {
		if o.keep != nil {
			continue
		}
		if err := download(outs[i], o.host.Prefix(kept)); err != nil {
			return 0, false, err
		}
		downloadN.Add(1)
	}
	if err := u.download(); err != nil {
		return 0, false, err
	}
	success = true
	keepOutputs(s, outputs, outs, kept)
	return kept, true, nil
}
