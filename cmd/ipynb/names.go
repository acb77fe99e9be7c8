package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Names the command prints — file paths, and JSON Pointers, whose keys
// come from the notebook — are quoted as git quotes paths (core.quotePath)
// when they hold a character that would break a line of output or drive a
// terminal: a control character (newline and tab included), a C1 control
// or bidi formatting character (see terminal.go), a byte that is not
// UTF-8, or a leading double quote. The quoted form is a Go string
// literal, "a\nb.ipynb", so that one name stays on one line, every output
// line reads the same way to a pipe and to a terminal, and nothing is
// lost: strconv.Unquote gives the name back. Other names, spaces and
// non-ASCII letters included, are printed as they are.

// Standard input, "-" on the command line, is named <stdin> in every
// message (a file cannot be named "-": that argument means standard
// input, in a --files-from list too).
const stdinName = "<stdin>"

// quoteName returns s, or s quoted when it needs to be (see above);
// "-" is standard input, stdinName.
func quoteName(s string) string {
	if s == "-" {
		return stdinName
	}
	if !needsQuote(s) {
		return s
	}
	return strconv.Quote(s)
}

// quoteText returns a text the command prints that comes from a file (a
// metadata key in a conflict's description, say) as quoteName quotes a
// name, "-" included, so that one conflict stays on one line.
func quoteText(s string) string {
	if !needsQuote(s) {
		return s
	}
	return strconv.Quote(s)
}

func needsQuote(s string) bool {
	if strings.HasPrefix(s, `"`) {
		return true
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0x20 || needsPicture(r) {
			return true
		}
		i += size
	}
	return false
}
