package nbstyle

// Texts of multiline strings viewed from their JSON: shared with the bytes
// read when they need no decoding, else decoded into one builder.

import (
	"bytes"
	"strings"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// TextBound is the number of bytes TextInto may write for raw (a
// validated JSON string, or array of strings): 0 when it shares raw (one
// string with no escape), else len(raw) (unescaping never lengthens a
// string: every escape is at least as long as the UTF-8 it stands for).
func TextBound(raw []byte) int {
	if _, shared := Unescaped(raw); shared {
		return 0
	}
	return len(raw)
}

// TextInto returns the text of raw (a validated JSON string, or array of
// strings), joined and decoded, without allocating: when raw is one string
// with no escape (alone or in an array) the text is that string of raw
// itself, sharing raw's bytes, which must therefore never change; else it
// is written to b and is the part of b's string written (earlier parts are
// never changed: a strings.Builder only appends, and copies to a new
// buffer when it grows). The text keeps raw, or b's buffer, alive.
func TextInto(raw []byte, b *strings.Builder) string {
	if s, ok := Unescaped(raw); ok {
		return zerocopy.String(s)
	}
	start := b.Len()
	WriteJoined(b, raw) // (one string or an array of them)
	return b.String()[start:]
}

// Unescaped returns the contents of raw (a validated JSON string, or array
// of strings) when it is one string with no escape, or an array of no
// string; ok is false otherwise. Without a backslash, every quote in raw
// delimits a string.
func Unescaped(raw []byte) (s []byte, ok bool) {
	if bytes.IndexByte(raw, '\\') >= 0 {
		return nil, false
	}
	if raw[0] == '"' {
		return raw[1 : len(raw)-1], true
	}
	switch bytes.Count(raw, quote) {
	case 0:
		return nil, true
	case 2:
		i := bytes.IndexByte(raw, '"') + 1
		return raw[i : i+bytes.IndexByte(raw[i:], '"')], true
	}
	return nil, false
}

var quote = []byte{'"'}
