package convert_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// v3EditedWrites reads data with o, edits the dialog as edit says (a
// message's text, metadata, outputs, order; a message added) and gives
// what reading and each write after gives.
func v3EditedWrites(o convert.Options, data []byte, edit byte) string {
	d, err := o.Unmarshal(data)
	if err != nil {
		return "read: " + err.Error()
	}
	out := dumpDialog(d)
	step := func(name string) {
		b, err := o.Marshal(d)
		out += fmt.Sprintf("%s: %q %v\n", name, b, err)
		nb, err := o.ToNotebook(d)
		if err == nil {
			b, err = nbformat.Marshal(nb)
		}
		out += fmt.Sprintf("%s tonotebook: %q %v\n", name, b, err)
	}
	step("unedited")
	n := len(d.Messages)
	if n == 0 {
		return out
	}
	m := d.Messages[int(edit>>3)%n]
	switch edit % 6 {
	case 0:
		m.Content += "\nü"
	case 1:
		m.Meta = map[string]any{"lazy": 1}
	case 2:
		if len(m.Outputs) > 0 {
			m.Outputs = m.Outputs[:len(m.Outputs)-1]
		}
	case 3:
		d.Messages[0], d.Messages[n-1] = d.Messages[n-1], d.Messages[0]
	case 4:
		d.Random = dialog.Seeded(uint64(edit))
		d.Add(dialog.Prompt, "q").SetReply("r")
	case 5:
		d.Meta = map[string]any{"lazy": "x"}
	}
	step("edited")
	return out
}

// A version 2 or 3 notebook read straight into messages (its upgrade
// made at first need) reads and writes, unedited and after every kind of
// edit, as the one read through its upgrade made at once (ViaUpgrade, the
// reading before): the generated notebooks of v3Gen.
func FuzzV3WritesAsViaUpgrade(f *testing.F) {
	for i := range 300 {
		f.Add(uint64(i), byte(i%4), byte(i*11))
	}
	f.Fuzz(func(t *testing.T, seed uint64, rare, edit byte) {
		data := v3Gen{rand.New(rand.NewPCG(seed, 3)), []int{2, 6, 40, 1000}[rare%4]}.notebook()
		for _, reg := range []*convert.Registry{nil, convert.Solveit()} {
			o := convert.Options{Registry: reg}
			want := v3EditedWrites(convert.ViaUpgrade(o), data, edit)
			got := v3EditedWrites(o, data, edit)
			if got != want {
				t.Fatalf("%s\n(registry %v) read directly: %s", data, reg != nil, firstLineDiff(want, got))
			}
		}
	})
}
