package nbformat

import (
	"iter"
	"strconv"
	"strings"
)

// A Pointer is an RFC 6901 JSON Pointer into a notebook, such as
// "/cells/3/outputs/0". The empty pointer is the whole document.
type Pointer string

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// AppendToken returns p extended by one reference token (a member name).
func (p Pointer) AppendToken(tok string) Pointer {
	return p + "/" + Pointer(pointerEscaper.Replace(tok))
}

// AppendIndex returns p extended by an array index.
func (p Pointer) AppendIndex(i int) Pointer { return p + "/" + Pointer(strconv.Itoa(i)) }

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

// Parent returns p without its last token.
func (p Pointer) Parent() Pointer {
	i := strings.LastIndexByte(string(p), '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// LastToken returns the unescaped last token of p.
func (p Pointer) LastToken() string {
	i := strings.LastIndexByte(string(p), '/')
	return pointerUnescaper.Replace(string(p[i+1:]))
}
