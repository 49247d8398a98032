package pinned

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

type pt struct {
	X, Y float64
	K    int32
}

// TestMakeOn maps slices of several element types and lengths on the
// default device: zeroed, writable, aligned, recognised by Is and
// Contains (sub-slices too), not past their end, and no longer after free.
func TestMakeOn(t *testing.T) {
	d := testkit.Device(t)
	for _, n := range []int{1, 7, 1000, 1024, 12345} {
		s, free := MakeOn[pt](d, n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("n=%d: len %d cap %d", n, len(s), cap(s))
		}
		if !Is(s) || !Contains(d, bytesOf(s)) {
			t.Fatalf("n=%d: a mapped slice is not recognised", n)
		}
		if uintptr(unsafe.Pointer(&s[0]))%unsafe.Alignof(s[0]) != 0 {
			t.Fatalf("n=%d: misaligned", n)
		}
		for i := range s {
			if s[i] != (pt{}) {
				t.Fatalf("n=%d: s[%d] = %v, not zero", n, i, s[i])
			}
			s[i] = pt{float64(i), -float64(i), int32(i)}
		}
		for i := range s {
			if s[i].K != int32(i) || s[i].X != float64(i) {
				t.Fatalf("n=%d: s[%d] = %v after writing", n, i, s[i])
			}
		}
		if n > 2 && (!Is(s[1:n-1]) || !Contains(d, bytesOf(s[n/2:]))) {
			t.Fatalf("n=%d: a sub-slice is not recognised", n)
		}
		// Bytes past the end: rounded up to a page, they are readable but
		// outside the region (n=1024 fills its pages exactly: skip).
		if sz := n * int(unsafe.Sizeof(pt{})); sz%pageSize != 0 {
			b := unsafe.Slice((*byte)(unsafe.Pointer(&s[n-1])), int(unsafe.Sizeof(pt{}))+1)
			if Contains(d, b) {
				t.Fatalf("n=%d: a slice crossing the end is recognised", n)
			}
			_ = b[len(b)-1] // readable
		}
		whole := bytesOf(s)
		free()
		free() // idempotent
		if Contains(d, whole) {
			t.Fatalf("n=%d: recognised after free", n)
		}
	}
}

// TestFallback: Go memory for empty slices, zero-size elements, a nil
// device, and on a CPU device through Make; never recognised.
func TestFallback(t *testing.T) {
	d := testkit.Device(t)
	if s, free := MakeOn[float32](d, 0); len(s) != 0 || Is(s) {
		t.Fatal("empty slice")
	} else {
		free()
	}
	if s, free := MakeOn[struct{}](d, 10); len(s) != 10 || Is(s) {
		t.Fatal("zero-size elements")
	} else {
		free()
	}
	s, free := MakeOn[float64](nil, 10)
	if len(s) != 10 || Is(s) || Contains(d, bytesOf(s)) {
		t.Fatal("nil device")
	}
	free()
	free()
	s, free = Make[float64](100)
	defer free()
	if len(s) != 100 {
		t.Fatalf("Make: len %d", len(s))
	}
	if got, want := Is(s), d.Info.IsGPU(); got != want {
		t.Fatalf("Make on a %v device: pinned %v, want %v", d.Info.Type, got, want)
	}
	g := make([]float64, 10)
	if Is(g) || Contains(d, bytesOf(g)) {
		t.Fatal("Go memory recognised")
	}
}

// TestOtherDevice: memory mapped on one context is not Contained by
// another device's (a second context on the same OpenCL device).
func TestOtherDevice(t *testing.T) {
	d := testkit.Device(t)
	d2, err := device.Open(d.CL)
	if err != nil {
		t.Fatal(err)
	}
	s, free := MakeOn[int64](d2, 100)
	defer free()
	if !Is(s) || !Contains(d2, bytesOf(s)) || Contains(d, bytesOf(s)) {
		t.Fatalf("Is %v, own device %v, other device %v", Is(s), Contains(d2, bytesOf(s)), Contains(d, bytesOf(s)))
	}
}

