package convert_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-60)
	return fmt.Sprintf("at byte %d:\nwant …%s…\n got …%s…", i, want[lo:min(len(want), i+60)], got[lo:min(len(got), i+60)])
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func diffLines(want, got []string) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n- %.200s\n+ %.200s\n", i, w, g)
			break
		}
	}
	return b.String()
}

// cellSpan returns the byte span of cell i of a notebook file, found with
// encoding/json's decoder (independently of the code under test).
func cellSpan(t testing.TB, data []byte, i int) (start, end int) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, idx, inCells := 0, -1, false
	for {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("cellSpan: %v", err)
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
