package main

import (
	"strings"
	"testing"
)

// Names a notebook holds — metadata keys, attachment names, MIME types,
// stream names — are printed quoted when they hold a newline (as file
// names and pointers are: a Go string literal, see names.go), so that
// each conflict of check and merge, and each line of diff and textconv,
// stays one line. They were printed raw: a key "n\nl" split a conflict
// of check in two lines, and in diff a line without its +/- prefix.
func TestNotebookNamesStayOnOneLine(t *testing.T) {
	dir := t.TempDir()
	cell := func(v string) string {
		return `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {"k": {"n\nl": ` + v +
			`}}, "outputs": [], "source": ["x"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n"
	}
	base, ours, theirs := writeFileT(t, dir, "base.ipynb", cell("1")), writeFileT(t, dir, "ours.ipynb", cell("2")), writeFileT(t, dir, "theirs.ipynb", cell("3"))
	r := runWith("", "merge", base, ours, theirs)
	if r.code != exitFindings || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, `"metadata key k/n\nl"`) {
		t.Errorf("merge: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = runWith("", "check", ours)
	// A header, one line for the one conflict, the summary.
	if r.code != exitFindings || strings.Count(r.stdout, "\n") != 3 || !strings.Contains(r.stdout, `conflict recorded: "metadata key k/n\nl" at "/metadata/k/n\nl"`) {
		t.Errorf("check: exit %d, stdout:\n%s", r.code, r.stdout)
	}

	nb := writeFileT(t, dir, "names.ipynb", `{"cells": [
  {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["![x](attachment:a\nb.png)"],
   "attachments": {"a\nb.png": {"text/x\ny": "t"}}},
  {"cell_type": "code", "execution_count": 1, "id": "c", "metadata": {}, "source": ["x"], "outputs": [
   {"output_type": "stream", "name": "std\nout", "text": ["x"]},
   {"output_type": "display_data", "metadata": {}, "data": {"text/x\nq": "z"}}]}],
 "metadata": {"x\ny": 1}, "nbformat": 4, "nbformat_minor": 5}
`)
	empty := writeFileT(t, dir, "empty.ipynb", `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`+"\n")
	r = runWith("", "diff", empty, nb)
	for _, want := range []string{
		"+## attachment \"a\\nb.png\": \"text/x\\ny\", 1 B\n",
		"+## out: stream \"std\\nout\", 1 line ",
		"+## out: display_data: \"text/x\\nq\" 1 line ",
		"## notebook metadata: changed \"x\\ny\"\n",
		"+## meta \"x\\ny\" = 1\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("diff: no line %q in\n%s", want, r.stdout)
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")[2:] {
		if !strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "## ") {
			t.Errorf("diff: a line neither added nor a header: %q", l)
		}
	}
	r = runWith("", "diff", "--textconv", nb)
	for _, want := range []string{
		"## attachment \"a\\nb.png\": \"text/x\\ny\", 1 B\n",
		"## notebook metadata \"x\\ny\" = 1\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("textconv: no line %q in\n%s", want, r.stdout)
		}
	}
}
