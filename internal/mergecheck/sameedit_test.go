package mergecheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// Seed 43000667 (fix path; the library's merge of the sides read back):
// in a notebook without ids both sides made base's note raw alike (its
// reply's lines dropped), and theirs added a note after it. Theirs'
// pairing by content took the added note for base's (both notes, sharing
// the separator's lines), so that theirs "edited" the note into another
// text, ours made it raw, and theirs' raw copy was added: the result held
// ours' raw cell in a conflict with theirs' note, and theirs' note as
// such nowhere. The same edit on both sides pairs the raw cells; the
// checker (its token keys, not the merge's pairing) judges the merge.
func TestMergeSameEditOverGuessedPairing(t *testing.T) {
	t.Parallel()
	cell := func(typ, src string) string {
		s, _ := json.Marshal(src)
		return `{"cell_type": "` + typ + `", "metadata": {"collapsed": true}, "source": ` + string(s) + `}`
	}
	nb := func(cells ...string) []byte {
		return []byte(`{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 1}`)
	}
	const sep = "\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n"
	note := cell("markdown", "«b0»\nb0.1 # title"+sep+"b0.r1 answer\nb0.r2 more")
	raw := cell("raw", "«b0»\nb0.1 # title")
	added := cell("markdown", "«t5»\nt5.1 text\nt5.2 x = 1"+sep+"t5.r1 answer")
	fails, _ := judge(nb(note), nb(raw), nb(raw, added), libraryMerge, checkOptions{keys: tokenKeys, uniqueLines: true})
	for _, f := range fails {
		t.Errorf("%v", f)
	}
}
