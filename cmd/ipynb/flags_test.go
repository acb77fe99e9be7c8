package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "--" ends the flags (POSIX utility syntax guideline 10, as the flag
// package and every Unix tool read it): a notebook whose name begins with
// a dash is a path after it, for every command, and "--json" after it is
// a path too. Flags after the paths still work.
func TestDoubleDashEndsFlags(t *testing.T) {
	t.Parallel()
	dir := work(t, "jupyter.ipynb")
	src, err := os.ReadFile(filepath.Join(dir, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	const name = "-x.ipynb"
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string // in standard output
	}{
		{[]string{"check", "--", name}, 0, "same -x.ipynb\n"},
		{[]string{"check", "--json", "--", name}, 0, `{"path":"-x.ipynb","status":"same"}`},
		{[]string{"check", "jupyter.ipynb", "--json", "--", name}, 0, `{"path":"-x.ipynb","status":"same"}`},
		{[]string{"fmt", "--check", "--", name}, 0, ""},
		{[]string{"strip", "--verify", "--", name}, 1, "-x.ipynb\n"},
		{[]string{"strip", "-t", "--", name}, 0, `"outputs": []`},
		{[]string{"show", "--", name}, 0, "-x\n"},
		{[]string{"md", "--", name}, 0, "```python"},
	} {
		r := ipynb(t, dir, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout, tc.out) {
			t.Errorf("ipynb %s: exit %d, want %d, and stdout with %q:\n%s%s", strings.Join(tc.args, " "), r.code, tc.code, tc.out, r.stdout, r.stderr)
		}
	}
	// After "--", a flag's spelling is a path.
	r := ipynb(t, dir, "", "check", "--", "--json")
	if r.code != exitError || !strings.Contains(r.stderr, "--json: no such file or directory") {
		t.Errorf("check -- --json: %+v", r)
	}
}

// Standard input can be read once: "-" named twice (on the command line
// or in a --files-from list) is a usage error, not a notebook read as
// empty and reported as broken.
func TestStdinNamedOnce(t *testing.T) {
	t.Parallel()
	nb, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "list")
	os.WriteFile(list, []byte("-\n-\n"), 0o644)
	for _, args := range [][]string{
		{"check", "-", "-"},
		{"check", "--files-from", list},
		{"fmt", "--check", "-", "-"},
		{"strip", "--verify", "-", "-"},
		{"strip", "-t", "-", "-"},
	} {
		r := ipynb(t, shipped, string(nb), args...)
		if r.code != exitError || !strings.Contains(r.stderr, "standard input) is named 2 times") || r.stdout != "" {
			t.Errorf("ipynb %s: %+v", strings.Join(args, " "), r)
		}
	}
}
