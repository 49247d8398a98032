package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Inputs uploaded once per call (launch.Unwritten): a kernel in a loop
// reads an input that no statement of the spec writes. The Written*
// specs write it, or may, between rounds: every round uploads it again.

// UnwrittenRounds reads xs in every round: one upload per call.
//
//soac:fuse UnwrittenRounds backend=opencl
func unwrittenRoundsSpec(xs []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
	}
	return t
}

// StreamRounds is a stream reduction over xs in every round, and a
// map-reduce reading xs and the stream's result: one upload per call
// for both kernels.
//
//soac:fuse StreamRounds backend=opencl
func streamRoundsSpec(xs []int64, rounds int) []int64 {
	acc := make([]int64, 4)
	for rnd := 0; rnd < rounds; rnd++ {
		h := soac.StreamRed(xs,
			func(a, b []int64) []int64 {
				return soac.Map2(a, b, func(x, y int64) int64 { return x + y })
			},
			func(chunk []int64) []int64 {
				row := make([]int64, 4)
				for _, x := range chunk {
					row[(x+int64(rnd))&3] += x
				}
				return row
			})
		h0 := h[0]
		m := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x ^ h0 }), 0, func(a, b int64) int64 { return a + b })
		for i := range acc {
			acc[i] = acc[i]*5 + h[i] + m
		}
	}
	return acc
}

// WrittenRounds writes an element of xs after each round: a stale
// device copy would give the next round the old element.
//
//soac:fuse WrittenRounds backend=opencl
func writtenRoundsSpec(xs []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		if len(xs) > 0 {
			xs[rnd%len(xs)] += 7
		}
	}
	return t
}

// WrittenAlias writes xs through a re-slice.
//
//soac:fuse WrittenAlias backend=opencl
func writtenAliasSpec(xs []int64, rounds int) int64 {
	var t int64
	ys := xs[len(xs)/2:]
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		if len(ys) > 0 {
			ys[0]++
		}
	}
	return t
}

// WrittenOther writes zs, which the caller may pass as xs too.
//
//soac:fuse WrittenOther backend=opencl
func writtenOtherSpec(xs, zs []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		if len(zs) > 0 {
			zs[0] -= 3
		}
	}
	return t
}

// bump adds 1 to every element of xs.
func bump(xs []int64) {
	for i := range xs {
		xs[i]++
	}
}

// WrittenByCall passes xs to a function that writes it.
//
//soac:fuse WrittenByCall backend=opencl
func writtenByCallSpec(xs []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		bump(xs)
	}
	return t
}

// Reassigned drops xs's first element after each round: every round
// reads another slice.
//
//soac:fuse Reassigned backend=opencl
func reassignedSpec(xs []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds && len(xs) > 0; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		xs = xs[1:]
	}
	return t
}

// KeptIntoStream keeps the squares on the device for the stream
// reduction that reads them (launch.Dev); the stream's CPU code
// downloads them first.
//
//soac:fuse KeptIntoStream backend=opencl
func keptIntoStreamSpec(xs []int64) ([]int64, int64) {
	sq := soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b })
	h := soac.StreamRed(sq,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 2)
			for _, x := range chunk {
				row[x&1] += x + s
			}
			return row
		})
	return h, s
}

// CapturedRounds reads the captured table ws in every round: uploaded
// once per call (launch.ViewUnwritten).
//
//soac:fuse CapturedRounds backend=opencl
func capturedRoundsSpec(xs, ws []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 {
			i := int(uint64(x) % uint64(len(ws)+1))
			if i == len(ws) {
				return x
			}
			return x*ws[i] + int64(rnd)
		}), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
	}
	return t
}

// CapturedWritten writes the captured table between rounds: every round
// uploads it.
//
//soac:fuse CapturedWritten backend=opencl
func capturedWrittenSpec(xs, ws []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 {
			i := int(uint64(x) % uint64(len(ws)+1))
			if i == len(ws) {
				return x
			}
			return x*ws[i] + int64(rnd)
		}), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		if len(ws) > 0 {
			ws[0] += 11
		}
	}
	return t
}

// UnwrittenPanics reads xs in every round, uploaded once, and panics
// (index out of range) in round at: the deferred Session.Release
// returns the upload to the pool.
//
//soac:fuse UnwrittenPanics backend=opencl
func unwrittenPanicsSpec(xs []int64, rounds, at int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) }), 0, func(a, b int64) int64 { return a + b })
		t = t*3 + s
		if rnd == at {
			t += xs[len(xs)+rnd-at]
		}
	}
	return t
}
