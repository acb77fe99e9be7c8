package convert_test

// Tests that every testdata notebook and hostile valid variants of it come back
// through an unedited dialog byte for byte.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestAttackDialogRoundTrip reads every testdata notebook, and hostile
// variants of them (a BOM, CRLF, escapes, duplicate keys) that are valid, as a dialog and
// writes it back unedited: the bytes must be the bytes read, as
// nbformat.Marshal gives them for the same input (the notebook contract).
func TestAttackDialogRoundTrip(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		variants := map[string][]byte{
			"as is":   data,
			"bom":     append([]byte("\xef\xbb\xbf"), data...),
			"crlf":    bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n")),
			"dupmeta": bytes.Replace(data, []byte(`"metadata": {`), []byte(`"metadata": 1, "metadata": {`), 1),
			"escaped": bytes.Replace(data, []byte(`"source": `), []byte(`"sourc\u0065": `), 1),
		}
		for name, v := range variants {
			nb, err := nbformat.Unmarshal(v)
			if err != nil || nbformat.Validate(nb) != nil {
				continue // an invalid notebook is written healed (documented)
			}
			d, err := convert.Unmarshal(v, convert.ReadOptions{})
			if err != nil {
				t.Logf("%s %s: convert.Unmarshal: %v", filepath.Base(p), name, err)
				continue
			}
			out, err := convert.Marshal(d, convert.WriteOptions{})
			if err != nil {
				t.Errorf("%s %s: Marshal: %v", filepath.Base(p), name, err)
				continue
			}
			if !bytes.Equal(out, v) {
				i := 0
				for i < len(out) && i < len(v) && out[i] == v[i] {
					i++
				}
				t.Errorf("%s %s: unedited dialog written differently at byte %d: %q vs %q", filepath.Base(p), name, i,
					snippet(v, i), snippet(out, i))
			}
		}
	}
}

func snippet(b []byte, i int) string {
	return strings.ToValidUTF8(string(b[max(0, i-30):min(len(b), i+30)]), "?")
}
