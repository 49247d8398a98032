// Package golangci registers the soacvet analyzer as a golangci-lint v2
// module plugin (the github.com/golangci/plugin-module-register way), so
// that a team that runs its analyzers through golangci-lint gets soacvet's
// findings there: unfused pipelines, blocked fusions, misuses of
// runtime/soac, stale generated code and kernels that fall back from the
// backend their spec asked for (see analyzer/soacvet).
//
// It does not run anything itself and holds no analysis: golangci-lint
// drives the analyzer. A custom golangci-lint binary with the plugin is
// built by golangci-lint custom from a .custom-gcl.yml naming this
// package:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/soacgen/soacgen
//	    import: github.com/soacgen/soacgen/cmd/soacvet/golangci
//	    version: latest
//
// and the linter is enabled in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable: [soacvet]
//	  settings:
//	    custom:
//	      soacvet:
//	        type: module
//	        description: SOAC fusion findings (soacvet)
//	        settings:
//	          categories: [unfused, blocked, stale]
//
// # Settings
//
//	categories: list of soacvet categories to report (default: all of
//	            them), as soacvet's -categories flag
//	fuse-gas:   stop the fusion engine after N fusions per function
//	            (default 0: no limit), as soacvet's -fuse.gas flag
//
// Unknown settings and unknown category names are errors, which
// golangci-lint reports when it starts.
//
// golangci-lint drops findings in generated files by default
// (linters.exclusions.generated: lax): soacvet reports stale code at the
// spec's //soac:fuse directive, which is not in a generated file, except
// for a generated file that no spec generates any more, reported at that
// file's package clause and so dropped by that default.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): registers soacvet
// (stale.Vet) as a golangci-lint v2 module plugin.
package golangci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/soacvet"
	"github.com/soacgen/soacgen/rewrite/stale"
)

// Name is the linter's name in .golangci.yml (linters.enable and
// linters.settings.custom).
const Name = "soacvet"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings
// (linters.settings.custom.soacvet.settings in .golangci.yml).
type Settings struct {
	// Categories lists the soacvet categories to report; empty means all.
	Categories []string `json:"categories"`
	// FuseGas stops the fusion engine after that many fusions per
	// function; 0 means no limit.
	FuseGas int `json:"fuse-gas"`
}

// plugin is the register.LinterPlugin of soacvet.
type plugin struct {
	settings Settings
}

// New decodes the plugin's settings (nil when .golangci.yml gives none) and
// returns the plugin. It rejects unknown settings, unknown categories and
// a negative fuse-gas.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, err
	}
	if s.FuseGas < 0 {
		return nil, fmt.Errorf("fuse-gas is %d; want 0 (no limit) or more", s.FuseGas)
	}
	// Validate now, so that a typo fails at start-up, not when the
	// analyzers are built.
	if err := soacvet.Analyzer.Flags.Lookup("categories").Value.Set(strings.Join(s.Categories, ",")); err != nil {
		return nil, err
	}
	return &plugin{settings: s}, nil
}

// BuildAnalyzers sets the analyzer's flags from the settings and returns
// the analyzers golangci-lint runs.
//
// The flags are package state of analyzer/soacvet, as the flags of every
// go/analysis analyzer are: one golangci-lint process has one soacvet
// configuration.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	flags := soacvet.Analyzer.Flags
	if err := flags.Set("categories", strings.Join(p.settings.Categories, ",")); err != nil {
		return nil, err
	}
	if err := flags.Set("fuse.gas", strconv.Itoa(p.settings.FuseGas)); err != nil {
		return nil, err
	}
	// soacvet's analyzer and the stale analyzer (package rewrite/stale),
	// as one analyzer named soacvet, as cmd/soacvet runs them.
	return []*analysis.Analyzer{stale.Vet}, nil
}

// GetLoadMode reports that soacvet needs type information: it builds its
// IR from the typed syntax of every function that calls runtime/soac.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
