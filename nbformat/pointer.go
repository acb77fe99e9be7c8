package nbformat

// Pointer: a JSON Pointer (RFC 6901) into the notebook as written.

import (
	"iter"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
)

// A Pointer is an RFC 6901 JSON Pointer into a notebook, such as
// "/cells/3/outputs/0". The empty pointer is the whole document. Errors
// and repairs carry one; read its parts with [Pointer.Tokens].
type Pointer string

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// appendToken returns p extended by one reference token (a member name).
func (p Pointer) appendToken(tok string) Pointer {
	return Pointer(jsonpointer.AppendToken(string(p), tok))
}

// appendIndex returns p extended by an array index.
func (p Pointer) appendIndex(i int) Pointer {
	return Pointer(jsonpointer.AppendIndex(string(p), i))
}

// Tokens yields the unescaped reference tokens of p.
func (p Pointer) Tokens() iter.Seq[string] {
	return func(yield func(string) bool) {
		if p == "" {
			return
		}
		for _, tok := range strings.Split(string(p[1:]), "/") {
			if !yield(pointerUnescaper.Replace(tok)) {
				return
			}
		}
	}
}
