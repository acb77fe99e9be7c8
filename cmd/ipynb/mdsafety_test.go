package main

// Tests of md's safety: never through links, never over the notebook, links
// encoded as nbconvert's, safe fences, linear cost, long names.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/convert"
)

// pngData is a 1×1 PNG, base64 as notebooks hold it.
const pngData = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// jpegData is a 1×1 JPEG.
const jpegData = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q=="

// imageNotebook has n code cells, each with one PNG output, and a note
// with an attachment referenced percent-encoded (as Jupyter writes a
// name with a space).
func imageNotebook(n int) string {
	var b strings.Builder
	b.WriteString(`{"cells": [{"cell_type": "markdown", "id": "m", "metadata": {}, "attachments": {"my pic.png": {"image/png": "` + pngData + `"}}, "source": "![x](attachment:my%20pic.png)"}`)
	for i := range n {
		fmt.Fprintf(&b, `, {"cell_type": "code", "execution_count": 1, "id": "c%d", "metadata": {}, "outputs": [{"data": {"image/png": "%s", "text/plain": "<Figure>"}, "metadata": {}, "output_type": "display_data"}], "source": "plot()"}`, i, pngData)
	}
	b.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	return b.String()
}

// md --images never writes through a symbolic link it finds in the folder
// (one leading out of it, or dangling): the link is replaced by the
// image, and the file it led to is unchanged (nothing is created where a
// dangling one led).
func TestMarkdownImagesNeverThroughLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(imageNotebook(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside.txt")
	os.WriteFile(outside, []byte("SECRET"), 0o644)
	img := filepath.Join(dir, "img")
	os.Mkdir(img, 0o755)
	if err := os.Symlink(outside, filepath.Join(img, "nb_1_0.png")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	dangling := filepath.Join(dir, "created-by-md")
	os.Symlink(dangling, filepath.Join(img, "nb_2_0.png"))
	os.Symlink(filepath.Join(dir, "also-outside.png"), filepath.Join(img, "attachment_0_my pic.png"))

	if r := ipynb(t, dir, "", "md", "--images", "img", "nb.ipynb"); r.code != 0 {
		t.Fatalf("md --images: %+v", r)
	}
	if got, _ := os.ReadFile(outside); string(got) != "SECRET" {
		t.Errorf("the file a link in the images folder led to was overwritten: %q", got)
	}
	for _, p := range []string{dangling, filepath.Join(dir, "also-outside.png")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("md created %s, outside its folder", p)
		}
	}
	want, _ := base64.StdEncoding.DecodeString(pngData)
	for _, n := range []string{"nb_1_0.png", "nb_2_0.png", "attachment_0_my pic.png"} {
		p := filepath.Join(img, n)
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: not a regular file (%v, %v)", n, fi, err)
			continue
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, want) {
			t.Errorf("%s: not the image", n)
		}
	}
	// No temporary file is left.
	ents, _ := os.ReadDir(img)
	if len(ents) != 3 {
		t.Errorf("images folder holds %d entries, want 3", len(ents))
	}

	// The folder md derives from -o (NOTES_files) is not followed when it
	// is a link; a folder named with --images is.
	os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "notes_files"))
	r := ipynb(t, dir, "", "md", "-o", "notes.md", "nb.ipynb")
	if r.code != exitError || !strings.Contains(r.stderr, "notes_files: is a symbolic link") {
		t.Errorf("md -o notes.md with notes_files a link: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Error("md wrote through the notes_files link")
	}
}

