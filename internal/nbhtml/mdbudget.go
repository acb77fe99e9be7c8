package nbhtml

import (
	"bufio"
	"strconv"
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

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// plainMarkdown writes src as preformatted text, saying why.
func plainMarkdown(w *bufio.Writer, src string, work int64) {
	w.WriteString(`<p class="nb-note">This Markdown is shown as its source: it opens so many links that rendering it would take too long (` +
		strconv.FormatInt(work, 10) + ` bytes to scan).</p><pre class="nb-raw">`)
	writeEscaped(w, src)
	w.WriteString("</pre>")
}
