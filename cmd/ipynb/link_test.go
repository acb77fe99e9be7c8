package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The command links neither package net nor cgo: with cgo, the program is
// linked against the C library, whose pages add about 1.5 MB to the peak
// resident memory of every run (measured on `ipynb check` of a 10 MB
// notebook: 20.0 → 18.4 MB, against the target of twice the file). A
// dependency that brings them back (github.com/google/uuid imports net)
// fails this test. The list comes from the go command itself, with cgo on.
func TestCommandLinksNoCgo(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies")
	}
	cmd := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}}", ".")
	cmd.Env = append(toolEnv, "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "os") {
		t.Fatalf("go list gave no dependencies we know: %q", out)
	}
	for _, p := range []string{"runtime/cgo", "net"} {
		if slices.Contains(deps, p) {
			t.Errorf("the ipynb command links %s", p)
		}
	}
}