// md never replaces the notebook it reads: -o naming it, or a link or a
// hard link to it, is refused, and the notebook keeps its bytes.
func TestMarkdownNeverOverwritesNotebook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := filepath.Join(dir, "nb.ipynb")
	src := []byte(imageNotebook(1))
	os.WriteFile(nb, src, 0o644)
	os.Symlink("nb.ipynb", filepath.Join(dir, "link.md"))
	os.Link(nb, filepath.Join(dir, "hard.md"))
	for _, o := range []string{"nb.ipynb", "./nb.ipynb", "link.md", "hard.md"} {
		r := ipynb(t, dir, "", "md", "-o", o, "nb.ipynb")
		if r.code != exitError || !strings.Contains(r.stderr, "is the notebook being read") {
			t.Errorf("md -o %s nb.ipynb: %+v", o, r)
		}
		if got, _ := os.ReadFile(nb); !bytes.Equal(got, src) {
			t.Fatalf("md -o %s overwrote the notebook", o)
		}
	}
	// An image named as the notebook (an attachment's file,
	// attachment_CELL_NAME) is refused too.
	const named = "attachment_0_my pic.png"
	os.WriteFile(filepath.Join(dir, named), src, 0o644)
	r := ipynb(t, dir, "", "md", "--images", ".", named)
	if r.code != exitError || !strings.Contains(r.stderr, "is the notebook being read") {
		t.Errorf("md --images . %q: %+v", named, r)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, named)); !bytes.Equal(got, src) {
		t.Error("md overwrote the notebook with an image")
	}
	// -o - is standard output.
	if r := ipynb(t, dir, "", "md", "-o", "-", "nb.ipynb"); r.code != 0 || !strings.Contains(r.stdout, "plot()") {
		t.Errorf("md -o -: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("md -o - wrote a file named -")
	}
}

// md -o naming a folder is refused before anything is written (it wrote
// the images into "_files" beside it, then failed), and an error about
// the file does not repeat its path.
func TestMarkdownOutputFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(imageNotebook(1)), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for _, o := range []string{".", "sub", "sub/"} {
		r := ipynb(t, dir, "", "md", "-o", o, "nb.ipynb")
		if r.code != exitError || r.stderr != "ipynb md: -o "+o+": is a folder\n" {
			t.Errorf("md -o %s: %+v", o, r)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("md -o FOLDER wrote files: %v", ents)
	}
	r := ipynb(t, dir, "", "md", "-o", "missing/sub/x.md", "--images", "img", "nb.ipynb")
	if r.code != exitError || strings.Count(r.stderr, "missing/sub/x.md") != 1 {
		t.Errorf("md -o into a missing folder: %+v", r)
	}
}

