package nbstyle

// WriteJoined: the strings of a JSON array as read, decoded and joined,
// their ends and escapes found by bytes.IndexByte.

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// WriteJoined writes to b the strings of raw, a JSON array of strings as
// read (validated), decoded and joined: what jsontree.EachString and
// jsontree.WriteUnescaped write, in one pass over raw: the next backslash
// is searched once for all the strings up to it (a line's \n, mostly),
// the quote that ends a string only before it. Between strings raw holds only
// brackets, commas and white space, so every quote found there opens a
// string; within one, a quote closes it unless a backslash escapes it.
// The escapes of one character (most lines end in \n) are decoded here
// (shortEscape), \u escapes by jsontree.Unescape.
func WriteJoined(b *strings.Builder, raw []byte) {
	i := 0
	bs := -1 // the first backslash from i on, when bs >= i (len(raw): none)
	for {
		if i = nextQuote(raw, i); i >= len(raw) {
			return
		}
		i++
		start := i
		for {
			// The string's end, or its next escape: the first quote
			// before the next backslash closes it (no backslash escapes
			// it), else the backslash comes first. Both are found by
			// bytes.IndexByte, the backslash once for every string up to
			// it (most lines end in \n: one search per line).
			if bs < i {
				if bs = i + bytes.IndexByte(raw[i:], '\\'); bs < i {
					bs = len(raw)
				}
			}
			if q := bytes.IndexByte(raw[i:bs], '"'); q >= 0 {
				i += q
				break
			}
			i = bs
			// A backslash: the run before it, then the character it
			// stands for.
			b.Write(raw[start:i])
			if raw[i+1] == 'n' && raw[i+2] == '"' {
				// A line's end, which ends its string (most do): on to
				// the next string.
				b.WriteByte('\n')
				i += 2
				start = i
				break
			}
			if c := shortEscape[raw[i+1]]; c != 0 {
				b.WriteByte(c)
				i += 2
			} else {
				r, n := jsontree.Unescape(raw[i:])
				switch {
				case r < utf8.RuneSelf:
					b.WriteByte(byte(r))
				case utf16.IsSurrogate(r): // a lone one: as WTF-8
					b.Write(jsontree.AppendRune(nil, r))
				default:
					b.WriteRune(r)
				}
				i += n
			}
			start = i
		}
		if start < i { // (a line's run ends at its \n, mostly)
			b.Write(raw[start:i])
		}
		i++
	}
}

// shortEscape is, for the byte after a backslash, the byte the two stand
// for when it is one of JSON's escapes of one character (0 for 'u', which
// jsontree.Unescape decodes, and for bytes a validated string never has
// there).
var shortEscape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// The byte nextQuote looks for, in every byte of a word.
const (
	quotes = 0x2222222222222222 // '"'
	lows   = 0x0101010101010101
	highs  = 0x8080808080808080
)

// nextQuote returns the index of the first quote in raw from i on, or
// len(raw) if there is none, for the white space between strings (a
// comma, a line break and indentation, which a word often holds whole):
// it reads 8 bytes at a time while 8 are left, a word holding a quote
// when x^quotes has a zero byte, which (v-lows) &^ v & highs flags at its
// high bit (the lowest flag is exact: a borrow can only flag bytes above
// a zero byte); the last bytes (fewer than 8) are looked at one by one.
func nextQuote(raw []byte, i int) int {
	for i+8 <= len(raw) {
		q := binary.LittleEndian.Uint64(raw[i:]) ^ quotes
		if m := (q - lows) &^ q & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(raw) && raw[i] != '"' {
		i++
	}
	return i
}
