package nbformat_test

// Tests of the bytes Heal reports it wrote (HealOptions.Written): Marshal's
// bytes, and the byte-order mark kept or removed.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// healWritten heals nb as convert does (the byte-order mark kept) and
// returns the repairs and the bytes Heal reports it wrote.
func healWritten(t *testing.T, nb *nbformat.Notebook, keepBOM bool) ([]nbformat.Repair, []byte) {
	t.Helper()
	written := []byte("not set")
	repairs, err := nbformat.HealOptions{KeepBOM: keepBOM, Written: &written}.Heal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return repairs, written
}

// The bytes Heal reports it wrote (HealOptions.Written) are what Marshal
// writes for the healed notebook, and Heal repairs exactly what it does
// without being asked for them; for a notebook valid as read that it
// leaves as it is, Heal writes nothing (Marshal writes the bytes read). Checked on every nbformat 4
// notebook of the corpus and of testdata, with the byte-order mark kept
// and removed, and on the notebooks Upgrade makes of version 3 ones
// (edited in memory: Heal always writes them).
func TestHealWrittenIsMarshal(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = data
	}
	if corpus.Shared() != "" {
		for e, data := range corpus.Sample(t) {
			files[e.Path] = data
		}
	}
	// A byte-order mark, and an invalid notebook with one.
	files["bom"] = append([]byte("\xef\xbb\xbf"), files[filepath.Join("..", "testdata", "jupyter.ipynb")]...)
	files["bom-invalid"] = append([]byte("\xef\xbb\xbf"), files[filepath.Join("..", "testdata", "invalid.ipynb")]...)
	healed, valid := 0, 0
	for name, data := range files {
		for _, keepBOM := range []bool{true, false} {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				continue
			}
			asRead := nb.Nbformat == 4
			if nb.Nbformat < 4 {
				if nbformat.Upgrade(nb) != nil {
					continue
				}
			} else if nb.Nbformat > 4 {
				continue
			}
			wasValid := asRead && nbformat.Validate(nb) == nil
			ref, err := nbformat.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			if ref.Nbformat < 4 {
				if err := nbformat.Upgrade(ref); err != nil {
					t.Fatal(err)
				}
			}
			refRepairs, err := nbformat.HealOptions{KeepBOM: keepBOM}.Heal(ref)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			repairs, written := healWritten(t, nb, keepBOM)
			if len(repairs) != len(refRepairs) {
				t.Errorf("%s: %d repairs, %d without Written", name, len(repairs), len(refRepairs))
			}
			want, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			refOut, err := nbformat.Marshal(ref)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !bytes.Equal(want, refOut) {
				t.Errorf("%s: healed with Written, the notebook writes other bytes", name)
			}
			switch {
			case wasValid && len(repairs) == 0 && written != nil:
				t.Errorf("%s: valid as read and unchanged, yet Heal wrote it", name)
			case wasValid && len(repairs) == 0:
				valid++
			case written == nil && !(asRead && bytes.Equal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), want)):
				// (Removing the byte-order mark alone writes the bytes read.)
				t.Errorf("%s: Heal reports no bytes written for a notebook it changed", name)
			case written == nil:
				valid++
			case !bytes.Equal(written, want):
				t.Errorf("%s: the bytes Heal wrote are not what Marshal writes", name)
			default:
				healed++
			}
		}
	}
	t.Logf("%d heals wrote the notebook (bytes as Marshal's), %d did not need to", healed, valid)
	if healed == 0 || valid == 0 {
		t.Errorf("healed %d, valid %d: both kinds expected", healed, valid)
	}
}

// A notebook built in memory has no bytes read: Heal writes it to check
// it, and those bytes are Marshal's.
func TestHealWrittenBuiltInMemory(t *testing.T) {
	nb := nbformat.New()
	nb.Cells = append(nb.Cells, nbformat.NewCodeCell("print(1)"), nbformat.NewMarkdownCell("# hi"))
	nbformat.SetCellID(nb.Cells[1], "bad id!")
	repairs, written := healWritten(t, nb, false)
	if len(repairs) == 0 {
		t.Fatal("no repair of an invalid id")
	}
	want, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, want) {
		t.Errorf("written:\n%s\nMarshal:\n%s", written, want)
	}
	if nbformat.Validate(nb) != nil {
		t.Error("healed notebook invalid")
	}
}

// HealOptions.KeepBOM: a byte-order mark read stays, else Heal removes it.
func TestHealKeepBOM(t *testing.T) {
	t.Parallel()
	data := []byte("\xef\xbb\xbf" + `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": ""}]}`)
	for _, keep := range []bool{false, true} {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		repairs, err := nbformat.HealOptions{KeepBOM: keep}.Heal(nb)
		if err != nil {
			t.Fatal(err)
		}
		if got := nbformat.CellIDOf(nb.Cells[0]); !cellid.Valid(string(got)) || nbformat.Validate(nb) != nil {
			t.Errorf("keep %v: id %q, not valid: %v", keep, got, nbformat.Validate(nb))
		}
		out, _ := nbformat.Marshal(nb)
		if bom := bytes.HasPrefix(out, []byte("\xef\xbb\xbf")); bom != keep {
			t.Errorf("KeepBOM %v: the output starts with a BOM: %v (repairs %v)", keep, bom, repairs)
		}
	}
}
