package nbformat_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

// resolves reports whether the JSON Pointer p names a value in data
// (checked with encoding/json, independently of the code under test).
func resolves(data []byte, p string) bool {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return false
	}
	return resolvesIn(v, p)
}

// resolvesIn reports whether the JSON Pointer p names a value in the
// decoded document v.
func resolvesIn(v any, p string) bool {
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

// pythonNbformat returns Debian's python3 with nbformat, or skips t.
func pythonNbformat(t testing.TB) string {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		t.Skipf("Python nbformat not available (apt-get install python3-nbformat): %v", err)
	}
	return py
}

// referenceScript returns the path of a script in scripts/reference.
func referenceScript(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "scripts", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

func jsonNumber(s string) json.Number { return json.Number(s) }
