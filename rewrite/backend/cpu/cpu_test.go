package cpu

// The cpu backend on one spec per lowered form (testdata/forms): the
// form of each kernel, the refusal of a sequence with its reason, and
// the code of each spec against its golden file beside the input
// (go test -update rewrites them).

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/fixture"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestForms(t *testing.T) {
	specs := fixture.Load(t, "./testdata/forms")
	for _, tc := range []struct {
		name    string
		form    lowered.Form
		refusal string // a part of the reason, "" when rendered
		code    string // a part of the generated code
	}{
		{"Loop", lowered.Loop, "", "for "},
		{"Chunked", lowered.Chunked, "", "soac.ChunkSize"},
		{"Then", lowered.ChunkedThen, "", "soac.ChunkSize"},
		{"Call", lowered.Call, "", "soac.StreamRed["},
		{"Beside", lowered.Sequence, "its members do not run as one loop: Reduce at forms.go:", "soac.Reduce["},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := specs[tc.name]
			if s == nil {
				t.Fatalf("no spec %s", tc.name)
			}
			r := s.Render(t, Backend{})
			if len(r.Kernels) != 1 {
				t.Fatalf("%d kernels, want 1", len(r.Kernels))
			}
			k := r.Kernels[0]
			if k.Lowered.Form != tc.form {
				t.Errorf("form %s, want %s", k.Lowered.Form, tc.form)
			}
			if tc.refusal == "" && k.Refusal != "" {
				t.Errorf("refused: %s", k.Refusal)
			}
			if tc.refusal != "" && !strings.Contains(k.Refusal, tc.refusal) {
				t.Errorf("refusal %q, want one containing %q", k.Refusal, tc.refusal)
			}
			if !strings.Contains(r.Code, tc.code) {
				t.Errorf("code has no %q:\n%s", tc.code, r.Code)
			}
			golden := filepath.Join("testdata", "forms", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(r.Code+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got := r.Code + "\n"; got != string(want) {
				t.Errorf("code differs from %s (go test -update to accept):\n%s", golden, got)
			}
		})
	}
}
