package nbformat

// The size encoding/json writes a text in, computed from the JSON read.

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsonsize"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbimpl"
)

// The size of a text as encoding/json writes it, for the dialog layer's
// output sizes (convert's OutputSizer), without building the text.
func init() {
	nbimpl.TextSize = func(m any) int {
		ms, ok := m.(MultilineString)
		if !ok {
			panic(fmt.Sprintf("nbformat: TextSize of %T, which is not a MultilineString", m))
		}
		return ms.jsonSize()
	}
	nbimpl.BundleTextSize = func(b any, mime string) (int, bool) {
		mb, ok := b.(MimeBundle)
		if !ok {
			panic(fmt.Sprintf("nbformat: BundleTextSize of %T, which is not a MimeBundle", b))
		}
		i := mb.find(mime)
		if i < 0 || mb.b.entries[i].isJSON {
			return 0, false
		}
		return mb.b.entries[i].text.jsonSize(), true
	}
	nbimpl.BundleTextJSON = func(b any, mime string) ([]byte, bool) {
		mb, ok := b.(MimeBundle)
		if !ok {
			panic(fmt.Sprintf("nbformat: BundleTextJSON of %T, which is not a MimeBundle", b))
		}
		i := mb.find(mime)
		if i < 0 || mb.b.entries[i].isJSON || mb.b.entries[i].text.raw == nil {
			return nil, false
		}
		return mb.b.entries[i].text.raw, true
	}
	nbimpl.BundleJSON = func(b any, mime string) ([]byte, bool) {
		mb, ok := b.(MimeBundle)
		if !ok {
			panic(fmt.Sprintf("nbformat: BundleJSON of %T, which is not a MimeBundle", b))
		}
		i := mb.find(mime)
		if i < 0 || !mb.b.entries[i].isJSON {
			return nil, false
		}
		return mb.b.entries[i].json, true
	}
}

// jsonSize is jsonsize.String(m.String()): from the JSON read, the one
// string's contents or the sum of the lines' (a line's escapes name
// whole runes, decoded line by line as String decodes them, so sizes
// add up); for a value built in memory, from its text.
func (m MultilineString) jsonSize() int {
	if m.raw == nil {
		return jsonsize.String(m.String())
	}
	if m.raw[0] == '"' {
		return jsonsize.Escaped(m.raw[1 : len(m.raw)-1])
	}
	n := 2
	jsontree.EachString(m.raw, func(s []byte) { n += jsonsize.Escaped(s) - 2 })
	return n
}
