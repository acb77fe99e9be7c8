package main

// What ipynb diff shows of outputs (diffout.go): the text of a changed
// output as a line diff, images by pixel size and bytes, metadata by
// nested path compared as JSON values, within caps.

import (
	"bytes"
	"encoding/base64"
	binenc "encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/corpus"
)

// golden compares got with testdata/golden/NAME.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// pngOf is a w×h PNG made with the standard library's encoder.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{R: uint8(x), A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeaderSize reads a PNG's size from its IHDR chunk (bytes 16–24, as
// the PNG specification places them).
func pngHeaderSize(t *testing.T, b64 string) (w, h uint32, n int) {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
	if err != nil || len(b) < 24 || string(b[12:16]) != "IHDR" {
		t.Fatalf("not a PNG (%v)", err)
	}
	return binenc.BigEndian.Uint32(b[16:20]), binenc.BigEndian.Uint32(b[20:24]), len(b)
}

func kB(n int) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }

// A Colab notebook of the corpus (2-space indent, keys unsorted) written
// again with encoding/json (indent 1, keys sorted: every cell's bytes
// change), then edited: a plot replaced by one of another size, the
// colab.height it was shown at changed, a progress bar in colour added
// to a printed stream, a value in a printed array changed, a model's
// repr changed (text/plain and text/html), a traceback in colour added,
// and a number respelled
// (80 as 80.0). Only the edits show, each as what it became.
func TestDiffOutputsOfCorpusEdit(t *testing.T) {
	src := filepath.Join(corpus.Dir(t), "rickiepark__hg-mldl", "2-1.ipynb")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skip(err)
	}
	nb := decodeJSON(t, data)
	out := func(cell int) map[string]any { return cellOf(nb, cell)["outputs"].([]any)[0].(map[string]any) }
	plot := out(23)["data"].(map[string]any)
	wantW, wantH, oldBytes := pngHeaderSize(t, strings.Join(toStrings(plot["image/png"]), ""))
	newPNG := pngOf(t, 300, 200)
	plot["image/png"] = base64.StdEncoding.EncodeToString(newPNG)
	cellOf(nb, 23)["metadata"].(map[string]any)["colab"].(map[string]any)["height"] = 400
	stream := out(6)
	stream["text"] = append([]any{"\x1b[32mtraining\x1b[0m 10%\r50%\r100%\n"}, stream["text"].([]any)...)
	model := out(25)["data"].(map[string]any)
	plain := strings.Join(toStrings(model["text/plain"]), "")
	html := strings.Join(toStrings(model["text/html"]), "")
	if plain != "KNeighborsClassifier()" || !strings.Contains(html, "KNeighborsClassifier()") {
		t.Fatalf("cell 26's output: %q", plain)
	}
	model["text/plain"] = "KNeighborsClassifier(n_neighbors=3)"
	model["text/html"] = strings.ReplaceAll(html, "KNeighborsClassifier()", "KNeighborsClassifier(n_neighbors=3)")
	array := out(15)
	array["text"] = strings.Replace(strings.Join(toStrings(array["text"]), ""), "26.3", "26.9", 1)
	cellOf(nb, 26)["outputs"] = append(cellOf(nb, 26)["outputs"].([]any), map[string]any{
		"output_type": "error", "ename": "ValueError", "evalue": "bad",
		"traceback": []any{"\x1b[0;31m---------\x1b[0m", "\x1b[0;31mValueError\x1b[0m: bad"},
	})
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b = replaceOnce(t, b, `"height": 80`, `"height": 80.0`)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.ipynb"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), append(b, '\n'), 0o644)

	r := ipynb(t, dir, "", "diff", "a.ipynb", "b.ipynb")
	if r.code != 1 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "diff-outputs-colab", r.stdout)
	for _, l := range []string{
		fmt.Sprintf(" ## image/png: %d×%d px, %s → 300×200 px, %s", wantW, wantH, kB(oldBytes), kB(len(newPNG))),
		" ## meta colab.height: 449 → 400",
		"+100%",                                                       // as Jupyter shows it: no colour, the text after the last carriage return
		"- [  26.3  290. ]", "+ [  26.9  290. ]", " [[  25.4  242. ]", // with context
		" ## text/plain", "-KNeighborsClassifier()", "+KNeighborsClassifier(n_neighbors=3)", " ## text/html",
		"+## out: error ValueError: bad #", "+---------", "+ValueError: bad",
	} {
		if !strings.Contains("\n"+r.stdout, "\n"+l) {
			t.Errorf("no line %q in:\n%s", l, r.stdout)
		}
	}
	for _, s := range []string{"base_uri", "height: 80", "\x1b", "\r"} {
		if strings.Contains(r.stdout, s) {
			t.Errorf("shows %q, which did not change or is a terminal code:\n%s", s, r.stdout)
		}
	}
	// 5 cells changed, nothing else: the keys reordered and respaced
	// everywhere are no change.
	if n := strings.Count(r.stdout, "\n## "); n != 5 {
		t.Errorf("%d cells changed, want 5:\n%s", n, r.stdout)
	}
}

func toStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var ss []string
		for _, e := range v {
			s, _ := e.(string)
			ss = append(ss, s)
		}
		return ss
	}
	return nil
}

// Real pairs of ../shared/merges (base and ours): a .NET notebook whose
// revision added 12,000 lines of HTML output and removed 1,600, and an
// nbdev notebook whose revision removed a traceback and changed
// Markdown outputs and a printed list. The text shows each output's
// change under its summary within the caps, and every line of every
// source change whatever the outputs.
func TestDiffOutputsOfRealPairs(t *testing.T) {
	t.Parallel()
	s := corpus.Shared()
	if s == "" {
		t.Skip("../shared not present")
	}
	blob := func(id string) string { return filepath.Join(s, "merges", "blobs", id+".ipynb") }
	for _, c := range []struct{ name, a, b string }{
		{"extensionlab", "76e13f36f1b968cbc364aa008becbef6e477ed47", "36b5a2b5554cbb51b326365eaf807a9252c4c073"},
		{"showdoc", "2d800de155306faf8e5849403b7f9ff45566b2c4", "97b2da9cbb7715159c0348deb5b0d096b310685d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := blob(c.a), blob(c.b)
			if _, err := os.Stat(a); err != nil {
				t.Skip(err)
			}
			r := ipynb(t, ".", "", "diff", a, b)
			if r.code != 1 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			got := strings.ReplaceAll(r.stdout, s, "SHARED")
			golden(t, "diff-outputs-"+c.name, got)
			all := ipynb(t, ".", "", "diff", "--output-lines", "100000000", "--cell-lines", "100000000", a, b)
			sources := ipynb(t, ".", "", "diff", "--show", "sources", a, b)
			shownLines, allLines := strings.Count(r.stdout, "\n"), strings.Count(all.stdout, "\n")
			t.Logf("%d lines shown, %d with all outputs, %d of sources", shownLines, allLines, strings.Count(sources.stdout, "\n"))
			// Every line of the sources' changes is shown.
			for _, l := range strings.Split(sources.stdout, "\n") {
				if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") && !strings.Contains("\n"+r.stdout, "\n"+l+"\n") {
					t.Errorf("source line %q not shown", l)
				}
			}
			// What the caps leave out is counted: the lines said to be
			// left out and those shown are the lines of all.
			left := 0
			for _, l := range strings.Split(r.stdout, "\n") {
				var n int
				if _, err := fmt.Sscanf(l[min(len(l), 1):], "## … %d more", &n); err == nil {
					left += n - 1 // the counting line stands for them
				}
			}
			if shownLines+left != allLines {
				t.Errorf("%d lines shown + %d left out ≠ %d lines of all", shownLines, left, allLines)
			}
		})
	}
}

