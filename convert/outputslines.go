package convert

// Texts of outputs read a line at a time from their bytes as written, and what a merge keeps of a large one (textSummary).

import (
	"bytes"
	"crypto/sha256"
	"hash/maphash"
	"slices"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// A text of an output (a stream's text, a MIME bundle's text entry) is
// a JSON string or array of strings whose joined, unescaped strings are
// the text the merge sees (see rejoin). A large one is compared and
// summarized here a line at a time from its bytes, never unescaped
// whole: memory is bounded by its longest line.

// bigText is the least size (bytes as written) of a text compared or
// summarized by its lines: smaller ones are decoded, as cheap as that is.
const bigText = 1 << 16

// lineCursor reads the lines of the joined text of raw, a validated JSON
// string or array of strings, each unescaped and keeping its "\n" (the
// last may lack it), as textdiff.Lines splits the text.
type lineCursor struct {
	raw  []byte
	next int    // the offset in raw of the strings not yet begun
	cur  []byte // what of the current string's contents is not read yet (escaped)
	buf  []byte // the line read last
}

// line returns the next line (valid until the next call), or false at
// the end.
func (c *lineCursor) line() ([]byte, bool) {
	c.buf = c.buf[:0]
	for {
		if len(c.cur) == 0 {
			s, ok := c.nextString()
			if !ok {
				return c.buf, len(c.buf) > 0
			}
			c.cur = s
			continue
		}
		cut, eol := lineEnd(c.cur)
		c.buf = jsontree.AppendUnescaped(c.buf, c.cur[:cut])
		c.cur = c.cur[cut:]
		if eol {
			return c.buf, true
		}
	}
}

// nextString returns the contents (escaped) of the next string of raw.
func (c *lineCursor) nextString() ([]byte, bool) {
	for {
		q := bytes.IndexByte(c.raw[c.next:], '"')
		if q < 0 {
			c.next = len(c.raw)
			return nil, false
		}
		start := c.next + q
		end := start + 1
		for end < len(c.raw) && c.raw[end] != '"' {
			if c.raw[end] == '\\' {
				end++
			}
			end++
		}
		c.next = min(end+1, len(c.raw))
		if s := c.raw[start+1 : min(end, len(c.raw))]; len(s) > 0 {
			return s, true
		}
	}
}

// lineEnd returns the length of the escaped contents s up to and
// including the first escape decoding to "\n" (eol true), or len(s).
// Escapes are never cut.
func lineEnd(s []byte) (n int, eol bool) {
	for i := 0; i < len(s); {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			j = len(s) - i
		}
		if k := bytes.IndexByte(s[i:i+j], '\n'); k >= 0 {
			return i + k + 1, true // (not valid JSON, but decoded so)
		}
		if i+j == len(s) {
			return len(s), false
		}
		i += j
		if i+1 >= len(s) {
			return len(s), false
		}
		switch s[i+1] {
		case 'n':
			return i + 2, true
		case 'u':
			if i+6 <= len(s) && string(s[i+2:i+5]) == "000" && (s[i+5] == 'a' || s[i+5] == 'A') {
				return i + 6, true
			}
			i += 6
		default:
			i += 2
		}
	}
	return len(s), false
}

// equalTexts reports whether raw texts a and b (validated JSON strings or
// arrays of strings) join to the same text, comparing a line at a time.
func equalTexts(a, b []byte) bool {
	x, y := lineCursor{raw: a}, lineCursor{raw: b}
	for {
		lx, okX := x.line()
		ly, okY := y.line()
		if okX != okY || !bytes.Equal(lx, ly) {
			return false
		}
		if !okX {
			return true
		}
	}
}

// lineSeed hashes the lines of summarized texts (one seed per process:
// summaries of one merge are compared with each other only).
var lineSeed = maphash.MakeSeed()

// A textSummary is what comparing and merging a large text needs of it
// without the text: its digest, the hashes of its first and last lines
// and of all its lines, sorted. Equal digests do not say the texts are
// equal (callers are then unsure); a hash not among a text's is of a
// line it does not hold.
type textSummary struct {
	sum         [sha256.Size]byte
	lines       int
	first, last uint64
	hashes      []uint64 // sorted
}

// summarize returns the summary of raw text (a validated JSON string or
// array of strings).
func summarize(raw []byte) *textSummary {
	s := &textSummary{}
	h := sha256.New()
	c := lineCursor{raw: raw}
	for {
		l, ok := c.line()
		if !ok {
			break
		}
		h.Write(l)
		x := maphash.Bytes(lineSeed, l)
		if s.lines == 0 {
			s.first = x
		}
		s.last = x
		s.lines++
		s.hashes = append(s.hashes, x)
	}
	h.Sum(s.sum[:0])
	slices.Sort(s.hashes)
	s.hashes = slices.Clip(s.hashes)
	return s
}

// textDigest is the digest of a text's summary (raw as summarize
// takes it), without its hashes.
func textDigest(raw []byte) [sha256.Size]byte {
	h := sha256.New()
	c := lineCursor{raw: raw}
	for {
		l, ok := c.line()
		if !ok {
			break
		}
		h.Write(l)
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// holds reports whether the text may hold a line of hash x (false: it
// holds none).
func (s *textSummary) holds(x uint64) bool {
	_, found := slices.BinarySearch(s.hashes, x)
	return found
}

// conflicts reports whether a three-way line merge of base's text b with
// ours' o and theirs' t (each changed: their digests differ) is sure to
// conflict (textdiff.MergeClean fails), by its first or last region:
// where base's first line is in neither side and each side's first line
// is not in base, no line merge matches any of them, so the merge's
// first region holds base's first line and each side's (both sides
// changed it), and the side's first lines differ: a conflict. So with
// the last lines.
func (b *textSummary) conflicts(o, t *textSummary) bool {
	if b.lines == 0 || o.lines == 0 || t.lines == 0 || b.sum == o.sum || b.sum == t.sum || o.sum == t.sum {
		return false
	}
	end := func(bx, ox, tx uint64) bool {
		return ox != tx && !o.holds(bx) && !t.holds(bx) && !b.holds(ox) && !b.holds(tx)
	}
	return end(b.first, o.first, t.first) || end(b.last, o.last, t.last)
}

// equalJoined reports whether raw texts a and b join to the same text, as
// jsontree.EqualJoinedRaw does, large ones a line at a time (rather than
// a string at a time: a large text is often one string).
func equalJoined(a, b []byte) bool {
	if len(a) >= bigText || len(b) >= bigText {
		return equalTexts(a, b)
	}
	return jsontree.EqualJoinedRaw(a, b)
}
