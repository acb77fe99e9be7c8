package nbformat

// Tests that texts read are written into new places by copying their tokens, as
// the re-escaping writer wrote them.

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbstyle"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// escapings are the escapings of internal/nbstyle's tests.
var escapings = []jsontree.Escaping{
	{}, {ASCII: true}, {Upper: true}, {ASCII: true, Upper: true},
	{HTML: true}, {LineSep: true}, {Slash: true},
	{ASCII: true, HTML: true, LineSep: true, Slash: true},
	{ASCII: true, Upper: true, HTML: true, LineSep: true, Slash: true},
}

// hostileTokens are string tokens of odd spellings (as in
// internal/nbstyle's tests of QuotedAs).
var hostileTokens = []string{
	`""`, `"plain text"`, `"tab\there"`, `"\n"`, `"\u000a"`, `"\u000A"`, `"\r\n"`, `"\b\f"`,
	`"\u0008"`, `"\u0000"`, `"\u001f"`, `"\u001F"`, `"\u0001x"`, `"\""`, `"\u0022"`, `"\\"`,
	`"\u005c"`, `"\/"`, `"/"`, `"\u002f"`, `"<a href=\"x\">&amp;</a>"`, `"\u003c\u003e\u0026"`,
	`"\u003C"`, "\"\x7f\"", `"\u007f"`, `"\u007F"`, `"é"`, `"\u00e9"`, `"\u00E9"`, "\"\u2028\u2029\"",
	`"\u2028"`, `"\u2029x"`, `"😀"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`, `"\ud83d\uDE00"`,
	`"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800\ud800"`, `"\udbff\udfff"`, `"a\ud800"`,
	`"\ud83d\ude00\ud83d"`, "\"\xff\"", "\"\xed\xa0\x80\"", "\"\xc3\"", "\"\uFFFD\"", `"\ufffd"`,
	`"\uFFFD"`, "\"日本語 text\"", `"\u65e5\u672c"`, `"long plain ascii text longer than eight bytes"`,
	`"0123456\"89abcdef"`, `"01234567\\"`, "\"0123456\xc3\xa9abcdefgh\"", `"\\\""`, `"x\\\\"`,
}

// multilineReescaped is how the encoder wrote a text read (m.raw) before
// it could copy tokens: decoded, then escaped again.
func (e *encoder) multilineReescaped(m MultilineString, ind string) {
	if m.form != formLines {
		e.str(m.String())
		return
	}
	pieces := m.Lines()
	e.array(-1, ind, len(pieces), false, func(i int, _ string) { e.str(pieces[i]) })
}

// TestMultilineCopiesAsReescaped: every string and array of strings of
// every corpus notebook (and the hostile tokens), written as a text read
// into a new place, in every escaping and layout, gives the bytes the
// re-escaping writer gave.
func TestMultilineCopiesAsReescaped(t *testing.T) {
	t.Parallel()
	var raws [][]byte
	for _, tok := range hostileTokens {
		if _, err := jsontree.Parse([]byte(tok), jsontree.Limits{MaxDepth: 10}); err == nil {
			raws = append(raws, []byte(tok), []byte("["+tok+", "+tok+",\n"+tok+"]"))
		}
	}
	raws = append(raws, []byte("[]"), []byte("[ ]"), []byte(`["a\"", "\\"]`))
	if testtier.Full() {
		seen := map[string]bool{}
		for _, data := range corpus.Files(t) {
			tp, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: 1000})
			if err != nil {
				continue
			}
			for j := range tp.Nodes {
				nd := &tp.Nodes[j]
				ok := nd.Kind == jsontree.String
				if nd.Kind == jsontree.Array {
					ok = true
					tp.Children(j, func(k int) bool {
						ok = ok && tp.Nodes[k].Kind == jsontree.String
						return ok
					})
				}
				if raw := tp.Raw(j); ok && !seen[string(raw)] {
					seen[string(raw)] = true
					raws = append(raws, raw)
				}
			}
		}
	}
	styles := []nbstyle.Style{nbstyle.Python, {Colon: ":"}, {Indent: "\t", Newline: "\r\n", Colon: " : "}}
	for _, raw := range raws {
		m := multilineFromRaw(raw)
		for _, st := range styles {
			for _, esc := range escapings {
				st.Esc = esc
				fast, slow := encoder{st: &st}, encoder{st: &st}
				fast.multiline(m, -1, "  ", true)
				slow.multilineReescaped(m, "  ")
				if !bytes.Equal(fast.buf, slow.buf) || fast.err != nil || slow.err != nil {
					t.Fatalf("%q in %+v: copied %q (%v), re-escaped %q (%v)", raw, st, fast.buf, fast.err, slow.buf, slow.err)
				}
			}
		}
	}
	t.Logf("%d texts", len(raws))
}

// BenchmarkWriteTextRead writes texts read (an HTML table as one string,
// and as lines) into a new place, as Heal's rebuilt outputs are written:
// Copy copies their tokens (QuotedAs), Reescape is the writer before it,
// decoding and escaping every text again.
func BenchmarkWriteTextRead(b *testing.B) {
	row := `<tr><td>\"cell\"</td><td>é 42</td><td>text of a table row</td></tr>\n`
	one := []byte(`"<table>` + strings.Repeat(row, 2000) + `</table>"`)
	lines := []byte(`["<table>\n", ` + strings.Repeat(`"`+row+`", `, 2000) + `"</table>"]`)
	for _, c := range []struct {
		name string
		raw  []byte
	}{{"String", one}, {"Lines", lines}} {
		m := multilineFromRaw(c.raw)
		for _, w := range []struct {
			name  string
			write func(e *encoder)
		}{
			{"Copy", func(e *encoder) { e.multiline(m, -1, " ", true) }},
			{"Reescape", func(e *encoder) { e.multilineReescaped(m, " ") }},
		} {
			b.Run(c.name+"/"+w.name, func(b *testing.B) {
				b.SetBytes(int64(len(c.raw)))
				b.ReportAllocs()
				e := encoder{st: &nbstyle.Python, buf: make([]byte, 0, 2*len(c.raw))}
				for b.Loop() {
					e.buf = e.buf[:0]
					w.write(&e)
				}
			})
		}
	}
}
