package dialog_test

import (
	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/dialog"
)

// outputMaps has cmp compare outputs by their generic JSON (Output.Map),
// as a reference independent of Output.Equal, the code under test.
var outputMaps = cmp.Transformer("Map", func(o dialog.Output) map[string]any {
	m, err := o.Map()
	if err != nil {
		return map[string]any{"undecodable output": err.Error()}
	}
	return m
})
