// Package nbtest holds helpers shared by the module's tests. They look at
// notebook files with encoding/json, and write the synthetic notebooks of
// scale tests and benchmarks ([Heavy]) byte by byte, independently of the
// code under test.
package nbtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// FirstDiff describes where two byte slices first differ.
func FirstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-60)
	return fmt.Sprintf("at byte %d:\nwant …%s…\n got …%s…", i, want[lo:min(len(want), i+60)], got[lo:min(len(got), i+60)])
}

// CellSpan returns the byte span of cell i of a notebook file.
func CellSpan(t testing.TB, data []byte, i int) (start, end int) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, idx, inCells := 0, -1, false
	for {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("CellSpan: %v", err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				if inCells && depth == 2 {
					idx++
					if idx == i {
						start = off + bytes.IndexAny(data[off:], "{[")
						for d := 1; d > 0; {
							tk, err := dec.Token()
							if err != nil {
								t.Fatalf("CellSpan: %v", err)
							}
							if dl, ok := tk.(json.Delim); ok {
								if dl == '{' || dl == '[' {
									d++
								} else {
									d--
								}
							}
						}
						return start, int(dec.InputOffset())
					}
				}
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && tok == "cells" {
				inCells = true
			}
		}
	}
}

// Resolves reports whether the JSON Pointer p names a value in the JSON
// text data.
func Resolves(data []byte, p string) bool {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return false
	}
	return ResolvesIn(v, p)
}

// ResolvesIn reports whether the JSON Pointer p names a value in the
// decoded document v.
func ResolvesIn(v any, p string) bool {
	if p == "" {
		return true
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return true
}
