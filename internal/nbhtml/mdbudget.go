package nbhtml

import (
	"bufio"
	"strings"
	"sync/atomic"
)

// Markdown that would take goldmark quadratic time is shown as its
// source. goldmark scans, for every "](" (a link's destination and
// title), "][" (a reference) and "]:" (a definition) it tries, up to the
// end of the line or of the paragraph when the link does not close, so
// that "[a](" repeated 20,000 times (80 kB) took it 4 s, and a megabyte
// hours. Before parsing, linkWork bounds that scanning from above — the
// bytes from each such opening to the end of its paragraph (lines up to
// a blank one) — in one pass; text whose bound exceeds linkBudget is
// written as preformatted text with a note, so that a page's rendering
// time stays linear in its Markdown (linkWorkAllowed counts the bound of
// the text rendered). Real text stays below the budget: a line of a
// hundred links in 10 kB is bounded by 5·10⁵ bytes, its budget is
// 3.6·10⁶; a line of a thousand links in 100 kB would be shown as source.

// linkBudget is the most link scanning allowed for Markdown of n bytes.
func linkBudget(n int) int64 { return 256*int64(n) + 1<<20 }

// linkWorkAllowed sums the bounds of the Markdown rendered (for tests).
var linkWorkAllowed atomic.Int64

// linkWork is the bound of goldmark's link scanning of src.
func linkWork(src string) int64 {
	var work int64
	end := len(src)     // the end of the paragraph being read (backwards)
	lineEnd := len(src) // the end of the line being read
	for i := len(src) - 1; i >= 0; i-- {
		c := src[i]
		if c == '\n' {
			// The line (i, lineEnd] has been read: if it was blank, a
			// paragraph ends before it.
			if isBlank(src[i+1 : lineEnd]) {
				end = i
			}
			lineEnd = i
			continue
		}
		if c == ']' && i+1 < len(src) {
			switch src[i+1] {
			case '(', '[', ':':
				work += int64(end - i)
			}
		}
	}
	return work
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// Markdown nested deeper than maxNesting containers (block quotes, list
// items) is shown as its source too: goldmark's work grows with the
// square of the containers one line opens (">" × 40,000: 1.4 s, 4.7
// times a doubling; "- " × 20,000: 1.8 s) and with the depth on every
// line after it. nestDepth bounds the depth from above in one pass.
const maxNesting = 100

// nestDepth is, of the lines of src, the most container markers one
// opens (">", and list markers: -, +, * or a number with . or ) before
// a space or the line's end) plus, on such a line, its indentation (a level each two
// columns): no container is deeper than the line that opened it says.
// Indentation alone (code) counts nothing.
func nestDepth(src string) int {
	most := 0
	for len(src) > 0 {
		line := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		markers, cols := 0, 0
	scan:
		for i := 0; i < len(line); {
			switch c := line[i]; {
			case c == ' ':
				cols, i = cols+1, i+1
			case c == '\t':
				cols, i = cols+4, i+1
			case c == '>':
				markers, i = markers+1, i+1
			case (c == '-' || c == '+' || c == '*') && (i+1 == len(line) || isSpace(line[i+1])):
				markers, i = markers+1, i+1
			case '0' <= c && c <= '9':
				j := i
				for j < len(line) && j-i < 9 && '0' <= line[j] && line[j] <= '9' {
					j++
				}
				if j < len(line) && (line[j] == '.' || line[j] == ')') && (j+1 == len(line) || isSpace(line[j+1])) {
					markers, i = markers+1, j+1
					continue
				}
				break scan
			default:
				break scan
			}
		}
		if markers > 0 {
			most = max(most, markers+cols/2)
		}
	}
	return most
}

// plainMarkdown writes src as preformatted text, saying why.
func plainMarkdown(w *bufio.Writer, src, why string) {
	w.WriteString(`<p class="nb-note">This Markdown is shown as its source: ` + why + `.</p><pre class="nb-raw">`)
	writeEscaped(w, src)
	w.WriteString("</pre>")
}
