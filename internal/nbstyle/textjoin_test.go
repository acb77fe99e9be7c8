package nbstyle

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// joinedByEach is what WriteJoined replaced, kept as its reference:
// jsontree.EachString and jsontree.WriteUnescaped.
func joinedByEach(raw []byte) string {
	var b strings.Builder
	if raw[0] == '"' {
		jsontree.WriteUnescaped(&b, raw[1:len(raw)-1])
	} else {
		jsontree.EachString(raw, func(s []byte) { jsontree.WriteUnescaped(&b, s) })
	}
	return b.String()
}

// checkJoined checks WriteJoined against joinedByEach for raw, written
// after some text already in the builder (which it must leave as it is).
func checkJoined(t *testing.T, raw string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("before")
	WriteJoined(&b, []byte(raw))
	if got, want := b.String(), "before"+joinedByEach([]byte(raw)); got != want {
		t.Fatalf("%q: WriteJoined %q, want %q", raw, got, want)
	}
}

// WriteJoined decodes what EachString and WriteUnescaped decode, for
// strings holding a quote, a backslash escape or a \u escape (surrogate
// pairs, lone surrogates) at every offset of the first and second words
// it reads, strings of every length up to 40, arrays of them with white
// space between, and every escape JSON has.
func TestWriteJoinedAsEachString(t *testing.T) {
	specials := []string{`\"`, `\\`, `\n`, `\/`, `\t`, `\r`, `\b`, `\f`, `\u00e9`, `\u2028`, `\ud83d\ude00`, `\ud83d`, `\ude00x`, `é`, `"`}
	for n := range 41 {
		for at := 0; at <= n; at++ {
			for _, sp := range specials {
				body := strings.Repeat("a", at) + sp + strings.Repeat("b", n-at)
				if sp == `"` {
					body = strings.Repeat("a", at) // a quote ends the string: the string alone
				}
				checkJoined(t, `"`+body+`"`)
				checkJoined(t, `["`+body+`", "`+body+`"]`)
				checkJoined(t, "[ \n\t\"x\" ,\r\n \""+body+"\"\n]")
			}
		}
	}
	for _, raw := range []string{`""`, `[]`, `[""]`, `["", ""]`, ` [ ] `, `["\\\\\\"]`, `["` + strings.Repeat(`\\`, 20) + `"]`} {
		checkJoined(t, raw)
	}
	// White space of every length between strings and after the last
	// (the search for the next string reads 8 bytes at a time).
	for n := range 20 {
		gap := ",\n" + strings.Repeat(" ", n)
		checkJoined(t, "["+strings.Repeat(" ", n)+`"a\n"`+gap+`"\"b\""`+gap+`"c"`+strings.Repeat("\n", n)+"]")
	}
}

// FuzzWriteJoined: any strings, encoded as a JSON array (escaped by
// encoding/json, which escapes <, > and & as \u), decode as the
// reference does.
func FuzzWriteJoined(f *testing.F) {
	for _, s := range []string{"", "a\n", "tab\there \"quoted\" back\\slash", "é ☃ 😀", "<html>&amp;", "\u2028\x00\x1f", strings.Repeat("x", 100) + "\\"} {
		f.Add(s, s+"\n"+s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		raw, err := json.Marshal([]string{a, b, a})
		if err != nil {
			t.Skip()
		}
		checkJoined(t, string(raw))
		one, _ := json.Marshal(a + b)
		checkJoined(t, string(one))
	})
}
