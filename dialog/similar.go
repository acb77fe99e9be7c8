package dialog

import (
	"strings"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// How alike two messages' texts are, for pairing the messages of two
// versions that are one message edited (see match): by the lines they
// share, and, for texts edited inside a line, by their bytes.

// similarity scores how alike two texts are, from 0 to 1, by the lines
// they share (c, counted as multisets: order aside, so the cost is linear):
// the Dice coefficient 2c/(len x + len y); a text that mostly survives in
// the other (grown or cut around it: c is at least 60% of the shorter's
// lines, and Dice at least 0.25) scores at least `similar`. Two empty
// texts score 1. Texts that share more by their bytes (see
// edgeSimilarity and gramSimilarity: a short text edited inside a line)
// score that.
func similarity(x, y string) float64 {
	common, nx, ny := textdiff.CommonLines(lineEnded(x), lineEnded(y))
	if nx+ny == 0 {
		return 1
	}
	dice := 2 * float64(common) / float64(nx+ny)
	bytes := max(edgeSimilarity(x, y), gramSimilarity(x, y))
	if n := min(nx, ny); n > 0 && dice >= 0.25 {
		if contained := float64(common) / float64(n); contained >= 0.6 {
			return max(dice, min(1, similar*contained/0.6), bytes)
		}
	}
	return max(dice, bytes)
}

// lineEnded is s with a line end after its last line: lines compare
// without their line ends, so that a text's last line is still one of
// its lines when a line is added after it.
func lineEnded(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// maxGramText is the longest text gramSimilarity compares (longer ones
// have lines enough to compare).
const maxGramText = 2048

// minGram is the least score gramSimilarity gives other than 0: fewer
// shared byte triples are chance (" = ", "(x)", the shape of formulaic
// cells: "x.1 a = 1" and "y.1 a = 1" share half).
const minGram = 0.6

// gramSimilarity scores two short texts by the distinct byte triples
// they share (c): 2c/(distinct triples of x + of y), 0 below minGram or
// for texts over maxGramText bytes. A one-line cell edited anywhere in
// its line keeps most of its triples ("indmax(v) - 1" and "maximum(v) -
// 1 " share their middle); counted once each, a run of one character
// ("####…" rules) is one triple, not most of a text.
func gramSimilarity(x, y string) float64 {
	if len(x) < 3 || len(y) < 3 || len(x) > maxGramText || len(y) > maxGramText {
		return 0
	}
	key := func(s string, i int) uint32 { return uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2]) }
	seen := make(map[uint32]uint8, len(x)) // 1 in x only, 2 in both, 3 in y only
	nx, ny, common := 0, 0, 0
	for i := 0; i+3 <= len(x); i++ {
		if k := key(x, i); seen[k] == 0 {
			seen[k] = 1
			nx++
		}
	}
	for i := 0; i+3 <= len(y); i++ {
		switch k := key(y, i); seen[k] {
		case 0:
			seen[k] = 3
			ny++
		case 1:
			seen[k] = 2
			ny++
			common++
		}
	}
	s := 2 * float64(common) / float64(nx+ny)
	if s < minGram {
		return 0
	}
	return s
}

// minEdge is the fewest bytes two texts' common beginning and end must
// hold for edgeSimilarity to count them.
const minEdge = 8

// edgeSimilarity scores two texts by their common beginning and end (p
// and q bytes, not overlapping): 2(p+q)/(len x + len y), 0 when p+q <
// minEdge unless the shorter text is all of it (text only added inside
// it, or to an empty one: then above 0 however little). A line edited
// inside — a one-line cell given one more argument — leaves no line
// whole, so shares no line, but most of its bytes at its ends. Texts
// that differ across a line end in both (the bytes between their
// common ends hold a line end in each) had lines replaced, not a line
// edited inside, and score 0: their lines say how alike they are
// ("«a»\na.1 text" and "«b»\nb.1 text" share no line, only the shape
// of their first and last bytes). The cost is linear in the shorter
// text.
func edgeSimilarity(x, y string) float64 {
	n := min(len(x), len(y))
	p := 0
	for p < n && x[p] == y[p] {
		p++
	}
	q := 0
	for q < n-p && x[len(x)-1-q] == y[len(y)-1-q] {
		q++
	}
	switch {
	case p+q == n:
		return max(2*float64(p+q)/float64(len(x)+len(y)), minScore)
	case p+q < minEdge:
		return 0
	case strings.Contains(x[p:len(x)-q], "\n") && strings.Contains(y[p:len(y)-q], "\n"):
		return 0
	}
	return 2 * float64(p+q) / float64(len(x)+len(y))
}

// minScore is the score of texts alike only in that one holds the other
// whole at its ends.
const minScore = 1e-9
