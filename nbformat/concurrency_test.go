package nbformat_test

// Tests of concurrent readers of one notebook: every result equals the one
// computed alone (run with -race).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// A notebook may be read by several goroutines at once: Marshal (both
// modes), Validate and Edited share nothing they change (run with -race).
// Every result computed concurrently equals the one computed alone, and
// those equal their references: the file's own bytes (unedited), Python's
// canonical bytes (testdata/canonical, or the file itself when Python
// writes it unchanged), Python's verdict (testdata/verdicts.txt), and for
// an edited notebook the original bytes outside the edited cell.
func TestConcurrentReaders(t *testing.T) {
	t.Parallel()
	verdicts, err := os.ReadFile(filepath.Join("..", "testdata", "verdicts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"jupyter.ipynb", "colab.ipynb", "vscode.ipynb", "invalid.ipynb"} {
		data, nb := readNotebook(t, filepath.Join("..", "testdata", name))
		_, edited := readNotebook(t, filepath.Join("..", "testdata", name))
		edited.Cells[0].(*nbformat.MarkdownCell).Source.Set("edited")

		type results struct {
			plain, editedOut, canon []byte
			canonErr, problems      string
			isEdited, otherEdited   bool
		}
		compute := func() (r results) {
			var err error
			if r.plain, err = nbformat.Marshal(nb); err != nil {
				r.plain = []byte("error: " + err.Error())
			}
			if r.editedOut, err = nbformat.Marshal(edited); err != nil {
				r.editedOut = []byte("error: " + err.Error())
			}
			r.canon, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
			r.canonErr = fmt.Sprint(err)
			r.problems = fmt.Sprint(nbformat.Problems(nbformat.Validate(nb)))
			r.isEdited, r.otherEdited = edited.Edited(), nb.Edited()
			return r
		}
		want := compute()

		// The single-goroutine results against their references.
		if !bytes.Equal(want.plain, data) {
			t.Errorf("%s: Marshal of the unedited notebook is not the file", name)
		}
		if !want.isEdited || want.otherEdited {
			t.Errorf("%s: Edited = %v for the edited notebook, %v for the other", name, want.isEdited, want.otherEdited)
		}
		start, end := cellSpan(t, data, 0)
		gotStart, gotEnd := cellSpan(t, want.editedOut, 0)
		if !bytes.Equal(want.editedOut[:gotStart], data[:start]) || !bytes.Equal(want.editedOut[gotEnd:], data[end:]) ||
			!strings.Contains(string(want.editedOut[gotStart:gotEnd]), `"edited"`) {
			t.Errorf("%s: the edit changed bytes outside its cell", name)
		}
		pyValid := strings.Contains(string(verdicts), "valid "+name+"\n") && !strings.Contains(string(verdicts), "invalid "+name+"\n")
		if valid := want.problems == "[]"; valid != pyValid {
			t.Errorf("%s: Validate found %s; Python says valid=%v", name, want.problems, pyValid)
		}
		if canon, err := os.ReadFile(filepath.Join("..", "testdata", "canonical", name)); err == nil {
			if !bytes.Equal(want.canon, canon) {
				t.Errorf("%s: canonical bytes differ from Python's (%s)", name, want.canonErr)
			}
		} else if want.canonErr == "<nil>" && !bytes.Equal(want.canon, data) {
			t.Errorf("%s: canonical bytes differ from the file, which Python writes unchanged", name)
		}

		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					got := compute()
					if !bytes.Equal(got.plain, want.plain) || !bytes.Equal(got.editedOut, want.editedOut) ||
						!bytes.Equal(got.canon, want.canon) || got.canonErr != want.canonErr ||
						got.problems != want.problems || got.isEdited != want.isEdited || got.otherEdited != want.otherEdited {
						t.Errorf("%s: a concurrent result differs from the one computed alone", name)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}
