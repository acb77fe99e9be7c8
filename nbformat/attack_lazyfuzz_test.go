package nbformat_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbimpl"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// lazyEdit makes edit k (of 6) of notebook nb, in place or by moving
// cells; false when it does not apply.
func lazyEdit(nb *nbformat.Notebook, k, at int) bool {
	n := len(nb.Cells)
	if n == 0 {
		return false
	}
	i := at % n
	switch k % 6 {
	case 0:
		editSource(nb, i)
	case 1:
		if n < 2 {
			return false
		}
		j := (i + 1) % n
		nb.Cells[i], nb.Cells[j] = nb.Cells[j], nb.Cells[i]
	case 2:
		nb.Cells = append(nb.Cells, nb.Cells[i])
	case 3:
		code, ok := nb.Cells[i].(*nbformat.CodeCell)
		if !ok || code.Metadata.AdditionalProperties == nil {
			return false
		}
		code.Metadata.AdditionalProperties["lazyfuzz"] = []any{1.5, "ü"}
	case 4:
		code, ok := nb.Cells[i].(*nbformat.CodeCell)
		if !ok || len(code.Outputs) == 0 {
			return false
		}
		code.Outputs = code.Outputs[1:]
	case 5:
		if nb.Metadata.AdditionalProperties == nil {
			return false
		}
		nb.Metadata.AdditionalProperties["lazyfuzz"] = true
	}
	return true
}

// The notebook read without the snapshot of the unedited check
// (nbimpl.UnmarshalLazy: convert's reading), its snapshot taken at once,
// later (after a write) or never, is written as the notebook read with
// it (Unmarshal) after the same edits and Heal: same bytes, same
// verdicts, same Edited.
func FuzzLazySnapshotAsEager(f *testing.F) {
	f.Add([]byte(`{"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {"a": 1}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "x"}], "source": "a"}, {"cell_type": "markdown", "metadata": {}, "source": "b"}], "metadata": {"k": 1}, "nbformat": 4, "nbformat_minor": 5}`), byte(0), byte(3))
	f.Add([]byte(`{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [{"output_type": "stream", "text": "x"}], "source": "a"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`), byte(4), byte(1))
	f.Add([]byte("\xef\xbb\xbf{\"cells\": [], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 2}"), byte(5), byte(0))
	if testtier.Full() {
		n := 0
		for _, data := range corpus.Files(f) {
			if len(data) < 16<<10 && n < 30 {
				f.Add(data, byte(n), byte(n*7))
				n++
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, edits, at byte) {
		eager, err := nbformat.Unmarshal(data)
		if err != nil || eager.Nbformat != 4 {
			return
		}
		for take := range 3 {
			x, err := nbimpl.UnmarshalLazy(data, true)
			if err != nil {
				t.Fatalf("lazy read fails where Unmarshal reads: %v", err)
			}
			lazy := x.(*nbformat.Notebook)
			ref, _ := nbformat.Unmarshal(data)
			if take == 0 {
				nbimpl.TakeSnapshot(lazy)
			}
			steps := []func(nb *nbformat.Notebook) string{
				func(nb *nbformat.Notebook) string { s, _ := write(nb); return s },
				func(nb *nbformat.Notebook) string {
					lazyEdit(nb, int(edits), int(at))
					s, _ := write(nb)
					return s
				},
				func(nb *nbformat.Notebook) string {
					lazyEdit(nb, int(edits>>3), int(at>>2))
					s, err := healWrite(nb)
					if err != nil {
						return err.Error()
					}
					return s
				},
			}
			for k, step := range steps {
				if take == 1 && k == 1 {
					nbimpl.TakeSnapshot(lazy) // (before any edit: as convert takes it)
				}
				want, got := step(ref), step(lazy)
				if want != got {
					t.Fatalf("take %d, step %d: lazy %s, eager %s", take, k, got, want)
				}
			}
			a, _ := nbformat.Marshal(ref)
			b, _ := nbformat.Marshal(lazy)
			if !bytes.Equal(a, b) {
				t.Fatalf("take %d: written differently", take)
			}
		}
	})
}

// digest is b's SHA-256 and length, as text.
func digest(b []byte) string { return fmt.Sprintf("%x:%d ", sha256.Sum256(b), len(b)) }

// write is Marshal, Validate's verdict and Edited, as text.
func write(nb *nbformat.Notebook) (string, error) {
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteString(digest(out))
	if verr := nbformat.Validate(nb); verr != nil {
		sb.WriteString("invalid:" + digest([]byte(verr.Error())))
	}
	fmt.Fprintf(&sb, "edited:%v ", nb.Edited())
	return sb.String(), nil
}

// healWrite is Heal, then write, with the repairs.
func healWrite(nb *nbformat.Notebook) (string, error) {
	rs, err := nbformat.Heal(nb)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, r := range rs {
		sb.WriteString(r.String())
	}
	w, err := write(nb)
	return digest([]byte(sb.String())) + w, err
}

// editSource appends to the source of cell i.
func editSource(nb *nbformat.Notebook, i int) {
	if i < 0 || i >= len(nb.Cells) {
		return
	}
	switch c := nb.Cells[i].(type) {
	case *nbformat.CodeCell:
		c.Source.Set(c.Source.String() + "#")
	case *nbformat.MarkdownCell:
		c.Source.Set(c.Source.String() + "#")
	case *nbformat.RawCell:
		c.Source.Set(c.Source.String() + "#")
	}
}
