// Package lines is the one home of the rules for notebook text stored as
// lists of lines: how Python nbformat splits text into the lists written
// on disk (Split), how other writers do (SplitNewlines), and how a list
// read as generic JSON joins back into text (Strings, Join, and JoinV3 for
// nbformat 3).
package lines

import (
	"strings"
	"unicode/utf8"
)

// Split splits s after every line boundary that Python's
// str.splitlines(keepends=True) recognises, keeping the boundaries: "\n",
// "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", U+0085, U+2028 and
// U+2029. Joining the result gives s back; "" gives no lines. This is how
// Python nbformat splits source and text into the lists stored on disk.
func Split(s string) []string {
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

// SplitNewlines splits s after every "\n" only, keeping it: the rule of
// writers (VS Code among them) that do not follow str.splitlines.
func SplitNewlines(s string) []string {
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

// Strings returns the elements of a list read as generic JSON when they
// are all strings; ok is false otherwise.
func Strings(list []any) (ls []string, ok bool) {
	ls = make([]string, len(list))
	for i, x := range list {
		if ls[i], ok = x.(string); !ok {
			return nil, false
		}
	}
	return ls, true
}

// Join returns the text of a list of lines read as generic JSON: its
// strings concatenated (notebooks split text into lines that keep their
// line ends). ok is false when an element is not a string: the text then
// joins the strings only, and callers that must not lose data keep the
// list as it is.
func Join(list []any) (text string, ok bool) {
	var b strings.Builder
	ok = true
	for _, x := range list {
		s, isString := x.(string)
		if !isString {
			ok = false
			continue
		}
		b.WriteString(s)
	}
	return b.String(), ok
}

// Text returns a notebook text value held as generic JSON, as in
// dialog.Output.Map and cell sources: a string, or a list of strings
// joined without separators (notebooks split text into lines that keep
// their "\n"). Items of a list that are not strings are skipped; any
// other value gives "".
func Text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		text, _ := Join(v)
		return text
	}
	return ""
}

// JoinV3 is nbformat 3's _join_lines: lists written by splitlines(True)
// (their first line ends with "\n" or "\r") are joined as they are, older
// ones (plain splitlines) with "\n".
func JoinV3(ls []string) string {
	if len(ls) > 0 && (strings.HasSuffix(ls[0], "\n") || strings.HasSuffix(ls[0], "\r")) {
		return strings.Join(ls, "")
	}
	return strings.Join(ls, "\n")
}
