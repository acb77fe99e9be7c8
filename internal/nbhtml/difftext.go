package nbhtml

// The diff of two texts on a diff page: rows of hunks side by side and unified,
// changed words marked.

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Text diffs on a diff page: the project's line diff (internal/textdiff,
// the one `ipynb diff` prints), written twice — side by side and unified
// (the page's toggle shows one) — with the changes inside changed lines
// highlighted: a run of removed lines and the run of added lines that
// replaces it are paired line by line, and each pair is diffed word by
// word with the same algorithm.

// diffContext is the number of unchanged lines shown around changes.
const diffContext = 4

// maxIntraLine is the longest line compared word by word, in bytes.
const maxIntraLine = 2000

// textDiff writes the diff of texts a and b (both views), or nothing when
// they are equal.
func (p *page) textDiff(a, b string) {
	if a == b {
		return
	}
	if a != "" && b != "" && !strings.HasSuffix(a, "\n") && !strings.HasSuffix(b, "\n") {
		a, b = a+"\n", b+"\n" // no "no newline at end" noise for cell texts
	}
	la := textdiff.Lines(a)
	rows := diffRows(textdiff.Hunks(la, textdiff.Lines(b), diffContext), len(la))
	p.s(`<div class="nb-diff">`)
	p.s(`<table class="nb-sbs"><colgroup><col class="nb-ln"><col><col class="nb-ln"><col></colgroup>`)
	for _, r := range rows {
		if r.gap {
			p.s(`<tr class="nb-gap"><td colspan="4">⋯</td></tr>`)
			continue
		}
		p.s("<tr>")
		p.half(r.op == ' ', r.aNo, r.a, r.aMarks, "del")
		p.half(r.op == ' ', r.bNo, r.b, r.bMarks, "add")
		p.s("</tr>")
	}
	p.s("</table>")
	p.s(`<table class="nb-uni"><colgroup><col class="nb-ln"><col class="nb-ln"><col></colgroup>`)
	for _, r := range rows {
		if r.gap {
			p.s(`<tr class="nb-gap"><td colspan="3">⋯</td></tr>`)
			continue
		}
		if r.op == ' ' {
			p.s(`<tr><td class="nb-ln">` + lineNo(r.aNo) + `</td><td class="nb-ln">` + lineNo(r.bNo) + `</td><td class="nb-line">`)
			p.marked(r.a, nil)
			p.s("</td></tr>")
			continue
		}
		if r.aNo > 0 {
			p.s(`<tr class="nb-del"><td class="nb-ln">` + lineNo(r.aNo) + `</td><td class="nb-ln"></td><td class="nb-line">`)
			p.marked(r.a, r.aMarks)
			p.s("</td></tr>")
		}
		if r.bNo > 0 {
			p.s(`<tr class="nb-add"><td class="nb-ln"></td><td class="nb-ln">` + lineNo(r.bNo) + `</td><td class="nb-line">`)
			p.marked(r.b, r.bMarks)
			p.s("</td></tr>")
		}
	}
	p.s("</table></div>\n")
}

// half writes one side of a side-by-side row.
func (p *page) half(same bool, no int, text string, marks []span, class string) {
	switch {
	case no == 0:
		p.s(`<td class="nb-ln nb-none"></td><td class="nb-line nb-none"></td>`)
	case same:
		p.s(`<td class="nb-ln">` + lineNo(no) + `</td><td class="nb-line">`)
		p.marked(text, nil)
		p.s("</td>")
	default:
		p.s(`<td class="nb-ln nb-` + class + `">` + lineNo(no) + `</td><td class="nb-line nb-` + class + `">`)
		p.marked(text, marks)
		p.s("</td>")
	}
}

