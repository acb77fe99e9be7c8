package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/browsertest"
)

// htmlNotebook is a small notebook with a code cell and its output.
const htmlNotebook = `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
 "cells": [{"cell_type": "markdown", "id": "n1", "metadata": {}, "source": "# Title"},
  {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1, "source": "print(1)", "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}]}]}
`

func TestHTMLCommand(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "nb.ipynb")
	os.WriteFile(nb, []byte(htmlNotebook), 0o666)
	r := ipynb(t, dir, "", "html", "-o", "page.html", "nb.ipynb")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("html -o: %+v", r)
	}
	page, err := os.ReadFile(filepath.Join(dir, "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "Content-Security-Policy", "<title>nb</title>", `id="Title"`, "<span class=\"nb\">print</span>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Standard output (a pipe here), and standard input.
	if r := ipynb(t, dir, htmlNotebook, "html", "-"); r.code != 0 || !strings.HasPrefix(r.stdout, "<!DOCTYPE html>") {
		t.Errorf("html -: %d %q", r.code, r.stderr)
	}
	// Never over the notebook; a folder is no page.
	if r := ipynb(t, dir, "", "html", "-o", "nb.ipynb", "nb.ipynb"); r.code != 2 || !strings.Contains(r.stderr, "is the notebook being read") {
		t.Errorf("html -o NOTEBOOK: %+v", r)
	}
	if got, _ := os.ReadFile(nb); string(got) != htmlNotebook {
		t.Error("the notebook changed")
	}
	if r := ipynb(t, dir, "", "html", "-o", dir, "nb.ipynb"); r.code != 2 || !strings.Contains(r.stderr, "is a folder") {
		t.Errorf("html -o FOLDER: %+v", r)
	}
	if r := ipynb(t, dir, "", "html", "missing.ipynb"); r.code != 2 {
		t.Errorf("html of a missing file: %+v", r)
	}
	if r := ipynb(t, dir, "{", "html", "-"); r.code == 0 || r.stdout != "" || !strings.Contains(r.stderr, "1:2") {
		t.Errorf("html of a broken notebook: %+v", r)
	}
}

func TestDiffHTMLCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.ipynb"), []byte(htmlNotebook), 0o666)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), []byte(strings.Replace(htmlNotebook, `"text": "1\n"`, `"text": "2\n"`, 1)), 0o666)
	if r := ipynb(t, dir, "", "diff", "--html", "-o", "d.html", "a.ipynb", "b.ipynb"); r.code != 1 || r.stderr != "" {
		t.Fatalf("diff --html of different notebooks: %+v", r)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "d.html"))
	if !strings.Contains(string(page), "a.ipynb") || !strings.Contains(string(page), "changed outputs") {
		t.Errorf("page does not show the change:\n%.2000s", page)
	}
	if r := ipynb(t, dir, "", "diff", "--html", "a.ipynb", "a.ipynb"); r.code != 0 || !strings.Contains(r.stdout, "the same cells") {
		t.Errorf("diff --html of one notebook: %d %q", r.code, r.stderr)
	}
	// git's driver form, a side missing.
	if r := ipynb(t, dir, "", "diff", "--html", "-o", "g.html", "x.ipynb", os.DevNull, ".", ".", "b.ipynb", "0", "100644"); r.code != 0 {
		t.Errorf("diff --html as git's driver: %+v", r)
	}
	if r := ipynb(t, dir, "{", "diff", "--html", "-", "a.ipynb"); r.code != 2 {
		t.Errorf("diff --html of a broken notebook: %+v", r)
	}
}

// A page is never written over a notebook it is made from: not by its
// name, another name for it, a link to it, nor in git's driver form; the
// notebooks are left as they were.
func TestPageNotOverInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := strings.Replace(htmlNotebook, `"text": "1\n"`, `"text": "2\n"`, 1)
	os.WriteFile(filepath.Join(dir, "a.ipynb"), []byte(htmlNotebook), 0o666)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), []byte(b), 0o666)
	os.Symlink("a.ipynb", filepath.Join(dir, "link.html"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o777)
	for _, args := range [][]string{
		{"diff", "--html", "-o", "a.ipynb", "a.ipynb", "b.ipynb"},
		{"diff", "--html", "-o", "b.ipynb", "a.ipynb", "b.ipynb"},
		{"diff", "--html", "-o", "sub/../b.ipynb", "a.ipynb", "b.ipynb"},
		{"diff", "--html", "-o", "link.html", "a.ipynb", "b.ipynb"},
		{"diff", "--html", "-o", "b.ipynb", "x.ipynb", os.DevNull, ".", ".", "b.ipynb", "0", "100644"},
		{"diff", "--html", "-o", "a.ipynb", "x.ipynb", "a.ipynb", "0", "100644", "b.ipynb", "0", "100644"},
		{"html", "-o", "link.html", "a.ipynb"},
		{"html", "-o", "./a.ipynb", "a.ipynb"},
	} {
		r := ipynb(t, dir, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, "is the notebook being read") {
			t.Errorf("ipynb %s: %+v, want it refused", strings.Join(args, " "), r)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.ipynb")); string(got) != htmlNotebook {
		t.Error("a.ipynb changed")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b.ipynb")); string(got) != b {
		t.Error("b.ipynb changed")
	}
}

// A notebook whose file name is HTML: the page shows the name, as text.
func TestBrowserHTMLFileName(t *testing.T) {
	t.Parallel()
	tab := browsertest.Open(t, nil)
	dir := t.TempDir()
	// No "/" (a file name cannot hold one): no end tags.
	name := `<img src=x onerror="window.__pwned=1;document.title='PWNED'"><svg onload="window.__pwned=2"><script>window.__pwned=3`
	if err := os.WriteFile(filepath.Join(dir, name+".ipynb"), []byte(htmlNotebook), 0o666); err != nil {
		t.Skipf("this file system takes no such name: %v", err)
	}
	if r := ipynb(t, dir, "", "html", "-o", "page.html", name+".ipynb"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	tab.OpenFile(filepath.Join(dir, "page.html"))
	if got := browsertest.Eval[string](tab, `document.title`); got != name {
		t.Errorf("title %q, want the file's name as text", got)
	}
	if got := browsertest.Eval[string](tab, `document.querySelector("h1").textContent`); got != name {
		t.Errorf("heading %q, want the file's name as text", got)
	}
	if got := browsertest.Eval[string](tab, `String(window.__pwned)`); got != "undefined" {
		t.Errorf("window.__pwned = %s: the name ran", got)
	}
	tab.NoRequests()
}
