package nbformat

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// writeJoined writes to b the strings of raw, a JSON array of strings as
// read (validated), decoded and joined: what jsontree.EachString and
// jsontree.WriteUnescaped write, in one pass over raw rather than several
// searches per string (a text's lines are short: a search's call costs
// more than the bytes it skips). Between strings raw holds only
// brackets, commas and white space, so every quote found there opens a
// string; within one, a quote closes it unless a backslash escapes it,
// and escapes are decoded by jsontree.Unescape.
func writeJoined(b *strings.Builder, raw []byte) {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
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
			r, n := jsontree.Unescape(raw[i:])
			if r < utf8.RuneSelf {
				b.WriteByte(byte(r))
			} else {
				b.WriteRune(r)
			}
			i += n
			start = i
		}
		b.Write(raw[start:i])
	}
}

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
// (v-lows) &^ v & highs detects exactly for its lowest zero byte (a
// borrow can only flag bytes above a zero byte), and the byte loop then
// finds which.
func nextSpecial(raw []byte, i int) int {
	for i+8 <= len(raw) {
		x := binary.LittleEndian.Uint64(raw[i:])
		q, s := x^quotes, x^backslashs
		if ((q-lows)&^q|(s-lows)&^s)&highs != 0 {
			break
		}
		i += 8
	}
	for raw[i] != '"' && raw[i] != '\\' {
		i++
	}
	return i
}
