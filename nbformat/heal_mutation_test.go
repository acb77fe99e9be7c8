package nbformat_test

// Tests of Heal's contract on the testdata and corpus notebooks mutated as the
// validator's differential test mutates them.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// Heal's contract on mutated notebooks (the testdata and the corpus, with
// the mutations of the validator's differential test, one, two and all of
// them at once in one cell): no error, valid, a second heal changes
// nothing, the same bytes twice, content with a valid place kept.
func TestHealMutated(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	ntest := len(files)
	if os.Getenv("IPYNB_CORPUS") != "" || corpus.Shared() != "" {
		cdir, entries := corpus.Entries(t)
		for _, e := range entries {
			files = append(files, filepath.Join(cdir, e.Path))
		}
	}
	healed := 0
	for fi, path := range files {
		if !testtier.Full() && fi >= ntest && fi%24 != 0 { // testdata, and every 24th corpus file
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 256<<10 {
			continue
		}
		if nb, err := nbformat.Unmarshal(data); err != nil || nb.Nbformat != 4 {
			continue
		}
		orig, ok := decodeGeneric(data)
		if !ok {
			continue
		}
		cells, _ := orig["cells"].([]any)
		if len(cells) == 0 {
			continue
		}
		heal := func(what string, doc map[string]any) {
			in, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(filepath.Base(path)+"/"+what, func(t *testing.T) {
				out := healBytes(t, in)
				if again := healBytes(t, out); !bytes.Equal(again, out) {
					t.Errorf("second heal changed the bytes %s", firstDiff(out, again))
				}
				if out2 := healBytes(t, in); !bytes.Equal(out2, out) {
					t.Errorf("same input, other bytes %s", firstDiff(out, out2))
				}
				missing, err := missingContent(in, out)
				if err != nil {
					t.Fatal(err)
				}
				if len(missing) > 0 {
					t.Errorf("content lost: %.300q", missing)
				}
			})
			healed++
		}
		all := deepCopy(orig).(map[string]any)
		allCell, _ := all["cells"].([]any)[fi%len(cells)].(map[string]any)
		for mi, m := range mutations {
			if allCell != nil && m.name != "CellsNotArray" {
				m.f(all, allCell)
			}
			// Every mutation on testdata; on corpus files a rotating
			// quarter of them, so that all are used and the test stays
			// quick.
			if fi >= ntest && (fi+mi)%4 != 0 {
				continue
			}
			doc := deepCopy(orig).(map[string]any)
			cell, ok := doc["cells"].([]any)[(fi+mi)%len(cells)].(map[string]any)
			if !ok || !m.f(doc, cell) {
				continue
			}
			// And the next mutation on the same cell.
			n := mutations[(mi+1)%len(mutations)]
			heal(m.name, doc)
			if _, ok := doc["cells"].([]any); ok && n.f(doc, cell) {
				heal(m.name+"+"+n.name, doc)
			}
		}
		heal("all", all)
	}
	t.Logf("%d mutated notebooks healed", healed)
}
