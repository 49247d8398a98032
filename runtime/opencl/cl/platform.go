package cl

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"
)

// DeviceType is a bit set of cl_device_type values.
type DeviceType uint64

// Device types, as in cl.h.
const (
	DeviceTypeDefault     DeviceType = 1 << 0
	DeviceTypeCPU         DeviceType = 1 << 1
	DeviceTypeGPU         DeviceType = 1 << 2
	DeviceTypeAccelerator DeviceType = 1 << 3
	DeviceTypeAll         DeviceType = 0xFFFFFFFF
)

// String names the types in the set, e.g. "GPU" or "CPU|GPU".
func (t DeviceType) String() string {
	var parts []string
	for _, x := range []struct {
		t DeviceType
		s string
	}{{DeviceTypeDefault, "DEFAULT"}, {DeviceTypeCPU, "CPU"}, {DeviceTypeGPU, "GPU"}, {DeviceTypeAccelerator, "ACCELERATOR"}} {
		if t&x.t != 0 {
			parts = append(parts, x.s)
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("DeviceType(%#x)", uint64(t))
	}
	return strings.Join(parts, "|")
}

// cl_platform_info and cl_device_info parameter names, as in cl.h.
const (
	platformVersion = 0x0901
	platformName    = 0x0902
	platformVendor  = 0x0903

	deviceType                   = 0x1000
	deviceMaxComputeUnits        = 0x1002
	deviceMaxWorkGroupSize       = 0x1004
	deviceMaxClockFrequency      = 0x100C
	deviceMaxMemAllocSize        = 0x1010
	deviceGlobalMemSize          = 0x101F
	deviceLocalMemSize           = 0x1023
	deviceProfilingTimerResolute = 0x1025
	deviceName                   = 0x102B
	deviceVendor                 = 0x102C
	driverVersion                = 0x102D
	deviceVersion                = 0x102F
	deviceExtensions             = 0x1030
)

// Platform is an OpenCL platform (cl_platform_id).
type Platform struct{ id uintptr }

// GetPlatforms returns the installed platforms. With no library it returns
// an error wrapping ErrNoLibrary; with no platform, one wrapping
// ErrNoPlatform.
func GetPlatforms() ([]Platform, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	var n uint32
	code := status(l.GetPlatformIDs, 0, 0, uintptr(unsafe.Pointer(&n)))
	if code == codePlatformNotFoundKHR || (code == codeSuccess && n == 0) {
		return nil, fmt.Errorf("%w: clGetPlatformIDs found none", ErrNoPlatform)
	}
	if err := check("clGetPlatformIDs", code); err != nil {
		return nil, err
	}
	ids := make([]uintptr, n)
	if err := check("clGetPlatformIDs", status(l.GetPlatformIDs, uintptr(n), uintptr(unsafe.Pointer(&ids[0])), 0)); err != nil {
		return nil, err
	}
	ps := make([]Platform, n)
	for i, id := range ids {
		ps[i] = Platform{id}
	}
	return ps, nil
}

// info runs a clGet*Info query of the two-call form (size, then data) on
// fn with the object id and parameter.
func info(call string, fn, id uintptr, param uint32) ([]byte, error) {
	var size uintptr
	if err := check(call, status(fn, id, uintptr(param), 0, 0, uintptr(unsafe.Pointer(&size)))); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	buf := make([]byte, size)
	if err := check(call, status(fn, id, uintptr(param), size, uintptr(unsafe.Pointer(&buf[0])), 0)); err != nil {
		return nil, err
	}
	return buf, nil
}

// cString returns the bytes up to the first NUL.
func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// uintInfo decodes a little-endian unsigned integer of 4 or 8 bytes.
func uintInfo(b []byte) uint64 {
	switch len(b) {
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (p Platform) str(param uint32) string {
	l, err := lib()
	if err != nil {
		return ""
	}
	b, err := info("clGetPlatformInfo", l.GetPlatformInfo, p.id, param)
	if err != nil {
		return ""
	}
	return cString(b)
}

// Name returns CL_PLATFORM_NAME, e.g. "NVIDIA CUDA".
func (p Platform) Name() string { return p.str(platformName) }

// Vendor returns CL_PLATFORM_VENDOR.
func (p Platform) Vendor() string { return p.str(platformVendor) }

// Version returns CL_PLATFORM_VERSION.
func (p Platform) Version() string { return p.str(platformVersion) }

// GetDevices returns the platform's devices of type t. When there is none
// the error wraps ErrNoDevice.
func (p Platform) GetDevices(t DeviceType) ([]Device, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	var n uint32
	code := status(l.GetDeviceIDs, p.id, uintptr(t), 0, 0, uintptr(unsafe.Pointer(&n)))
	if code == codeDeviceNotFound || (code == codeSuccess && n == 0) {
		return nil, fmt.Errorf("%w: platform %q has no %v device", ErrNoDevice, p.Name(), t)
	}
	if err := check("clGetDeviceIDs", code); err != nil {
		return nil, err
	}
	ids := make([]uintptr, n)
	if err := check("clGetDeviceIDs", status(l.GetDeviceIDs, p.id, uintptr(t), uintptr(n), uintptr(unsafe.Pointer(&ids[0])), 0)); err != nil {
		return nil, err
	}
	ds := make([]Device, n)
	for i, id := range ids {
		ds[i] = Device{id: id, platform: p}
	}
	return ds, nil
}

// Device is an OpenCL device (cl_device_id) with the platform it came from.
type Device struct {
	id       uintptr
	platform Platform
}

// Platform returns the platform the device belongs to.
func (d Device) Platform() Platform { return d.platform }

func (d Device) raw(param uint32) []byte {
	l, err := lib()
	if err != nil {
		return nil
	}
	b, err := info("clGetDeviceInfo", l.GetDeviceInfo, d.id, param)
	if err != nil {
		return nil
	}
	return b
}

// Name returns CL_DEVICE_NAME.
func (d Device) Name() string { return cString(d.raw(deviceName)) }

// Vendor returns CL_DEVICE_VENDOR.
func (d Device) Vendor() string { return cString(d.raw(deviceVendor)) }

// Version returns CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA".
func (d Device) Version() string { return cString(d.raw(deviceVersion)) }

// DriverVersion returns CL_DRIVER_VERSION.
func (d Device) DriverVersion() string { return cString(d.raw(driverVersion)) }

// Extensions returns CL_DEVICE_EXTENSIONS, a space-separated list.
func (d Device) Extensions() string { return cString(d.raw(deviceExtensions)) }

// Type returns CL_DEVICE_TYPE.
func (d Device) Type() DeviceType { return DeviceType(uintInfo(d.raw(deviceType))) }

// MaxComputeUnits returns CL_DEVICE_MAX_COMPUTE_UNITS (multiprocessors on a
// GPU, hardware threads on a CPU).
func (d Device) MaxComputeUnits() int { return int(uintInfo(d.raw(deviceMaxComputeUnits))) }

// MaxWorkGroupSize returns CL_DEVICE_MAX_WORK_GROUP_SIZE.
func (d Device) MaxWorkGroupSize() int { return int(uintInfo(d.raw(deviceMaxWorkGroupSize))) }

// MaxClockFrequency returns CL_DEVICE_MAX_CLOCK_FREQUENCY in MHz.
func (d Device) MaxClockFrequency() int { return int(uintInfo(d.raw(deviceMaxClockFrequency))) }

// GlobalMemSize returns CL_DEVICE_GLOBAL_MEM_SIZE in bytes.
func (d Device) GlobalMemSize() int64 { return int64(uintInfo(d.raw(deviceGlobalMemSize))) }

// MaxMemAllocSize returns CL_DEVICE_MAX_MEM_ALLOC_SIZE in bytes.
func (d Device) MaxMemAllocSize() int64 { return int64(uintInfo(d.raw(deviceMaxMemAllocSize))) }

// LocalMemSize returns CL_DEVICE_LOCAL_MEM_SIZE in bytes.
func (d Device) LocalMemSize() int64 { return int64(uintInfo(d.raw(deviceLocalMemSize))) }

// ProfilingTimerResolution returns CL_DEVICE_PROFILING_TIMER_RESOLUTION in
// nanoseconds.
func (d Device) ProfilingTimerResolution() int {
	return int(uintInfo(d.raw(deviceProfilingTimerResolute)))
}

// HasExtension reports whether the device lists the extension name.
func (d Device) HasExtension(name string) bool {
	for _, e := range strings.Fields(d.Extensions()) {
		if e == name {
			return true
		}
	}
	return false
}

// HasFP64 reports whether the device supports double precision
// (cl_khr_fp64).
func (d Device) HasFP64() bool { return d.HasExtension("cl_khr_fp64") }

// String returns "name (platform)".
func (d Device) String() string { return fmt.Sprintf("%s (%s)", d.Name(), d.platform.Name()) }
