package convert_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// Without ids, a content base holds in more than one cell does not say
// which of them a side's cell of that content is: the side's cell equal
// in every part to one of them is that one. The shape is what git's line
// merge made of seed 10000484 (fix path: ours moved D after A, theirs to
// the front), read back as sides: base holds B's text twice (once with
// D's outputs and metadata, where git gave D's lines to B's text) and C
// twice; ours and theirs hold B and C once each, as base's second copies.
// Paired by content alone, theirs took the first copies, ours the second:
// each side deleted the copies the other kept, so C was gone and B read
// as deleted by ours and edited by theirs. Every cell both sides hold as
// base has it is in the result once, as they hold it.
func TestMergeContentCopiesPairedByEqualCell(t *testing.T) {
	t.Parallel()
	out := func(n int, text string) string {
		return `[{"data": {"text/plain": ["` + text + `"]}, "execution_count": ` + string(rune('0'+n)) + `, "metadata": {}, "output_type": "execute_result"}]`
	}
	a := code(`{}`, "«a»\nimport", "[]", "1")
	b := code(`{"id": "f9"}`, "«b»\nhead()", out(2, "head"), "2")
	c := code(`{}`, "«c»\ninfo()", "[]", "3")
	d := code(`{"id": "6c"}`, "«d»\ndescribe()", out(4, "describe"), "4")
	x := code(`{"id": "6c"}`, "«b»\nhead()", out(4, "describe"), "2") // B's text, D's outputs
	for _, tc := range []struct {
		name               string
		base, ours, theirs []string
	}{
		{"base holds B's and C's texts twice", []string{a, x, c, b, c}, []string{a, d, b, c}, []string{d, a, b, c}},
		{"base holds B's text twice", []string{a, x, b, c}, []string{a, d, b, c}, []string{d, a, b, c}},
	} {
		data, conflicts, err := convert.Merge(notebook(0, tc.base...), notebook(0, tc.ours...), notebook(0, tc.theirs...), dialog.MergeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got struct{ Cells []json.RawMessage }
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{b, c} { // held as base has it by both sides
			n := 0
			for _, cell := range got.Cells {
				if jsonEqual(t, cell, []byte(want)) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: %d cells of the result are %s, want 1; result:\n%s", tc.name, n, want, data)
			}
		}
		for _, cf := range conflicts {
			if strings.Contains(cf.What, "deleted") {
				t.Errorf("%s: conflict %q: no side deleted a cell the other holds", tc.name, cf.What)
			}
		}
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, x, y []byte) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(x, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(y, &b); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
