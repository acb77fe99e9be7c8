package nbformat_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

func fmtInt(i int) string { return strconv.Itoa(i) }

// cellSpan returns the byte span of cell i in a notebook file, found with
// encoding/json's decoder (independent of the code under test).
func cellSpan(t testing.TB, data []byte, i int) (start, end int) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	depth := 0
	inCells := false
	idx := -1
	for {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("cellSpan: %v", err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				if inCells && depth == 2 {
					idx++
					if idx == i {
						// off is before any whitespace; move to the bracket.
						start = off + bytes.IndexAny(data[off:], "{[")
						// Skip to the matching close.
						d := 1
						for d > 0 {
							tk, err := dec.Token()
							if err != nil {
								t.Fatalf("cellSpan: %v", err)
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
			default:
				depth--
			}
		case string:
			if depth == 1 && tok == "cells" && !inCells {
				inCells = true
			}
		}
	}
}
