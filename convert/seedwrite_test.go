package convert_test

import (
	"path/filepath"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// writeIn writes f to dir/<f.Name>.ipynb, the seed's dlg.write(dir), with
// the public API.
func writeIn(f *convert.File, dir string) error {
	return convert.WriteFile(f, filepath.Join(dir, f.Name+".ipynb"), convert.WriteOptions{})
}

// writeSubset writes only msgs of f (none for nil) to dir/<f.Name>.ipynb,
// the seed's dlg.write(dir, msgs=…).
func writeSubset(f *convert.File, dir string, msgs []*dialog.Message) error {
	if msgs == nil {
		msgs = []*dialog.Message{}
	}
	return convert.WriteFile(f, filepath.Join(dir, f.Name+".ipynb"), convert.WriteOptions{Messages: msgs})
}
