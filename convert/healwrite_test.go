package convert_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
)

// invalidNotebook is an nbformat 4.4 notebook of n code cells that Heal
// must repair: each has an output of an unrecognized type holding an
// HTML table of about size bytes (as .NET Interactive wrote them), a
// string execution count, and every other one a stream output with an
// execution count.
func invalidNotebook(n, size int) []byte {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	row := `<tr><td>\"cell\"</td><td>é 42</td></tr>\n`
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"cell_type": "code", "execution_count": "%d", "metadata": {}, "outputs": [`, i+1)
		fmt.Fprintf(&b, `{"output_type": "unknown", "data": {"text/html": "<table>%s</table>"}}`, strings.Repeat(row, size/len(row)+1))
		if i%2 == 0 {
			fmt.Fprintf(&b, `, {"output_type": "stream", "name": "stdout", "execution_count": %d, "text": ["line\n"]}`, i)
		}
		fmt.Fprintf(&b, `], "source": ["x = %d"]}`, i)
	}
	b.WriteString("\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 4\n}\n")
	return []byte(b.String())
}

// A dialog read from an invalid notebook is written healed: Heal writes
// the healed notebook to check it, and Marshal returns those bytes rather
// than encoding the notebook a second time, which, for a notebook of
// large outputs that Heal rebuilt, is a copy of the file and the decoding
// and escaping of every text in it. Marshal writes what ToNotebook and
// nbformat.Marshal write (the general path), and allocates at least the
// size of the file less than they do (on the old code they did the same
// work: the difference was 0).
func TestHealedDialogWrittenOnce(t *testing.T) {
	for _, shape := range []struct{ n, size int }{{4, 50_000}, {8, 100_000}, {40, 2_000}} {
		data := invalidNotebook(shape.n, shape.size)
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		if nbformat.Validate(nb) == nil {
			t.Fatalf("%d cells: the notebook is valid", shape.n)
		}
		d, err := convert.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := convert.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		general, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := nbformat.Marshal(general)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d cells: Marshal writes other bytes than ToNotebook and nbformat.Marshal", shape.n)
		}
		back, err := nbformat.Unmarshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := nbformat.Validate(back); err != nil {
			t.Fatalf("%d cells: written invalid: %v", shape.n, err)
		}
		if again, err := convert.Marshal(d); err != nil || !bytes.Equal(again, got) {
			t.Fatalf("%d cells: a second Marshal writes other bytes (%v)", shape.n, err)
		}
		if raceBuild {
			continue
		}
		fast := allocatedBytes(func() {
			if _, err := convert.Marshal(d); err != nil {
				t.Error(err)
			}
		})
		slow := allocatedBytes(func() {
			nb, err := convert.Options{}.ToNotebook(d)
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := nbformat.Marshal(nb); err != nil {
				t.Error(err)
			}
		})
		t.Logf("%d cells, %d bytes: Marshal allocates %d bytes, ToNotebook + nbformat.Marshal %d", shape.n, len(data), fast, slow)
		if fast+uint64(len(got)) > slow {
			t.Errorf("%d cells: Marshal allocates %d bytes, ToNotebook + nbformat.Marshal %d: the healed notebook is encoded twice", shape.n, fast, slow)
		}
	}
}
