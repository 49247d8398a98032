package lanes

import "testing"

func TestChoose(t *testing.T) {
	for _, c := range []struct {
		avx2, avx512 bool
		env          string
		want         int
	}{
		{false, false, "", Scalar},
		{true, false, "", AVX2},
		{true, true, "", AVX512},
		{true, true, "avx2", AVX2},
		{false, false, "avx2", Scalar},
		{true, true, "off", Scalar},
		{true, true, "scalar", Scalar},
		{true, false, "avx512", AVX2},
		{true, true, "anything", AVX512},
	} {
		if got := Choose(c.avx2, c.avx512, c.env); got != c.want {
			t.Errorf("Choose(%v, %v, %q) = %d, want %d", c.avx2, c.avx512, c.env, got, c.want)
		}
	}
}

// TestWidthUnits checks Width against the units this build can use: none
// without the experiment.
func TestWidthUnits(t *testing.T) {
	if !hasAVX2 && Width != Scalar {
		t.Errorf("Width = %d on a build or CPU without AVX2", Width)
	}
	if hasAVX512 && !hasAVX2 {
		t.Error("AVX-512 reported without AVX2")
	}
}
