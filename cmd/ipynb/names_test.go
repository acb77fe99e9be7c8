package main

// Tests that hostile file names are printed one a line and never drive the
// terminal, and that --files-from reads NUL-separated lists.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// hostileNames are file names that break lines or drive terminals, each
// a notebook (valid, or with a stray member whose key is hostile too).
var hostileNames = []string{
	"a\nb.ipynb",
	"c\x1b[31mred\x1b]0;title\x07.ipynb",
	"\"quoted.ipynb",
	"bidi\u202egnp.ipynb",
	"c1\u009b2J.ipynb",
	"tab\tcr\r.ipynb",
	"plain name (1).ipynb",
}

const strayKeyNotebook = `{"cells": [{"cell_type": "code", "execution_count": 3, "metadata": {"collapsed": true}, "outputs": [{"name": "stdout", "output_type": "stream", "text": "x\n"}], "source": "x", "\u001b]0;t\u0007\nk": 1}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
`

// hostileFolder writes a notebook under each hostile name into a new
// folder dir/nb, returning the folder and the names (as nb/NAME).
func hostileFolder(t *testing.T, parent string) (dir string, names map[string]bool) {
	t.Helper()
	dir = filepath.Join(parent, "nb")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names = map[string]bool{}
	for i, n := range hostileNames {
		content := strayKeyNotebook
		if i%2 == 1 {
			content = strings.Replace(strayKeyNotebook, `, "\u001b]0;t\u0007\nk": 1`, "", 1)
		}
		if err := os.WriteFile(filepath.Join(dir, n), []byte(content), 0o644); err != nil {
			t.Skipf("the file system refuses the name %q: %v", n, err)
		}
		names[filepath.Join("nb", n)] = true
	}
	return dir, names
}

// leadingName returns the file name a line starts with (quoted or not)
// and the rest of the line: a quoted name is a Go string literal; an
// unquoted one ends at the first ": " or ":LINE".
func leadingName(line string) (name, rest string, ok bool) {
	if strings.HasPrefix(line, `"`) {
		q, err := strconv.QuotedPrefix(line)
		if err != nil {
			return "", "", false
		}
		name, _ = strconv.Unquote(q)
		return name, line[len(q):], true
	}
	if i := regexp.MustCompile(`:(\d+|\s)`).FindStringIndex(line); i != nil {
		return line[:i[0]], line[i[0]:], true
	}
	return line, "", true
}

// Every line check, fmt -v and strip -v print names one file, whatever
// its name: a name with a newline, a control character or a leading
// quote is written as a Go string literal (as git quotes paths), and
// unquoting it gives the name on disk back (the reference: the file
// system's own listing).
func TestNamesOneLineEach(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, names := hostileFolder(t, dir)
	status := regexp.MustCompile(`^(same|diff|invalid|error) (.*)$`)
	summary := regexp.MustCompile(`^\d+ same, \d+ diff, \d+ invalid, \d+ error$`)

	r := ipynb(t, dir, "", "check", "nb")
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		var name string
		switch m := status.FindStringSubmatch(line); {
		case m != nil:
			n, _, ok := leadingName(regexp.MustCompile(` \(\d+ problems?\)$`).ReplaceAllString(m[2], ""))
			if !ok {
				t.Errorf("check: bad quoting: %q", line)
			}
			name = n
			seen[name] = true
		case strings.HasPrefix(line, "  "):
			n, rest, ok := leadingName(line[2:])
			if !ok {
				t.Errorf("check: bad quoting: %q", line)
			}
			name = n
			// The pointer after the place is one token too.
			if strings.Contains(rest, "\n") || strings.ContainsAny(rest, "\x1b\x07") {
				t.Errorf("check: problem line carries raw controls: %q", line)
			}
		case summary.MatchString(line):
			continue
		default:
			t.Errorf("check: a line that is no result: %q", line)
			continue
		}
		if !names[name] {
			t.Errorf("check: %q names no file (files %q)", line, keys(names))
		}
	}
	if len(seen) != len(names) {
		t.Errorf("check reported %d files, want %d:\n%s", len(seen), len(names), r.stdout)
	}

	// show's first line is the dialog's name, on one line.
	r = ipynb(t, dir, "", "show", filepath.Join("nb", "a\nb.ipynb"))
	if first, _, _ := strings.Cut(r.stdout, "\n"); r.code != 0 || first != `"a\nb"` {
		t.Errorf("show of a\\nb.ipynb: first line %q: %+v", first, r)
	}

	for _, args := range [][]string{{"fmt", "--keep-style", "--check", "-v", "nb"}, {"strip", "--verify", "-v", "nb"}} {
		r := ipynb(t, dir, "", args...)
		if r.stderr == "" {
			t.Fatalf("%v: no report: %+v", args, r)
		}
		for _, line := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
			name, rest, ok := leadingName(line)
			if !ok || !names[name] || !strings.HasPrefix(rest, ": ") {
				t.Errorf("%v: %q does not start with a file's name", args, line)
			}
		}
		// The files that would change, one name a line.
		listed := 0
		for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
			if line == "" {
				continue
			}
			name, rest, ok := leadingName(line)
			if !ok || !names[name] || rest != "" {
				t.Errorf("%v: listed %q is not one file's name", args, line)
			}
			listed++
		}
		if listed == 0 {
			t.Errorf("%v listed no file:\n%s", args, r.stdout)
		}
	}
}

