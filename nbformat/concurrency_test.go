package nbformat_test

import (
	"bytes"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// A notebook may be read by several goroutines at once: Marshal (both
// modes), Validate and Edited share nothing they change (run with -race).
func TestConcurrentReaders(t *testing.T) {
	for _, name := range []string{"jupyter.ipynb", "colab.ipynb", "invalid.ipynb"} {
		data, nb := readNotebook(t, filepath.Join("..", "testdata", name))
		// An edit, so that Marshal takes the layout-keeping path too.
		nb.Cells[0].(*nbformat.MarkdownCell).Source.Set("edited")
		want, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 20; i++ {
					got, err := nbformat.Marshal(nb)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: concurrent Marshal differs: %v", name, err)
						return
					}
					nbformat.Validate(nb)
					nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
					if !nb.Edited() {
						t.Errorf("%s: Edited false", name)
					}
				}
			}()
		}
		wg.Wait()
		_ = data
	}
}
