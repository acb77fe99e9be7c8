package main

import (
	"strconv"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Strings that are not valid UTF-16, as every text the command prints
// shows them. A notebook string may hold a lone UTF-16 surrogate (JSON
// "\ud83d"), which the module carries as its three WTF-8 bytes
// (internal/jsonvalue). Those bytes are not UTF-8: printed as they are,
// two different surrogates look the same (U+FFFD each, or nothing), and
// grep calls the output binary. So every text form — diff and textconv
// (git diff, git log -p), show, md, html, check's and every command's
// messages — shows such a code unit as its JSON escape, in lower case as
// Python's json writes it (`\ud83d`), as diff --json and the notebook
// itself do. Any other byte that is not UTF-8 (text shown from a file that
// is not a notebook) is shown as <0xXX>, as on a terminal (terminal.go).
// What the command prints as text is then always valid UTF-8.
//
// The six characters `\ud83d` typed into a cell print the same; diff
// still reports the change (its header names the part), and diff --json
// tells them apart.
//
// The rule has one home, jsonvalue.AppendShown (pages apply it too).
// Streams apply it as they are
// written (termWriter; standard error always, standard output for the
// commands that print text, textCommands, on a terminal with termSafe),
// so no path that prints a notebook's text can miss it; unitText (jsonvalue.Shown)
// applies it where text goes elsewhere (a file md writes) or is measured or cut
// first (leadLine, quoteUnits).

// textCommands are the commands whose standard output is text. The
// others (fmt, strip, merge, fix) write notebook bytes there, which
// are never rewritten (a notebook they write escapes its surrogates
// itself; a file that is not one goes out as it came).
var textCommands = []*command{checkCmd, showCmd, mdCmd, htmlCmd, webCmd, diffCmd, gitCmd}

// printsText reports whether the command line args runs a command of
// textCommands.
func printsText(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, c := range textCommands {
		if c.name == args[0] {
			return true
		}
	}
	return false
}

// quoteUnits is s quoted as Go quotes a string (strconv.Quote), but with
// a surrogate written as its escape (`"\ud83d"`, where Go would write
// "\xed\xa0\xbd").
func quoteUnits(s string) string {
	b := []byte{'"'}
	for s != "" {
		i := len(s)
		for j := 0; j+3 <= len(s); j++ {
			if _, ok := jsonvalue.Surrogate(s[j:]); ok {
				i = j
				break
			}
		}
		q := strconv.Quote(s[:i])
		b = append(b, q[1:len(q)-1]...)
		if i == len(s) {
			break
		}
		b, _ = jsonvalue.AppendShown(b, s[i:])
		s = s[i+3:]
	}
	return string(append(b, '"'))
}

// unitIndex is the index in s after its first n characters, a surrogate's
// WTF-8 bytes counted as one (len(s) when s has fewer).
func unitIndex(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		if _, ok := jsonvalue.Surrogate(s[i:]); ok {
			i += 3
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// heldTail is how many bytes at the end of data may start a character
// (or a surrogate's WTF-8 bytes) that the next write completes: a stream
// writer holds them back.
func heldTail(data []byte) int {
	n := len(data)
	for k := 1; k <= utf8.UTFMax && k <= n; k++ {
		if !utf8.RuneStart(data[n-k]) {
			continue
		}
		tail := data[n-k:]
		if !utf8.FullRune(tail) || tail[0] == 0xed && (k == 1 || k == 2 && tail[1] >= 0xa0 && tail[1] <= 0xbf) {
			return k
		}
		return 0
	}
	return 0
}

// unitString is a string encoding/json writes with its lone surrogates
// as their escapes (jsonvalue.AppendQuoted), where it would write U+FFFD.
type unitString string

func (s unitString) MarshalJSON() ([]byte, error) {
	return jsonvalue.AppendQuoted(nil, string(s)), nil
}

// unitText is s as it is printed (jsonvalue.Shown).
func unitText(s string) string { return jsonvalue.Shown(s) }
