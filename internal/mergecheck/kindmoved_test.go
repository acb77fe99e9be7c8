package mergecheck

import "testing"

// Without ids, theirs made the second of two alike notes code and moved
// the first after it (edited on both sides): theirs' code cell has the
// second note's text exactly, and the checker, from the cells' tokens,
// wants it that note with theirs' kind, the first note's two edits in a
// conflict. The merge paired the two runs in place (each pair alike):
// the first note took theirs' code cell's kind and text in a conflict,
// and the second note became theirs' version of the first, one lost and
// one there twice (property seed 26005246, library path).
func TestMergeKindChangedAndMoved(t *testing.T) {
	t.Parallel()
	nb := func(cells string) []byte {
		return []byte(`{"cells":[` + cells + `],"metadata":{},"nbformat":4,"nbformat_minor":2}`)
	}
	note := func(src string) string { return `{"cell_type":"markdown","metadata":{},"source":` + src + `}` }
	b0 := `["«b0»\n","![image.png](attachment:image.png)"]`
	b1 := `["«b1»\n","![image.png](attachment:image.png)"]`
	base := nb(note(b0) + "," + note(b1))
	ours := nb(note(`["«b0»\n","![image.png](attachment:image.png)\n","o4 new line"]`) + "," + note(b1))
	theirs := nb(`{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":` + b1 + `},` +
		note(`["«b0»\n","![image.png](attachment:image.png)\n","t6 new line"]`))
	fails, _ := judge(base, ours, theirs, libraryMerge, checkOptions{keys: tokenKeys, uniqueLines: true})
	for _, f := range fails {
		t.Errorf("%v", f)
	}
}
