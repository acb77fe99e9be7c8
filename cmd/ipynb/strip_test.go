package main

// Tests that strip does what nbstripout does, removes outputs wherever they
// hide or refuses the file, and works as git's clean filter.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// stripCase is one line of testdata/strip/cases.txt (made by
// scripts/reference/make_strip_testdata.py): a source notebook, strip's
// flags ("|" joins the words of one flag value) and the file holding what
// nbstripout's rules give, written by Python nbformat
// (scripts/reference/strip_reference.py).
type stripCase struct {
	src, want string
	flags     []string
}

func stripCases(t *testing.T) []stripCase {
	data, err := os.ReadFile(filepath.Join("testdata", "strip", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []stripCase
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("cases.txt: bad line %q", line)
		}
		c := stripCase{src: f[0], want: f[2]}
		for _, a := range strings.Fields(f[1]) {
			c.flags = append(c.flags, strings.ReplaceAll(a, "|", " "))
		}
		cases = append(cases, c)
	}
	return cases
}

// rulesOf returns the checker's rules for strip flags.
func rulesOf(flags []string) checkRules {
	var r checkRules
	for _, f := range flags {
		switch f {
		case "--keep-output":
			r.keepOutput = true
		case "--keep-count":
			r.keepCount = true
		case "--strip-init-cells":
			r.stripInitCells = true
		}
	}
	return r
}

// Item 18 (issue 9): strip keeps what nbstripout keeps and strips what it
// strips (FACTS e.4): outputs of cells with metadata keep_output true (any
// truthy value), the keep_output tag, or init_cell true (init_cell decides
// alone: false strips even a tagged cell; --strip-init-cells strips them);
// a notebook-level keep_output; --keep-output, overridden by a cell's
// keep_output false; kept outputs' counts set to null unless --keep-count;
// --extra-keys (metadata.PATH, cell.PATH, nested by dots);
// --keep-metadata-keys; the transient keys Python's writer drops;
// nbformat 3 worksheets and prompt numbers. Expected bytes are Python's.
func TestStripReference(t *testing.T) {
	t.Parallel()
	for _, c := range stripCases(t) {
		t.Run(strings.TrimSuffix(c.want, ".ipynb"), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "strip", c.src))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "strip", c.want))
			if err != nil {
				t.Fatal(err)
			}
			// As a filter: standard input to standard output.
			r := ipynb(t, ".", string(src), append(append([]string{"strip"}, c.flags...), "-")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if diff := cmp.Diff(string(want), r.stdout); diff != "" {
				t.Errorf("strip %s - (-want +got):\n%s", strings.Join(c.flags, " "), diff)
			}
			// In place.
			dir := t.TempDir()
			path := filepath.Join(dir, c.src)
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			r = ipynb(t, dir, "", append(append([]string{"strip"}, c.flags...), c.src)...)
			got, _ := os.ReadFile(path)
			if r.code != 0 || !bytes.Equal(got, want) {
				t.Errorf("strip %s FILE: exit %d %s; file %s", strings.Join(c.flags, " "), r.code, r.stderr, nbtestDiff(want, got))
			}
			// The reference and the checker agree (the checker judges keep_output
			// on the stripped file, so not where --extra-keys removed the tags).
			if strings.Contains(strings.Join(c.flags, " "), "--extra-keys") {
				return
			}
			if left, err := leftovers(want, rulesOf(c.flags)); err != nil || len(left) > 0 {
				t.Errorf("the checker finds leftovers in the reference: %v %v", left, err)
			}
		})
	}
}

func nbtestDiff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return "as expected"
	}
	return cmp.Diff(string(want), string(got))
}

