package nbformat

import "unicode/utf8"

// SplitLines splits s after every line boundary that Python's
// str.splitlines(keepends=True) recognises, keeping the boundaries: "\n",
// "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", U+0085, U+2028 and
// U+2029. Joining the result gives s back; "" gives no lines. This is how
// Python nbformat splits source and text into the lists stored on disk.
func SplitLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		n := 0 // length of a boundary at i, 0 if none
		switch {
		case c == '\r':
			n = 1
			if i+1 < len(s) && s[i+1] == '\n' {
				n = 2
			}
		case c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e:
			n = 1
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == 0x85 || r == 0x2028 || r == 0x2029 {
				n = size
			} else {
				i += size
				continue
			}
		}
		if n == 0 {
			i++
			continue
		}
		i += n
		lines = append(lines, s[start:i])
		start = i
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

// splitNewlines splits s after every "\n" only, keeping it: the rule of
// writers (VS Code among them) that do not follow str.splitlines.
func splitNewlines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			lines = append(lines, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}
