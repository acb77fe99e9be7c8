package nbformat

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// canonicalAsRead recognises exactly the notebooks whose bytes read are
// their canonical bytes (as marshalCanonical builds them), and fails where
// marshalCanonical fails: over the module's testdata, the corpus sample
// (whose "same" entries Python nbformat writes back unchanged), and
// copies of each with a space added after a line break at the middle of
// the file, and with the final newline dropped.
func TestCanonicalAsReadIsMarshalCanonical(t *testing.T) {
	t.Parallel()
	inputs := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[p] = data
	}
	same, recognised := 0, 0
	for e, data := range corpus.Sample(t) {
		inputs[e.Path] = data
		if e.Ref == "same" {
			same++
		}
	}
	for name, data := range inputs {
		variants := map[string][]byte{"": data}
		if i := bytes.IndexByte(data[len(data)/2:], '\n'); i >= 0 {
			at := len(data)/2 + i + 1
			variants[" (space added)"] = append(append(bytes.Clone(data[:at]), ' '), data[at:]...)
		}
		if n := len(data); n > 0 && data[n-1] == '\n' {
			variants[" (no final newline)"] = data[:n-1]
		}
		for v, in := range variants {
			nb, err := Unmarshal(in)
			if err != nil {
				continue
			}
			built, werr := marshalCanonical(nb)
			got, ok, err := canonicalAsRead(nb)
			where := name + v
			switch {
			case werr != nil:
				if err == nil || err.Error() != werr.Error() {
					t.Errorf("%s: canonicalAsRead error %v, marshalCanonical's %v", where, err, werr)
				}
			case err != nil:
				t.Errorf("%s: canonicalAsRead fails (%v) where marshalCanonical writes", where, err)
			case ok != bytes.Equal(built, in):
				t.Errorf("%s: canonicalAsRead %v, the bytes are canonical: %v", where, ok, !ok)
			case ok && !bytes.Equal(got, in):
				t.Errorf("%s: canonicalAsRead returns other bytes", where)
			case ok:
				recognised++
			}
		}
	}
	t.Logf("%d inputs, %d written back unchanged by Python, %d recognised canonical", len(inputs), same, recognised)
	if same > 0 && recognised == 0 {
		t.Error("no input recognised canonical")
	}
}
