package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/stackroom"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestStackRoomCoversTheCorpus: the stack the entry points make room in
// (stackroom.Notebook, from a shallow caller) holds the whole of the
// nbformat round trip (Unmarshal, Validate, Marshal) and of the dialog
// round trip (Unmarshal, Marshal) of every corpus notebook: none grows
// the stack further, so the one growth a collection makes necessary
// happens at the entry point, where the stack is shallow. It is skipped
// without the shared corpus.
func TestStackRoomCoversTheCorpus(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's instrumentation enlarges frames")
	}
	var paths []string
	var work []func()
	for e, data := range corpus.Sample(t) {
		// Its schema compiled first (a first compile goes deep, once).
		if nb, err := nbformat.Unmarshal(data); err == nil {
			_ = nbformat.Validate(nb)
		}
		paths = append(paths, e.Path)
		work = append(work, func() {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				return
			}
			_ = nbformat.Validate(nb)
			_, _ = nbformat.Marshal(nb)
		}, func() {
			d, err := convert.Unmarshal(data)
			if err != nil {
				return
			}
			_, _ = convert.Marshal(d)
		})
	}
	for _, k := range nbtest.StackGrowths(t, stackroom.Notebook, work) {
		kind := [2]string{"nbformat", "dialog"}[k%2]
		t.Errorf("%s: the %s round trip grew the stack past the room of stackroom.Notebook", paths[k/2], kind)
	}
}
