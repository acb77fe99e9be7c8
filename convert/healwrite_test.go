package convert_test

// Tests that a dialog read from an invalid notebook is written healed once, and
// that missing ids are written without healing.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
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
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		general, err := convert.ToNotebook(d, convert.WriteOptions{})
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
		if again, err := convert.Marshal(d, convert.WriteOptions{}); err != nil || !bytes.Equal(again, got) {
			t.Fatalf("%d cells: a second Marshal writes other bytes (%v)", shape.n, err)
		}
		if testtier.Race {
			continue
		}
		fast := allocatedBytes(func() {
			if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
				t.Error(err)
			}
		})
		slow := allocatedBytes(func() {
			nb, err := convert.ToNotebook(d, convert.WriteOptions{})
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

// missingIDsNotebook is an nbformat 4.5 notebook of n cells (code with a
// stream output, and markdown), the cells i for which missing(i) holds
// without an id (as .NET Interactive writes them), and, if extra, a cell
// with an invalid metadata value as well.
func missingIDsNotebook(n int, missing func(i int) bool, extra bool) []byte {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		id := fmt.Sprintf(`"id": "cell-%d", `, i)
		if missing(i) {
			id = ""
		}
		meta := "{}"
		if extra && i == n-2 {
			meta = `{"collapsed": "yes"}`
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `  {"cell_type": "code", "execution_count": %d, %s"metadata": %s, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["%d\n"]}], "source": ["print(%d)"]}`, i, id, meta, i, i)
		} else {
			fmt.Fprintf(&b, `  {"cell_type": "markdown", %s"metadata": %s, "source": ["# Part %d\n", "text"]}`, id, meta, i)
		}
	}
	b.WriteString("\n ],\n \"metadata\": {\"kernelspec\": {\"display_name\": \"Python 3\", \"language\": \"python\", \"name\": \"python3\"}},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}

// A dialog read from a notebook whose only problems are a few cells
// without a valid id is written with its messages' ids in those cells:
// the notebook written is then valid without a repair (those cells are
// checked alone), and Marshal writes it once, without Heal's parse and
// validation of the whole file written. The bytes are those of the
// general path (the notebook with the dialog's ids, healed) and valid,
// also when most cells lack an id (then healed) or when another problem
// needs a repair. Writing the 3000 cells of which 2 lack an id allocates
// 3.3 bytes per byte of file (at most 5); with the check, 7.3.
func TestMissingIDsWrittenWithoutHealing(t *testing.T) {
	few := func(i int) bool { return i == 1 || i == 1501 }
	most := func(i int) bool { return i%5 != 0 }
	for _, c := range []struct {
		name    string
		missing func(int) bool
		extra   bool
	}{{"few", few, false}, {"few and metadata", few, true}, {"most", most, false}, {"most and metadata", most, true}} {
		data := missingIDsNotebook(3000, c.missing, c.extra)
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var repairs []nbformat.Repair
		got, err := convert.Marshal(d, convert.WriteOptions{Repaired: func(r nbformat.Repair) { repairs = append(repairs, r) }})
		if err != nil {
			t.Fatal(err)
		}
		back, err := nbformat.Unmarshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := nbformat.Validate(back); err != nil {
			t.Fatalf("%s: written invalid: %v", c.name, err)
		}
		// The general path: the notebook read, its ids set as the
		// dialog's, healed.
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		for i, cell := range nb.Cells {
			nbformat.SetCellID(cell, nbformat.CellID(d.Messages[i].ID))
		}
		healed, err := nbformat.Heal(nb)
		if err != nil {
			t.Fatal(err)
		}
		want, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Marshal writes other bytes than the notebook with the dialog's ids, healed", c.name)
		}
		if len(repairs) != len(healed) || c.extra != (len(repairs) > 0) {
			t.Errorf("%s: repairs %v, healing the notebook with the ids: %v", c.name, repairs, healed)
		}
		if c.name != "few" || testtier.Race {
			continue
		}
		allocated := allocatedBytes(func() {
			if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
				t.Error(err)
			}
		})
		perByte := float64(allocated) / float64(len(data))
		t.Logf("%s, %d bytes: Marshal allocates %.2f bytes per byte", c.name, len(data), perByte)
		if perByte > 5 {
			t.Errorf("%s: Marshal allocates %.2f bytes per byte of file, want at most 5: the notebook written is checked whole", c.name, perByte)
		}
	}
}
