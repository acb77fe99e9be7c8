package main

// ipynb check's verdicts on notebooks of nbformat 4.0-4.5 and future minors (4.6, 4.99), valid and not, checked in one process in several orders, against Python nbformat's isvalid.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// versionedNotebook is a notebook of nbformat 4.minor with every kind of
// cell and output, changed by edit (given the decoded notebook).
func versionedNotebook(minor int, edit func(nb map[string]any)) map[string]any {
	var nb map[string]any
	err := json.Unmarshal([]byte(`{"cells": [
 {"cell_type": "markdown", "id": "m1", "metadata": {"tags": ["a"]}, "source": ["# T\n", "x"], "attachments": {"a.png": {"image/png": "iVBOR"}}},
 {"cell_type": "code", "execution_count": 2, "id": "c1", "metadata": {"collapsed": false, "scrolled": "auto"}, "source": "print(1)", "outputs": [
  {"name": "stdout", "output_type": "stream", "text": ["hi\n"]},
  {"data": {"text/plain": ["1"], "application/json": {"a": 1}}, "execution_count": 2, "metadata": {}, "output_type": "execute_result"},
  {"data": {"text/html": "<b>"}, "metadata": {}, "output_type": "display_data"},
  {"ename": "E", "evalue": "v", "output_type": "error", "traceback": ["t1"]}]},
 {"cell_type": "raw", "id": "r1", "metadata": {"format": "text/x"}, "source": ""}],
 "metadata": {"kernelspec": {"display_name": "P", "language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}`), &nb)
	if err != nil {
		panic(err)
	}
	nb["nbformat_minor"] = minor
	if minor < 5 { // ids came with 4.5
		for _, c := range nb["cells"].([]any) {
			delete(c.(map[string]any), "id")
		}
	}
	edit(nb)
	return nb
}

