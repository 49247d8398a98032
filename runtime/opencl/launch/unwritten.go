package launch

// This file keeps a call's unwritten inputs on the device for the whole
// call: a slice that the generator proved no statement of the spec
// writes (rewrite/backend/opencl's unwritten.go: not assigned through,
// no element written, not passed to anything that may write it, no
// alias written) is uploaded by the first kernel of the call that reads
// it and read from that buffer by every later kernel of the call that
// reads it, in every round of a loop. The Session holds the buffers,
// keyed by the slice's base address and length in bytes, until the call
// returns or panics (Session.Release).
//
// Captured slices that no statement writes are cached alike
// (ViewUnwritten), in the same table: an input and a captured slice of
// the same memory share one buffer.
//
// It does not prove anything: the generated code asks for the cache
// (Unwritten) only for inputs that the generator proved unwritten.

import (
	"sync/atomic"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// uploadKey identifies a slice's memory: its first element's address
// and its length in bytes.
type uploadKey struct {
	p unsafe.Pointer
	n int
}

// uploaded is a cached upload: the buffer, and the host slice it copies,
// kept reachable so that its memory is not reused while the key may be
// looked up.
type uploaded struct {
	h    *held
	host any
}

// Unwritten returns the input xs, which no statement of the call writes:
// the first run within s that reads it uploads it, and every later run
// within s reads that buffer (Dev), until s.Release. An empty xs, or
// KeepOnDevice false, gives Host(xs).
func Unwritten[T any](s *Session, xs []T) Input {
	in := Host(xs)
	if len(xs) == 0 || !KeepOnDevice {
		return in
	}
	var zero T
	key := uploadKey{unsafe.Pointer(unsafe.SliceData(xs)), len(xs) * int(unsafe.Sizeof(zero))}
	if u, ok := s.uploads[key]; ok && u.h.b != nil {
		return Input{buf: u.h.b, n: len(xs)}
	}
	in.share = func(s *Session, h *held) {
		if s.uploads == nil {
			s.uploads = map[uploadKey]uploaded{}
		}
		s.uploads[key] = uploaded{h: h, host: xs}
	}
	return in
}

// Uploads returns the number of inputs s holds on the device for the
// call (Unwritten's cache), for tests.
func (s *Session) Uploads() int { return len(s.uploads) }

// ViewUnwritten is View for a captured []T that no statement of the call
// writes: the first run within s that reads it uploads it, later runs
// within s read that buffer (Unwritten's cache). An empty xs, or
// KeepOnDevice false, gives View(xs).
func ViewUnwritten[T any](s *Session, xs []T) any {
	if len(xs) == 0 || !KeepOnDevice {
		return View(xs)
	}
	return view{data: cl.Bytes(xs), n: int64(len(xs)), s: s, host: xs}
}

// capturedN counts the captured slices uploaded through ViewUnwritten.
var capturedN atomic.Int64

// CapturedUploads returns how many captured slices ViewUnwritten has
// uploaded so far in the process (each once per call), for tests.
func CapturedUploads() int64 { return capturedN.Load() }

// uploadOnce returns the buffer of v's slice in v's session, uploading
// it the first time.
func (u *uploads) uploadOnce(v view) (*cl.MemObject, error) {
	s := v.s
	key := uploadKey{unsafe.Pointer(unsafe.SliceData(v.data)), len(v.data)}
	if c, ok := s.uploads[key]; ok && c.h.b != nil {
		return c.h.b, nil
	}
	buf, err := u.d.Buffer(max(len(v.data), minBuffer))
	if err != nil {
		return nil, err
	}
	t, err := skel.Write(u.d, buf, v.data)
	if err != nil {
		u.d.Recycle(buf)
		return nil, err
	}
	transferNs.Add(int64(t))
	capturedN.Add(1)
	s.on(u.d)
	if s.uploads == nil {
		s.uploads = map[uploadKey]uploaded{}
	}
	s.uploads[key] = uploaded{h: s.hold(buf), host: v.host}
	return buf, nil
}