func lineNo(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// marked writes a line with its changed spans in <mark>; a span of white
// space only is made visible (· for a space, → for a tab, and a carriage
// return as \r, as it is everywhere), so that a change of spacing or of
// line ends shows.
func (p *page) marked(text string, marks []span) {
	text = strings.TrimSuffix(text, "\n")
	at := 0
	for _, m := range marks {
		if m.start > len(text) {
			break
		}
		end := min(m.end, len(text))
		p.text(text[at:m.start])
		p.s("<mark>")
		if seg := text[m.start:end]; strings.TrimSpace(seg) == "" {
			p.text(visibleSpace.Replace(seg))
		} else {
			p.text(seg)
		}
		p.s("</mark>")
		at = end
	}
	p.text(strings.ReplaceAll(text[at:], "\r", `\r`))
}

var visibleSpace = strings.NewReplacer(" ", "·", "\t", "→", "\r", `\r`)

// span is a byte range of a line.
type span struct{ start, end int }

// diffRow is one row of a diff: a line in both (op ' '), or a removed
// line beside the added line that replaces it (either may be absent:
// number 0), or a gap between hunks.
type diffRow struct {
	op             byte
	aNo, bNo       int
	a, b           string
	aMarks, bMarks []span
	gap            bool
}

// diffRows lays hunks out as rows, pairing removed and added runs, with
// a gap row where unchanged lines are left out (a has aLines lines).
func diffRows(hunks []textdiff.Hunk, aLines int) []diffRow {
	var rows []diffRow
	for h, hk := range hunks {
		if h > 0 || hk.AStart > 1 || hk.BStart > 1 {
			rows = append(rows, diffRow{gap: true})
		}
		an, bn := max(hk.AStart, 1), max(hk.BStart, 1)
		if hk.ALines == 0 {
			an = hk.AStart + 1
		}
		if hk.BLines == 0 {
			bn = hk.BStart + 1
		}
		es := hk.Edits
		for i := 0; i < len(es); {
			if es[i].Op == ' ' {
				rows = append(rows, diffRow{op: ' ', aNo: an, bNo: bn, a: es[i].Text, b: es[i].Text})
				an, bn, i = an+1, bn+1, i+1
				continue
			}
			var dels, adds []string
			for ; i < len(es) && es[i].Op == '-'; i++ {
				dels = append(dels, es[i].Text)
			}
			for ; i < len(es) && es[i].Op == '+'; i++ {
				adds = append(adds, es[i].Text)
			}
			for k := range max(len(dels), len(adds)) {
				r := diffRow{op: '!'}
				if k < len(dels) {
					r.aNo, r.a = an, dels[k]
					an++
				}
				if k < len(adds) {
					r.bNo, r.b = bn, adds[k]
					bn++
				}
				if r.aNo > 0 && r.bNo > 0 {
					r.aMarks, r.bMarks = intraLine(r.a, r.b)
				}
				rows = append(rows, r)
			}
		}
		if h == len(hunks)-1 && an <= aLines {
			rows = append(rows, diffRow{gap: true})
		}
	}
	return rows
}

// intraLine returns the spans of a and b that differ, word by word
// (nothing when the lines have too little in common to say).
func intraLine(a, b string) (am, bm []span) {
	a, b = strings.TrimSuffix(a, "\n"), strings.TrimSuffix(b, "\n")
	if strings.TrimRight(a, " \t\r") == strings.TrimRight(b, " \t\r") {
		// Only trailing white space (or a line end's \r) changed: mark it.
		common := len(strings.TrimRight(a, " \t\r"))
		if common < len(a) {
			am = []span{{common, len(a)}}
		}
		if common < len(b) {
			bm = []span{{common, len(b)}}
		}
		return am, bm
	}
	if len(a) > maxIntraLine || len(b) > maxIntraLine {
		return nil, nil
	}
	ta, tb := words(a), words(b)
	same := 0
	for _, e := range textdiff.Edits(ta, tb) {
		if e.Op == ' ' {
			same += len(e.Text)
		}
	}
	if same == 0 || 2*same < min(len(a), len(b)) {
		return nil, nil // mostly rewritten: the whole line is the change
	}
	ai, bi := 0, 0
	am, bm = nil, nil
	for _, e := range textdiff.Edits(ta, tb) {
		switch e.Op {
		case ' ':
			ai += len(e.Text)
			bi += len(e.Text)
		case '-':
			am = addSpan(am, ai, ai+len(e.Text))
			ai += len(e.Text)
		case '+':
			bm = addSpan(bm, bi, bi+len(e.Text))
			bi += len(e.Text)
		}
	}
	return joinSpans(a, am), joinSpans(b, bm)
}

// joinSpans joins changed spans that only spaces separate, so that a
// changed expression shows as one change, not as its pieces.
func joinSpans(s string, ss []span) []span {
	var out []span
	for _, x := range ss {
		if n := len(out); n > 0 && strings.TrimSpace(s[out[n-1].end:x.start]) == "" {
			out[n-1].end = x.end
			continue
		}
		out = append(out, x)
	}
	return out
}

func addSpan(ss []span, start, end int) []span {
	if n := len(ss); n > 0 && ss[n-1].end == start {
		ss[n-1].end = end
		return ss
	}
	return append(ss, span{start, end})
}

// words splits a line into words, runs of spaces, and single other
// characters; joined, they are the line.
func words(s string) []string {
	var ws []string
	for len(s) > 0 {
		if _, ok := jsonvalue.Surrogate(s); ok {
			// A lone surrogate's WTF-8 bytes: one character, never split.
			ws = append(ws, s[:3])
			s = s[3:]
			continue
		}
		r, n := utf8.DecodeRuneInString(s)
		class := func(r rune) int {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
				return 1
			case unicode.IsSpace(r):
				return 2
			}
			return 0
		}
		c := class(r)
		if c == 0 {
			ws = append(ws, s[:n])
			s = s[n:]
			continue
		}
		i := n
		for i < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[i:])
			if class(r2) != c {
				break
			}
			i += n2
		}
		ws = append(ws, s[:i])
		s = s[i:]
	}
	return ws
}