// --show and --hide select the parts of cells shown (a cell changed
// only in hidden parts is no change), --output-lines and --cell-lines
// cap what is shown under output summaries; bad values are usage
// errors.
func TestDiffShowFlags(t *testing.T) {
	t.Parallel()
	dir := diffPair(t)
	for _, c := range []struct {
		args     []string
		code     int
		has, not []string
	}{
		{[]string{"--show", "sources"}, 1, []string{"-1+1", "+New", "## code e5f6a7b8 [4] (cell 5): removed"}, []string{"## out:", "## meta", "notebook metadata", "changed outputs"}},
		{[]string{"--hide", "outputs,metadata"}, 1, []string{"-1+1"}, []string{"## out:", "changed outputs", "changed metadata"}},
		{[]string{"--show", "outputs"}, 1, []string{"-hello", "+bye", "-## out: error ZeroDivisionError"}, []string{"-1+1", "-1/0", "changed content"}},
		{[]string{"--show", "metadata"}, 1, []string{"+## meta tags = [\"x\"]", "notebook metadata"}, []string{"-hello", "-1+1"}},
		{[]string{"--output-lines", "0"}, 1, []string{"-## out: stream stdout, 1 line"}, []string{"-hello", "more line"}},
		{[]string{"--show", "sauces"}, 2, nil, nil},
		{[]string{"--output-lines", "-1"}, 2, nil, nil},
		{[]string{"--cell-lines", "x"}, 2, nil, nil},
	} {
		r := ipynb(t, dir, "", append(append([]string{"diff"}, c.args...), "a.ipynb", "b.ipynb")...)
		if r.code != c.code {
			t.Errorf("%v: exit %d, want %d: %s", c.args, r.code, c.code, r.stderr)
			continue
		}
		if c.code == 2 {
			if !strings.Contains(r.stderr, "ipynb diff: invalid value") || !strings.Contains(r.stderr, "--help") {
				t.Errorf("%v: usage error %q", c.args, r.stderr)
			}
			continue
		}
		for _, l := range c.has {
			if !strings.Contains(r.stdout, l) {
				t.Errorf("%v: no %q in:\n%s", c.args, l, r.stdout)
			}
		}
		for _, l := range c.not {
			if strings.Contains(r.stdout, l) {
				t.Errorf("%v: %q shown:\n%s", c.args, l, r.stdout)
			}
		}
	}
	if r := ipynb(t, dir, "", "diff", "--show", "sauces", "a.ipynb", "b.ipynb"); !strings.Contains(r.stderr, "did you mean sources?") {
		t.Errorf("no suggestion: %s", r.stderr)
	}
	// Only outputs differ, and outputs are hidden: the same, exit 0.
	data, _ := os.ReadFile(filepath.Join(dir, "a.ipynb"))
	os.WriteFile(filepath.Join(dir, "c.ipynb"), replaceOnce(t, data, `"hello\n"`, `"bye\n"`), 0o644)
	if r := ipynb(t, dir, "", "diff", "--hide", "outputs", "a.ipynb", "c.ipynb"); r.code != 0 || r.stdout != "" {
		t.Errorf("--hide outputs, outputs changed: %+v", r)
	}
	if r := ipynb(t, dir, "", "diff", "--hide", "outputs", "--json", "a.ipynb", "c.ipynb"); r.code != 0 || !strings.Contains(r.stdout, `"same": true`) {
		t.Errorf("--hide outputs --json: %+v", r)
	}
}

