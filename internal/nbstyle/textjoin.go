package nbstyle

// WriteJoined: the strings of a JSON array as read, decoded and joined,
// scanning for quotes and backslashes eight bytes at a time.

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// WriteJoined writes to b the strings of raw, a JSON array of strings as
// read (validated), decoded and joined: what jsontree.EachString and
// jsontree.WriteUnescaped write, in one pass over raw rather than several
// searches per string (a text's lines are short: a search's call costs
// more than the bytes it skips). Between strings raw holds only
// brackets, commas and white space, so every quote found there opens a
// string; within one, a quote closes it unless a backslash escapes it.
// The escapes of one character (most lines end in \n) are decoded here
// (shortEscape), \u escapes by jsontree.Unescape.
func WriteJoined(b *strings.Builder, raw []byte) {
	i := 0
	for {
		if i = nextQuote(raw, i); i >= len(raw) {
			return
		}
		i++
		start := i
		for {
			i = nextSpecial(raw, i)
			if raw[i] == '"' {
				break
			}
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

// The bytes nextSpecial looks for, in every byte of a word.
const (
	quotes     = 0x2222222222222222 // '"'
	backslashs = 0x5c5c5c5c5c5c5c5c // '\\'
	lows       = 0x0101010101010101
	highs      = 0x8080808080808080
)

// nextSpecial returns the index of the first quote or backslash in raw
// from i on (inside a validated JSON string there is one: its closing
// quote). It reads 8 bytes at a time while 8 are left: a word holds one
// of the two bytes when x^quotes or x^backslashs has a zero byte, which
// (v-lows) &^ v & highs flags at its high bit; the lowest flag is exact
// (a borrow can only flag bytes above a zero byte), so its position is
// the byte's. The last bytes (fewer than 8) are looked at one by one.
func nextSpecial(raw []byte, i int) int {
	for i+8 <= len(raw) {
		x := binary.LittleEndian.Uint64(raw[i:])
		q, s := x^quotes, x^backslashs
		if m := ((q-lows)&^q | (s-lows)&^s) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for raw[i] != '"' && raw[i] != '\\' {
		i++
	}
	return i
}

// nextQuote returns the index of the first quote in raw from i on, or
// len(raw) if there is none: nextSpecial's search for a quote alone, for
// the white space between strings (a comma, a line break and indentation,
// which a word often holds whole).
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
