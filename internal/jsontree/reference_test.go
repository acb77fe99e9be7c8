package jsontree

import (
	"fmt"
	"unicode/utf8"
)

// refParse is the reference the parser is tested against: a plain
// recursive descent over the grammar of the package doc, one byte at a
// time, written for clarity rather than speed. It returns the nodes Parse
// records (every value, none lazy) or the error Parse reports: the same
// offset and message, which the tests compare.
func refParse(data []byte, lim Limits) ([]Node, error) {
	r := &refParser{d: data, lim: lim}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		r.i = 3
	}
	r.space()
	if err := r.value(0, -1, -1, 0); err != nil {
		return nil, err
	}
	r.space()
	if r.i != len(r.d) {
		return nil, r.fail(r.i, fmt.Sprintf("invalid character %q after the top-level value", r.d[r.i]))
	}
	return r.nodes, nil
}

type refParser struct {
	d      []byte
	i      int
	lim    Limits
	nodes  []Node
	values int
}

func (r *refParser) fail(off int, msg string) error {
	return &SyntaxError{Offset: int64(off), Msg: msg}
}

func (r *refParser) limit(off int, msg string) error {
	return &SyntaxError{Offset: int64(off), Msg: msg, Limit: true}
}

// expecting is the error for the byte at r.i (or the end of the input)
// where what was expected.
func (r *refParser) expecting(what string) error {
	if r.i == len(r.d) {
		return r.fail(r.i, "unexpected end of input, expecting "+what)
	}
	c := r.d[r.i]
	if c >= ' ' && c <= '~' {
		return r.fail(r.i, fmt.Sprintf("invalid character %q, expecting %s", c, what))
	}
	if ru, _ := utf8.DecodeRune(r.d[r.i:]); ru != utf8.RuneError {
		return r.fail(r.i, fmt.Sprintf("invalid character %U, expecting %s", ru, what))
	}
	return r.fail(r.i, fmt.Sprintf("invalid byte 0x%02x, expecting %s", c, what))
}

func (r *refParser) space() {
	for r.i < len(r.d) && (r.d[r.i] == ' ' || r.d[r.i] == '\t' || r.d[r.i] == '\n' || r.d[r.i] == '\r') {
		r.i++
	}
}

// value parses the value at r.i, inside depth open containers, as the
// member with the key token d[key:keyEnd] (-1: none).
func (r *refParser) value(depth int, key, keyEnd int32, keyFlags uint8) error {
	if r.i == len(r.d) {
		return r.expecting("a value")
	}
	start := r.i
	r.values++
	if r.lim.MaxNodes > 0 && r.values > r.lim.MaxNodes {
		return r.limit(start, fmt.Sprintf("more than %d JSON values", r.lim.MaxNodes))
	}
	n := Node{Start: int32(start), Key: key, KeyEnd: keyEnd, Flags: keyFlags}
	c := r.d[r.i]
	switch {
	case c == '{' || c == '[':
		if r.lim.MaxDepth > 0 && depth >= r.lim.MaxDepth {
			return r.limit(start, fmt.Sprintf("nesting deeper than %d levels", r.lim.MaxDepth))
		}
		return r.container(depth, n)
	case c == '"':
		flags, err := r.str()
		if err != nil {
			return err
		}
		n.Kind, n.Flags = String, n.Flags|flags
	case c == 't' || c == 'f' || c == 'n' || c == 'N' || c == 'I':
		lits := map[byte]struct {
			s string
			k Kind
			f uint8
		}{'t': {"true", True, 0}, 'f': {"false", False, 0}, 'n': {"null", Null, 0}, 'N': {"NaN", Number, FlagNonFinite}, 'I': {"Infinity", Number, FlagNonFinite}}
		l := lits[c]
		if err := r.lit(l.s); err != nil {
			return err
		}
		n.Kind, n.Flags = l.k, n.Flags|l.f
	case c == '-' || c >= '0' && c <= '9':
		flags, err := r.number()
		if err != nil {
			return err
		}
		n.Kind, n.Flags = Number, n.Flags|flags
	default:
		return r.expecting("a value")
	}
	n.End = int32(r.i)
	n.Skip = int32(len(r.nodes) + 1)
	r.nodes = append(r.nodes, n)
	return nil
}

func (r *refParser) lit(s string) error {
	for k := 0; k < len(s); k++ {
		if r.i == len(r.d) || r.d[r.i] != s[k] {
			return r.expecting(fmt.Sprintf("%q", s))
		}
		r.i++
	}
	return nil
}

func (r *refParser) digits() int {
	n := 0
	for r.i < len(r.d) && r.d[r.i] >= '0' && r.d[r.i] <= '9' {
		r.i++
		n++
	}
	return n
}

