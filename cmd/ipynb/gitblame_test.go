package main

// git blame and the clean filter: strip --filter passes what is not
// JSON through unchanged.

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git blame works on an edited notebook with the drivers installed,
// with and without --strip, locally and with --global: git runs the
// textconv on the work tree file, then the clean filter on its text,
// which strip - refused (git blame failed: "external filter … failed").
// The line edited is not committed yet, the others are the commit's.
func TestGitBlameWithStrip(t *testing.T) {
	t.Parallel()
	base, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--strip"}, {"--strip", "--global"}, {}, {"--global"}} {
		dir := newRepo(t)
		if r := ipynb(t, dir, "", append([]string{"git", "install"}, args...)...); r.code != 0 {
			t.Fatalf("install %q: %+v", args, r)
		}
		commitFile(t, dir, "nb.ipynb", base, "base")
		commit := strings.TrimSpace(gitIn(t, dir, "rev-parse", "--short=8", "HEAD"))
		os.WriteFile(filepath.Join(dir, "nb.ipynb"), bytes.Replace(base, []byte(`"plot()"`), []byte(`"plot(3)"`), 1), 0o644)
		out, st := gitStatusIn(t, dir, "blame", "--root", "-s", "--abbrev=7", "nb.ipynb")
		if st != 0 {
			t.Errorf("install %q: git blame exit %d\n%s", args, st, out)
			continue
		}
		var edited, kept bool
		for _, line := range strings.Split(out, "\n") {
			switch {
			case strings.Contains(line, "plot(3)"):
				edited = strings.HasPrefix(line, "00000000 ")
			case strings.Contains(line, "## notebook metadata kernelspec"):
				kept = strings.HasPrefix(line, commit+" ")
			}
		}
		if !edited || !kept {
			t.Errorf("install %q: git blame:\n%s", args, out)
		}
	}
}

// strip --filter writes back unchanged what is not JSON (diff
// --textconv's text, a notebook holding git's conflict markers, NULs,
// nothing, a JSON text not an object), strips notebooks as strip -
// does, and refuses with the others; strip - on the command line still
// reports input that is not JSON (exit 1, <stdin>:1:1: …).
func TestStripFilterPassesNonJSON(t *testing.T) {
	dir := t.TempDir()
	nb := readFile(t, filepath.Join(shipped, "jupyter.ipynb"))
	textconv := ipynb(t, dir, nb, "diff", "--textconv", "--", "-").stdout
	if !strings.HasPrefix(textconv, "## ") {
		t.Fatalf("textconv: %q", textconv[:min(len(textconv), 40)])
	}
	markers := strings.Replace(nb, `   "source": [`+"\n", "<<<<<<< HEAD\n   \"source\": [\n=======\n   \"source\": [ \n>>>>>>> topic\n", 1)
	for _, in := range []string{textconv, markers, "\x00\x00\x00", "", "  \n", "[1, 2]\n", "plain text\n", "{ not json"} {
		r := ipynb(t, dir, in, "strip", "--filter", "-")
		if r.code != 0 || r.stdout != in || r.stderr != "" {
			t.Errorf("strip --filter - of %q: exit %d, %d bytes out, stderr %q", in[:min(len(in), 20)], r.code, len(r.stdout), r.stderr)
		}
	}
	want := ipynb(t, dir, nb, "strip", "-")
	if r := ipynb(t, dir, nb, "strip", "--filter", "-"); r.code != 0 || r.stdout != want.stdout || want.stdout == nb {
		t.Errorf("strip --filter - of a notebook: %+v", r)
	}
	if r := ipynb(t, dir, `{"cells": {}, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`, "strip", "--filter", "-"); r.code != 1 || r.stdout != "" {
		t.Errorf("strip --filter - of a notebook strip refuses: %+v", r)
	}
	if r := ipynb(t, dir, textconv, "strip", "-"); r.code != 1 || !strings.HasPrefix(r.stderr, "<stdin>:1:1: ") {
		t.Errorf("strip - of text: %+v", r)
	}
	if r := ipynb(t, dir, nb, "strip", "--filter", "x.ipynb"); r.code != 2 {
		t.Errorf("strip --filter of a file: %+v", r)
	}
}

// strip --filter streams what cannot start a JSON object: 256 MiB of
// NULs go through in a few MiB of memory.
func TestStripFilterStreams(t *testing.T) {
	t.Parallel()
	const size = 256 << 20
	cmd := exec.Command(binary, "strip", "--filter", "-")
	cmd.Stdin = io.LimitReader(&zeros{}, size)
	var n countWriter
	cmd.Stdout = &n
	kb, err := peakKiB(t, cmd)
	if err != nil || n != size {
		t.Fatalf("%v, %d bytes out", err, n)
	}
	if kb > 32<<10 { // an eighth of the input: a filter that held it whole would need all 256 MiB
		t.Errorf("peak memory %d KiB", kb)
	}
	t.Logf("peak memory %d KiB", kb)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// The clean filter an older install wrote (strip -) is found outdated by
// ipynb git status, and install replaces it.
func TestGitStatusFindsOlderCleanFilter(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	exe, _ := filepath.EvalSymlinks(binary)
	if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	gitIn(t, dir, "config", "filter.ipynb.clean", exe+" strip -")
	if r := ipynb(t, dir, "", "git", "status"); r.code != 1 || !strings.Contains(r.stdout, "filter.ipynb.clean was written by an older ipynb git install (git blame fails") {
		t.Errorf("status: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || strings.TrimSpace(gitIn(t, dir, "config", "filter.ipynb.clean")) != exe+" strip --filter -" {
		t.Errorf("install: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
		t.Errorf("status after install: %+v", r)
	}
}
