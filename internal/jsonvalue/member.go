package jsonvalue

import (
	"encoding/json"
	"unicode/utf8"
)

// MemberString returns the string value of the member key of the JSON
// object raw (of its last occurrence, as encoding/json and Python's json
// module keep), and whether raw is an object holding key as a string. Only the object's top
// level is read, and values are skipped without being decoded, so the cost
// is one pass over raw with no allocation (but for a result that is
// escaped or not UTF-8, decoded as encoding/json decodes it). Text
// that is not JSON reports false, never more.
func MemberString(raw []byte, key string) (string, bool) {
	found, ok := MemberRaw(raw, key)
	if !ok || found[0] != '"' {
		return "", false
	}
	if !hasEscape(found) && utf8.Valid(found) {
		return string(found[1 : len(found)-1]), true
	}
	var s string
	if json.Unmarshal(found, &s) != nil {
		return "", false
	}
	return s, true
}

// MemberRaw returns the value of the member key of the JSON object raw
// (of its last occurrence), as written (a sub-slice of raw), and whether
// raw is an object holding key. As MemberString, it reads the object's
// top level only, in one pass without allocating; text that is not JSON
// reports false, never more (a value is checked only as far as finding
// its end needs).
func MemberRaw(raw []byte, key string) (json.RawMessage, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	var found []byte
	seen := false
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return nil, false
	}
	for i < len(raw) {
		if raw[i] != '"' {
			return nil, false
		}
		kEnd := stringEnd(raw, i)
		if kEnd < 0 {
			return nil, false
		}
		k := raw[i : kEnd+1]
		i = skipSpace(raw, kEnd+1)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		vEnd := valueEnd(raw, i)
		if vEnd < 0 {
			return nil, false
		}
		if keyIs(k, key) {
			seen, found = true, raw[i:vEnd]
		}
		i = skipSpace(raw, vEnd)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			break
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
	if !seen || len(found) == 0 {
		return nil, false
	}
	return found, true
}

// keyIs reports whether the quoted key k (escapes and all) is key.
func keyIs(k []byte, key string) bool {
	if !hasEscape(k) && utf8.Valid(k) {
		return string(k[1:len(k)-1]) == key
	}
	var s string
	return json.Unmarshal(k, &s) == nil && s == key
}

func hasEscape(quoted []byte) bool {
	for _, c := range quoted {
		if c == '\\' {
			return true
		}
	}
	return false
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// stringEnd returns the index of the closing quote of the string that
// starts at s[i], or -1.
func stringEnd(s []byte, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// valueEnd returns the end (exclusive) of the JSON value that starts at
// s[i], or -1. Containers are matched by counting brackets outside
// strings; scalars end at the next delimiter.
func valueEnd(s []byte, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		if e := stringEnd(s, i); e >= 0 {
			return e + 1
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				e := stringEnd(s, j)
				if e < 0 {
					return -1
				}
				j = e
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ' ' && s[j] != '\n' && s[j] != '\r' && s[j] != '\t' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