// hostile are notebooks that hide outputs where a typed reader does not
// look (item 17): strip must remove every one, or refuse the file.
var hostile = []struct {
	name, nb string
}{
	{"outputs-object", `{"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": {"x": {"output_type": "stream", "name": "stdout", "text": "SECRET TOKEN=abc"}}, "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`},
	{"outputs-string", `{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": "SECRET TOKEN=abc", "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"outputs-number-null-bool", `{"cells": [{"cell_type": "code", "metadata": {}, "outputs": 42, "source": ""}, {"cell_type": "code", "metadata": {}, "outputs": null, "source": ""}, {"cell_type": "code", "metadata": {}, "outputs": true, "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"count-string", `{"cells": [{"cell_type": "code", "execution_count": "5", "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"count-object", `{"cells": [{"cell_type": "code", "execution_count": {"n": "SECRET"}, "metadata": {}, "outputs": [], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"unknown-type", `{"cells": [{"cell_type": "Code", "execution_count": 3, "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "source": "x"}, {"cell_type": "sql", "outputs": [{"data": "SECRET"}]}, {"outputs": [{"text": "SECRET"}], "prompt_number": 4}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`},
	{"markdown-with-outputs", `{"cells": [{"cell_type": "markdown", "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "execution_count": 2, "source": "x"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"invalid-cell", `{"cells": [{"cell_type": "code", "id": 7, "metadata": [1], "outputs": [{"output_type": "nonsense", "SECRET": true}], "source": 5, "stray": 1}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`},
	{"scalar-cells", `{"cells": [1, "two", null, {"cell_type": "code", "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"duplicate-outputs", `{"cells": [{"cell_type": "code", "execution_count": 1, "execution_count": 2, "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "outputs": [], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"duplicate-cells", `{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "source": ""}], "cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"escaped-key", `{"cells": [{"cell_type": "code", "execution_c\u006funt": 9, "metadata": {}, "outp\u0075ts": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"v4-with-worksheets", `{"cells": [], "worksheets": [{"cells": [{"cell_type": "code", "outputs": [{"text": "SECRET"}], "prompt_number": 1}]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
	{"v3", `{"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "code", "collapsed": false, "input": "1", "language": "python", "metadata": {}, "outputs": [{"output_type": "pyout", "prompt_number": 1, "text": "SECRET"}], "prompt_number": 1}, {"cell_type": "heading", "level": 1, "outputs": {"a": "SECRET"}, "source": "x"}], "metadata": {}}, {"cells": [{"cell_type": "code", "outputs": [{"text": "SECRET"}]}]}, 7]}`},
	{"v2", `{"metadata": {"name": ""}, "nbformat": 2, "worksheets": [{"cells": [{"cell_type": "code", "input": "1", "language": "python", "outputs": [{"output_type": "pyout", "text": "SECRET"}], "prompt_number": 1}]}]}`},
	{"v3-no-worksheets", `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0}`},
	{"nested-deep", `{"cells": [{"cell_type": "code", "metadata": {"a": {"b": {"outputs": ["not an output: metadata"]}}}, "outputs": [[[[{"text": "SECRET"}]]]], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`},
}

// refused are notebooks whose outputs strip cannot be sure to find: it
// fails naming the file and the place, and writes nothing.
var refused = []struct {
	name, nb, where string
}{
	{"cells-object", `{"cells": {"0": {"cell_type": "code", "outputs": [{"text": "SECRET"}]}}, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`, "/cells: cannot strip: is an object"},
	{"cell-list", `{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ""}, [{"outputs": [{"text": "SECRET"}]}]], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`, "/cells/1: cannot strip: is a list"},
	{"worksheets-object", `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": {"w": {"cells": [{"outputs": [{"text": "SECRET"}]}]}}}`, "/worksheets: cannot strip: is an object"},
	{"worksheet-list", `{"metadata": {}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [[{"cells": []}]]}`, "/worksheets/0: cannot strip: is a list"},
	{"contradiction", `{"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {"keep_output": false, "tags": ["keep_output"]}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "SECRET"}], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`, "/cells/0/metadata: cannot strip: cell metadata contradicts tags"},
	{"not-json", `{"cells": [`, ":1:12: unexpected end of input"},
	{"not-a-notebook", `[{"outputs": ["SECRET"]}]`, "a notebook is a JSON object"},
	{"version-5", `{"cells": [], "metadata": {}, "nbformat": 5, "nbformat_minor": 0}`, "/nbformat"},
}

// Item 17 (issue 9): strip removes outputs wherever they are — outputs
// that are objects or any other value, string counts, cells of unknown
// type, outputs inside invalid cells, duplicated or escaped keys, v2/v3
// worksheets — or fails naming the file, writing nothing; it never
// succeeds with an output left (leftovers, the tests' own checker).
func TestStripLeavesNoOutputs(t *testing.T) {
	t.Parallel()
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			if !strings.Contains(h.name, "no-worksheets") {
				if left, err := leftovers([]byte(h.nb), checkRules{}); err != nil || len(left) == 0 {
					t.Fatalf("the case hides nothing: %v %v", left, err)
				}
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "nb.ipynb")
			if err := os.WriteFile(path, []byte(h.nb), 0o644); err != nil {
				t.Fatal(err)
			}
			r := ipynb(t, dir, "", "strip", "nb.ipynb")
			got, _ := os.ReadFile(path)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			left, err := leftovers(got, checkRules{})
			if err != nil || len(left) > 0 {
				t.Errorf("after strip: %v %v\n%s", left, err, got)
			}
			if bytes.Contains(got, []byte("SECRET")) {
				t.Errorf("SECRET still in the file:\n%s", got)
			}
			// The same through a pipe, as a git clean filter.
			r = ipynb(t, dir, h.nb, "strip", "-")
			if r.code != 0 || r.stdout != string(got) {
				t.Errorf("strip -: exit %d %s\n%s", r.code, r.stderr, r.stdout)
			}
			// Idempotent, and --verify agrees.
			if r := ipynb(t, dir, "", "strip", "--verify", "nb.ipynb"); r.code != 0 || r.stdout != "" {
				t.Errorf("strip --verify after strip: %+v", r)
			}
		})
	}
	for _, h := range refused {
		t.Run(h.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "nb.ipynb")
			if err := os.WriteFile(path, []byte(h.nb), 0o644); err != nil {
				t.Fatal(err)
			}
			r := ipynb(t, dir, "", "strip", "nb.ipynb")
			if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "nb.ipynb:") || !strings.Contains(r.stderr, h.where) {
				t.Errorf("strip: exit %d, stdout %q, stderr %q; want exit 1 naming nb.ipynb and %q", r.code, r.stdout, r.stderr, h.where)
			}
			if got, _ := os.ReadFile(path); string(got) != h.nb {
				t.Errorf("file changed:\n%s", got)
			}
			if r := ipynb(t, dir, h.nb, "strip", "-"); r.code != 1 || r.stdout != "" {
				t.Errorf("strip -: exit %d, wrote %q", r.code, r.stdout)
			}
		})
	}
}

// Exact bytes for the hostile shapes: only the values strip removes
// change, in the file's own layout (item 17).
func TestStripHostileBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"cells": [{"cell_type": "code", "execution_count": "5", "metadata": {}, "outputs": {"x": {"text": "S"}}, "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`,
			`{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`},
		{"{\n  \"cells\": [\n    {\n      \"outp\\u0075ts\": [1],\n      \"outputs\": [2],\n      \"metadata\": {\n        \"collapsed\": true,\n        \"a\": 1,\n        \"scrolled\": false\n      },\n      \"prompt_number\": 3\n    }\n  ],\n  \"metadata\": {\"widgets\": {}, \"signature\": \"x\"},\n  \"nbformat\": 4\n}",
			"{\n  \"cells\": [\n    {\n      \"outp\\u0075ts\": [],\n      \"outputs\": [],\n      \"metadata\": {\n        \"a\": 1\n      },\n      \"prompt_number\": null\n    }\n  ],\n  \"metadata\": {},\n  \"nbformat\": 4\n}"},
	} {
		got, _, err := stripNotebook([]byte(tc.in), stripOptions{keys: strippedKeys})
		if err != nil || string(got) != tc.want {
			t.Errorf("strip %s:\n got %s (%v)\nwant %s", tc.in, got, err, tc.want)
		}
	}
	// A refusal is a *stripError with the place, matching errStrip.
	_, _, err := stripNotebook([]byte(refused[0].nb), stripOptions{})
	var se *stripError
	if !errors.Is(err, errStrip) || !errors.As(err, &se) || se.Pointer != "/cells" {
		t.Errorf("refusal: %#v", err)
	}
}

// strip -v reports each change on standard error, with its pointer.
func TestStripVerbose(t *testing.T) {
	t.Parallel()
	in := `{"cells": [{"cell_type": "code", "execution_count": "5", "metadata": {"scrolled": true, "keep_output": 0}, "outputs": {"x": 1}, "source": ""}, {"cell_type": "code", "execution_count": 2, "metadata": {"tags": ["keep_output"]}, "outputs": [{"output_type": "execute_result", "execution_count": 2, "data": {}, "metadata": {}}], "source": ""}], "metadata": {"widgets": {}}, "nbformat": 4, "nbformat_minor": 4}`
	r := ipynb(t, ".", in, "strip", "-v", "-")
	want := `<stdin>: /metadata/widgets: removed
<stdin>: /cells/0/outputs: removed outputs (an object, not a list)
<stdin>: /cells/0/execution_count: set to null (was "5")
<stdin>: /cells/0/metadata/scrolled: removed
<stdin>: /cells/1/outputs/0/execution_count: set to null (was 2)
<stdin>: /cells/1/execution_count: set to null (was 2)
`
	if r.code != 0 || r.stderr != want {
		t.Errorf("strip -v: exit %d\n%s", r.code, cmp.Diff(want, r.stderr))
	}
}

// strip --verify (--check) writes nothing and lists what would change,
// exit 1 (0 when nothing would); -t (--textconv) prints the stripped
// notebook and changes no file (issue 14 item 2).
func TestStripVerifyAndTextconv(t *testing.T) {
	t.Parallel()
	want, _ := os.ReadFile(filepath.Join("testdata", "strip", "jupyter.ipynb"))
	src, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.ipynb"), src, 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), want, 0o644)
	for _, flag := range []string{"--verify", "--check"} {
		r := ipynb(t, dir, "", "strip", flag, ".")
		if r.code != 1 || r.stdout != "a.ipynb\n" || r.stderr != "" {
			t.Errorf("strip %s .: %+v", flag, r)
		}
		if r := ipynb(t, dir, "", "strip", flag, "b.ipynb"); r.code != 0 || r.stdout != "" {
			t.Errorf("strip %s on a stripped file: %+v", flag, r)
		}
		if r := ipynb(t, dir, string(src), "strip", flag, "-"); r.code != 1 || r.stdout != "<stdin>\n" {
			t.Errorf("strip %s -: %+v", flag, r)
		}
	}
	for _, flag := range []string{"-t", "--textconv"} {
		r := ipynb(t, dir, "", "strip", flag, "a.ipynb")
		if r.code != 0 || r.stdout != string(want) {
			t.Errorf("strip %s: exit %d %s\n%s", flag, r.code, r.stderr, cmp.Diff(string(want), r.stdout))
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.ipynb")); !bytes.Equal(got, src) {
		t.Error("--verify or --textconv changed the file")
	}
	if r := ipynb(t, dir, "", "strip", "--verify", "-t", "a.ipynb"); r.code != 2 {
		t.Errorf("--verify -t: %+v", r)
	}
}

// Bad flag values are usage errors (exit 2) that say what is accepted.
func TestStripBadKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--extra-keys", "kernelspec"}, `--extra-keys "kernelspec": a key is metadata.PATH`},
		{[]string{"--extra-keys", "metadata.a notebook.b"}, `--extra-keys "notebook.b"`},
		{[]string{"--extra-keys", "metadata."}, `--extra-keys "metadata."`},
		{[]string{"--extra-keys", "cell.outputs"}, `every cell must have "outputs"`},
		{[]string{"--extra-keys=cell.id"}, `every cell must have "id"`},
		{[]string{"--keep-metadata-keys", "cell.metadata.scrolled metadata.kernelspec"}, `--keep "metadata.kernelspec": not a key strip removes`},
	} {
		r := ipynb(t, shipped, "", append(append([]string{"strip"}, tc.args...), "jupyter.ipynb")...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("strip %s: exit %d %q, want 2 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

// As a git clean filter (filter.ipynb.clean = "ipynb strip -", required),
// git add of a v3 notebook commits it stripped (item 18: it failed every
// time). The committed blob is what nbstripout's rules give.
func TestStripGitFilter(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("init", "-q")
	run("config", "filter.ipynb.clean", binary+" strip -")
	run("config", "filter.ipynb.smudge", "cat")
	run("config", "filter.ipynb.required", "true")
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.ipynb filter=ipynb\n"), 0o644)
	for _, name := range []string{"v3-keep.ipynb", "keep.ipynb"} {
		src, _ := os.ReadFile(filepath.Join("testdata", "strip", name))
		want, _ := os.ReadFile(filepath.Join("testdata", "strip", strings.Replace(name, ".ipynb", ".default.ipynb", 1)))
		os.WriteFile(filepath.Join(dir, name), src, 0o644)
		run("add", name)
		if got := run("show", ":"+name); got != string(want) {
			t.Errorf("%s: committed blob differs from the reference:\n%s", name, cmp.Diff(string(want), got))
		}
		if now, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(now, src) {
			t.Errorf("%s: the working file changed", name)
		}
	}
	// textconv: git diff of an edited notebook shows the edit, never an
	// output.
	run("config", "diff.ipynb.textconv", binary+" strip -t")
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.ipynb filter=ipynb diff=ipynb\n"), 0o644)
	run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "notebooks")
	src, _ := os.ReadFile(filepath.Join(dir, "keep.ipynb"))
	os.WriteFile(filepath.Join(dir, "keep.ipynb"), bytes.Replace(src, []byte(`"x = 1\n"`), []byte(`"x = 100\n"`), 1), 0o644)
	diff := run("diff", "--textconv", "keep.ipynb")
	if !strings.Contains(diff, `+    "x = 100\n",`) || strings.Contains(diff, "SECRET") {
		t.Errorf("git diff with textconv:\n%s", diff)
	}
	if log := run("log", "-p", "--textconv"); strings.Contains(log, "SECRET") {
		t.Errorf("git log -p shows an output:\n%s", log)
	}
}

// On every corpus notebook, strip gives what the reference gives
// (scripts/reference/strip_reference.py, Python nbformat): the same bytes
// where Python writes the file unchanged (MANIFEST ref "same"), the same
// JSON everywhere else; files the reference cannot read are stripped with
// no output left. Then strip is idempotent.
func TestStripCorpus(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	dir := corpus.Dir(t)
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		t.Skipf("Python nbformat not available: %v", err)
	}
	refDir := t.TempDir()
	out, err := exec.Command(py, filepath.Join("..", "..", "scripts", "reference", "strip_reference.py"), "--dir", dir, refDir).CombinedOutput()
	if err != nil {
		t.Fatalf("strip_reference.py: %v\n%s", err, out)
	}
	refErrors := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Split(l, "\t"); len(f) == 3 && f[0] == "error" {
			refErrors[f[1]] = true
		}
	}
	var same, equal, alone int
	for e, data := range corpus.Files(t) {
		got, _, err := stripNotebook(data, stripOptions{keys: strippedKeys})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if left, err := leftovers(got, checkRules{}); err != nil || len(left) > 0 {
			t.Errorf("%s: left %v %v", e.Path, left, err)
		}
		if again, changes, _ := stripNotebook(got, stripOptions{keys: strippedKeys}); !bytes.Equal(again, got) || len(changes) > 0 {
			t.Errorf("%s: stripping twice changes %v", e.Path, changes)
		}
		if refErrors[e.Path] {
			alone++
			continue
		}
		want, err := os.ReadFile(filepath.Join(refDir, e.Path))
		if err != nil {
			t.Errorf("%s: no reference: %v", e.Path, err)
			continue
		}
		if e.Ref == "same" {
			same++
			if !bytes.Equal(got, want) {
				t.Errorf("%s: differs from the reference:\n%s", e.Path, cmp.Diff(string(want), string(got)))
			}
			continue
		}
		gv, err1 := nbformat.Decode(got)
		wv, err2 := nbformat.Decode(want)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", e.Path, err1, err2)
			continue
		}
		if diff := cmp.Diff(wv, gv, cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("%s: JSON differs from the reference (-want +got):\n%s", e.Path, diff)
			continue
		}
		equal++
	}
	t.Logf("%d byte-identical to the reference, %d JSON-equal (other writers' styles kept), %d the reference cannot strip, stripped with no output left", same, equal, alone)
	if same == 0 {
		t.Error("no corpus file compared byte for byte")
	}
}
