package nbformat_test

// Tests of errors on bad input (naming the place, never a panic) and of unusual
// inputs that are accepted.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/nbformat"
)

// Bad input gets a clear error naming the place, never a panic.
func TestUnmarshalErrors(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	tests := []struct {
		name      string
		in        string
		opts      nbformat.UnmarshalOptions
		line, col int    // for syntax errors; 0 = not a syntax error
		pointer   string // for format errors
		top       bool   // a format error at the top level (pointer "")
		msg       string // must appear in the message
		sentinel  error
	}{
		{name: "NotJSON", in: "{\"nbformat\": 4,\n \"cells\": [}", line: 2, col: 12, msg: "invalid character '}'"},
		{name: "Garbage", in: "hello", line: 1, col: 1, msg: "invalid character 'h'"},
		{name: "Empty", in: "", line: 1, col: 1, msg: "unexpected end of input"},
		{name: "Truncated", in: "{\n \"nbformat\": 4,\n \"cells\": [\n  {\"source\": \"abc", line: 4, col: 14, msg: "unterminated string"},
		{name: "TruncatedAfterValue", in: "{\"nbformat\": 4", line: 1, col: 15, msg: "unexpected end of input"},
		{name: "TrailingData", in: "{\"nbformat\": 4} {}", line: 1, col: 17, msg: "after the top-level value"},
		{name: "NotAnObject", in: "[1, 2]", top: true, msg: "a notebook is a JSON object, not an array ([1, 2])"},
		{name: "NotAnObjectOne", in: "[1]", top: true, msg: "not an array ([1])"},
		{name: "String", in: "\"notebook\"", top: true, msg: "not a string (\"notebook\")"},
		{name: "Number", in: " 3\n", top: true, msg: "not a number (3)"},
		{name: "Null", in: "null", top: true, msg: "not null (null)"},
		{name: "Boolean", in: "true", top: true, msg: "not a boolean (true)"},
		{name: "LongArray", in: "[\"" + strings.Repeat("é", 30) + "\"]", top: true, msg: "not an array ([\"" + strings.Repeat("é", 17) + "...)"},
		{name: "MissingNbformat", in: `{"cells": []}`, pointer: "/nbformat", msg: "missing"},
		{name: "StringNbformat", in: `{"nbformat": "4"}`, pointer: "/nbformat", msg: "must be an integer"},
		{name: "FloatNbformat", in: `{"nbformat": 4.0}`, pointer: "/nbformat", msg: "must be an integer"},
		{name: "NullNbformat", in: `{"nbformat": null}`, pointer: "/nbformat", msg: "must be an integer"},
		{name: "Major5", in: `{"nbformat": 5, "nbformat_minor": 0, "metadata": {}, "cells": []}`, pointer: "/nbformat", msg: "unsupported major version 5", sentinel: nbformat.ErrUnsupportedVersion},
		{name: "Major0", in: `{"nbformat": 0}`, pointer: "/nbformat", sentinel: nbformat.ErrUnsupportedVersion},
		{name: "HugeMajor", in: `{"nbformat": 123456789012345678901234567890}`, pointer: "/nbformat", sentinel: nbformat.ErrUnsupportedVersion},
		{name: "InvalidUTF8", in: "{\"nbformat\": 4, \"x\": \"caf\xe9\"}", line: 1, col: 26, msg: "invalid UTF-8"},
		{name: "InvalidUTF8Outside", in: "{\"nbformat\": 4 \xff}", line: 1, col: 16, msg: "invalid byte 0xff"},
		{name: "ControlChar", in: "{\"nbformat\": 4, \"x\": \"a\tb\"}", line: 1, col: 24, msg: "control character"},
		{name: "BadEscape", in: `{"nbformat": 4, "x": "a\qb"}`, line: 1, col: 24, msg: "invalid escape"},
		{name: "Depth", in: deep, line: 1, col: 10001, msg: "nesting deeper than 10000", sentinel: nbformat.ErrLimit},
		{name: "DepthOption", in: `{"nbformat": 4, "a": [[[1]]]}`, opts: nbformat.UnmarshalOptions{MaxDepth: 3}, line: 1, col: 24, sentinel: nbformat.ErrLimit},
		{name: "Size", in: `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`, opts: nbformat.UnmarshalOptions{MaxBytes: 10}, msg: "more than the limit of 10", sentinel: nbformat.ErrLimit},
		{name: "Cells", in: `{"nbformat": 4, "cells": [{}, {}, {}]}`, opts: nbformat.UnmarshalOptions{MaxCells: 2}, pointer: "/cells", msg: "3 cells", sentinel: nbformat.ErrLimit},
		{name: "Values", in: `{"nbformat": 4, "cells": [1, 2, 3, 4]}`, opts: nbformat.UnmarshalOptions{MaxValues: 4}, line: 1, col: 30, sentinel: nbformat.ErrLimit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := tc.opts.Unmarshal([]byte(tc.in))
			if err == nil {
				t.Fatalf("no error; got %+v", nb)
			}
			if !strings.HasPrefix(err.Error(), "nbformat: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %q is not %v", err, tc.sentinel)
			}
			var se *nbformat.SyntaxError
			var fe *nbformat.FormatError
			switch {
			case tc.line > 0:
				if !errors.As(err, &se) {
					t.Fatalf("error %T %q is not a *SyntaxError", err, err)
				}
				if se.Line != tc.line || se.Column != tc.col {
					t.Errorf("error at line %d, column %d, want %d, %d (%v)", se.Line, se.Column, tc.line, tc.col, err)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf(" %d:%d: ", tc.line, tc.col)) {
					t.Errorf("error %q does not say line:column", err)
				}
			case tc.top:
				if !errors.As(err, &fe) {
					t.Fatalf("error %T %q is not a *FormatError", err, err)
				}
				if fe.Pointer != "" || !strings.Contains(err.Error(), "(top level)") {
					t.Errorf("pointer %q, want the top level (%v)", fe.Pointer, err)
				}
				if !utf8.ValidString(err.Error()) {
					t.Errorf("message is not valid UTF-8: %q", err)
				}
			case tc.pointer != "":
				if !errors.As(err, &fe) {
					t.Fatalf("error %T %q is not a *FormatError", err, err)
				}
				if string(fe.Pointer) != tc.pointer {
					t.Errorf("pointer %q, want %q", fe.Pointer, tc.pointer)
				}
			}
		})
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := dir + "/bad.ipynb"
	if err := writeFile(path, "{\n \"nbformat\": 4,\n \"cells\": [1,,]\n}"); err != nil {
		t.Fatal(err)
	}
	_, err := nbformat.ReadFile(path)
	if err == nil || !strings.Contains(err.Error(), path+":3:14: ") {
		t.Errorf("ReadFile error = %v, want the file name and position", err)
	}
	if _, err := nbformat.ReadFile(dir + "/missing.ipynb"); err == nil || !strings.Contains(err.Error(), "missing.ipynb") {
		t.Errorf("ReadFile of a missing file = %v", err)
	}
}

