package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// The sides git's markers held in seed 8002725 of the fix path: ours'
// file gives id c two cells, the first with the text of base's cell a
// (git's hunks gave it c's id line), the later one equal to base's c;
// theirs deleted a. Read by content, ours left both as they were (an id
// line shared by two cells is no identity): the merge is theirs', b and
// c as they are, clean. Paired by the first copy's id, ours' copy equal
// to c was read as a edited, a delete/edit conflict whose markers went
// into c's text.
func TestMergeSideCopyEqualToBase(t *testing.T) {
	t.Parallel()
	cell := func(id, src string) string { return withID(5, id, code(`{}`, src, "[]", "null")) }
	a, b, c := "«b0»\nx = 1", "«b3»\ny = 2", "«b0»\nx = 1\nt4 new line"
	base := notebook(5, cell("id-b0", a), cell("id-b3", b), cell("o1id", c))
	ours := notebook(5, cell("o1id", a), cell("id-b3", b), cell("o1id", c))
	theirs := notebook(5, cell("id-b3", b), cell("o1id", c))
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var srcs []any
	for _, x := range decodeJSON(t, res.Data)["cells"].([]any) {
		srcs = append(srcs, x.(map[string]any)["source"])
	}
	if len(srcs) != 2 || srcs[0] != b || srcs[1] != c || len(res.Conflicts) > 0 {
		t.Errorf("merged sources %q, conflicts %v; want %q, clean", srcs, res.Conflicts, []string{b, c})
	}
}
