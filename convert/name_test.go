package convert_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/convert"
)

// A dialog's name is no path: a name such as "../x" read in changes
// nothing of where WriteFile and Save write. Only
// the path given is written, in a folder holding nothing else afterwards.
func TestDialogNameIsNoPath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "nb")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "in.ipynb")
	data, err := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../x", "x/../../y", "../nb/in"} {
		f, err := convert.ReadFile(src, convert.ReadOptions{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != name {
			t.Errorf("name %q read as %q", name, f.Name)
		}
		f.Messages[0].Content += " edited"
		if err := f.Save(convert.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := convert.WriteFile(f, filepath.Join(dir, "out.ipynb"), convert.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for d, want := range map[string][]string{root: {"nb"}, dir: {"in.ipynb", "out.ipynb"}} {
		es, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range es {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", d, got, want)
		}
	}
}
