package device

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// SelectEnv names the environment variable that selects the device.
const SelectEnv = "SOACGEN_OPENCL_DEVICE"

// Info is what the skeletons need to know about a device to size their
// launches.
type Info struct {
	Platform         string        // CL_PLATFORM_NAME
	Name             string        // CL_DEVICE_NAME
	Type             cl.DeviceType // GPU, CPU, ...
	GlobalMemSize    int64         // bytes
	MaxMemAllocSize  int64         // bytes, the largest single buffer
	ComputeUnits     int           // multiprocessors (GPU) or hardware threads (CPU)
	MaxWorkGroupSize int           // work-items
	LocalMemSize     int64         // bytes of local memory per work-group
	FP64             bool          // cl_khr_fp64
	Version          string        // CL_DEVICE_VERSION
	Driver           string        // CL_DRIVER_VERSION
}

// IsGPU reports whether the device is a GPU.
func (i Info) IsGPU() bool { return i.Type&cl.DeviceTypeGPU != 0 }

// String is a one-line summary for logs and benchmark reports.
func (i Info) String() string {
	return fmt.Sprintf("%s / %s (%v, %d CUs, max work-group %d, %.1f GiB global, %d KiB local, fp64 %v, %s, driver %s)",
		i.Platform, i.Name, i.Type, i.ComputeUnits, i.MaxWorkGroupSize, float64(i.GlobalMemSize)/(1<<30), i.LocalMemSize>>10, i.FP64, i.Version, i.Driver)
}

// Device is an opened OpenCL device with its context and queues. Its
// methods are safe for concurrent use. Queue is the device's own queue,
// in order, for commands outside runs (mapping host memory); each run of
// a skeleton takes a queue of its own (TakeQueue, FinishQueue), so that
// concurrent runs do not wait behind each other's commands.
type Device struct {
	Info  Info
	CL    cl.Device
	Ctx   *cl.Context
	Queue *cl.CommandQueue // in order, profiling enabled

	mu       sync.Mutex
	programs map[programKey]*programEntry
	pool     pool
	queues   queues
}

type programKey struct{ src, opts string }

type programEntry struct {
	once sync.Once
	prog *cl.Program
	err  error
}

// Open creates a context and a profiling queue on d.
func Open(d cl.Device) (*Device, error) {
	ctx, err := cl.CreateContext([]cl.Device{d})
	if err != nil {
		return nil, err
	}
	q, err := ctx.CreateCommandQueue(d, cl.CommandQueueProfilingEnable)
	if err != nil {
		ctx.Release()
		return nil, err
	}
	info := Info{
		Platform:         d.Platform().Name(),
		Name:             d.Name(),
		Type:             d.Type(),
		GlobalMemSize:    d.GlobalMemSize(),
		MaxMemAllocSize:  d.MaxMemAllocSize(),
		ComputeUnits:     d.MaxComputeUnits(),
		MaxWorkGroupSize: d.MaxWorkGroupSize(),
		LocalMemSize:     d.LocalMemSize(),
		FP64:             d.HasFP64(),
		Version:          d.Version(),
		Driver:           d.DriverVersion(),
	}
	dev := &Device{Info: info, CL: d, Ctx: ctx, Queue: q, programs: map[programKey]*programEntry{}}
	// Keep at most a quarter of device memory idle in the pool, so that
	// pooling never starves a large allocation of the program itself.
	dev.pool.limit = info.GlobalMemSize / 4
	dev.queues.slots = make(chan struct{}, MaxQueues(info.Type))
	return dev, nil
}

var (
	defaultOnce sync.Once
	defaultDev  *Device
	defaultErr  error
)

// Default returns the process's device, chosen once as the package
// documentation describes.
func Default() (*Device, error) {
	defaultOnce.Do(func() {
		var d cl.Device
		d, defaultErr = Select(envSelector())
		if defaultErr == nil {
			defaultDev, defaultErr = Open(d)
		}
	})
	return defaultDev, defaultErr
}

