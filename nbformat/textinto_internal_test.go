package nbformat

// Tests that textInto gives String's text for every form of MultilineString,
// sharing the bytes read where it can.

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"

	"github.com/nbdialog/ipynb/internal/nbstyle"
	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// textInto gives String's text for every form of MultilineString (read
// as one string or as lines, with and without escapes, empty; built from
// lines or text), shares the bytes read exactly when the text needs no
// decoding, never writes more than textBound says (which reserves
// nothing for a text shared), and leaves the texts
// it returned before as they were; over the corpus's texts too.
func TestTextIntoIsString(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	raws := []string{`""`, `[]`, `[""]`, `"abc"`, `["abc"]`, ` [ "abc" ] `, `["a\n", "b"]`, `"a\nb"`, `"\u00e9\ud83d\ude00"`,
		`["\"q\""]`, `["a", ""]`, `["", "a"]`, `"\\"`, `["x\\y"]`}
	var texts []MultilineString
	for _, r := range raws {
		texts = append(texts, multilineFromRaw([]byte(r)))
	}
	texts = append(texts, MultilineString{}, Text("built"), textLines("a\n", "b"), textString("s"), textLines())
	for _, data := range corpus.Sample(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		for _, c := range nb.Cells {
			switch c := c.(type) {
			case *CodeCell:
				texts = append(texts, c.Source)
			case *MarkdownCell:
				texts = append(texts, c.Source)
			}
		}
	}
	var b strings.Builder
	var got []string
	for i := range texts {
		m := &texts[i]
		before := b.Len()
		s := m.textInto(&b)
		if want := m.String(); s != want {
			t.Fatalf("text %d: textInto %q, String %q", i, s, want)
		}
		if n := b.Len() - before; n > m.textBound() {
			t.Errorf("text %d: wrote %d bytes, bound %d", i, n, m.textBound())
		}
		shares := zerocopy.StringIn(s, m.raw)
		one, ok := []byte(nil), false
		if m.raw != nil {
			one, ok = nbstyle.Unescaped(m.raw)
		}
		if ok && m.textBound() != 0 {
			t.Errorf("text %d (%.40q): textBound %d for a text textInto writes nothing for", i, m.raw, m.textBound())
		}
		if shares != (ok && len(one) > 0) {
			t.Errorf("text %d (%.40q): shares the bytes read %v, want %v", i, m.raw, shares, ok && len(one) > 0)
		}
		got = append(got, s)
	}
	for i, s := range got {
		if s != texts[i].String() {
			t.Fatalf("text %d changed once later texts were written: %q", i, s)
		}
	}
}
