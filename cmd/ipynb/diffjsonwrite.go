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
	inString, escaped := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
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

// indentJSON appends compact JSON src (NaN and Infinity allowed) to dst
// indented by two spaces a level, as json.Indent does, and a newline.
func indentJSON(dst, src []byte) []byte {
	depth := 0
	inString, escaped := false, false
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			dst = append(dst, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
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