func (r *refParser) number() (uint8, error) {
	if r.d[r.i] == '-' {
		r.i++
		if r.i < len(r.d) && r.d[r.i] == 'I' {
			return FlagNonFinite, r.lit("Infinity")
		}
	}
	switch {
	case r.i < len(r.d) && r.d[r.i] == '0':
		r.i++
	case r.digits() == 0:
		return 0, r.expecting("a digit")
	}
	flags := FlagInt
	if r.i < len(r.d) && r.d[r.i] == '.' {
		flags = 0
		r.i++
		if r.digits() == 0 {
			return 0, r.expecting("a digit after the decimal point")
		}
	}
	if r.i < len(r.d) && (r.d[r.i] == 'e' || r.d[r.i] == 'E') {
		flags = 0
		r.i++
		if r.i < len(r.d) && (r.d[r.i] == '+' || r.d[r.i] == '-') {
			r.i++
		}
		if r.digits() == 0 {
			return 0, r.expecting("a digit in the exponent")
		}
	}
	return flags, nil
}

// str scans the string at r.i one byte (or one UTF-8 sequence) at a time.
func (r *refParser) str() (uint8, error) {
	start := r.i
	flags := FlagASCII
	r.i++
	for {
		if r.i >= len(r.d) {
			return 0, r.fail(start, "unterminated string")
		}
		c := r.d[r.i]
		switch {
		case c == '"':
			if size := r.i - start - 1; r.lim.MaxString > 0 && size > r.lim.MaxString {
				return 0, r.limit(start, fmt.Sprintf("a string of %d bytes, more than the limit of %d", size, r.lim.MaxString))
			}
			r.i++
			return flags, nil
		case c == '\\':
			flags |= FlagEscaped
			if r.i+1 >= len(r.d) {
				return 0, r.fail(start, "unterminated string")
			}
			e := r.d[r.i+1]
			switch {
			case e == 'u':
				if r.i+6 > len(r.d) {
					return 0, r.fail(r.i, "unterminated \\u escape")
				}
				for _, h := range r.d[r.i+2 : r.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return 0, r.fail(r.i, fmt.Sprintf("invalid \\u escape %q", r.d[r.i:r.i+6]))
					}
				}
				r.i += 6
			case e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't':
				r.i += 2
			default:
				return 0, r.fail(r.i, fmt.Sprintf("invalid escape %q in string", r.d[r.i:r.i+2]))
			}
		case c < 0x20:
			return 0, r.fail(r.i, fmt.Sprintf("invalid control character 0x%02x in string", c))
		case c < 0x80:
			r.i++
		default:
			flags &^= FlagASCII
			ru, size := utf8.DecodeRune(r.d[r.i:])
			if ru == utf8.RuneError && size == 1 {
				return 0, r.fail(r.i, "invalid UTF-8 in string")
			}
			r.i += size
		}
	}
}

// container parses the array or object at r.i, whose node is n.
func (r *refParser) container(depth int, n Node) error {
	obj := r.d[r.i] == '{'
	closer, sep := byte(']'), "',' or ']' after an array element"
	n.Kind = Array
	if obj {
		n.Kind, closer, sep = Object, '}', "',' or '}' after an object member"
	}
	idx := len(r.nodes)
	r.nodes = append(r.nodes, n)
	r.i++
	r.space()
	if r.i < len(r.d) && r.d[r.i] == closer {
		r.i++
	} else {
		for {
			key, keyEnd, keyFlags := int32(-1), int32(-1), uint8(0)
			if obj {
				if r.i == len(r.d) || r.d[r.i] != '"' {
					return r.expecting("a string key")
				}
				key = int32(r.i)
				flags, err := r.str()
				if err != nil {
					return err
				}
				keyEnd = int32(r.i)
				if flags&FlagEscaped != 0 {
					keyFlags = FlagKeyEscaped
				}
				r.space()
				if r.i == len(r.d) || r.d[r.i] != ':' {
					return r.expecting("':' after an object key")
				}
				r.i++
				r.space()
			}
			if err := r.value(depth+1, key, keyEnd, keyFlags); err != nil {
				return err
			}
			r.nodes[idx].Len++
			r.space()
			if r.i == len(r.d) {
				return r.expecting("',' or a closing bracket")
			}
			if r.d[r.i] == closer {
				r.i++
				break
			}
			if r.d[r.i] != ',' {
				return r.expecting(sep)
			}
			r.i++
			r.space()
		}
	}
	r.nodes[idx].End = int32(r.i)
	r.nodes[idx].Skip = int32(len(r.nodes))
	return nil
}
