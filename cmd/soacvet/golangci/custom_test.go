package golangci_test

// This file builds a custom golangci-lint with the soacvet plugin, the way
// `golangci-lint custom` does, and lints a sample module with it.
//
// golangci-lint custom clones golangci-lint from GitHub (git clone
// https://github.com/golangci/golangci-lint.git at the configured
// version); it has no option to build from elsewhere. Where only the Go
// module proxy is reachable, the test still runs the real
// `golangci-lint custom`: it makes a local git repository of the
// golangci-lint module from the module cache, tagged with the version, and
// points git at it (url.<local>.insteadOf, passed in GIT_CONFIG_* variables,
// which custom hands on to git). Everything after the clone (writing the
// plugin import, the replace directive, go mod tidy, go build) is custom's
// own.
//
// The plain golangci-lint that runs custom, and the local repository, are
// cached under the user cache directory, keyed by the golangci-lint version
// and the Go version; the custom build itself reuses the Go build cache, so
// only the first run compiles golangci-lint (minutes); later runs take
// about 20 seconds.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

const (
	// gclModule and gclVersion are the golangci-lint release the plugin is
	// built into: the version of the documented .custom-gcl.yml.
	gclModule  = "github.com/golangci/golangci-lint/v2"
	gclVersion = "v2.15.0"
	// gclRepo is the repository golangci-lint custom clones.
	gclRepo = "https://github.com/golangci/golangci-lint.git"
)

// command runs name with args in dir, with env added to the environment,
// and returns its exit status and combined output. It fails the test when
// the command cannot start.
func command(t *testing.T, dir string, env []string, name string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String()
	}
	t.Fatalf("%s: %v", cmd, err)
	return 0, ""
}

// must runs a command that has to succeed and returns its output.
func must(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	code, out := command(t, dir, env, name, args...)
	if code != 0 {
		t.Fatalf("%s %s (in %s): exit %d\n%s", name, strings.Join(args, " "), dir, code, out)
	}
	return out
}

// unavailable skips the test when golangci-lint cannot be had (no module
// proxy), except in CI (CI set), where the test must run.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + " (CI=true makes this a failure)")
}

// golangciLint returns the plain golangci-lint binary of gclVersion and a
// local git repository of its source tagged gclVersion, building both from
// the Go module proxy on first use and caching them in a directory keyed
// by the golangci-lint and Go versions and the platform.
func golangciLint(t *testing.T) (bin, repo string) {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	goVersion := strings.TrimSpace(must(t, "", nil, "go", "env", "GOVERSION"))
	key := strings.Join([]string{gclVersion, goVersion, runtime.GOOS, runtime.GOARCH}, "-")
	dir := filepath.Join(cache, "soacgen-test", "golangci-lint", key)
	bin, repo = filepath.Join(dir, "golangci-lint"), filepath.Join(dir, "src")
	if _, err := os.Stat(filepath.Join(dir, "complete")); err == nil {
		return bin, repo
	}

	// Build into a fresh directory and rename it into place, so that a
	// concurrent or interrupted run never sees half a cache entry.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), key+".tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	t.Logf("building golangci-lint %s into %s (first run only)", gclVersion, dir)
	code, out := command(t, "", build, "go", "mod", "download", "-json", gclModule+"@"+gclVersion)
	if code != 0 {
		unavailable(t, "cannot download %s@%s from the module proxy: %s", gclModule, gclVersion, out)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal([]byte(out), &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download -json: %v\n%s", err, out)
	}
	code, out = command(t, "", append([]string{"GOBIN=" + tmp}, build...), "go", "install", gclModule+"/cmd/golangci-lint@"+gclVersion)
	if code != 0 {
		unavailable(t, "cannot build golangci-lint %s from the module proxy: %s", gclVersion, out)
	}
	src := filepath.Join(tmp, "src")
	if err := os.CopyFS(src, os.DirFS(mod.Dir)); err != nil {
		t.Fatal(err)
	}
	git := []string{"-c", "user.name=soacgen test", "-c", "user.email=test@soacgen.invalid", "-c", "commit.gpgsign=false"}
	must(t, src, nil, "git", "init", "-q")
	must(t, src, nil, "git", "add", "-A")
	must(t, src, nil, "git", append(git, "commit", "-q", "-m", gclModule+" "+gclVersion+" from the Go module proxy")...)
	must(t, src, nil, "git", "tag", gclVersion)
	if err := os.WriteFile(filepath.Join(tmp, "complete"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "complete")); statErr != nil {
			t.Fatalf("caching golangci-lint: %v", err)
		}
		// Another run cached it first.
	}
	return bin, repo
}

