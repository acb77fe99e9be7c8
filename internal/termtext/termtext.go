// Package termtext turns text written for a terminal (a stream output, an
// error's traceback) into the text a terminal leaves on the screen: escape
// codes removed, a line rewritten after a carriage return (a progress
// bar) shown as its last state. It is the rule of `ipynb md` and of the
// HTML pages (internal/nbhtml), so that both show an output alike.
package termtext

import (
	"regexp"
	"strings"
)

// codes matches what a terminal interprets rather than shows: CSI
// sequences (colours, cursor moves: nbconvert's strip_ansi), OSC sequences
// (titles, hyperlinks) and other two-byte escapes.
var codes = regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[@-Z\\\\-_]")

// Plain is s as a terminal would leave it on screen: escape codes
// removed, and each line rewritten after a carriage return shown as its
// last state ("\r\n" is a line end). Other control characters are kept.
func Plain(s string) string {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = codes.ReplaceAllString(s, "")
	}
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); j >= 0 {
			lines[i] = l[j+1:]
		} else {
			lines[i] = strings.TrimRight(l, "\r")
		}
	}
	return strings.Join(lines, "\n")
}
