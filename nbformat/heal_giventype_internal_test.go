package nbformat

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// givenType, which Heal's notes use, reads the type an unknown cell or
// output names from the tape as UnknownCell.Type and UnknownOutput.Type
// read it from the JSON: the last occurrence of the key, keys spelled
// with escapes, values that are not strings, escaped and invalid UTF-8
// values (left to the JSON reading).
func TestGivenTypeAsUnknownType(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"output_type": "unknown", "data": {"text/html": "<b>\"x\"</b>"}}`,
		`{"data": {"output_type": "inner"}, "output_type": "after"}`,
		`{"output_type": "first", "output_type": "last"}`,
		`{"output_type": "first", "output_\u0074ype": "escaped key"}`,
		`{"output_\u0074ype": "escaped key", "output_type": "plain"}`,
		`{"output_type": "\u00e9t\u00e9"}`,
		`{"output_type": "caf\u00e9\n"}`,
		`{"output_type": 42}`,
		`{"output_type": null}`,
		`{"output_type": "string", "output_type": ["list"]}`,
		`{"data": {}}`,
		`{}`,
		`{"output_type": ""}`,
	} {
		tape, err := jsontree.Parse([]byte(raw), jsontree.Limits{MaxDepth: 100})
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		u := &UnknownOutput{Raw: []byte(raw)}
		if got, want := givenType(tape, jsontree.Root, "output_type", func() string { return string(u.Type()) }), string(u.Type()); got != want {
			t.Errorf("%s: givenType %q, UnknownOutput.Type %q", raw, got, want)
		}
		c := &UnknownCell{Raw: []byte(raw)}
		if got, want := givenType(tape, jsontree.Root, "cell_type", func() string { return string(c.Type()) }), string(c.Type()); got != want {
			t.Errorf("%s: givenType %q, UnknownCell.Type %q", raw, got, want)
		}
	}
}
