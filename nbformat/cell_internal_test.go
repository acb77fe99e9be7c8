package nbformat

import (
	"os"
	"path/filepath"
	"testing"
)

// cellMetadata gives the cell's own metadata (edits land in the cell),
// and nil for a cell of an unknown type.
func TestCellMetadata(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for i, c := range nb.Cells {
		md := cellMetadata(c)
		var want any
		switch c := c.(type) {
		case *CodeCell:
			want = &c.Metadata
		case *MarkdownCell:
			want = &c.Metadata
		case *RawCell:
			want = &c.Metadata
		}
		if md != want {
			t.Errorf("cell %d (%s): cellMetadata = %p, want the cell's own %p", i, c.Type(), md, want)
		}
		kinds[string(c.Type())] = true
	}
	if !kinds["code"] || !kinds["markdown"] {
		t.Fatalf("jupyter.ipynb has cells %v, want code and markdown", kinds)
	}
	unknown := &UnknownCell{Raw: []byte(`{"cell_type":"heading","source":"x","metadata":{}}`)}
	if md := cellMetadata(unknown); md != nil {
		t.Errorf("UnknownCell: cellMetadata = %v, want nil", md)
	}
}
