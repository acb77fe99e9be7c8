package nbformat_test

// Tests of lone surrogate escapes: decoded to WTF-8 bytes, distinct from each
// other, and written back as read.

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Strings that are not valid UTF-16 (issue 21 item 9): a lone surrogate
// escape decodes to the surrogate's WTF-8 bytes (not U+FFFD), so that two
// different ones differ and a changed one is a change; written again
// (after an edit elsewhere in the text, or in a new place) it is its \u
// escape in the file's case of hex digits; an unedited notebook keeps its
// bytes; validation is Python nbformat's (a string is a string);
// canonical output refuses it, as Python nbformat's writer fails on it
// (UTF-8 cannot encode a surrogate). Python is the reference for what
// the strings hold.
func TestLoneSurrogates(t *testing.T) {
	t.Parallel()
	src := `{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {"k": "\ud83d"}, "source": ["x \ud83d\n", "y \uDE00 \ud83d\ude00"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	nb, err := nbformat.Unmarshal([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	md := nb.Cells[0].(*nbformat.MarkdownCell)
	text := md.Source.String()
	if want := "x \xed\xa0\xbd\ny \xed\xb8\x80 \U0001F600"; text != want {
		t.Errorf("source %q, want %q", text, want)
	}
	if strings.Contains(text, "\ufffd") {
		t.Error("a lone surrogate became U+FFFD")
	}
	if out, err := nbformat.Marshal(nb); err != nil || string(out) != src {
		t.Errorf("unedited round trip: %v\n%s", err, out)
	}
	other, _ := nbformat.Unmarshal([]byte(strings.Replace(src, `x \ud83d`, `x \ud83e`, 1)))
	if other.Cells[0].(*nbformat.MarkdownCell).Source.String() == md.Source.String() {
		t.Error("sources differing in a lone surrogate compare equal")
	}
	// Edited: the lone surrogates are written back as escapes.
	md.Source.Set(text + "\nz")
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	low := bytes.ToLower(out) // (the file's style decides the case of hex digits)
	if !bytes.Contains(low, []byte(`x \ud83d\n`)) || !bytes.Contains(low, []byte(`y \ude00 \ud83d\ude00`)) || !bytes.Contains(out, []byte(`"k": "\ud83d"`)) {
		t.Errorf("edited: %s", out)
	}
	back, err := nbformat.Unmarshal(out)
	if err != nil || back.Cells[0].(*nbformat.MarkdownCell).Source.String() != text+"\nz" {
		t.Errorf("edited does not read back: %v", err)
	}
	if err := nbformat.Validate(back); err != nil {
		t.Errorf("invalid: %v", err)
	}
	if _, err := (nbformat.MarshalOptions{Canonical: true}).Marshal(back); !errors.Is(err, nbformat.ErrNotCanonical) {
		t.Errorf("canonical: %v, want ErrNotCanonical", err)
	}
	// Python: the same code units, valid, and its writer fails.
	py, err := exec.LookPath("/usr/bin/python3")
	if err != nil || exec.Command(py, "-c", "import nbformat").Run() != nil {
		t.Skip("Python nbformat absent")
	}
	cmd := exec.Command(py, "-c", `
import sys, nbformat
nb = nbformat.reads(sys.stdin.read(), as_version=4)
nbformat.validate(nb)
print(" ".join("%04x" % ord(c) for c in "".join(nb.cells[0].source)))
try:
    nbformat.writes(nb).encode("utf-8")
    print("written")
except UnicodeEncodeError:
    print("cannot write")
`)
	cmd.Stdin = bytes.NewReader(out)
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(res)), "\n")
	var units []string
	for s := text + "\nz"; s != ""; {
		if len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 { // WTF-8 of a surrogate
			units = append(units, hex4(0xd000|rune(s[1]&0x3f)<<6|rune(s[2]&0x3f)))
			s = s[3:]
			continue
		}
		r := []rune(s[:min(len(s), 4)])[0]
		units = append(units, hex4(r))
		s = s[len(string(r)):]
	}
	if lines[0] != strings.Join(units, " ") || lines[1] != "cannot write" {
		t.Errorf("Python reads %s / %s, want %s", lines[0], lines[1], strings.Join(units, " "))
	}
}

func hex4(r rune) string {
	const d = "0123456789abcdef"
	if r > 0xffff {
		return strings.TrimLeft(string([]byte{d[r>>20&15], d[r>>16&15]}), "0") + hex4(r&0xffff)
	}
	return string([]byte{d[r>>12&15], d[r>>8&15], d[r>>4&15], d[r&15]})
}
