// Tests that count the whole program's work, run in a process of their own.
package main

import (
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// isolatedEnv names, in a child test process that isolated starts, the one
// test it runs; isolatedBinaryEnv hands it the parent's ipynb binary.
const (
	isolatedEnv       = "IPYNB_TEST_ISOLATED"
	isolatedBinaryEnv = "IPYNB_TEST_BINARY"
)

// isolatedChild reports whether this test process is a child that
// isolated started. TestMain then reuses the parent's binary and builds
// nothing.
func isolatedChild() bool { return os.Getenv(isolatedEnv) != "" }

// errIsolatedWeb is what buildWeb reports in an isolated child, which
// does not build ipynb-web.
var errIsolatedWeb = errors.New("ipynb-web is not built in an isolated test process")

// isolated lets a test that counts the whole program's work (textdiff.Work,
// allocations, peak memory) run beside the parallel tests: in the test
// process, it marks t parallel, runs the same test alone in a child test
// process (the test binary itself, where no other test adds to the
// counts), fails t with the child's output if the child fails, and
// reports true, so the caller returns. In the child, it reports false and
// the caller runs its body.
//
//	if isolated(t) {
//		return
//	}
func isolated(t *testing.T) bool {
	t.Helper()
	if os.Getenv(isolatedEnv) == t.Name() {
		return false
	}
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), isolatedEnv+"="+t.Name(), isolatedBinaryEnv+"="+binary)
	out, err := cmd.CombinedOutput()
	ran := strings.Contains(string(out), "--- PASS: "+t.Name()+" ") || strings.Contains(string(out), "--- SKIP: "+t.Name()+" ")
	if err != nil || !ran {
		t.Fatalf("%s in a process of its own: %v\n%s", t.Name(), err, out)
	}
	if testing.Verbose() {
		t.Logf("in a process of its own:\n%s", out)
	}
	return true
}