// The verdicts of ipynb check (invalid or not) are Python nbformat's
// isvalid verdicts (the schema of the file's own version; a future
// minor's relaxed, with cells and outputs of unknown types) for
// notebooks of every minor version from 4.0 to a future 4.99, valid and
// invalid (wrong types, missing and extra members, unknown cell and
// output types, bad members of unknown cells), all checked in one
// process, in document order, reversed and shuffled (the schemas
// compiled in another order each time), and one at a time.
func TestCheckVerdictsAsPythonAcrossVersions(t *testing.T) {
	py, err := nbtest.AnyPython()
	if err != nil {
		t.Skip("python3 not found")
	}
	if exec.Command(py, "-c", "import nbformat").Run() != nil {
		t.Skip("python3 has no nbformat")
	}
	cells := func(nb map[string]any) []any { return nb["cells"].([]any) }
	cell := func(nb map[string]any, i int) map[string]any { return cells(nb)[i].(map[string]any) }
	output := func(nb map[string]any, i int) map[string]any {
		return cell(nb, 1)["outputs"].([]any)[i].(map[string]any)
	}
	addCell := func(c string) func(map[string]any) {
		return func(nb map[string]any) {
			var v any
			if err := json.Unmarshal([]byte(c), &v); err != nil {
				panic(err)
			}
			nb["cells"] = append(cells(nb), v)
		}
	}
	addOutput := func(o string) func(map[string]any) {
		return func(nb map[string]any) {
			var v any
			if err := json.Unmarshal([]byte(o), &v); err != nil {
				panic(err)
			}
			c := cell(nb, 1)
			c["outputs"] = append(c["outputs"].([]any), v)
		}
	}
	edits := map[string]func(map[string]any){
		"as-is":              func(map[string]any) {},
		"unknown-cell":       addCell(`{"cell_type": "foo", "metadata": {}, "zz": 1}`),
		"unknown-cell-num":   addCell(`{"cell_type": 7, "metadata": {}}`),
		"unknown-cell-tags":  addCell(`{"cell_type": "foo", "metadata": {"tags": "x"}}`),
		"unknown-cell-nomd":  addCell(`{"cell_type": "foo"}`),
		"unknown-cell-name":  addCell(`{"cell_type": "foo", "metadata": {"name": ""}}`),
		"heading-cell":       addCell(`{"cell_type": "heading", "metadata": {}, "source": "", "level": 1}`),
		"bad-markdown":       addCell(`{"cell_type": "markdown", "metadata": {}, "source": 1}`),
		"unknown-output":     addOutput(`{"output_type": "bar", "x": 1}`),
		"unknown-output-num": addOutput(`{"output_type": 3}`),
		"output-no-type":     addOutput(`{"x": 1}`),
		"extra-top":          func(nb map[string]any) { nb["zz"] = 1 },
		"extra-cell":         func(nb map[string]any) { cell(nb, 0)["zz"] = 1 },
		"extra-output":       func(nb map[string]any) { output(nb, 0)["zz"] = 1 },
		"count-string":       func(nb map[string]any) { cell(nb, 1)["execution_count"] = "2" },
		"stream-no-name":     func(nb map[string]any) { delete(output(nb, 0), "name") },
		"markdown-outputs":   func(nb map[string]any) { cell(nb, 0)["outputs"] = []any{} },
		"result-no-data":     func(nb map[string]any) { delete(output(nb, 1), "data") },
		"error-tb-number":    func(nb map[string]any) { output(nb, 3)["traceback"] = []any{1} },
		"raw-attachments":    func(nb map[string]any) { cell(nb, 2)["attachments"] = map[string]any{} },
		"code-attachments":   func(nb map[string]any) { cell(nb, 1)["attachments"] = map[string]any{} },
		"transient":          func(nb map[string]any) { output(nb, 2)["transient"] = map[string]any{} },
		"cell-id-number":     func(nb map[string]any) { cell(nb, 0)["id"] = 5 },
	}
	dir := t.TempDir()
	var files []string
	for name, edit := range edits {
		for _, minor := range []int{0, 1, 2, 3, 4, 5, 6, 99} {
			data, err := json.MarshalIndent(versionedNotebook(minor, edit), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, fmt.Sprintf("%s-%d.ipynb", name, minor))
			if err := os.WriteFile(p, append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	slices.Sort(files)
	// Python's verdicts, as nbformat's isvalid gives them (an exception
	// other than a verdict, nbformat's own failure, leaves the file out).
	script := `import json, sys, warnings
warnings.filterwarnings('ignore')
from nbformat.validator import isvalid
from nbformat import from_dict
from nbformat.reader import get_version
for p in sys.argv[1:]:
    d = json.load(open(p))
    try:
        major, minor = get_version(d)
        print('valid' if isvalid(from_dict(d), version=major, version_minor=minor) else 'invalid')
    except Exception:
        print('error')`
	out, err := exec.Command(py, append([]string{"-c", script}, files...)...).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	verdicts := strings.Fields(string(out))
	if len(verdicts) != len(files) {
		t.Fatalf("python3 gave %d verdicts for %d files", len(verdicts), len(files))
	}
	want := map[string]bool{} // invalid, by file
	counts := map[string]int{}
	for i, v := range verdicts {
		counts[v]++
		if v != "error" {
			want[files[i]] = v == "invalid"
		}
	}
	if counts["valid"] < 30 || counts["invalid"] < 30 {
		t.Fatalf("Python's verdicts %v: too few of a kind to compare", counts)
	}
	check := func(order []string) map[string]string {
		cmd := exec.Command(binary, append([]string{"check", "--json"}, order...)...)
		stdout, _ := cmd.Output() // exit 1: some are not same
		got := map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(stdout))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var line struct{ Path, Status string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Path != "" {
				got[line.Path] = line.Status
			}
		}
		return got
	}
	compare := func(how string, got map[string]string, subset []string) {
		t.Helper()
		for _, p := range subset {
			invalid, ok := want[p]
			if !ok {
				continue
			}
			st, found := got[p]
			if !found {
				t.Errorf("%s: %s: no verdict", how, filepath.Base(p))
			} else if (st == "invalid") != invalid || st == "error" {
				t.Errorf("%s: %s: %s, Python: invalid %v", how, filepath.Base(p), st, invalid)
			}
		}
	}
	compare("in order", check(files), files)
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	compare("reversed", check(reversed), files)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 3 {
		shuffled := slices.Clone(files)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		compare(fmt.Sprintf("shuffled %d", i), check(shuffled), files)
	}
	for _, p := range files[:len(files):len(files)] {
		if r.IntN(6) == 0 {
			compare("alone", check([]string{p}), []string{p})
		}
	}
}
