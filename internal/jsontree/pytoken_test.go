package jsontree

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// isPythonTokenByteLoop is IsPythonToken as it was written before its
// searches used bytes.IndexByte: a byte-by-byte loop, kept as the
// reference.
func isPythonTokenByteLoop(raw []byte, ascii bool, flags uint8) bool {
	if ascii && flags&FlagASCII == 0 {
		return false
	}
	if ascii {
		for _, c := range raw {
			if c == 0x7f {
				return false
			}
		}
	}
	if flags&FlagEscaped == 0 {
		return true
	}
	for i := 1; i < len(raw)-1; i++ {
		if raw[i] != '\\' {
			continue
		}
		switch raw[i+1] {
		case '"', '\\', 'n', 'r', 't', 'b', 'f':
			i++
		case 'u':
			var cp rune
			for _, h := range raw[i+2 : i+6] {
				if h >= 'A' && h <= 'F' {
					return false
				}
				cp = cp<<4 | rune(unhex(h))
			}
			switch {
			case cp < 0x20:
				if cp == '\b' || cp == '\t' || cp == '\n' || cp == '\f' || cp == '\r' {
					return false
				}
			case ascii && cp >= 0x7f:
			default:
				return false
			}
			i += 5
		default:
			return false
		}
	}
	return true
}

// TestIsPythonTokenAsByteLoop checks IsPythonToken against the byte loop
// over strings made of escapes and plain runs at every position (runs of
// up to 40 plain bytes, so escapes fall at every offset of a machine word
// and past it), both escapings.
func TestIsPythonTokenAsByteLoop(t *testing.T) {
	t.Parallel()
	pieces := []string{`a`, `\n`, `\"`, `\\`, `\u001f`, `\u00e9`, `\u00E9`, `\/`, "\x7f", `é`, `\t`, `\u000a`, `\u2028`, `\b`, `\f`, `\r`, `\u0000`}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 30000 {
		var b strings.Builder
		b.WriteByte('"')
		for range 1 + n%6 {
			b.WriteString(strings.Repeat("x", r.IntN(41)))
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		tok := b.String()
		tape, err := Parse([]byte(tok), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		for _, ascii := range []bool{false, true} {
			got := IsPythonToken(tape.Raw(0), ascii, tape.Nodes[0].Flags)
			if want := isPythonTokenByteLoop(tape.Raw(0), ascii, tape.Nodes[0].Flags); got != want {
				t.Fatalf("IsPythonToken(%s, ascii=%v) = %v, the byte loop says %v", tok, ascii, got, want)
			}
		}
	}
}