// customConfig returns the documented .custom-gcl.yml with the soacgen
// plugin taken from the repository at root (path:) instead of the module
// proxy (version:), and the binary written to dest.
func customConfig(t *testing.T, root, dest string) string {
	t.Helper()
	b, err := os.ReadFile(".custom-gcl.yml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(b)
	for _, r := range [][2]string{
		{"\nversion: " + gclVersion + "\n", "\nversion: " + gclVersion + "\ndestination: " + strconv.Quote(dest) + "\n"},
		{"\n    version: latest\n", "\n    path: " + strconv.Quote(root) + "\n"},
	} {
		if strings.Count(cfg, r[0]) != 1 {
			t.Fatalf(".custom-gcl.yml has not exactly one %q:\n%s", r[0], cfg)
		}
		cfg = strings.Replace(cfg, r[0], r[1], 1)
	}
	return cfg
}

// buildCustom runs golangci-lint custom with the documented .custom-gcl.yml
// (the plugin from the repository at root), cloning golangci-lint from the
// local repository repo, and returns the custom binary.
func buildCustom(t *testing.T, gcl, repo, root string) string {
	t.Helper()
	dir := t.TempDir()
	dest := filepath.Join(dir, "bin")
	if err := os.WriteFile(filepath.Join(dir, ".custom-gcl.yml"), []byte(customConfig(t, root, dest)), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	if c := os.Getenv("GIT_CONFIG_COUNT"); c != "" {
		n, _ = strconv.Atoi(c)
	}
	env := append([]string{
		"GIT_CONFIG_COUNT=" + strconv.Itoa(n+1),
		"GIT_CONFIG_KEY_" + strconv.Itoa(n) + "=url.file://" + filepath.ToSlash(repo) + ".insteadOf",
		"GIT_CONFIG_VALUE_" + strconv.Itoa(n) + "=" + gclRepo,
	}, build...)
	if code, out := command(t, dir, env, gcl, "custom", "-v"); code != 0 {
		t.Fatalf("golangci-lint custom: exit %d\n%s", code, out)
	}
	return filepath.Join(dest, "custom-gcl")
}

// sampleModule copies testdata/sample into a module that uses the
// repository at root, generates its specs with soacgen, and then edits the
// spec of stale.go, so that its generated code is out of date.
func sampleModule(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "sample"))); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/sample\n\ngo 1.26.0\n\nrequire github.com/soacgen/soacgen v0.0.0\n\nreplace github.com/soacgen/soacgen => " + root + "\n"
	writeFile(t, filepath.Join(dir, "go.mod"), gomod)
	// soacgen's dependencies, as the repository pins them (the checksum
	// database need not be reachable).
	writeFile(t, filepath.Join(dir, "go.sum"), readFile(t, filepath.Join(root, "go.sum")))
	must(t, dir, offline, "go", "run", "github.com/soacgen/soacgen/cmd/soacgen", "./...")
	path := filepath.Join(dir, "p", "stale.go")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const old, new = "return x * k", "return k * x"
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("stale.go has no %q", old)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// build is the environment of the go commands that build golangci-lint:
// the module proxy as configured, no workspace, and no GOFLAGS of the
// caller's (go install pkg@version rejects -mod, for one).
var build = []string{"GOWORK=off", "GOFLAGS=-buildvcs=false"}

// offline is the environment of commands that must not need the network.
var offline = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"}