func keys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// On a terminal, no command prints a character the terminal obeys, on
// standard output or standard error, whatever prints it: results, lists
// of files, -v reports, errors about files, JSON.
func TestTerminalNeverDriven(t *testing.T) {
	t.Parallel()
	dir, _ := hostileFolder(t, t.TempDir())
	one := filepath.Join(dir, hostileNames[1])
	missing := filepath.Join(dir, "gone\x1b[2J.ipynb")
	bad := filepath.Join(dir, "bad\x1b]0;x\x07.ipynb")
	if err := os.WriteFile(bad, []byte("{\"nbformat\": 4,"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", dir},
		{"check", "--json", dir},
		{"check", missing},
		{"fmt", "--check", "-v", dir},
		{"fmt", "--keep-style", "--check", "-v", dir},
		{"strip", "--verify", "-v", dir},
		{"strip", "-t", one},
		{"show", one},
		{"show", missing},
		{"show", bad},
		{"md", one},
		{"md", bad},
	} {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdoutTTY: true, stderrTTY: true}
		run(e, args)
		for stream, s := range map[string]string{"stdout": out.String(), "stderr": errb.String()} {
			if r, bad := dangerous(s); bad {
				t.Errorf("ipynb %q on a terminal: %s has %U:\n%q", args, stream, r, s)
			}
		}
		if out.Len()+errb.Len() == 0 {
			t.Errorf("ipynb %q printed nothing", args)
		}
	}
}

// A write that ends inside a UTF-8 sequence or between the CR and LF of
// a CRLF is not damaged by the terminal guard: the bytes wait for the
// next write.
func TestTermWriterSplitWrites(t *testing.T) {
	t.Parallel()
	in := "é\r\nab\x1b[2Jcd€\r\n"
	want := termSafe(in)
	for cut := 0; cut <= len(in); cut++ {
		var b bytes.Buffer
		w := &termWriter{w: &b}
		w.Write([]byte(in[:cut]))
		w.Write([]byte(in[cut:]))
		w.Flush()
		if b.String() != want {
			t.Errorf("split at %d: %q, want %q", cut, b.String(), want)
		}
	}
}

// The progress line, drawn past the terminal guard, shows hostile names
// as termSafe does: nothing in it but its own "\r\x1b[K" is obeyed (bidi
// overrides included).
func TestProgressNeverDriven(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range screenful + 1 {
		name := filepath.Join(dir, "x\u202e"+strconv.Itoa(i)+".ipynb")
		if i%2 == 1 {
			name = filepath.Join(dir, "y"+strconv.Itoa(i)+"\x1b]0;t\x07\u009b.ipynb")
		}
		if err := os.WriteFile(name, []byte(strayKeyNotebook), 0o644); err != nil {
			t.Skip(err)
		}
	}
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stderrTTY: true, termWidth: 300}
	run(e, []string{"check", dir})
	drawn := errb.String()
	if !strings.Contains(drawn, "\r\x1b[K[1/") {
		t.Fatalf("no progress drawn: %q", drawn)
	}
	if r, bad := dangerous(strings.ReplaceAll(drawn, "\r\x1b[K", "")); bad {
		t.Errorf("progress line draws %U: %q", r, drawn)
	}
}

// --files-from takes the NUL-separated list git ls-files -z (or find
// -print0) writes, so that names with newlines can be handed over: every
// file git lists is checked under its own name (skipped without git).
func TestCheckFilesFromNUL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, names := hostileFolder(t, dir)
	git := func(args ...string) []byte {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("git %v: %v", args, err)
		}
		return out
	}
	git("init", "-q")
	git("add", ".")
	list := git("ls-files", "-z")
	r := ipynb(t, dir, string(list), "check", "--json", "--files-from", "-")
	files, summary := checkLines(t, r.stdout)
	got := map[string]bool{}
	for _, f := range files {
		got[f.Path] = true
		if f.Status == "error" {
			t.Errorf("%q: %s", f.Path, f.Detail)
		}
	}
	if len(got) != len(names) || summary["error"] != 0 {
		t.Errorf("check --files-from - of git ls-files -z: %d files, want %d: %+v", len(got), len(names), r)
	}
	for n := range names {
		if !got[n] {
			t.Errorf("%q was not checked", n)
		}
	}
}
