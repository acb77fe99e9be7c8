package main

// Tests of md: readable text, languages, image files as nbconvert names them,
// and terminal codes removed as nbconvert removes them.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// md output is readable text: colour codes, titles and progress-bar
// rewrites are gone, an error shows its traceback once, code is fenced
// with the kernel's language.
func TestMarkdownText(t *testing.T) {
	t.Parallel()
	r := ipynb(t, "testdata", "", "md", "md-rich.ipynb")
	if r.code != 0 {
		t.Fatalf("md: %+v", r)
	}
	for _, want := range []string{
		"```R\nx\n```",
		"```text\nred plain\ndone\n100%\n```",
		"```text\n---------\nValueError: bad\n```",
		"[image/png output, 70 bytes]", // decoded: the PNG file's size
		"[image/svg+xml output, 41 bytes]",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("md lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.ContainsAny(r.stdout, "\x1b\r\x07") {
		t.Errorf("md output keeps terminal codes: %q", r.stdout)
	}
	if strings.Count(r.stdout, "ValueError") != 1 {
		t.Errorf("the error is shown more than once:\n%s", r.stdout)
	}
	// No files are written without --images or -o.
	if r.stderr != "" {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// Solveit dialogs (no kernelspec) are Python.
func TestMarkdownSolveitLanguage(t *testing.T) {
	t.Parallel()
	r := ipynb(t, shipped, "", "md", "dialog.ipynb")
	if !strings.Contains(r.stdout, "```python\n1+1\n```") {
		t.Errorf("md dialog.ipynb:\n%s", r.stdout)
	}
}

// --images writes output images and attachments as files and links them;
// an attachment's name cannot place a file outside the folder.
func TestMarkdownImages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "md-rich.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nb.ipynb"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := ipynb(t, dir, "", "md", "-o", "out/nb.md", "nb.ipynb")
	if r.code != 0 {
		t.Fatalf("md -o: %+v", r)
	}
	md, err := os.ReadFile(filepath.Join(dir, "out", "nb.md"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	want := []string{"nb.ipynb", "out/nb.md", "out/nb_files/attachment_0_a.png", "out/nb_files/attachment_0_evil.png", "out/nb_files/nb_1_1.png", "out/nb_files/nb_1_2.svg"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", files, want)
	}
	for _, link := range []string{"![pic](nb_files/attachment_0_a.png)", "![evil](nb_files/attachment_0_evil.png)", "![png](nb_files/nb_1_1.png)", "![svg](nb_files/nb_1_2.svg)"} {
		if !bytes.Contains(md, []byte(link)) {
			t.Errorf("Markdown lacks %s:\n%s", link, md)
		}
	}
	// The image files hold the decoded bytes of the notebook's data.
	var nb struct {
		Cells []struct {
			Outputs []struct{ Data map[string]string }
		}
	}
	if err := json.Unmarshal(src, &nb); err != nil {
		t.Fatal(err)
	}
	wantPNG, _ := base64.StdEncoding.DecodeString(nb.Cells[1].Outputs[1].Data["image/png"])
	if got, _ := os.ReadFile(filepath.Join(dir, "out", "nb_files", "nb_1_1.png")); !bytes.Equal(got, wantPNG) {
		t.Error("nb_1_1.png is not the output's image")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out", "nb_files", "nb_1_2.svg")); string(got) != nb.Cells[1].Outputs[2].Data["image/svg+xml"] {
		t.Error("nb_1_2.svg is not the output's SVG")
	}
}

// Output image files get nbconvert's names (NOTEBOOK_CELL_OUTPUT.EXT) and bytes: jupyter nbconvert
// --to markdown extracts the same files (skipped without nbconvert).
func TestMarkdownImagesMatchNbconvert(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("nbconvert takes seconds to start")
	}
	if exec.Command("/usr/bin/python3", "-c", "import nbconvert").Run() != nil {
		t.Skip("nbconvert not installed (apt-get install python3-nbconvert)")
	}
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "md-rich.ipynb"))
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), src, 0o644)
	cmd := exec.Command("/usr/bin/python3", "-m", "nbconvert", "--to", "markdown", "--output-dir", filepath.Join(dir, "py"), filepath.Join(dir, "nb.ipynb"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("nbconvert: %v\n%s", err, out)
	}
	if r := ipynb(t, dir, "", "md", "--images", "go", "nb.ipynb"); r.code != 0 {
		t.Fatalf("md --images: %+v", r)
	}
	pyFiles, _ := filepath.Glob(filepath.Join(dir, "py", "nb_files", "nb_*"))
	if len(pyFiles) == 0 {
		t.Fatal("nbconvert extracted nothing")
	}
	for _, p := range pyFiles {
		name := filepath.Base(p)
		if strings.HasSuffix(name, ".jpeg") {
			continue
		}
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(dir, "go", name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: ours differs from nbconvert's (%v)", name, err)
		}
	}
}

// plainText removes what nbconvert's strip_ansi removes (the table's
// expectations are its output, where it is installed: see
// TestPlainTextMatchesNbconvert).
var ansiCases = []struct{ in, want string }{
	{"\x1b[31mred\x1b[0m", "red"},
	{"\x1b[1;32;40mbold\x1b[m", "bold"},
	{"\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
	{"\x1b[2Kcleared", "cleared"},
	{"no codes", "no codes"},
}

func TestPlainText(t *testing.T) {
	t.Parallel()
	for _, c := range ansiCases {
		if got := plainText(c.in); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for in, want := range map[string]string{
		"\x1b]0;title\x07after":                    "after",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "link",
		"10%\r50%\r100%\n":                         "100%\n",
		"a\r\nb\r\n":                               "a\nb\n",
	} {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlainTextMatchesNbconvert(t *testing.T) {
	t.Parallel()
	if exec.Command("/usr/bin/python3", "-c", "import nbconvert").Run() != nil {
		t.Skip("nbconvert not installed")
	}
	var ins []string
	for _, c := range ansiCases {
		ins = append(ins, c.in)
	}
	in, _ := json.Marshal(ins)
	out, err := exec.Command("/usr/bin/python3", "-c", `import json,sys
from nbconvert.filters.ansi import strip_ansi
print(json.dumps([strip_ansi(s) for s in json.loads(sys.argv[1])]))`, string(in)).Output()
	if err != nil {
		t.Skipf("nbconvert: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range ansiCases {
		if got[i] != c.want {
			t.Errorf("nbconvert strips %q to %q, the table says %q", c.in, got[i], c.want)
		}
	}
}
