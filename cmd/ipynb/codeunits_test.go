package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The rule of codeunits.go, hand-derived: the WTF-8 bytes of U+D83D are
// ED A0 BD (1110_1101 10_100000 10_111101), of U+DC00 ED B0 80; Python's
// json.dumps writes them "\ud83d" and "\udc00". Other bytes that are not
// UTF-8 are <0xXX>; valid text is unchanged.
func TestUnitText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain é 🤖", "plain é 🤖"},
		{"x\xed\xa0\xbdy", `x\ud83dy`},
		{"\xed\xb0\x80", `\udc00`},
		{"\xed\xa0\xbd\xed\xb0\x80", `\ud83d\udc00`}, // two lone units: Python keeps both
		{"bad \xff byte \xed\x9f", "bad <0xFF> byte <0xED><0x9F>"},
		{"\xed\xa0", "<0xED><0xA0>"}, // a cut surrogate is two bytes, not one
	} {
		if got := unitText(tc.in); got != tc.want {
			t.Errorf("unitText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := termSafe(tc.in); got != tc.want {
			t.Errorf("termSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := quoteUnits("a\"\xed\xa0\xbd\n"), `"a\"\ud83d\n"`; got != want {
		t.Errorf("quoteUnits = %s, want %s", got, want)
	}
	if got, want := quoteText("k\xed\xa0\xbd"), `"k\ud83d"`; got != want {
		t.Errorf("quoteText = %s, want %s", got, want)
	}
	if got, want := leadLine("ab\xed\xa0\xbdcd", 3), "ab\xed\xa0\xbd…"; got != want {
		t.Errorf("leadLine = %q, want %q (the surrogate is one character, not cut)", got, want)
	}
}

// A stream shows a surrogate whose bytes arrive in separate writes as
// one escape, whatever the cut.
func TestTermWriterHoldsSplitSurrogates(t *testing.T) {
	t.Parallel()
	const in = "a\xed\xa0\xbd\xed\xb0\x80é\r\n\xff"
	const want = `a\ud83d\udc00é` + "\r\n<0xFF>"
	for size := 1; size <= len(in); size++ {
		var b bytes.Buffer
		w := &termWriter{w: &b, show: unitText}
		for i := 0; i < len(in); i += size {
			w.Write([]byte(in[i:min(i+size, len(in))]))
		}
		w.Flush()
		if b.String() != want {
			t.Errorf("writes of %d bytes: %q, want %q", size, b.String(), want)
		}
	}
}

// Finding 05 of the 2026-12-03 attack, as a class: every text form
// printed from notebooks holding lone surrogates — in a source, an
// output, a metadata key and value, a cell that conflicts — shows each as
// its escape and is valid UTF-8 (it wrote their WTF-8 bytes: the diff's
// - and + lines looked the same and grep called the output binary; html
// wrote U+FFFD or the bytes).
func TestTextFormsShowSurrogatesEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := func(name, unit string) string {
		p := filepath.Join(dir, name)
		s := `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {"k` + unit + `": "v` + unit + `"}, ` +
			`"outputs": [{"name": "stdout", "output_type": "stream", "text": ["out` + unit + `\n"]}, ` +
			`{"data": {"text/plain": ["res` + unit + `"]}, "execution_count": 1, "metadata": {}, "output_type": "execute_result"}], "source": ["x1 = \"` + unit + `\""]}, ` +
			`{"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["md ` + unit + ` *em*"]}], ` +
			`"metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}` + "\n"
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := nb("a.ipynb", `\ud83d`), nb("b.ipynb", `\ud83e`)
	mdOut, htmlOut := filepath.Join(dir, "a.md"), filepath.Join(dir, "a.html")
	for _, tc := range []struct {
		args []string
		want []string // lines or parts of lines the output holds
	}{
		{[]string{"diff", a, b}, []string{"\n" + `-x1 = "\ud83d"` + "\n+" + `x1 = "\ud83e"` + "\n", `-## meta "k\ud83d" = "v\ud83d"`, `+## meta "k\ud83e" = "v\ud83e"`, `text/plain 1 line "res\ud83d"`, `-out\ud83d`, `+out\ud83e`}},
		{[]string{"diff", "--textconv", a}, []string{"\n" + `x1 = "\ud83d"` + "\n", "\nout\\ud83d\n", `## meta "k\ud83d" = "v\ud83d"`, "md \\ud83d *em*"}},
		{[]string{"diff", "--html", a, b}, []string{`<mark>\ud83d</mark>`, `<mark>\ud83e</mark>`}},
		{[]string{"show", a}, []string{`c1:c:x1 = "\ud83d"`, `m1:n:md \ud83d *em*`}},
		{[]string{"show", "--json", a}, []string{`"content": "x1 = \"\ud83d\""`}},
		{[]string{"show", "--width", "14", a}, []string{"c1:c:x1 = \"\\u…\n"}}, // 13 characters and "…": the escape cut as shown
		{[]string{"md", a}, []string{"\n" + `x1 = "\ud83d"` + "\n", "md \\ud83d *em*", "out\\ud83d"}},
		{[]string{"html", a}, []string{`md \ud83d <em>em</em>`, `out\ud83d`, `\ud83d`}},
	} {
		r := runWith("", tc.args...)
		if !utf8.ValidString(r.stdout) || !utf8.ValidString(r.stderr) {
			t.Errorf("%v: the output is not UTF-8", tc.args)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: no %q in:\n%s%s", tc.args, w, r.stdout, r.stderr)
			}
		}
	}
	// Files md and html write, as their standard output.
	for _, args := range [][]string{{"md", "-o", mdOut, a}, {"html", "-o", htmlOut, a}} {
		if r := runWith("", args...); r.code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		data, _ := os.ReadFile(args[2])
		if !utf8.Valid(data) || !bytes.Contains(data, []byte(`md \ud83d`)) {
			t.Errorf("%v: the file is not UTF-8 or does not show the escape", args)
		}
	}
}

// Through git (the textconv of git log -p and the diff driver of git
// diff): the output is UTF-8, grep reads it as text, and the two
// surrogates are told apart.
func TestGitShowsSurrogatesEscaped(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	nbOf := func(unit string) []byte {
		return []byte(`{"cells": [{"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["x = ` + unit + `"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n")
	}
	commitFile(t, dir, "nb.ipynb", nbOf(`\ud83d`), "first")
	commitFile(t, dir, "nb.ipynb", nbOf(`\ud83e`), "second")
	for _, args := range [][]string{{"diff", "HEAD~1", "HEAD"}, {"log", "-p", "-1"}} {
		out := gitIn(t, dir, args...)
		if !utf8.ValidString(out) || !strings.Contains(out, "\n-x = \\ud83d\n") || !strings.Contains(out, "\n+x = \\ud83e\n") {
			t.Errorf("git %v:\n%q", args, out)
		}
	}
}
