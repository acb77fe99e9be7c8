package main

// Writing diff --json with the metadata values as the notebooks spell
// them (NaN, Infinity: encoding/json refuses them).

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/nbdialog/ipynb/internal/nbjson"
)

// jsonValues are the metadata values of a diff --json output, written
// as nbjson writes them (lone surrogates as their escapes, NaN and
// ±Infinity as Python spells them). encoding/json writes a slot for each
// (-0e-N, a number no other member of the output is written as), which
// fill replaces outside strings.
type jsonValues struct {
	texts [][]byte
	err   error
}

// A valueSlot stands for the value jsonValues.texts[N] in encoding/json's
// output.
type valueSlot int

func (s valueSlot) MarshalJSON() ([]byte, error) {
	return []byte("-0e-" + strconv.Itoa(int(s))), nil
}

// add returns the slot for v, keeping the first error of encoding one.
func (vs *jsonValues) add(v any) any {
	b, err := nbjson.Encode(v)
	if err != nil && vs.err == nil {
		vs.err = err
	}
	vs.texts = append(vs.texts, b)
	return valueSlot(len(vs.texts) - 1)
}

// marshal returns v as encoding/json writes it compact, its slots
// filled, indented as json.Encoder with SetIndent("", "  ") indents it,
// ending in a newline.
func (vs *jsonValues) marshal(v any) ([]byte, error) {
	if vs.err != nil {
		return nil, vs.err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return indentJSON(nil, vs.fill(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))), nil
}

// fill replaces the slots of compact JSON src by their values.
func (vs *jsonValues) fill(src []byte) []byte {
	var dst []byte
	var str jsonString
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case str.in:
			str.next(c)
		case c == '"':
			str.in = true
		case bytes.HasPrefix(src[i:], []byte("-0e-")):
			j := i + 4
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if n, err := strconv.Atoi(string(src[i+4 : j])); err == nil && n < len(vs.texts) {
				dst = append(dst, vs.texts[n]...)
				i = j - 1
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// jsonString follows compact JSON through its strings: in is set from a
// string's opening quote, and next, given each byte after it, clears it
// at the closing quote.
type jsonString struct{ in, escaped bool }

func (s *jsonString) next(c byte) {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\':
		s.escaped = true
	case c == '"':
		s.in = false
	}
}

// indentJSON appends compact JSON src (NaN and Infinity allowed) to dst
// indented by two spaces a level, as json.Indent does, and a newline.
func indentJSON(dst, src []byte) []byte {
	depth := 0
	var str jsonString
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if str.in {
			dst = append(dst, c)
			str.next(c)
			continue
		}
		switch c {
		case '"':
			str.in = true
			dst = append(dst, c)
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '\n')
}
