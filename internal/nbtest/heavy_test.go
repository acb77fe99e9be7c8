package nbtest_test

// Tests that a Heavy notebook has the cells, outputs and size it describes, and
// is Python nbformat's canonical bytes.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// heavyShape is what a test reads back from a Heavy notebook with
// encoding/json.
type heavyShape struct {
	Cells []struct {
		CellType string `json:"cell_type"`
		Outputs  []struct {
			OutputType string                     `json:"output_type"`
			Text       []string                   `json:"text"`
			Data       map[string]json.RawMessage `json:"data"`
			Traceback  []string                   `json:"traceback"`
		} `json:"outputs"`
	} `json:"cells"`
}

func readHeavy(t *testing.T, data []byte) heavyShape {
	t.Helper()
	var nb heavyShape
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	return nb
}

// A Heavy notebook has the cells, outputs and kinds it describes, in
// order, each output of its size; the same description gives the same
// bytes, another seed other bytes.
func TestHeavyShape(t *testing.T) {
	h := nbtest.Heavy{Cells: 7, Seed: 3, Kinds: []nbtest.OutputKind{nbtest.Image, nbtest.Stream, nbtest.Error, nbtest.Table},
		Outputs: 6, StreamLines: 5, TableRows: 4, ImageBytes: 300, ImageJitter: 100, ImageLines: true, TracebackLines: 3}
	data := h.Notebook()
	if !bytes.Equal(data, h.Notebook()) {
		t.Error("the same description gave other bytes")
	}
	other := h
	other.Seed = 4
	if bytes.Equal(data, other.Notebook()) {
		t.Error("another seed gave the same bytes")
	}
	nb := readHeavy(t, data)
	if len(nb.Cells) != 14 {
		t.Fatalf("%d cells, want 14", len(nb.Cells))
	}
	want := []string{"display_data", "stream", "error", "execute_result", "display_data", "stream"}
	for i, c := range nb.Cells {
		if wantType := []string{"markdown", "code"}[i%2]; c.CellType != wantType {
			t.Fatalf("cell %d: %s, want %s", i, c.CellType, wantType)
		}
		if c.CellType != "code" {
			continue
		}
		var types []string
		for j, o := range c.Outputs {
			types = append(types, o.OutputType)
			switch o.OutputType {
			case "stream":
				if len(o.Text) != 5 {
					t.Errorf("cell %d output %d: %d lines of stream, want 5", i, j, len(o.Text))
				}
			case "error":
				if len(o.Traceback) != 3 {
					t.Errorf("cell %d output %d: %d lines of traceback, want 3", i, j, len(o.Traceback))
				}
			case "execute_result":
				var html []string
				json.Unmarshal(o.Data["text/html"], &html)
				if len(html) != 4+2 {
					t.Errorf("cell %d output %d: %d lines of HTML, want 6", i, j, len(html))
				}
			case "display_data":
				var lines []string
				if err := json.Unmarshal(o.Data["image/png"], &lines); err != nil {
					t.Fatalf("cell %d output %d: image/png not lines: %v", i, j, err)
				}
				b64 := ""
				for _, l := range lines {
					b64 += l
				}
				if n := len(b64) * 3 / 4; n < 300 || n > 402 {
					t.Errorf("cell %d output %d: a PNG of %d bytes, want 300 to 400", i, j, n)
				}
			}
		}
		if !slices.Equal(types, want) {
			t.Errorf("cell %d: outputs %v, want %v", i, types, want)
		}
	}
}

// With Bytes, a Heavy notebook is at least that large, and less than one
// more cell pair larger.
func TestHeavySize(t *testing.T) {
	for _, size := range []int{1, 50_000, 1_000_000} {
		data := nbtest.Heavy{Bytes: size, Seed: 1, ImageBytes: 30000, ImageJitter: 40000}.Notebook()
		cells := len(readHeavy(t, data).Cells)
		if len(data) < size || len(data) > size+2*(70000*4/3+6000) {
			t.Errorf("asked for %d bytes, got %d (%d cells)", size, len(data), cells)
		}
		if size == 1 && cells != 2 {
			t.Errorf("asked for 1 byte, got %d cells", cells)
		}
	}
}

// Python nbformat reads a Heavy notebook (images as strings), finds it
// valid, and writes it back byte for byte; with images as lines, it
// finds it valid.
func TestHeavyIsPythonCanonical(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		t.Skipf("Python nbformat not available: %v", err)
	}
	all := []nbtest.OutputKind{nbtest.Stream, nbtest.Table, nbtest.Image, nbtest.Error}
	dir := t.TempDir()
	for _, lines := range []bool{false, true} {
		h := nbtest.Heavy{Cells: 5, Seed: 9, Kinds: all, ImageLines: lines}
		p, _ := h.WriteFile(t, dir)
		out, err := exec.Command(py, "-c", `import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT)
nbformat.validate(nb)
sys.stdout.write(nbformat.writes(nb) + "\n")`, p).Output()
		if err != nil {
			t.Fatalf("images as lines %v: %v", lines, err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !lines && !bytes.Equal(out, data) {
			t.Errorf("Python nbformat rewrote the notebook %s", nbtest.FirstDiff(out, data))
		}
		if filepath.Dir(p) != dir {
			t.Errorf("written to %s, not in %s", p, dir)
		}
	}
}
