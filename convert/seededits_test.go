package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// The seed's ten edits applied to every notebook of the corpus (valid or
// not, any writer) are written without error, as valid notebooks: values
// that came from the file are healed and reported, never refused as the
// caller's.
func TestCorpusSeedEditsWrite(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	n := 0
	for e, data := range corpus.Files(t) {
		for _, ed := range seedEdits {
			d, err := convert.Unmarshal(data, convert.ReadOptions{Descriptors: seedDescriptors})
			if err != nil {
				break // not a notebook this package reads as a dialog
			}
			if ok, err := ed.edit(d.Dialog); !ok || err != nil {
				continue
			}
			out, err := convert.Marshal(d, convert.WriteOptions{Descriptors: seedDescriptors})
			if err != nil {
				t.Errorf("%s %s: %v", ed.name, e.Path, err)
				continue
			}
			nb, err := nbformat.Unmarshal(out)
			if err != nil {
				t.Fatalf("%s %s: %v", ed.name, e.Path, err)
			}
			if nb.Nbformat == 4 {
				if err := nbformat.Validate(nb); err != nil {
					t.Errorf("%s %s: written notebook invalid: %v", ed.name, e.Path, err)
				}
			}
			n++
		}
	}
	t.Logf("%d edited notebooks written", n)
}
