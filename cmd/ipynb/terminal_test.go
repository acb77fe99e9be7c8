package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dangerous reports the first character in s that a terminal obeys: C0
// controls but newline, tab and the CR of CRLF, DEL, C1 controls, bidi
// formatting characters (the list of terminal.go, written out again here).
func dangerous(s string) (rune, bool) {
	for i, r := range s {
		if r == '\r' && strings.HasPrefix(s[i:], "\r\n") {
			continue
		}
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) ||
			r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return r, true
		}
	}
	return 0, false
}

// Item 19 (issue 9): what show and md print to a terminal holds no
// character the terminal would obey; each is shown as documented.
func TestTermSafe(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain é 🤖 text\n\tindented", "plain é 🤖 text\n\tindented"},
		{"\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"\x1b]0;pwned\x07title", "␛]0;pwned␇title"},
		{"\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "␛]8;;http://evil␛\\link␛]8;;␛\\"},
		{"safe\rEVIL", "safe␍EVIL"},
		{"crlf\r\nline\r\r\n\r", "crlf\r\nline␍\r\n␍"},
		{"ab\b\bXY", "ab␈␈XY"},
		{"\x00\x01\x1f\x7f", "␀␁␟␡"},
		{"\u009b2J\u009d0;t\u009c", "<U+009B>2J<U+009D>0;t<U+009C>"},
		{"abc\u202edcba\u202c \u2066x\u2069 \u200f\u061c", "abc<U+202E>dcba<U+202C> <U+2066>x<U+2069> <U+200F><U+061C>"},
		{"bad \xff\xfe byte", "bad <0xFF><0xFE> byte"},
	} {
		got := termSafe(tc.in)
		if got != tc.want {
			t.Errorf("termSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if r, bad := dangerous(got); bad {
			t.Errorf("termSafe(%q) keeps %U", tc.in, r)
		}
	}
	// Every code point: nothing dangerous survives; everything else is
	// kept as it is.
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		s := string(r)
		got := termSafe(s)
		if _, bad := dangerous(s); bad {
			if _, still := dangerous(got); still || got == s {
				t.Fatalf("%U: %q", r, got)
			}
		} else if got != s {
			t.Fatalf("%U changed to %q", r, got)
		}
	}
	// JSON: the same content, escaped.
	in := "{\"a\": \"x\u009by\u202ez\x7f\"}\n"
	got := termSafeJSON(in)
	var a, b map[string]string
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal([]byte(got), &b) != nil || a["a"] != b["a"] {
		t.Errorf("termSafeJSON changed the content: %q", got)
	}
	if r, bad := dangerous(got); bad {
		t.Errorf("termSafeJSON keeps %U: %q", r, got)
	}
}

// hostileDialog is a notebook whose content would drive a terminal.
const hostileDialog = `{"cells": [
 {"cell_type": "markdown", "id": "a1", "metadata": {}, "source": "# Title\u001b]0;pwned\u0007 and \u001b[2J\r\u202eevil"},
 {"cell_type": "code", "execution_count": 1, "id": "b2", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": "ok\rFAKE\u009b31m\u0008"}], "source": "print('\u001b[31m')"},
 {"cell_type": "markdown", "id": "c3", "metadata": {"solveit_ai": true}, "source": "ask \u0007\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\nreply \u001b[5m\u2066"}
], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
`

// show and md on a terminal (the stdoutTTY seam) print no character a
// terminal would obey, and show ␛ where the content has ESC; not on a
// terminal, md and show keep the content as it is.
func TestShowAndMDOnATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "evil\x1b[1m.ipynb")
	if err := os.WriteFile(path, []byte(hostileDialog), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"show", path}, {"show", "--width", "0", path}, {"md", path}, {"show", "--json", path}} {
		for _, tty := range []bool{true, false} {
			var out, errb bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdoutTTY: tty}
			if code := run(e, args); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errb.String())
			}
			s := out.String()
			r, bad := dangerous(s)
			json := args[1] == "--json"
			switch {
			case tty && bad:
				t.Errorf("%v on a terminal prints %U:\n%q", args, r, s)
			case tty && !json && !strings.Contains(s, "␛"):
				t.Errorf("%v on a terminal: no ␛ shown:\n%s", args, s)
			case !tty && !json && !bad:
				t.Errorf("%v to a file or pipe: content changed:\n%q", args, s)
			}
		}
	}
	// md to a pipe is the content as it is: the markdown cell's bytes.
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	run(e, []string{"md", path})
	if !strings.Contains(out.String(), "# Title\x1b]0;pwned\x07 and \x1b[2J\r\u202eevil") {
		t.Errorf("md to a pipe changed the content:\n%q", out.String())
	}
	// --json on a terminal keeps the content (escaped as JSON).
	out.Reset()
	e = &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, stdoutTTY: true}
	run(e, []string{"show", "--json", path})
	var rows []struct{ Content, Reply string }
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 3 || rows[0].Content != "# Title\x1b]0;pwned\x07 and \x1b[2J\r\u202eevil" || rows[2].Reply != "reply \x1b[5m\u2066" {
		t.Errorf("show --json on a terminal: %v %q", err, out.String())
	}
}

// diff to a terminal (the stdoutTTY seam, colour off) of outputs and
// sources holding terminal codes (an OSC title, a clear screen, a bidi
// override, a bell) prints no character a terminal would obey, and still
// shows the text around them; colour codes and progress-bar rewrites of
// streams are removed as md removes them.
func TestDiffOnATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := func(text string) string {
		b, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{},
			"cells": []any{map[string]any{"cell_type": "code", "id": "c1", "execution_count": 1, "metadata": map[string]any{},
				"source": "print(x) # " + text, "outputs": []any{map[string]any{"output_type": "stream", "name": "stdout", "text": text}}}}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for name, text := range map[string]string{
		"a.ipynb": "plain\n",
		"b.ipynb": "\x1b]0;pwned\x07 title \x1b[2J cleared \u202eevil \x1b[32mgreen\x1b[0m 10%\r100%\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(nb(text)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdoutTTY: true}
	if code := run(e, []string{"diff", "--color", "never", filepath.Join(dir, "a.ipynb"), filepath.Join(dir, "b.ipynb")}); code != 1 {
		t.Fatalf("diff: exit %d, want 1: %s", code, errb.String())
	}
	s := out.String()
	if r, bad := dangerous(s); bad {
		t.Errorf("diff on a terminal prints %U:\n%q", r, s)
	}
	for _, want := range []string{"pwned", "title", "cleared", "evil", "green", "100%"} {
		if !strings.Contains(s, want) {
			t.Errorf("diff on a terminal does not show %q:\n%s", want, s)
		}
	}
}