// lint runs the custom golangci-lint on the module dir with the
// configuration file config (relative to dir) and returns its exit status,
// its findings as "file:line:col: linter: text" sorted, and its output.
func lint(t *testing.T, bin, dir, config string) (int, []string, string) {
	t.Helper()
	env := append([]string{"GOLANGCI_LINT_CACHE=" + t.TempDir()}, offline...)
	cmd := exec.Command(bin, "run", "--config="+config, "--output.json.path=stdout", "--show-stats=false", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	var found []string
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("golangci-lint JSON output: %v\n%s\n%s", err, stdout.String(), stderr.String())
		}
	}
	for _, is := range rep.Issues {
		found = append(found, fmt.Sprintf("%s:%d:%d: %s: %s", filepath.ToSlash(is.Pos.Filename), is.Pos.Line, is.Pos.Column, is.FromLinter, is.Text))
	}
	slices.Sort(found)
	return code, found, stdout.String() + stderr.String()
}

// TestGolangciLintPlugin builds a golangci-lint with the soacvet plugin
// through golangci-lint custom and the documented .custom-gcl.yml, runs it
// on the sample module and checks its findings: exactly one unfused
// pipeline, one blocked fusion, one stale generated function and one
// kernel that falls back from the backend its spec asked for, with
// nothing reported for the fused, up-to-date spec and the single SOAC of
// clean.go; then the same with the plugin's settings (categories), and a
// configuration error.
func TestGolangciLintPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint (minutes on the first run)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		unavailable(t, "golangci-lint custom needs git: %v", err)
	}
	root, err := filepath.Abs(testkit.RepoRoot())
	if err != nil {
		t.Fatal(err)
	}
	gcl, repo := golangciLint(t)
	custom := buildCustom(t, gcl, repo, root)
	mod := sampleModule(t, root)

	unfused := "p/unfused.go:15:9: soacvet: pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass"
	blocked := "p/blocked.go:11:2: soacvet: ys (Map@blocked.go:10:8) not fused into Reduce@blocked.go:12:9: xs, read by Map@blocked.go:10:8, may be written through xs at blocked.go:11:2 before the kernel runs [write-between]"
	stale := "p/stale.go:8:1: soacvet: stale: Scaled in stale_soac.go is out of date with scaledSpec; run go generate"
	fallback := "p/fallback.go:14:9: soacvet: fallback: kernel 1 of Lengths (Map): asked for opencl, runs parallel: backend opencl does not generate this kernel: the lambda of Map at fallback.go:14:9 is not translated to OpenCL C: call of strings.Repeat at fallback.go:14:51: its source is not available to translate (not a translatable math function, and not declared in a package loaded with syntax); it falls back to parallel"

	code, found, out := lint(t, custom, mod, ".golangci.yml")
	if want := []string{blocked, fallback, stale, unfused}; code != 1 || !slices.Equal(found, want) {
		t.Errorf("custom-gcl run: exit %d, findings\n\t%s\nwant exit 1 and\n\t%s\noutput:\n%s", code, strings.Join(found, "\n\t"), strings.Join(want, "\n\t"), out)
	}

	// The plugin's settings reach the analyzer.
	only := strings.Replace(readFile(t, filepath.Join(mod, ".golangci.yml")), "        description:", "        settings:\n          categories: [stale, size]\n        description:", 1)
	writeFile(t, filepath.Join(mod, "stale.yml"), only)
	code, found, out = lint(t, custom, mod, "stale.yml")
	if want := []string{stale}; code != 1 || !slices.Equal(found, want) {
		t.Errorf("categories [stale, size]: exit %d, findings\n\t%s\nwant exit 1 and\n\t%s\noutput:\n%s", code, strings.Join(found, "\n\t"), strings.Join(want, "\n\t"), out)
	}

	// A bad setting stops golangci-lint with the plugin's error.
	writeFile(t, filepath.Join(mod, "bad.yml"), strings.Replace(only, "[stale, size]", "[stale, sise]", 1))
	code, found, out = lint(t, custom, mod, "bad.yml")
	if code == 0 || code == 1 || len(found) > 0 || !strings.Contains(out, `unknown category "sise"`) {
		t.Errorf("categories [stale, sise]: exit %d, findings %q; want a configuration error naming \"sise\"; output:\n%s", code, found, out)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