// A stream's change is the line diff git shows of its two texts
// (git diff --no-index, the hunks alike), capped with a count of what is
// left out; the caps per output and per cell hold.
func TestDiffOutputTextAgreesWithGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	var a, b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&a, "line %d\n", i)
		switch {
		case i == 5:
			b.WriteString("changed 5\n")
		case i == 30:
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	b.WriteString("added\n")
	nbOf := func(texts ...string) string {
		var outs []string
		for _, s := range texts {
			j, _ := json.Marshal(s)
			outs = append(outs, `{"name": "stdout", "output_type": "stream", "text": `+string(j)+`}`)
		}
		return `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": [` + strings.Join(outs, ", ") + `], "source": "run()"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.ipynb"), []byte(nbOf(a.String())), 0o644)
	os.WriteFile(filepath.Join(dir, "b.ipynb"), []byte(nbOf(b.String())), 0o644)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte(a.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte(b.String()), 0o644)
	out, _ := exec.Command("git", "-C", dir, "diff", "--no-index", "--no-color", "a.txt", "b.txt").Output()
	_, hunks, ok := strings.Cut(string(out), "+++ b/b.txt\n")
	if !ok {
		t.Fatalf("git diff: %s", out)
	}
	// Git names the line before a hunk after its header (the function
	// context of diff.*.xfuncname), which is not part of the diff.
	hunks = regexp.MustCompile(`(?m)^(@@ [^@]* @@).*$`).ReplaceAllString(hunks, "$1")
	r := ipynb(t, dir, "", "diff", "--output-lines", "1000", "a.ipynb", "b.ipynb")
	if !strings.Contains(r.stdout, "+## out: stream stdout, 40 lines #") || !strings.HasSuffix(r.stdout, "\n"+hunks) {
		t.Errorf("the stream's diff is not git's:\n%s\nwant, after the summaries:\n%s", r.stdout, hunks)
	}
	gitLines := strings.Count(hunks, "\n")
	for _, c := range []struct{ output, cell, shown int }{{5, 60, 5}, {100, 3, 3}, {0, 60, 0}} {
		r := ipynb(t, dir, "", "diff", "--output-lines", fmt.Sprint(c.output), "--cell-lines", fmt.Sprint(c.cell), "a.ipynb", "b.ipynb")
		_, body, _ := strings.Cut(r.stdout, "+## out: stream stdout, 40 lines")
		body = body[strings.Index(body, "\n")+1:]
		want := strings.Join(strings.SplitAfter(hunks, "\n")[:c.shown], "")
		if c.output > 0 {
			want += fmt.Sprintf(" ## … %d more lines\n", gitLines-c.shown)
		}
		if body != want {
			t.Errorf("caps %d/%d: shown\n%s\nwant\n%s", c.output, c.cell, body, want)
		}
	}
	// Two outputs share a cell's cap.
	os.WriteFile(filepath.Join(dir, "c.ipynb"), []byte(nbOf(a.String(), a.String())), 0o644)
	os.WriteFile(filepath.Join(dir, "d.ipynb"), []byte(nbOf(b.String(), b.String())), 0o644)
	r = ipynb(t, dir, "", "diff", "--output-lines", "4", "--cell-lines", "6", "c.ipynb", "d.ipynb")
	if got := strings.Count(r.stdout, "\n") - 3 - 4 - 2; got != 6 {
		t.Errorf("%d lines under the summaries, want 6 (the cell's cap) and two counts:\n%s", got, r.stdout)
	}
}

// Metadata is compared as JSON values: respaced, reordered or respelled
// numbers are no change of a cell; a nested change is shown by its path.
func TestDiffMetadataByValue(t *testing.T) {
	t.Parallel()
	const a = `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {"colab": {"height": 300, "base_uri": "x"}, "n": [1, 2.5]}, "outputs": [], "source": "x"}], "metadata": {"k": {"a": 1, "b": {"c": 1e2}}}, "nbformat": 4, "nbformat_minor": 5}`
	same := `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {"n": [1.0, 25e-1], "colab": {"base_uri": "x",   "height": 300.0}}, "outputs": [], "source": "x"}], "metadata": {"k": {"b": {"c": 100}, "a": 1}}, "nbformat": 4, "nbformat_minor": 5}`
	changed := `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {"colab": {"height": 400, "base_uri": "x", "new": true}, "n": [1, 2.5]}, "outputs": [], "source": "x"}], "metadata": {"k": {"b": {"c": 1e2}}}, "nbformat": 4, "nbformat_minor": 5}`
	dir := t.TempDir()
	for n, s := range map[string]string{"a": a, "same": same, "changed": changed} {
		os.WriteFile(filepath.Join(dir, n+".ipynb"), []byte(s), 0o644)
	}
	// No cell changed: the line saying how the files differ (diffhidden.go)
	// says only the formatting does (300 is 300.0, as docs/git.md has it).
	if r := ipynb(t, dir, "", "diff", "a.ipynb", "same.ipynb"); r.code != 0 || strings.Count(r.stdout, "\n") != 3 || !strings.Contains(r.stdout, "\n## the same notebook: only the formatting of its JSON differs") {
		t.Errorf("equal values shown as changes: %+v", r)
	}
	if r := ipynb(t, dir, "", "diff", "--json", "a.ipynb", "same.ipynb"); !strings.Contains(r.stdout, `"same": true`) {
		t.Errorf("equal values, --json: %+v", r)
	}
	r := ipynb(t, dir, "", "diff", "a.ipynb", "changed.ipynb")
	want := "--- a.ipynb\n+++ changed.ipynb\n## code c1 (cell 1): changed metadata\n" +
		" ## meta colab.height: 300 → 400\n+## meta colab.new = true\n" +
		"## notebook metadata: changed k\n-## meta k.a = 1\n"
	if r.code != 1 || r.stdout != want {
		t.Errorf("exit %d:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
}

// Image sizes as the headers say, checked against the standard library's
// encoders and SVG's attributes.
func TestImageInfo(t *testing.T) {
	t.Parallel()
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	pngText := b64(pngOf(t, 33, 7))
	// Notebooks split base64 in lines.
	split := pngText[:10] + "\n" + pngText[10:]
	for _, c := range []struct {
		mime string
		v    any
		want string
	}{
		{"image/png", pngText, fmt.Sprintf("33×7 px, %d B", len(pngOf(t, 33, 7)))},
		{"image/png", []any{split}, fmt.Sprintf("33×7 px, %d B", len(pngOf(t, 33, 7)))},
		{"image/jpeg", jpegData, "1×1 px, 160 B"},
		{"image/png", "bm90IGFuIGltYWdl", "12 B"}, // "not an image"
		{"image/svg+xml", `<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg" width="400pt" height="300pt" viewBox="0 0 400 300"></svg>`, "400pt×300pt, 128 B"},
		{"image/svg+xml", `<svg viewBox=" 0 0  40 30 "/>`, "viewBox 0 0 40 30, 29 B"},
		{"image/svg+xml", `<html><svg width="1" height="1"/></html>`, "40 B"},
	} {
		if got := imageInfo(c.mime, c.v); got != c.want {
			t.Errorf("imageInfo(%s, %.40q) = %q, want %q", c.mime, c.v, got, c.want)
		}
	}
	jb, _ := base64.StdEncoding.DecodeString(jpegData)
	if len(jb) != 160 {
		t.Errorf("the JPEG is %d bytes", len(jb))
	}
}
