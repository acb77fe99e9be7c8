package main

// Tests that every numeric flag is bounded, and a fuzz test of every command's
// arguments: no panic, a usage error naming the flag.

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// numericFlags are every numeric flag of every command, with arguments
// that make the command run, and the largest value it takes.
var numericFlags = []struct {
	cmd  []string // up to the flag
	flag string
	rest []string // after the value
	max  int
}{
	{[]string{"merge"}, "--marker-size", []string{"base.ipynb", "ours.ipynb", "theirs.ipynb"}, math.MaxInt32},
	{[]string{"diff"}, "-U", []string{"base.ipynb", "ours.ipynb"}, maxContext},
	{[]string{"show"}, "--width", []string{"base.ipynb"}, maxWidth},
	{[]string{"show"}, "--rows", []string{"base.ipynb"}, maxRows},
	{[]string{"check"}, "--jobs", []string{"base.ipynb"}, maxJobs},
	{[]string{"fmt", "--check"}, "--jobs", []string{"base.ipynb"}, maxJobs},
	{[]string{"strip", "--verify"}, "--jobs", []string{"base.ipynb"}, maxJobs},
}

// flagFiles writes base, ours and theirs notebooks (ours and theirs
// conflicting in one cell) into dir.
func flagFiles(t testing.TB, dir string) {
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	writeFlagFiles(dir, base)
}

func writeFlagFiles(dir string, base []byte) {
	os.WriteFile(filepath.Join(dir, "base.ipynb"), base, 0o644)
	os.WriteFile(filepath.Join(dir, "ours.ipynb"), bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(1)"`), 1), 0o644)
	os.WriteFile(filepath.Join(dir, "theirs.ipynb"), bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(2)"`), 1), 0o644)
}

// Every numeric flag is bounded: a value past its bounds — the largest
// int64, 2147483647 (but --marker-size takes it: git passes it as %L from
// a repository's own conflict-marker-size), past int64, negative, not an integer — is a
// usage error naming the flag and its bounds (exit 2, at once, nothing
// done); the largest value allowed works.
func TestNumericFlagsBounded(t *testing.T) {
	dir := t.TempDir()
	flagFiles(t, dir)
	for _, f := range numericFlags {
		for _, v := range []string{"9223372036854775807", "2147483647", "99999999999999999999", "-1", "-9223372036854775808", "1e3", "", "0x10"} {
			if v == itoa(f.max) {
				continue // allowed: tried below
			}
			args := append(append(append([]string{}, f.cmd...), f.flag, v), f.rest...)
			start := time.Now()
			r := ipynb(t, dir, "", args...)
			if r.code != exitError || !strings.Contains(r.stderr, "ipynb "+f.cmd[0]+": invalid value \""+v+"\" for "+f.flag+": want an integer from ") || r.stdout != "" {
				t.Errorf("%q: %+v", args, r)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("%q took %v", args, time.Since(start))
			}
		}
		args := append(append(append([]string{}, f.cmd...), f.flag, itoa(f.max)), f.rest...)
		if r := ipynb(t, dir, "", args...); r.code == exitError {
			t.Errorf("%q (the largest value): %+v", args, r)
		}
	}
	// The largest marker size is written.
	r := ipynb(t, dir, "", "merge", "-o", "-", "--marker-size", itoa(maxMarkerSize), "base.ipynb", "ours.ipynb", "theirs.ipynb")
	if r.code != exitFindings || !strings.Contains(r.stdout, strings.Repeat("<", maxMarkerSize)+" ours") {
		t.Errorf("--marker-size %d: exit %d", maxMarkerSize, r.code)
	}
}

func itoa(n int) string { return intRange{v: &n}.String() }

// flagValueError matches a usage error about a flag's value, which must name
// the flag as typed.
var flagValueError = regexp.MustCompile(`invalid (boolean )?value .* for (-[A-Za-z]|--[a-z-]+): `)

// FuzzCommandArgs runs every command on argument vectors built from the
// fuzzer's words, in process, in a folder of three notebooks: no panic,
// an exit status of 0, 1 or 2, and a usage error about a flag's value
// names the flag. Words that could reach outside the folder (holding a
// "/" or "..") become a notebook's name; git is not on the PATH (the git
// commands parse their flags, then stop); HOME is the folder.
func FuzzCommandArgs(f *testing.F) {
	dir := f.TempDir()
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		f.Fatal(err)
	}
	// Set in each run, not for the fuzzer's workers (whose TestMain
	// runs go build).
	noBin := filepath.Join(dir, "no-bin")
	for _, c := range commands {
		f.Add(c.name + " --help")
	}
	for _, s := range []string{
		"merge --marker-size 9223372036854775807 base.ipynb ours.ipynb theirs.ipynb",
		"merge --marker-size 2147483647 -o - base.ipynb ours.ipynb theirs.ipynb",
		"merge --outputs clear --ours-label %X --theirs-label %Y -- base.ipynb ours.ipynb theirs.ipynb",
		"diff -U 9223372036854775807 base.ipynb ours.ipynb",
		"diff -U 100000000 --json base.ipynb ours.ipynb",
		"diff --textconv -- ours.ipynb",
		"show --width 0 --rows 1 ours.ipynb",
		"show --width=-5 ours.ipynb",
		"check --jobs 1024 --json .",
		"fmt --check --keep-style --jobs=2 .",
		"strip --verify --extra-keys cell.metadata.x --keep metadata.widgets .",
		"strip -t -- -",
		"md -o out.md --images imgs ours.ipynb",
		"fix --outputs ours .",
		"git install --outputs theirs --strip",
		"git install --global --attributes",
		"git status -- -x.ipynb",
		"git uninstall --bogus",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		t.Chdir(dir)
		t.Setenv("HOME", dir)
		t.Setenv("PATH", noBin)
		writeFlagFiles(dir, base)
		words := strings.Fields(line)
		if len(words) > 64 {
			words = words[:64]
		}
		for i, w := range words {
			if strings.Contains(w, "/") || strings.Contains(w, "..") || strings.HasPrefix(w, "~") {
				words[i] = "ours.ipynb"
			}
		}
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
		code := run(e, words)
		if code < 0 || code > 2 {
			t.Fatalf("%q: exit %d", words, code)
		}
		if strings.Contains(errb.String(), "invalid value") && !flagValueError.MatchString(errb.String()) {
			t.Fatalf("%q: a usage error that does not name the flag: %s", words, errb.String())
		}
	})
}
