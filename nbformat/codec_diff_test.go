package nbformat

// Differential tests of the generated writer and comparison against the
// reflective oracle, on the corpus, misfits and built notebooks.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// Differential tests: the generated codec's comparison, writer and
// conversion to generic JSON (codec_*.go) against the reflective ones of
// equal.go, encode.go and generic.go, on the same notebooks, unedited and
// after typed edits.

// codecEdits change a notebook read from a file in place, each one kind of
// edit; each reports whether it applied.
var codecEdits = []struct {
	name string
	edit func(nb *Notebook) bool
}{
	{"none", func(*Notebook) bool { return true }},
	{"source", func(nb *Notebook) bool {
		for _, c := range nb.Cells {
			switch c := c.(type) {
			case *CodeCell:
				c.Source.Set(c.Source.String() + "\nx = 1")
				return true
			case *MarkdownCell:
				c.Source = Text("# new\ntext\n")
				return true
			}
		}
		return false
	}},
	{"metaField", func(nb *Notebook) bool {
		for _, c := range nb.Cells {
			if code, ok := c.(*CodeCell); ok {
				b := true
				code.Metadata.Collapsed = &b
				code.Metadata.Tags = append(code.Metadata.Tags, "t1")
				return true
			}
		}
		return false
	}},
	{"metaExtra", func(nb *Notebook) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		if m, ok := cellMetadata(nb.Cells[0]).(*MarkdownCellMetadata); ok {
			m.AdditionalProperties = map[string]any{"a": []any{1, "x", map[string]any{"b": nil}}, "z": 2.5}
			return true
		}
		nb.Metadata.AdditionalProperties = map[string]any{"new": json.RawMessage(`{"k": [1, 2]}`), "s": "é"}
		return true
	}},
	{"notebookMeta", func(nb *Notebook) bool {
		title := "T"
		nb.Metadata.Title = &title
		nb.Metadata.Kernelspec = &Kernelspec{DisplayName: "Py", Name: "python3"}
		return true
	}},
	{"newCells", func(nb *Notebook) bool {
		nb.Cells = append([]Cell{NewMarkdownCell("first\nline")}, nb.Cells...)
		c := NewCodeCell("print(1)\n")
		c.Outputs = append(c.Outputs, NewStream("stdout", "1\n2\n"), NewExecuteResult(3, newMimeBundle("text/plain", "3")))
		nb.Cells = append(nb.Cells, c)
		return true
	}},
	{"deleteSwap", func(nb *Notebook) bool {
		if len(nb.Cells) < 3 {
			return false
		}
		nb.Cells = append(nb.Cells[:1:1], nb.Cells[2:]...)
		nb.Cells[0], nb.Cells[len(nb.Cells)-1] = nb.Cells[len(nb.Cells)-1], nb.Cells[0]
		return true
	}},
	{"outputs", func(nb *Notebook) bool {
		for _, c := range nb.Cells {
			code, ok := c.(*CodeCell)
			if !ok || len(code.Outputs) == 0 {
				continue
			}
			for _, o := range code.Outputs {
				switch o := o.(type) {
				case *Stream:
					o.Text.Set("changed\n")
				case *DisplayData:
					o.Data.SetText("text/plain", "p")
					o.Metadata = map[string]any{"m": true}
				case *ExecuteResult:
					o.ExecutionCount = nil
					o.Data.Delete("text/html")
				case *ErrorOutput:
					o.Traceback = append(o.Traceback, "more")
				}
			}
			code.ExecutionCount = nil
			return true
		}
		return false
	}},
	{"scrolled", func(nb *Notebook) bool {
		for _, c := range nb.Cells {
			if code, ok := c.(*CodeCell); ok {
				code.Metadata.Scrolled = map[string]any{"auto": []string{"a"}, "n": int64(3)}
				code.Metadata.Jupyter = &CodeCellMetadataJupyter{}
				return true
			}
		}
		return false
	}},
	{"cellsNil", func(nb *Notebook) bool {
		nb.Cells = nil
		nb.AdditionalProperties = map[string]any{"cells": 1}
		return true
	}},
}

// oldEncode and newEncode write nb with the reflective and the generated
// writer.
func oldEncode(nb *Notebook) ([]byte, error) {
	var out []byte
	err := nb.encodeReflect(func(p ...[]byte) error { out = join(p); return nil })
	return out, err
}

func newEncode(nb *Notebook) ([]byte, error) {
	var out []byte
	err := nb.encode(func(p ...[]byte) error { out = join(p); return nil }, false)
	return out, err
}

// diffCodec compares the two comparisons and writers of nb ("" when they
// agree).
func diffCodec(nb *Notebook) string {
	if nb.src != nil {
		e := nb.newEncoder()
		v := reflectDocument(nb)
		old := e.equal(v, infoOf(v.Type()), jsontree.Root)
		e2 := nb.newEncoder()
		if got := e2.eqStruct(&nb.Document, jsontree.Root); got != old {
			return fmt.Sprintf("equal: generated %v, reflective %v", got, old)
		}
	}
	want, werr := oldEncode(nb)
	got, gerr := newEncode(nb)
	if (werr == nil) != (gerr == nil) || !bytes.Equal(want, got) {
		return fmt.Sprintf("written (err %v, reflective %v):\n%s", gerr, werr, cmp.Diff(string(want), string(got)))
	}
	return ""
}

func TestCodecMatchesReflectiveCorpus(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		for _, ed := range codecEdits {
			nb, err := Unmarshal(data)
			if err != nil {
				break
			}
			if !ed.edit(nb) {
				continue
			}
			if d := diffCodec(nb); d != "" {
				t.Errorf("%s, edit %s: %s", e.Path, ed.name, d)
			}
			n++
		}
	}
	t.Logf("%d notebooks compared", n)
}

// TestCodecMatchesReflectiveMutations puts each misfit in place of each
// member of the testdata notebooks (as TestDecodeMatchesReflectiveMutations
// does) and compares the codecs on the result, unedited and edited.
func TestCodecMatchesReflectiveMutations(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	for name, data := range testdataNotebooks(t) {
		tape, err := jsontree.Parse(data, jsontree.Limits{})
		if err != nil {
			continue
		}
		var places [][2]int
		for j := range tape.Nodes {
			if n := tape.Nodes[j]; n.Key >= 0 {
				places = append(places, [2]int{int(n.Start), int(n.End)})
			}
		}
		for _, p := range places {
			for _, v := range misfits {
				mutated := splice(data, p[0], p[1], v)
				for _, ed := range codecEdits {
					nb, err := UnmarshalOptions{MaxDepth: 200}.Unmarshal(mutated)
					if err != nil || nb.Nbformat != 4 {
						break
					}
					if !ed.edit(nb) {
						continue
					}
					if d := diffCodec(nb); d != "" {
						t.Fatalf("%s with %q at %d, edit %s: %s", name, v, p[0], ed.name, d)
					}
				}
			}
		}
	}
}

// TestCodecMatchesReflectiveBuilt compares the writers on notebooks built
// in memory.
func TestCodecMatchesReflectiveBuilt(t *testing.T) {
	t.Parallel()
	for _, ed := range codecEdits {
		nb := New()
		nb.Cells = append(nb.Cells, NewRawCell("r"), NewCodeCell("c"))
		if !ed.edit(nb) {
			continue
		}
		if d := diffCodec(nb); d != "" {
			t.Errorf("edit %s: %s", ed.name, d)
		}
	}
}
