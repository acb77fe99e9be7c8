package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runWith runs the command in process with stdin, without changing
// folder (every path given is absolute).
func runWith(stdin string, args ...string) result {
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}
	code := run(e, args)
	return result{out.String(), errb.String(), code}
}

// Standard input whose first bytes are not JSON is read only as far as
// them (so that /dev/zero or a large stream is refused at once); what it
// holds is still a notebook that does not parse, reported as a file's is:
// "<stdin>:LINE:COLUMN: why" (it was "<stdin>: 1:1: why"), a finding of
// check, fmt and strip (exit 1, as for the same bytes in a file; it was
// 2, an input that cannot be read), exit 2 for the commands that need a
// notebook. The place is hand-derived: '#' is the first byte.
func TestStdinNotJSONIsReportedAsAFile(t *testing.T) {
	const input = "# not a notebook\n"
	const why = "1:1: invalid character '#', expecting a value"
	file := filepath.Join(t.TempDir(), "x.ipynb")
	if err := os.WriteFile(file, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"check", "-"}, exitFindings},
		{[]string{"fmt", "-"}, exitFindings},
		{[]string{"fmt", "--check", "-"}, exitFindings},
		{[]string{"strip", "-"}, exitFindings},
		{[]string{"strip", "-t", "-"}, exitFindings},
		{[]string{"strip", "--verify", "-"}, exitFindings},
		{[]string{"diff", "-", file}, exitError},
		{[]string{"merge", "-o", "-", file, "-", file}, exitError},
		{[]string{"fix", "-"}, exitError},
		{[]string{"show", "-"}, exitError},
	} {
		r := runWith(input, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, "<stdin>:"+why) {
			t.Errorf("%s: exit %d, want %d and <stdin>:%s\nstdout: %s\nstderr: %s", strings.Join(tc.args, " "), r.code, tc.code, why, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "<stdin>: 1:1") {
			t.Errorf("%s: the place is not written PATH:LINE:COLUMN:\n%s%s", strings.Join(tc.args, " "), r.stdout, r.stderr)
		}
	}
	// The same bytes in a file: the same status for check, fmt and strip.
	for _, cmd := range []string{"check", "fmt", "strip"} {
		if r := runWith("", cmd, file); r.code != exitFindings || !strings.Contains(r.stdout+r.stderr, file+":"+why) {
			t.Errorf("%s FILE: exit %d\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
	}
}
