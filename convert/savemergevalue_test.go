package convert_test

// Tests that Save with MergeOnChange merges values: a file re-saved Colab-style
// with one nested key changed.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// Save with MergeOnChange compares and merges values (issue 21 item 2):
// the file on disk re-saved Colab-style meanwhile (re-indented, keys
// reversed, by Python's json) with one key of a nested metadata object
// changed, and the dialog changing another key of that object, merge
// cleanly into both changes.
func TestSaveMergeOfAResavedFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nb.ipynb")
	orig := notebook(5, withID(5, "c", code(`{"deep": {"a": 1, "b": 2, "c": [1, 2.5]}}`, "x", "[]", "null")), withID(5, "d", md(`{}`, "text", "")))
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	disk := colabResave(t, [][]byte{bytes.Replace(orig, []byte(`"a": 1`), []byte(`"a": 5`), 1)})[0]
	if err := os.WriteFile(path, disk, 0o644); err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Meta["deep"] = map[string]any{"a": 1, "b": 7, "c": []any{1, 2.5}}
	if err := d.Save(convert.SaveOptions{MergeOnChange: &dialog.MergeOptions{}}); err != nil {
		t.Fatalf("save: %v", err)
	}
	got, _ := os.ReadFile(path)
	deep, _ := pointerAt(decodeJSON(t, got), "/cells/0/metadata/deep")
	if want := map[string]any{"a": 5.0, "b": 7.0, "c": []any{1.0, 2.5}}; !cmp.Equal(deep, want) {
		t.Errorf("deep = %v, want %v\n%s", deep, want, got)
	}
}