func TestPanics(t *testing.T) {
	d := testkit.Device(t)
	for _, c := range []struct {
		name, want string
		f          func()
	}{
		{"negative", "negative length", func() { MakeOn[int](d, -1) }},
		{"pointer", "holds pointers", func() { MakeOn[*int](d, 1) }},
		{"struct with a slice", "holds pointers", func() { MakeOn[struct{ A []int }](d, 1) }},
		{"string via Make", "holds pointers", func() { Make[string](1) }},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, c.want) {
					t.Errorf("%s: panic %v, want one containing %q", c.name, r, c.want)
				}
			}()
			c.f()
		}()
	}
	// Pointer-free composites are accepted.
	_, free := MakeOn[[4]struct {
		A complex128
		B [2]uint8
	}](d, 3)
	free()
}

// TestConcurrent makes, checks and frees from several goroutines (for
// the race detector), while others look regions up.
func TestConcurrent(t *testing.T) {
	d := testkit.Device(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				n := 1 + 97*g + i
				s, free := MakeOn[uint32](d, n)
				s[n-1] = uint32(i)
				if !Contains(d, bytesOf(s)) || s[n-1] != uint32(i) {
					t.Errorf("goroutine %d: slice %d not recognised", g, i)
				}
				free()
			}
		})
	}
	wg.Wait()
	mu.RLock()
	defer mu.RUnlock()
	if len(regions) != 0 {
		t.Errorf("%d regions left after every free", len(regions))
	}
}

// TestFind checks the region lookup on fabricated regions (no device):
// adjacent regions, starts, ends, gaps.
func TestFind(t *testing.T) {
	mu.Lock()
	saved := regions
	regions = []*region{{start: 100, end: 200}, {start: 200, end: 300}, {start: 400, end: 401}}
	mu.Unlock()
	defer func() { mu.Lock(); regions = saved; mu.Unlock() }()
	for _, c := range []struct {
		p, n uintptr
		want int // index, or -1
	}{
		{100, 100, 0}, {150, 50, 0}, {199, 1, 0}, {199, 2, -1}, {200, 100, 1}, {150, 100, -1},
		{99, 1, -1}, {99, 2, -1}, {300, 1, -1}, {400, 1, 2}, {400, 2, -1}, {100, 0, -1}, {0, 1, -1}, {1000, 1, -1},
		{150, ^uintptr(0) - 10, -1},
	} {
		got := find(c.p, c.n)
		var want *region
		if c.want >= 0 {
			want = regions[c.want]
		}
		if got != want {
			t.Errorf("find(%d, %d) = %v, want region %d", c.p, c.n, got, c.want)
		}
	}
}

// TestMakeWithoutOpenCL runs itself again with the OpenCL library
// pointing nowhere: Make gives Go memory, usable, and a free that does
// nothing.
func TestMakeWithoutOpenCL(t *testing.T) {
	if os.Getenv("PINNED_NO_OPENCL") == "1" {
		if _, err := device.Default(); err == nil {
			t.Fatal("a device opened without the library")
		}
		s, free := Make[float64](1000)
		if len(s) != 1000 || Is(s) {
			t.Fatalf("len %d, pinned %v", len(s), Is(s))
		}
		for i := range s {
			if s[i] != 0 {
				t.Fatalf("s[%d] = %v", i, s[i])
			}
			s[i] = float64(i)
		}
		free()
		free()
		if s[999] != 999 {
			t.Fatal("Go memory changed by free")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestMakeWithoutOpenCL$", "-test.v")
	cmd.Env = append(os.Environ(), "PINNED_NO_OPENCL=1", "SOACGEN_OPENCL_LIBRARY=/nonexistent/libOpenCL.so", "SOACGEN_REQUIRE_OPENCL=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestMakeWithoutOpenCL") {
		t.Fatalf("subprocess: %v\n%s", err, out)
	}
}
