package nbformat_test

// Attacks on the snapshot of bytes read: cells swapped between notebooks,
// pointees edited, appends, GC, concurrent readers and corpus edits.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// Attacks on the unedited check (the memory snapshot) from the outside,
// through the public API only. Every expected value comes from
// encoding/json reading what Marshal wrote, compared with what the test
// itself stored: never from the package's own notion of "edited".

// refSource returns the source of cell i of the notebook bytes b as
// encoding/json reads it (a string, or an array of strings joined).
func refSource(t *testing.T, b []byte, i int) string {
	t.Helper()
	var doc struct {
		Cells []map[string]json.RawMessage `json:"cells"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("encoding/json cannot read Marshal's output: %v", err)
	}
	return refMultiline(t, doc.Cells[i]["source"])
}

func refMultiline(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		t.Fatalf("multiline string %s: %v", raw, err)
	}
	return strings.Join(lines, "")
}

const attackNB = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "a1",
   "metadata": {"tags": ["x"], "deep": {"k": [1, 2, {"z": "w"}]}},
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["one\n", "two\n"]},
    {"data": {"text/plain": ["3"]}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"}
   ],
   "source": ["x = 1\n", "y = 2\n", "x + y"]
  },
  {
   "cell_type": "markdown",
   "id": "b2",
   "metadata": {},
   "source": ["# Title\n", "text"]
  },
  {
   "cell_type": "code",
   "execution_count": 4,
   "id": "c3",
   "metadata": {},
   "outputs": [],
   "source": "print(\"\u00e9\\t\")"
  }
 ],
 "metadata": {
  "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
  "custom": {"a": {"b": [1, 2, 3]}}
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`

func mustRead(t *testing.T, b []byte) *nbformat.Notebook {
	t.Helper()
	nb, err := nbformat.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

func mustMarshal(t *testing.T, nb *nbformat.Notebook) []byte {
	t.Helper()
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAttackSwapCellsBetweenNotebooks swaps equal cells between two
// notebooks read from the same bytes, then edits one of them through the
// other notebook: both notebooks must write the edit where the cell now is.
func TestAttackSwapCellsBetweenNotebooks(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	a, b := mustRead(t, data), mustRead(t, data)
	a.Cells[0], b.Cells[0] = b.Cells[0], a.Cells[0]
	if out := mustMarshal(t, a); !bytes.Equal(out, data) {
		t.Errorf("equal cells swapped: Marshal changed the bytes")
	}
	// Edit the cell now in a through b's old reference... b.Cells[0] is a's
	// original cell; a.Cells[0] is b's. Edit a.Cells[0] in place.
	cc := a.Cells[0].(*nbformat.CodeCell)
	cc.Source.Set("edited\n")
	if !a.Edited() {
		t.Errorf("a: cell edited in place, Edited() = false")
	}
	if got := refSource(t, mustMarshal(t, a), 0); got != "edited\n" {
		t.Errorf("a: Marshal wrote source %q, want %q", got, "edited\n")
	}
	if got := refSource(t, mustMarshal(t, b), 0); got != "x = 1\ny = 2\nx + y" {
		t.Errorf("b: Marshal wrote source %q for the cell it now holds (unedited)", got)
	}
}

// TestAttackPointeeEdits edits values behind the pointers decoding gave
// (execution counts and strings allocated in shared blocks).
func TestAttackPointeeEdits(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	nb := mustRead(t, data)
	c0 := nb.Cells[0].(*nbformat.CodeCell)
	c2 := nb.Cells[2].(*nbformat.CodeCell)
	*c0.ExecutionCount = 99
	if !nb.Edited() {
		t.Fatalf("execution count changed through its pointer: Edited() = false")
	}
	var doc struct {
		Cells []struct {
			EC *int `json:"execution_count"`
		} `json:"cells"`
	}
	out := mustMarshal(t, nb)
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Cells[0].EC == nil || *doc.Cells[0].EC != 99 || doc.Cells[2].EC == nil || *doc.Cells[2].EC != 4 {
		t.Errorf("execution counts written: %v %v, want 99 and 4", doc.Cells[0].EC, doc.Cells[2].EC)
	}
	_ = c2
	// Kernelspec strings (pointer to a struct in a block).
	nb = mustRead(t, data)
	nb.Metadata.Kernelspec.Name = "julia"
	out = mustMarshal(t, nb)
	var md struct {
		Metadata struct {
			Kernelspec map[string]string `json:"kernelspec"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(out, &md); err != nil {
		t.Fatal(err)
	}
	if md.Metadata.Kernelspec["name"] != "julia" {
		t.Errorf("kernelspec name written %q, want julia", md.Metadata.Kernelspec["name"])
	}
}

// TestAttackAppendWithinCapacity appends to every slice decoding returned
// and checks no other value of the notebook changed.
func TestAttackAppendWithinCapacity(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	nb := mustRead(t, data)
	c0 := nb.Cells[0].(*nbformat.CodeCell)
	tags := c0.Metadata.Tags
	// Appending to a whole slice must never write into memory another
	// value of the notebook holds (its capacity is its length, or the
	// spare room is its own).
	_ = append(nb.Cells, nb.Cells[2])
	_ = append(c0.Outputs, nil, nil, nil)
	_ = append(c0.Outputs, c0.Outputs[0])
	_ = append(tags, "INJECTED")
	c2 := nb.Cells[2].(*nbformat.CodeCell)
	_ = append(c2.Outputs, c0.Outputs[0])
	if nb.Edited() {
		// Allowed only if something really changed: check Marshal.
		t.Logf("Edited() = true after appends to copies")
	}
	out := mustMarshal(t, nb)
	if !bytes.Equal(out, data) {
		t.Errorf("appending to slices decoding returned changed the notebook:\n%s", out)
	}
	if _, ok := nb.Cells[1].(*nbformat.MarkdownCell); !ok {
		t.Errorf("cell 1 is %T after an append to Cells[:1]", nb.Cells[1])
	}
}

// TestAttackKeepOneCellAfterGC keeps one cell of each of many notebooks,
// drops them, collects, reads more notebooks (to reuse freed memory) and
// checks the kept cells still hold their values, and that putting one in
// a notebook read from other bytes is written.
func TestAttackKeepOneCellAfterGC(t *testing.T) {
	var kept []nbformat.Cell
	var want []string
	for i := range 50 {
		src := strings.Replace(attackNB, `"x = 1\n"`, `"x = `+strings.Repeat("9", i+1)+`\n"`, 1)
		nb := mustRead(t, []byte(src))
		kept = append(kept, nb.Cells[0])
		want = append(want, "x = "+strings.Repeat("9", i+1)+"\ny = 2\nx + y")
	}
	for range 3 {
		runtime.GC()
		for i := range 50 {
			_ = mustRead(t, []byte(strings.Replace(attackNB, "# Title", "# T"+strings.Repeat("z", i), 1)))
		}
	}
	for i, c := range kept {
		if got := nbformat.SourceOf(c).String(); got != want[i] {
			t.Fatalf("kept cell %d after GC: source %q, want %q", i, got, want[i])
		}
	}
	data := []byte(attackNB)
	nb := mustRead(t, data)
	nb.Cells[0] = kept[7]
	if !nb.Edited() {
		t.Errorf("a cell of another notebook stored: Edited() = false")
	}
	if got := refSource(t, mustMarshal(t, nb), 0); got != want[7] {
		t.Errorf("Marshal wrote %q, want %q", got, want[7])
	}
}

// TestAttackConcurrentReaders runs Marshal, Validate, Edited and accessors
// on one notebook from several goroutines (run with -race).
func TestAttackConcurrentReaders(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	nb := mustRead(t, data)
	nb.Cells[1].(*nbformat.MarkdownCell).Source.Set("edited")
	var wg sync.WaitGroup
	outs := make([][]byte, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				_ = nb.Edited()
				_ = nbformat.Validate(nb)
				o, err := nbformat.Marshal(nb)
				if err != nil {
					t.Error(err)
					return
				}
				outs[g] = o
				_ = nbformat.SourceOf(nb.Cells[0]).Lines()
			}
		}()
	}
	wg.Wait()
	for g := range outs {
		if !bytes.Equal(outs[g], outs[0]) {
			t.Fatalf("goroutine %d wrote different bytes", g)
		}
	}
	if got := refSource(t, outs[0], 1); got != "edited" {
		t.Errorf("source written %q", got)
	}
}

// TestAttackCorpusMutations applies edits to every corpus notebook and
// checks that encoding/json finds each edit in Marshal's output, and that
// notebooks edited back to equal values write the bytes read.
func TestAttackCorpusMutations(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Files(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || len(nb.Cells) == 0 {
			continue
		}
		n++
		if !testtier.Full() && n > 40 {
			break
		}
		last := len(nb.Cells) - 1
		src := nbformat.SourceOf(nb.Cells[last])
		lines := src.Lines()
		if len(lines) > 0 {
			lines[0] = "MUTATED" // a copy: must change nothing
		}
		if out := mustMarshal(t, nb); !bytes.Equal(out, data) {
			t.Errorf("%s: writing into Lines() changed Marshal's output", e.Path)
			continue
		}
		nb2 := mustRead(t, data)
		text := nbformat.SourceOf(nb2.Cells[last]).String() + "\n#attack"
		setSource(nb2.Cells[last], text)
		if !nb2.Edited() {
			t.Errorf("%s: source set, Edited() = false", e.Path)
		}
		if got := refSource(t, mustMarshal(t, nb2), last); got != text {
			t.Errorf("%s: source written %q, want %q", e.Path, got, text)
		}
	}
}

func setSource(c nbformat.Cell, s string) {
	switch c := c.(type) {
	case *nbformat.CodeCell:
		c.Source.Set(s)
	case *nbformat.MarkdownCell:
		c.Source.Set(s)
	case *nbformat.RawCell:
		c.Source.Set(s)
	}
}

// TestAttackConcurrentReadersAllFiles reads each testdata notebook (every
// version, valid or not), and from several goroutines at once calls
// everything that only reads it (run with -race): the package documents
// that as safe. The bytes written must be the same in every goroutine.
func TestAttackConcurrentReadersAllFiles(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			continue
		}
		for _, edit := range []bool{false, true} {
			if edit && len(nb.Cells) > 0 {
				setSource(nb.Cells[0], "edited\n")
			}
			var wg sync.WaitGroup
			outs := make([][]byte, 6)
			for g := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 5 {
						_ = nb.Edited()
						_ = nbformat.Validate(nb)
						outs[g], _ = nbformat.Marshal(nb)
						for _, c := range nb.Cells {
							_ = nbformat.SourceOf(c).Lines()
							_ = nbformat.CellIDOf(c)
							if cc, ok := c.(*nbformat.CodeCell); ok {
								for _, o := range cc.Outputs {
									switch o := o.(type) {
									case *nbformat.ExecuteResult:
										for _, k := range o.Data.Keys() {
											_, _ = o.Data.Text(k)
											_, _ = o.Data.RawJSON(k)
										}
									case *nbformat.DisplayData:
										for _, k := range o.Data.Keys() {
											_, _ = o.Data.Text(k)
											_, _ = o.Data.RawJSON(k)
										}
									}
								}
							}
						}
						for _, v := range nb.Metadata.AdditionalProperties {
							if raw, ok := v.(json.RawMessage); ok {
								_, _ = nbformat.Decode(raw)
							}
						}
					}
				}()
			}
			wg.Wait()
			for g := range outs {
				if !bytes.Equal(outs[g], outs[0]) {
					t.Errorf("%s (edited %v): goroutine %d wrote different bytes", p, edit, g)
				}
			}
		}
	}
}
