package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// One convention for every command that reads notebooks, each checked
// over all of them: a missing or unreadable file is exit 2, named (as
// git quotes names) with the reason and no summary; a file that is not
// a notebook is "PATH:line:col: reason" — a finding (1) where the
// command reports on files among others (check, fmt, strip), exit 2
// where the command cannot do its work without it (show, md, merge,
// diff, fix); standard input is <stdin> in every message; a file that
// changed while processing is left alone with exit 1.

// fileCommands are the commands over notebook files, each as a function
// of the path it is given (merge: as THEIRS; diff: as B), with the exit
// status for a file that is not a notebook.
var fileCommands = []struct {
	name     string
	args     func(p string) []string
	notebook int // exit status when p is not a notebook
}{
	{"check", func(p string) []string { return []string{"check", p} }, exitFindings},
	{"fmt", func(p string) []string { return []string{"fmt", p} }, exitFindings},
	{"fmt --check", func(p string) []string { return []string{"fmt", "--check", p} }, exitFindings},
	{"strip", func(p string) []string { return []string{"strip", p} }, exitFindings},
	{"strip -t", func(p string) []string { return []string{"strip", "-t", p} }, exitFindings},
	{"show", func(p string) []string { return []string{"show", p} }, exitError},
	{"md", func(p string) []string { return []string{"md", p} }, exitError},
	{"merge", func(p string) []string { return []string{"merge", "-o", "-", "a.ipynb", "a.ipynb", p} }, exitError},
	{"diff", func(p string) []string { return []string{"diff", "a.ipynb", p} }, exitError},
	{"fix", func(p string) []string { return []string{"fix", p} }, exitError},
}

func TestConventionsEveryCommand(t *testing.T) {
	t.Parallel()
	dir := work(t, "jupyter.ipynb")
	os.Rename(filepath.Join(dir, "jupyter.ipynb"), filepath.Join(dir, "a.ipynb"))
	bad := []byte("{\"nbformat\": 4,\n \"cells\": [oops]}\n")
	const weird = "new\nline \"q\".ipynb"
	for _, n := range []string{"bad.ipynb", weird} {
		os.WriteFile(filepath.Join(dir, n), bad, 0o644)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.ipynb"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range fileCommands {
		t.Run(c.name, func(t *testing.T) {
			// Missing: exit 2, the name and why, no summary.
			r := ipynb(t, dir, "", c.args("missing.ipynb")...)
			if r.code != exitError || !strings.Contains(r.stderr, "missing.ipynb: no such file or directory\n") || strings.Contains(r.stdout, " same, ") {
				t.Errorf("missing file: %+v", r)
			}
			// Unreadable (a named pipe no one writes): exit 2.
			r = ipynb(t, dir, "", c.args("fifo.ipynb")...)
			if r.code != exitError || !strings.Contains(r.stderr, "fifo.ipynb: nothing to read") {
				t.Errorf("unreadable file: %+v", r)
			}
			// Not a notebook: PATH:line:col, the command's status.
			out := func(r result) string { return r.stdout + r.stderr }
			r = ipynb(t, dir, "", c.args("bad.ipynb")...)
			if r.code != c.notebook || !strings.Contains(out(r), "bad.ipynb:2:12: ") {
				t.Errorf("not a notebook: exit %d, want %d: %+v", r.code, c.notebook, r)
			}
			// A name quoted as git quotes it, in the same place.
			r = ipynb(t, dir, "", c.args(weird)...)
			if r.code != c.notebook || !strings.Contains(out(r), `"new\nline \"q\".ipynb":2:12: `) {
				t.Errorf("quoted name: %+v", r)
			}
			// Standard input is <stdin>.
			r = ipynb(t, dir, string(bad), c.args("-")...)
			if r.code != c.notebook || !strings.Contains(out(r), "<stdin>:2:12: ") || strings.Contains(out(r), "-:2") {
				t.Errorf("standard input: %+v", r)
			}
		})
	}
}

// A file changed between its reading and its replacement is left alone,
// exit 1, by every command that rewrites files.
func TestConventionChangedWhileProcessing(t *testing.T) {
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	lines := strings.SplitAfter(string(base), "\n")
	conflicted := strings.Join(lines[:101], "") + "<<<<<<< HEAD\n    \"plot(1)\"\n=======\n    \"plot(1)\"\n>>>>>>> topic\n" + strings.Join(lines[102:], "")
	dir := t.TempDir()
	p := filepath.Join(dir, "nb.ipynb")
	os.WriteFile(filepath.Join(dir, "base.ipynb"), base, 0o644)
	os.WriteFile(filepath.Join(dir, "theirs.ipynb"), replaceOnce(t, base, `"1+1"`, `"1+2"`), 0o644)
	const meanwhile = "changed meanwhile"
	beforeReplace = func(string) { os.WriteFile(p, []byte(meanwhile), 0o644) }
	defer func() { beforeReplace = nil }()
	for _, tc := range []struct {
		args []string
		file []byte
	}{
		{[]string{"fmt", p}, bytes.ReplaceAll(base, []byte("\n "), []byte("\n   "))},
		{[]string{"strip", p}, base},
		{[]string{"fix", p}, []byte(conflicted)},
		{[]string{"merge", filepath.Join(dir, "base.ipynb"), p, filepath.Join(dir, "theirs.ipynb")}, base},
	} {
		os.WriteFile(p, tc.file, 0o644)
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
		if code := run(e, tc.args); code != exitFindings || !strings.Contains(errb.String(), "nb.ipynb: changed while processing") {
			t.Errorf("%s: exit %d, want 1: %s", tc.args[0], code, errb.String())
		}
		if got, _ := os.ReadFile(p); string(got) != meanwhile {
			t.Errorf("%s: the change made meanwhile was overwritten", tc.args[0])
		}
	}
}
