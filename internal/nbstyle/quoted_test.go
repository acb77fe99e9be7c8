package nbstyle

// Tests that QuotedAs judges exactly whether a string token is what escaping
// its value again gives.

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// escapings are the string escapings a file's style can have, each alone
// and all at once.
var escapings = []jsontree.Escaping{
	{}, {ASCII: true}, {Upper: true}, {ASCII: true, Upper: true},
	{HTML: true}, {LineSep: true}, {Slash: true},
	{ASCII: true, HTML: true, LineSep: true, Slash: true},
	{ASCII: true, Upper: true, HTML: true, LineSep: true, Slash: true},
}

// reescaped is what the encoder wrote for a string token before it could
// copy one: its value decoded and escaped again.
func reescaped(tok []byte, esc jsontree.Escaping) []byte {
	out, _ := jsontree.AppendQuoted(nil, jsontree.UnescapeString(tok[1:len(tok)-1]), esc)
	return out
}

// checkQuotedAs fails t unless QuotedAs(tok, esc) holds exactly when
// decoding tok and escaping it again gives tok.
func checkQuotedAs(t *testing.T, tok []byte) {
	t.Helper()
	for _, esc := range escapings {
		want := bytes.Equal(reescaped(tok, esc), tok)
		if got := QuotedAs(tok, esc); got != want {
			t.Errorf("QuotedAs(%q, %+v) = %v, want %v (written again: %q)", tok, esc, got, want, reescaped(tok, esc))
		}
	}
}

// hostileTokens are string tokens whose spelling QuotedAs must judge
// exactly: escapes AppendQuoted writes and ones it does not, in both
// cases of hex digits, lone and paired surrogates, U+2028, DEL, HTML
// characters, "\/", non-ASCII text and invalid UTF-8.
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

func TestQuotedAsHostile(t *testing.T) {
	for _, tok := range hostileTokens {
		checkQuotedAs(t, []byte(tok))
	}
	// Every one of them spelled by each escaping: copied as it is.
	for _, tok := range hostileTokens {
		s := jsontree.UnescapeString([]byte(tok[1 : len(tok)-1]))
		for _, esc := range escapings {
			if !utf8.ValidString(s) {
				continue // written with U+FFFD for the invalid bytes
			}
			out, _ := jsontree.AppendQuoted(nil, s, esc)
			if !QuotedAs(out, esc) {
				t.Errorf("QuotedAs(%q, %+v) = false for AppendQuoted's own spelling", out, esc)
			}
			checkQuotedAs(t, out)
		}
	}
}

// TestQuotedAsRandom: strings of pieces that need a look (escapes,
// surrogates, controls, non-ASCII) at every offset of the eight-byte
// steps, spelled by each escaping and by hand.
func TestQuotedAsRandom(t *testing.T) {
	pieces := []string{"a", "bcdefgh", `\n`, `\u000a`, `\"`, `\\`, `\/`, `/`, `\u00e9`, `\u00E9`, "é",
		`\ud83d\ude00`, `\uD83D\uDE00`, `\ud800`, "\u2028", `\u2028`, "\x7f", `\u007f`, "<", `\u003c`,
		`\u0001`, `\u0001`, "日", "\xff", `\t`, " "}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		tok := []byte(b.String())
		checkQuotedAs(t, tok)
		if s := jsontree.UnescapeString(tok[1 : len(tok)-1]); utf8.ValidString(s) {
			esc := escapings[r.IntN(len(escapings))]
			out, _ := jsontree.AppendQuoted(nil, s, esc)
			if !QuotedAs(out, esc) {
				t.Fatalf("QuotedAs(%q, %+v) = false for AppendQuoted's own spelling", out, esc)
			}
		}
	}
}

// TestQuotedAsCorpus: every string and key of every corpus notebook, in
// every escaping.
func TestQuotedAsCorpus(t *testing.T) {
	testtier.Long(t)
	seen := map[string]bool{}
	n := 0
	for _, data := range corpus.Files(t) {
		tp, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: 1000})
		if err != nil {
			continue
		}
		for j := range tp.Nodes {
			nd := &tp.Nodes[j]
			toks := [][]byte{}
			if nd.Kind == jsontree.String {
				toks = append(toks, tp.Raw(j))
			}
			if nd.Key >= 0 && nd.KeyEnd > nd.Key {
				toks = append(toks, tp.Data[nd.Key:nd.KeyEnd])
			}
			for _, tok := range toks {
				if len(tok) < 2 || tok[0] != '"' || seen[string(tok)] {
					continue
				}
				seen[string(tok)] = true
				checkQuotedAs(t, tok)
				n++
			}
		}
	}
	t.Logf("%d distinct string tokens", n)
}

func FuzzQuotedAs(f *testing.F) {
	for _, tok := range hostileTokens {
		f.Add([]byte(tok[1 : len(tok)-1]))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		tok := append(append([]byte{'"'}, s...), '"')
		if _, err := jsontree.Parse(tok, jsontree.Limits{MaxDepth: 10}); err == nil {
			checkQuotedAs(t, tok)
		}
		for _, esc := range escapings {
			out, ok := jsontree.AppendQuoted(nil, string(s), esc)
			if ok && !QuotedAs(out, esc) {
				t.Fatalf("QuotedAs(%q, %+v) = false for AppendQuoted's own spelling", out, esc)
			}
			checkQuotedAs(t, out)
		}
	})
}