// Links to images and attachments are percent-encoded as nbconvert
// encodes them: jupyter nbconvert --to markdown on a notebook whose name
// has spaces and parentheses writes the same links (skipped without
// nbconvert).
func TestMarkdownLinksMatchNbconvert(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("nbconvert takes seconds to start")
	}
	if exec.Command("/usr/bin/python3", "-c", "import nbconvert").Run() != nil {
		t.Skip("nbconvert not installed (apt-get install python3-nbconvert)")
	}
	dir := t.TempDir()
	name := "My Notebook (v2) ü#%"
	// Two PNG outputs and a JPEG one.
	nb := strings.Replace(imageNotebook(2), `], "metadata": {}, "nbformat"`, `, {"cell_type": "code", "execution_count": 1, "id": "j", "metadata": {}, "outputs": [{"data": {"image/jpeg": "`+jpegData+`", "text/plain": "<Figure>"}, "metadata": {}, "output_type": "display_data"}], "source": "plot()"}], "metadata": {}, "nbformat"`, 1)
	os.WriteFile(filepath.Join(dir, name+".ipynb"), []byte(nb), 0o644)
	py := filepath.Join(dir, "py")
	cmd := exec.Command("/usr/bin/python3", "-m", "nbconvert", "--to", "markdown", "--output-dir", py, filepath.Join(dir, name+".ipynb"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("nbconvert: %v\n%s", err, out)
	}
	pyMD, err := os.ReadFile(filepath.Join(py, name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	r := ipynb(t, dir, "", "md", "-o", filepath.Join("go", name+".md"), name+".ipynb")
	if r.code != 0 {
		t.Fatalf("md -o: %+v", r)
	}
	goMD, _ := os.ReadFile(filepath.Join(dir, "go", name+".md"))
	link := regexp.MustCompile(`!\[(?:png|jpeg)\]\(([^)]*)\)`)
	want, got := link.FindAllStringSubmatch(string(pyMD), -1), link.FindAllStringSubmatch(string(goMD), -1)
	if len(want) != 3 || len(got) != 3 {
		t.Fatalf("image links: nbconvert %q, ours %q", want, got)
	}
	for i := range want {
		if got[i][0] != want[i][0] {
			t.Errorf("link %d: %s, nbconvert writes %s", i, got[i][0], want[i][0])
		}
		// And the link leads to the file.
		if _, err := os.Stat(filepath.Join(dir, "go", strings.ReplaceAll(unescapeURL(t, got[i][1]), "/", string(filepath.Separator)))); err != nil {
			t.Errorf("link %s leads nowhere: %v", got[i][1], err)
		}
	}
	// The attachment, referenced as attachment:my%20pic.png, is linked to
	// its file, encoded the same way.
	if !strings.Contains(string(goMD), "![x](My%20Notebook%20%28v2%29%20%C3%BC%23%25_files/attachment_0_my%20pic.png)") {
		t.Errorf("attachment link:\n%s", goMD)
	}
}

func unescapeURL(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			var c byte
			fmt.Sscanf(s[i+1:i+3], "%02X", &c)
			b.WriteByte(c)
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// A notebook's language cannot end the code fence or add lines: a
// kernelspec language with backticks and newlines is left out of the
// info string.
func TestMarkdownLanguageCannotBreakFence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c", "metadata": {}, "outputs": [], "source": "x = 1"}], "metadata": {"kernelspec": {"display_name": "k", "language": "python` + "```" + `\n# Injected\n<script>alert(1)</script>\n` + "```" + `", "name": "k"}}, "nbformat": 4, "nbformat_minor": 5}`
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(nb), 0o644)
	r := ipynb(t, dir, "", "md", "nb.ipynb")
	if r.code != 0 {
		t.Fatalf("md: %+v", r)
	}
	if r.stdout != "```\nx = 1\n```\n" {
		t.Errorf("md with a hostile language:\n%s", r.stdout)
	}
	// Ordinary names stay.
	for _, lang := range []string{"python", "R", "c++", "c#", "objective-c", "julia"} {
		if got := language(map[string]any{"kernelspec": map[string]any{"language": lang}}); got != lang {
			t.Errorf("language %q: %q", lang, got)
		}
	}
}

// md takes time and memory in proportion to the notebook: the bytes
// allocated to render n outputs in one cell, n cells, or n attachments of
// one file name, grow in proportion to n (rendering built the text by
// repeated concatenation: 2.8 s for 20,000 outputs, 15 s for 40,000, 47 s
// for 80,000; each same-named attachment tried every earlier number:
// 2.5 s of CPU for 5,000, 12 s for 10,000, 58 s for 20,000).
func TestMarkdownScales(t *testing.T) {
	shapes := map[string]func(n int) string{
		"outputs": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c", "metadata": {}, "source": "x", "outputs": [`)
			for i := range n {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `{"name": "stdout", "output_type": "stream", "text": "line %d\n"}`, i)
			}
			b.WriteString(`]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
			return b.String()
		},
		"cells": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"cells": [`)
			for i := range n {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `{"cell_type": "markdown", "id": "m%d", "metadata": {}, "source": "note %d"}`, i, i)
			}
			b.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
			return b.String()
		},
		// n attachments whose names all come down to one file name
		// (d0/x.png, d1/x.png, …), with --images: x.png, x_2.png, …
		"same-name-attachments": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"cells": [{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "x", "attachments": {`)
			for i := range n {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `"d%d/x.png": {"image/png": "iVBORw0KGgo="}`, i)
			}
			b.WriteString(`}}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
			return b.String()
		},
	}
	for name, gen := range shapes {
		t.Run(name, func(t *testing.T) {
			var first, last uint64
			const from, to = 2000, 16000
			for n := from; n <= to; n *= 2 {
				d, err := convert.Unmarshal([]byte(gen(n)), convert.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				r := &mdRenderer{dir: "img", link: "img", stem: "nb"}
				text := r.markdown(d.Dialog)
				runtime.ReadMemStats(&after)
				if name == "same-name-attachments" {
					names := map[string]bool{}
					for _, f := range r.files {
						names[f.name] = true
					}
					if len(names) != n || !names["attachment_0_x.png"] || !names[fmt.Sprintf("attachment_0_x_%d.png", n)] {
						t.Fatalf("n=%d: %d distinct file names for %d attachments", n, len(names), n)
					}
				} else if !strings.Contains(text, fmt.Sprint(n-1)) {
					t.Fatalf("n=%d: the last item is missing", n)
				}
				alloc := after.TotalAlloc - before.TotalAlloc
				t.Logf("n=%d: %d bytes", n, alloc)
				if first == 0 {
					first = alloc
				}
				last = alloc
			}
			// Linear: 8× the size, about 8× the bytes (quadratic: 64×).
			if ratio := float64(last) / float64(first); ratio > 1.6*to/from {
				t.Errorf("%d× the size allocates %.1f× the bytes (want about %d×)", to/from, ratio, to/from)
			}
		})
	}
}

