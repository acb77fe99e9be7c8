// Package jsonpointer builds and splits RFC 6901 JSON Pointers, for the
// module's packages that report places in a notebook (nbformat.Pointer
// values): the one home of the escaping rule ("~" as "~0", "/" as "~1").
package jsonpointer

import (
	"iter"
	"strconv"
	"strings"
)

var (
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// Tokens yields the unescaped reference tokens of p.
func Tokens(p string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if p == "" {
			return
		}
		for _, tok := range strings.Split(p[1:], "/") {
			if !yield(unescaper.Replace(tok)) {
				return
			}
		}
	}
}

// AppendToken returns p extended by one reference token (a member name),
// escaped.
func AppendToken(p, tok string) string { return p + "/" + escaper.Replace(tok) }

// AppendIndex returns p extended by an array index.
func AppendIndex(p string, i int) string { return p + "/" + strconv.Itoa(i) }
