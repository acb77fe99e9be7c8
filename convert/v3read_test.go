package convert_test

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// Writing a valid version 2 or 3 dialog back unedited parses nothing: on
// every valid version 2 and 3 corpus notebook, Marshal of the dialog read
// gives the bytes read in one allocation (their copy), where a parse
// would allocate its tape and values.
func TestV3DialogWritesTheBytesRead(t *testing.T) {
	n := 0
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat >= 4 || nbformat.Validate(nb) != nil {
			continue
		}
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		var out []byte
		allocs := testing.AllocsPerRun(3, func() {
			if out, err = convert.Marshal(d, convert.WriteOptions{}); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
		})
		if !bytes.Equal(out, data) {
			t.Errorf("%s: Marshal of the unedited dialog gives other bytes than those read", e.Path)
		}
		if allocs > 1 {
			t.Errorf("%s: Marshal of the unedited valid dialog: %.0f allocations, want 1 (the copy of the bytes read)", e.Path, allocs)
		}
		n++
	}
	if n == 0 {
		t.Skip("no valid version 2 or 3 notebook in the corpus")
	}
	t.Logf("%d version 2 and 3 notebooks", n)
}