// Candidate is a device together with its platform and device indices.
type Candidate struct {
	PlatformIndex, DeviceIndex int
	Device                     cl.Device
}

// List returns every device of every platform. Platforms that report no
// device are skipped; if no platform has one the error wraps
// cl.ErrNoDevice.
func List() ([]Candidate, error) {
	ps, err := cl.GetPlatforms()
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for pi, p := range ps {
		ds, err := p.GetDevices(cl.DeviceTypeAll)
		if errors.Is(err, cl.ErrNoDevice) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for di, d := range ds {
			out = append(out, Candidate{pi, di, d})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no platform has a device", cl.ErrNoDevice)
	}
	return out, nil
}

// Select picks a device by selector, with the syntax of SOACGEN_OPENCL_DEVICE
// ("" for the default preference GPU, then CPU, then any).
func Select(selector string) (cl.Device, error) {
	cands, err := List()
	if err != nil {
		return cl.Device{}, err
	}
	c, err := choose(cands, selector, func(c Candidate) (string, cl.DeviceType) {
		return c.Device.Platform().Name() + " / " + c.Device.Name(), c.Device.Type()
	})
	return c.Device, err
}

// choose implements the selection rules over candidates; describe returns
// a candidate's "platform / device" name and type (a function, so that the
// rules are testable without devices).
func choose(cands []Candidate, selector string, describe func(Candidate) (string, cl.DeviceType)) (Candidate, error) {
	selector = strings.TrimSpace(selector)
	if selector == "" {
		for _, want := range []cl.DeviceType{cl.DeviceTypeGPU, cl.DeviceTypeCPU} {
			for _, c := range cands {
				if _, t := describe(c); t&want != 0 {
					return c, nil
				}
			}
		}
		return cands[0], nil
	}
	if p, d, ok := strings.Cut(selector, ":"); ok {
		pi, err1 := strconv.Atoi(p)
		di, err2 := strconv.Atoi(d)
		if err1 == nil && err2 == nil {
			for _, c := range cands {
				if c.PlatformIndex == pi && c.DeviceIndex == di {
					return c, nil
				}
			}
			return Candidate{}, fmt.Errorf("%w: %s=%q: no device %d on platform %d", cl.ErrNoDevice, SelectEnv, selector, di, pi)
		}
	}
	var names []string
	for _, c := range cands {
		name, _ := describe(c)
		if strings.Contains(strings.ToLower(name), strings.ToLower(selector)) {
			return c, nil
		}
		names = append(names, fmt.Sprintf("%d:%d %s", c.PlatformIndex, c.DeviceIndex, name))
	}
	return Candidate{}, fmt.Errorf("%w: %s=%q matches none of: %s", cl.ErrNoDevice, SelectEnv, selector, strings.Join(names, "; "))
}

// Program returns the program built from src with opts on this device,
// building it on first use. Concurrent callers of one key wait for one
// build; a failed build is remembered and returned again.
func (d *Device) Program(src, opts string) (*cl.Program, error) {
	d.mu.Lock()
	k := programKey{src, opts}
	e, ok := d.programs[k]
	if !ok {
		e = new(programEntry)
		d.programs[k] = e
	}
	d.mu.Unlock()
	e.once.Do(func() {
		p, err := d.Ctx.CreateProgramWithSource([]string{src})
		if err == nil {
			if err = p.BuildProgram([]cl.Device{d.CL}, opts); err != nil {
				p.Release()
				p = nil
			}
		}
		e.prog, e.err = p, err
	})
	return e.prog, e.err
}

// ProgramsBuilt returns how many distinct programs were requested.
func (d *Device) ProgramsBuilt() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.programs)
}

// envSelector returns $SOACGEN_OPENCL_DEVICE.
func envSelector() string { return os.Getenv(SelectEnv) }
