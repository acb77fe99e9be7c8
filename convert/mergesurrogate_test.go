package convert_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// Item 9 of issue 21: strings that are not valid UTF-16 keep their
// escapes through a merge and count as different when different: a
// change of a lone surrogate in a source or a metadata value is a change
// (Diff sees it, Merge applies it, written as its escape), and one left
// alone stays as it was.
func TestMergeKeepsLoneSurrogates(t *testing.T) {
	t.Parallel()
	nb := func(first, meta, second string) []byte {
		return notebook(5, withID(5, "a", code(`{"k": "`+meta+`"}`, "", "[]", "null")), withID(5, "b", code(`{}`, second, "[]", "null")))
	}
	fix := func(b []byte, src string) []byte { // a source holding an escape, as written
		return bytes.Replace(b, []byte(`"source": ""`), []byte(`"source": "`+src+`"`), 1)
	}
	base := fix(nb("", `\ud83d`, "b"), `x \ud83d y`)
	ours := fix(nb("", `\ud83d`, "b, ours"), `x \ud83d y`)
	theirs := fix(nb("", `\ud83e`, "b"), `x \ud83e y`)
	changes, err := convert.Diff(base, theirs)
	if err != nil || len(changes) != 1 || changes[0].Parts != dialog.PartContent|dialog.PartMeta {
		t.Fatalf("diff: %v %v", changes, err)
	}
	res, err := merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil || len(res.Conflicts) > 0 {
		t.Fatalf("merge: %v %v", err, res)
	}
	for _, want := range []string{`"source": "x \ud83e y"`, `"k": "\ud83e"`, "b, ours"} {
		if !bytes.Contains(res.Data, []byte(want)) {
			t.Errorf("merge lacks %s:\n%s", want, res.Data)
		}
	}
	if bytes.Contains(res.Data, []byte("\ufffd")) || strings.Contains(string(res.Data), `\ufffd`) {
		t.Errorf("U+FFFD in the merge:\n%s", res.Data)
	}
	// Both sides changing it differently conflict, both kept escaped.
	ours2 := fix(nb("", `\ud83d`, "b"), `x \udc00 y`)
	res, err = merge(base, ours2, theirs, dialog.MergeOptions{})
	if err != nil || len(res.Conflicts) == 0 || !bytes.Contains(res.Data, []byte(`x \udc00 y`)) || !bytes.Contains(res.Data, []byte(`x \ud83e y`)) {
		t.Errorf("conflict: %v %v\n%s", err, res.Conflicts, res.Data)
	}
}
