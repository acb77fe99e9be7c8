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

// fitLine cuts s to at most width terminal columns (wide characters
// count two, combining marks none: columns), keeping its end (the file
// name) after a leading "…" when it is too long.
func fitLine(s string, width int) string {
	if width <= 0 || columns(s) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	// Keep the counter, then the end of the path.
	head := strings.IndexByte(s, ' ') + 1
	if head <= 0 || columns(s[:head])+2 > width {
		return cutColumns(s, width-1) + "…"
	}
	room := width - columns(s[:head]) - 1
	// The longest end of s that fits in room columns.
	start := len(s)
	for start > head {
		r, size := utf8.DecodeLastRuneInString(s[:start])
		if c := runeColumns(r); c > room {
			break
		} else {
			room -= c
		}
		start -= size
	}
	return s[:head] + "…" + s[start:]
}

// cutColumns returns the longest beginning of s that fits in n columns.
func cutColumns(s string, n int) string {
	for i, r := range s {
		if c := runeColumns(r); c > n {
			return s[:i]
		} else {
			n -= c
		}
	}
	return s
}

// visible makes a file name safe to draw on the terminal (termSafe: the
// progress line is written past the terminal guard, as it draws its own
// control sequences).
func visible(s string) string { return termSafe(s) }

// terminalWidth is the number of columns of the terminal f, from $COLUMNS
// or the terminal itself (0 when unknown).
func terminalWidth(f *os.File) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return ttyColumns(f)
}
