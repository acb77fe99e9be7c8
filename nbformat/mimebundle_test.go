package nbformat_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// SetJSON stores a string or an array of strings under a text MIME type as
// text, as reading a file does: Text returns it, and it is written in the
// form given, whatever the notebook's style. Other values, and values of
// JSON MIME types, stay JSON.
func TestSetJSONText(t *testing.T) {
	t.Parallel()
	var b nbformat.MimeBundle
	for mime, raw := range map[string]string{
		"text/plain":       `"one\ntwo"`,
		"text/html":        ` ["<b>\n", "x</b>"] `,
		"image/png":        `42`,
		"application/json": `"s"`,
		"text/markdown":    `["a", 1]`,
	} {
		if err := b.SetJSON(mime, json.RawMessage(raw)); err != nil {
			t.Fatal(err)
		}
	}
	for mime, want := range map[string]string{"text/plain": "one\ntwo", "text/html": "<b>\nx</b>"} {
		if got, ok := b.Text(mime); !ok || got != want {
			t.Errorf("Text(%s) = %q, %v; want %q", mime, got, ok, want)
		}
	}
	for _, mime := range []string{"image/png", "application/json", "text/markdown"} {
		if _, ok := b.Text(mime); ok {
			t.Errorf("Text(%s): a JSON value read as text", mime)
		}
	}
	if raw, _ := b.RawJSON("text/html"); string(raw) != `["<b>\n", "x</b>"]` {
		t.Errorf("RawJSON(text/html) = %s", raw)
	}
	nb := nbformat.New() // written as Python nbformat writes: text split into lines
	c := nbformat.NewCodeCell("")
	c.ID = "c1"
	c.Outputs = append(c.Outputs, nbformat.NewDisplayData(b))
	nb.Cells = append(nb.Cells, c)
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"text/plain": "one\ntwo"`,                                        // kept as one string
		"\"text/html\": [\n       \"<b>\\n\",\n       \"x</b>\"\n      ]", // the lines given
		`"image/png": 42`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("written notebook lacks %s:\n%s", want, out)
		}
	}
}
