package main

// Tests that md puts HTML outputs as nbconvert's Markdown export does, and
// fences version 3 code with its language.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// text/html outputs are put in the Markdown as they are, before any other
// representation but for a reply, as nbconvert's Markdown export does
// (its display priority: HTML, Markdown, SVG, LaTeX, PNG, JPEG, plain
// text); a cell's magics_language names its fence.
func TestMarkdownHTMLOutputs(t *testing.T) {
	const table = "<table>\n<tr><th>a</th></tr>\n<tr><td>1</td></tr>\n</table>"
	nb := `{"cells": [
 {"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": [
  {"data": {"text/html": ` + jsonText(table+"\n") + `, "text/plain": "   a\n0  1"}, "execution_count": 1, "metadata": {}, "output_type": "execute_result"},
  {"data": {"text/markdown": "**md**", "text/plain": "md"}, "metadata": {}, "output_type": "display_data"},
  {"data": {"text/plain": "plain"}, "metadata": {}, "output_type": "display_data"}], "source": "df"},
 {"cell_type": "code", "execution_count": 2, "id": "c2", "metadata": {"magics_language": "R"}, "outputs": [], "source": "%%R\nx"},
 {"cell_type": "code", "execution_count": 3, "id": "c3", "metadata": {"magics_language": "a b"}, "outputs": [], "source": "y"}
], "metadata": {"kernelspec": {"display_name": "P", "language": "python", "name": "p"}}, "nbformat": 4, "nbformat_minor": 5}`
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(nb), 0o644)
	r := ipynb(t, dir, "", "md", "nb.ipynb")
	want := "```python\ndf\n```\n\n" + table + "\n\n**md**\n\n```text\nplain\n```\n\n```R\n%%R\nx\n```\n\n```python\ny\n```\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("md (exit %d):\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	// nbconvert (where installed) writes the HTML as it is too.
	if testing.Short() || exec.Command("/usr/bin/python3", "-c", "import nbconvert").Run() != nil {
		return
	}
	out, err := exec.Command("/usr/bin/python3", "-m", "nbconvert", "--to", "markdown", "--stdout", filepath.Join(dir, "nb.ipynb")).Output()
	if err != nil {
		t.Skipf("nbconvert: %v", err)
	}
	if !strings.Contains(string(out), table) {
		t.Errorf("nbconvert does not write the HTML as it is:\n%s", out)
	}
}

func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Version 3 notebooks of the corpus: code is fenced with the language
// their code cells name (read with encoding/json), which the upgrade to
// version 4 drops.
func TestMarkdownV3Language(t *testing.T) {
	dir := corpus.Dir(t)
	path := filepath.Join(dir, "ipython-books__cookbook-code", "notebooks", "chapter11_image", "02_filters.ipynb")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	var v3 struct {
		Nbformat   int
		Worksheets []struct {
			Cells []struct {
				CellType string `json:"cell_type"`
				Language string
				Input    any
			}
		}
	}
	if err := json.Unmarshal(data, &v3); err != nil || v3.Nbformat != 3 {
		t.Fatalf("not a version 3 notebook (%v)", err)
	}
	lang, code := "", 0
	for _, c := range v3.Worksheets[0].Cells {
		if c.CellType == "code" {
			lang = c.Language
			code++
		}
	}
	if lang == "" || code == 0 {
		t.Fatal("no code cell names a language: the test proves nothing")
	}
	r := ipynb(t, ".", "", "md", path)
	if n := strings.Count(r.stdout, "```"+lang+"\n"); r.code != 0 || n != code {
		t.Errorf("%d fences of %s, want %d (exit %d):\n%s", n, lang, code, r.code, r.stdout)
	}
}
