package nbhtml

// Notebooks for tests, written as JSON and read with package convert, as
// the command reads files.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

type cell map[string]any

func note(src string) cell {
	return cell{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
}

func code(src string, count int, outs ...map[string]any) cell {
	if outs == nil {
		outs = []map[string]any{}
	}
	return cell{"cell_type": "code", "metadata": map[string]any{}, "source": src, "execution_count": count, "outputs": outs}
}

func raw(src string) cell {
	return cell{"cell_type": "raw", "metadata": map[string]any{}, "source": src}
}

func prompt(question, reply string) cell {
	return cell{"cell_type": "markdown", "metadata": map[string]any{"solveit_ai": true}, "source": question + convert.ReplySeparator + reply}
}

func stream(name, text string) map[string]any {
	return map[string]any{"output_type": "stream", "name": name, "text": text}
}

func result(count int, data map[string]any) map[string]any {
	return map[string]any{"output_type": "execute_result", "execution_count": count, "data": data, "metadata": map[string]any{}}
}

func display(data map[string]any) map[string]any {
	return map[string]any{"output_type": "display_data", "data": data, "metadata": map[string]any{}}
}

func errorOut(ename, evalue string, tb ...string) map[string]any {
	return map[string]any{"output_type": "error", "ename": ename, "evalue": evalue, "traceback": tb}
}

func withAttachment(c cell, name, mime string, data []byte) cell {
	v := base64.StdEncoding.EncodeToString(data)
	if mime == "image/svg+xml" || mime == "text/html" {
		v = string(data)
	}
	atts, _ := c["attachments"].(map[string]any)
	if atts == nil {
		atts = map[string]any{}
		c["attachments"] = atts
	}
	atts[name] = map[string]any{mime: v}
	return c
}

// notebookJSON is a version 4.5 notebook of cells (ids made up).
func notebookJSON(t testing.TB, cells ...cell) []byte {
	t.Helper()
	for i, c := range cells {
		if _, ok := c["id"]; !ok {
			c["id"] = fmt.Sprintf("cell-%d", i)
		}
	}
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"name": "python3", "display_name": "Python 3", "language": "python"},
			"language_info": map[string]any{"name": "python"},
		},
		"cells": cells,
	}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readNotebook reads notebook JSON as the command does.
func readNotebook(t testing.TB, data []byte) *dialog.Dialog {
	t.Helper()
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	return d.Dialog
}

// pageOf renders cells as a page, written to a file in t's TempDir.
func pageOf(t testing.TB, o Options, cells ...cell) (path string, page []byte) {
	t.Helper()
	d := readNotebook(t, notebookJSON(t, cells...))
	d.Name = "test"
	var b bytes.Buffer
	if err := Notebook(&b, d, o); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return path, b.Bytes()
}

// pngOf is a PNG of w×h pixels of one colour.
func pngOf(w, h int, c color.RGBA) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

var tinyPNG = pngOf(3, 2, color.RGBA{200, 30, 30, 255})
