package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// progress shows "[n/N] path" on a terminal's standard error when there are
// more files than fit on a screen: one line, cut to the terminal's width
// (so it never wraps), rewritten in place and cleared when done.
type progress struct {
	e     *env
	total int
	on    bool
	width int // columns of the terminal
}

const screenful = 40

func newProgress(e *env, total int) *progress {
	p := &progress{e: e, total: total, on: e.stderrTTY && total > screenful}
	if p.on {
		p.width = e.termWidth
		if p.width <= 0 {
			p.width = 80
		}
	}
	return p
}

func (p *progress) step(i int, path string) {
	if p.on {
		fmt.Fprint(p.e.rawStderr, "\r\x1b[K"+fitLine(fmt.Sprintf("[%d/%d] %s", i+1, p.total, visible(path)), p.width-1))
	}
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.e.rawStderr, "\r\x1b[K")
	}
}

// fitLine cuts s to at most width characters, keeping its end (the file
// name) after a leading "…" when it is too long.
func fitLine(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if width <= 0 || n <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	r := []rune(s)
	// Keep the counter, then the end of the path.
	head := strings.IndexByte(s, ' ') + 1
	if head <= 0 || head+2 > width {
		return string(r[:width-1]) + "…"
	}
	headRunes := utf8.RuneCountInString(s[:head])
	tail := width - headRunes - 1
	return string(r[:headRunes]) + "…" + string(r[n-tail:])
}

// visible replaces control characters in a file name by their escapes, so
// that a name cannot drive the terminal.
func visible(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// terminalWidth is the number of columns of the terminal f, from $COLUMNS
// or the terminal itself (0 when unknown).
func terminalWidth(f *os.File) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return ttyColumns(f)
}
