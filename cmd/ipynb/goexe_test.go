package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goEnv returns go env's values of names.
func goEnv(t *testing.T, names ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"env"}, names...)...)
	cmd.Env = toolEnv // the caches of the user who runs the tests, not of the tests' HOME
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// install refuses a program "go run" built, from its temporary folder
// and once Go has cached it (Go ≥ 1.24 keeps the linked program in the
// build cache: a second go run runs it from there), with real go run
// builds of ipynb; and a program in the cache's layout, or anywhere
// under GOCACHE. The message names "go install ./cmd/ipynb" (the module
// is not published: no @latest), and nothing is written.
func TestGitInstallRefusesGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ipynb with go run")
	}
	t.Parallel()
	env := goEnv(t, "GOCACHE", "GOMODCACHE", "GOPATH")
	needGit(t) // a temporary HOME: --global writes there
	goEnvs := append(testEnv(t), "GOCACHE="+env[0], "GOMODCACHE="+env[1], "GOPATH="+env[2])
	refused := func(t *testing.T, out []byte, err error, code int) string {
		t.Helper()
		ee, ok := err.(*exec.ExitError)
		msg := string(out)
		if !ok || ee.ExitCode() != code || !strings.Contains(msg, "go install ./cmd/ipynb") || strings.Contains(msg, "@latest") {
			t.Errorf("install from a go run build: %v\n%s", err, out)
		}
		if _, err := os.Stat(filepath.Join(testHome(t), ".gitconfig")); err == nil {
			t.Errorf("a refused install wrote ~/.gitconfig")
		}
		return msg
	}
	// Real go run builds: the first may be linked into a temporary
	// folder, the next run from the cache.
	var msgs string
	for range 2 {
		cmd := exec.Command("go", "run", "./cmd/ipynb", "git", "install", "--global")
		cmd.Dir = "../.."
		cmd.Env = goEnvs
		out, err := cmd.CombinedOutput()
		msgs += refused(t, out, err, 1) // go run's status; it says the program's
		if !strings.Contains(string(out), "exit status 2") {
			t.Errorf("go run: the program did not exit 2:\n%s", out)
		}
	}
	if !strings.Contains(msgs, "in Go's build cache") {
		t.Errorf("no go run was from the build cache:\n%s", msgs)
	}

	// A program in the cache's layout (GOCACHE/XX/XX…-d/NAME), and one
	// elsewhere under GOCACHE.
	cache := t.TempDir()
	hash := "ab" + strings.Repeat("0123456789abcdef", 4)[:62]
	for _, p := range []string{
		filepath.Join(cache, hash[:2], hash+"-d", "ipynb"),
		filepath.Join(cache, "tools", "ipynb"),
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		copyFile(t, binary, p)
		cmd := exec.Command(p, "git", "install", "--global")
		cmd.Env = append(testEnv(t), "GOCACHE="+cache)
		out, err := cmd.CombinedOutput()
		refused(t, out, err, exitError)
	}
	// A program built elsewhere is not refused.
	if where := goBuildCache(binary); where != "" {
		t.Errorf("the test's own build %s taken for a go run build (%s)", binary, where)
	}
	if !bytes.Contains([]byte(gitCmd.doc), []byte("go install ./cmd/ipynb")) {
		t.Error("the help does not say how to install")
	}
}
