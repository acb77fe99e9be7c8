package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Through git, in a real repository with ipynb git install: git diff
// (the diff driver) and git log -p (the textconv) show what an output
// became — a stream's new lines, an image's new size — and the textconv
// caps a long output, counting what it leaves out.
func TestGitDiffShowsOutputs(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	var long strings.Builder
	for i := range 50 {
		fmt.Fprintf(&long, "epoch %d\n", i)
	}
	nbOf := func(stream string, img []byte, height int) []byte {
		s, _ := json.Marshal(stream)
		l, _ := json.Marshal(long.String())
		return []byte(`{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {"colab": {"height": ` + fmt.Sprint(height) + `}}, "outputs": [` +
			`{"name": "stdout", "output_type": "stream", "text": ` + string(s) + `}, ` +
			`{"data": {"image/png": "` + base64.StdEncoding.EncodeToString(img) + `", "text/plain": "<Figure>"}, "metadata": {}, "output_type": "display_data"}], "source": "train()"},` +
			`{"cell_type": "code", "execution_count": 2, "id": "c2", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ` + string(l) + `}], "source": "log()"}` +
			`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n")
	}
	small, big := pngOf(t, 4, 3), pngOf(t, 40, 30)
	commitFile(t, dir, "nb.ipynb", nbOf("loss 0.9\n", small, 300), "first run")
	commitFile(t, dir, "nb.ipynb", nbOf("loss 0.9\nloss 0.5\n", big, 400), "second run")

	d := gitIn(t, dir, "diff", "HEAD~1", "HEAD")
	for _, l := range []string{
		"## code c1 [1] (cell 1): changed outputs, metadata",
		"+loss 0.5",
		fmt.Sprintf(" ## image/png: 4×3 px, %d B → 40×30 px, %d B", len(small), len(big)),
		" ## meta colab.height: 300 → 400",
	} {
		if !strings.Contains(d, "\n"+l+"\n") {
			t.Errorf("git diff: no line %q:\n%s", l, d)
		}
	}

	logp := gitIn(t, dir, "log", "-p", "-1")
	for _, l := range []string{
		"+loss 0.5",
		fmt.Sprintf("-## out: display_data: image/png 4×3 px, %d B, text/plain 1 line \"<Figure>\" #", len(small)),
		fmt.Sprintf("+## out: display_data: image/png 40×30 px, %d B, text/plain 1 line \"<Figure>\" #", len(big)),
	} {
		if !strings.Contains(logp, "\n"+l) {
			t.Errorf("git log -p: no line %q:\n%s", l, logp)
		}
	}
	// The textconv shows the first 20 lines of the long output, and
	// counts the 30 others.
	tc := ipynb(t, dir, "", "diff", "--textconv", "nb.ipynb")
	if !strings.Contains(tc.stdout, "\nepoch 19\n## … 30 more lines\n") || strings.Contains(tc.stdout, "epoch 20") {
		t.Errorf("textconv of a long output:\n%s", tc.stdout)
	}
	if tc := ipynb(t, dir, "", "diff", "--textconv", "--output-lines", "100", "nb.ipynb"); !strings.Contains(tc.stdout, "\nepoch 49\n") {
		t.Errorf("textconv --output-lines 100:\n%s", tc.stdout)
	}
}