// Inputs that are accepted, each with its defined behaviour.
func TestUnusualInputsRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, nb *nbformat.Notebook)
	}{
		{"BOM", "\xef\xbb\xbf{\"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {}, \"cells\": []}\n", nil},
		{"DuplicateKeysLastWins", `{"nbformat": 4, "nbformat_minor": 4, "nbformat_minor": 5, "metadata": {"a": 1, "a": 2}, "cells": []}`,
			func(t *testing.T, nb *nbformat.Notebook) {
				if nb.NbformatMinor != 5 || nb.Metadata.AdditionalProperties["a"] != 2 {
					t.Errorf("duplicates: minor %d, a %v; want the last ones", nb.NbformatMinor, nb.Metadata.AdditionalProperties["a"])
				}
			}},
		{"NaNInfinity", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": [NaN, Infinity, -Infinity, 1E400]}, "cells": []}`, nil},
		{"BigNumbers", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"big": 123456789012345678901234567890, "f": 1.50, "e": 1e-7, "z": -0}, "cells": []}`,
			func(t *testing.T, nb *nbformat.Notebook) {
				if got := nb.Metadata.AdditionalProperties["big"]; got != any(jsonNumber("123456789012345678901234567890")) {
					t.Errorf("big = %#v", got)
				}
			}},
		{"Escapes", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"s": "\u00e9\ud83e\udd16\/\u2028", "lone": "\ud800"}, "cells": []}`,
			func(t *testing.T, nb *nbformat.Notebook) {
				if got := nb.Metadata.AdditionalProperties["s"]; got != "é🤖/\u2028" {
					t.Errorf("s = %q", got)
				}
			}},
		{"WrongTypesKept", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": "python"}, "cells": [{"cell_type": "code", "id": "x", "source": 5, "outputs": {}, "execution_count": "1", "metadata": []}, 7, {"cell_type": "mystery"}]}`,
			func(t *testing.T, nb *nbformat.Notebook) {
				c := nb.Cells[0].(*nbformat.CodeCell)
				for _, k := range []string{"source", "outputs", "execution_count", "metadata"} {
					if _, ok := c.AdditionalProperties[k]; !ok {
						t.Errorf("mistyped %q not kept in AdditionalProperties: %v", k, c.AdditionalProperties)
					}
				}
				if _, ok := nb.Cells[1].(*nbformat.UnknownCell); !ok {
					t.Errorf("cells[1] is %T", nb.Cells[1])
				}
				if u, ok := nb.Cells[2].(*nbformat.UnknownCell); !ok || u.Type() != "mystery" {
					t.Errorf("cells[2] is %T", nb.Cells[2])
				}
			}},
		{"NoFinalNewlineCompact", `{"nbformat":4,"nbformat_minor":2,"metadata":{},"cells":[{"cell_type":"raw","metadata":{},"source":"x"}]}`, nil},
		{"V1", `{"nbformat": 1, "name": "old", "cells": []}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := nbformat.Unmarshal([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, nb)
			}
			got, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, []byte(tc.in)) {
				t.Errorf("round trip differs %s", firstDiff([]byte(tc.in), got))
			}
		})
	}
}
