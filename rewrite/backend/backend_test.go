package backend

import (
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// TestChain checks each asked backend's chain: every chain ends with
// cpu, and an unknown or empty name asks for cpu.
func TestChain(t *testing.T) {
	for b, want := range map[string]string{
		"": "cpu", CPU: "cpu", Parallel: "parallel cpu", OpenCL: "opencl parallel cpu", Auto: "opencl parallel cpu",
	} {
		if got := strings.Join(Chain(b), " "); got != want {
			t.Errorf("Chain(%q) = %s, want %s", b, got, want)
		}
	}
}

// TestNames checks that the backends of the chains are the directive's
// names (ir.Backends) and that auto is no backend of its own: it asks
// for opencl's chain, whose code chooses at run time.
func TestNames(t *testing.T) {
	for _, b := range ir.Backends {
		for _, name := range Chain(b) {
			if !slices.Contains(ir.Backends, name) || name == Auto {
				t.Errorf("Chain(%q) holds %q", b, name)
			}
		}
	}
	if slices.Contains(ir.Backends, Reference) {
		t.Errorf("%q is a backend name", Reference)
	}
}

// TestHostOnly checks the part of a Spec that a backend keeping every
// array in Go memory embeds: it adds no statements.
func TestHostOnly(t *testing.T) {
	var h HostOnly
	if len(h.HostInputs(nil)) != 0 || len(h.Prologue()) != 0 {
		t.Error("HostOnly adds statements")
	}
	h.Generated(nil)
}