// pyQuote agrees with Python's urllib.parse.quote(s, safe="") (skipped
// without Python).
func TestPyQuoteMatchesPython(t *testing.T) {
	t.Parallel()
	ins := []string{"plain", "My Notebook (v2)", "ü#%?&=+", "a/b", "tab\there", "~_.-", "日本"}
	cmd := exec.Command("/usr/bin/python3", "-c", `import sys, urllib.parse
for l in sys.stdin.read().split("\0"):
    print(urllib.parse.quote(l, safe=""))`)
	cmd.Stdin = strings.NewReader(strings.Join(ins, "\x00"))
	out, err := cmd.Output()
	if err != nil {
		t.Skip("python3:", err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, s := range ins {
		if got := pyQuote(s); got != want[i] {
			t.Errorf("pyQuote(%q) = %q, Python %q", s, got, want[i])
		}
	}
}

// Names too long for a file name (an attachment named with 300
// characters, a notebook whose name is 240 bytes) are shortened, the
// extension kept, instead of md failing ("file name too long").
func TestMarkdownLongNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("a", 300) + ".png"
	wide := strings.Repeat("é", 150) + ".png"
	nb := `{"cells": [{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "![x](attachment:` + long + `) ![y](attachment:` + wide + `)", "attachments": {"` + long + `": {"image/png": "` + pngData + `"}, "` + wide + `": {"image/png": "` + pngData + `"}}}, {"cell_type": "code", "execution_count": 1, "id": "c", "metadata": {}, "outputs": [{"data": {"image/png": "` + pngData + `"}, "metadata": {}, "output_type": "display_data"}], "source": "x"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	name := strings.Repeat("n", 240) + ".ipynb"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(nb), 0o644); err != nil {
		t.Skip("the file system refuses a 246-byte name:", err)
	}
	r := ipynb(t, dir, "", "md", "--images", "img", name)
	if r.code != 0 {
		t.Fatalf("md: %+v", r)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "img"))
	if len(ents) != 3 {
		t.Fatalf("%d files written, want 3", len(ents))
	}
	for _, e := range ents {
		if n := e.Name(); len(n) > 200 || !strings.HasSuffix(n, ".png") || !utf8.ValidString(n) {
			t.Errorf("file name %q (%d bytes)", n, len(n))
		}
		if !strings.Contains(r.stdout, "img/"+pyQuote(e.Name())) {
			t.Errorf("%s is not linked:\n%s", e.Name(), r.stdout)
		}
	}
}
