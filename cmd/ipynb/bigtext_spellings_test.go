package main

// Merges of output texts near and over 64 kB (compared by their lines' summaries) that each side spells its own way, against git merge-file on the texts and Python's json decoding of the result.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// loneHigh is the WTF-8 form of the lone surrogate U+D83D, as the
// notebook's text holds "\ud83d" (Python keeps it; it is not U+FFFD).
const loneHigh = "\xed\xa0\xbd"

// spellLine returns a random line of text: plain runs, characters JSON
// escapes, non-ASCII and astral characters, a lone surrogate, U+FFFD, a
// carriage return; ending in "\n", "\r\n" or "\r\n"-less "\r".
func spellLine(r *rand.Rand) string {
	pieces := []string{"abc", " ", "xyz", "0", `"`, `\`, "/", "\t", "é", "😀", loneHigh + "a", "\ufffd", "\r", "\x01", "\u2028", "<&>"}
	var b strings.Builder
	for range r.IntN(30) {
		if r.IntN(4) == 0 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		} else {
			b.WriteString(pieces[r.IntN(3)])
		}
	}
	switch r.IntN(12) {
	case 0:
		b.WriteString("\r\n")
	case 1:
		b.WriteString("\r\r\n")
	default:
		b.WriteString("\n")
	}
	return b.String()
}

// textUnits splits s into its characters, a lone surrogate's WTF-8
// bytes being one.
func textUnits(s string) []string {
	var out []string
	for len(s) > 0 {
		n := 3
		if !strings.HasPrefix(s, "\xed") || len(s) < 3 || s[1] < 0xa0 || s[1] > 0xbf {
			_, n = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// spelling is how a side writes a text: as one string, a string per
// line or strings cut anywhere; non-ASCII escaped; "/" as "\/"; some
// characters (the newline included) as \u escapes; hex digits in upper
// case.
type spelling struct {
	form                      int // 0 string, 1 lines, 2 cut anywhere
	ascii, slash, anyU, upper bool
}

func randomSpelling(r *rand.Rand) spelling {
	return spelling{r.IntN(3), r.IntN(2) == 0, r.IntN(3) == 0, r.IntN(3) == 0, r.IntN(3) == 0}
}

// quote writes s as a JSON string spelled by sp.
func (sp spelling) quote(r *rand.Rand, s string) string {
	u := func(v rune) string {
		if sp.upper {
			return fmt.Sprintf(`\u%04X`, v)
		}
		return fmt.Sprintf(`\u%04x`, v)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range textUnits(s) {
		rn, _ := utf8.DecodeRuneInString(c)
		switch {
		case len(c) == 3 && c[0] == 0xed && c[1] >= 0xa0:
			b.WriteString(u(0xd000 | rune(c[1]&0x3f)<<6 | rune(c[2]&0x3f)))
		case c == `"`:
			b.WriteString(`\"`)
		case c == `\`:
			b.WriteString(`\\`)
		case c == "/" && sp.slash:
			b.WriteString(`\/`)
		case c == "\n" && sp.anyU && r.IntN(2) == 0:
			b.WriteString(u('\n'))
		case c == "\n":
			b.WriteString(`\n`)
		case c == "\r":
			b.WriteString(`\r`)
		case c == "\t":
			b.WriteString(`\t`)
		case rn < 0x20:
			b.WriteString(u(rn))
		case rn > 0xffff && sp.ascii:
			r1 := 0xd800 + (rn-0x10000)>>10
			r2 := 0xdc00 + (rn-0x10000)&0x3ff
			b.WriteString(u(r1) + u(r2))
		case rn > 0x7e && sp.ascii, rn <= 0xffff && sp.anyU && r.IntN(20) == 0:
			b.WriteString(u(rn))
		default:
			b.WriteString(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// spell writes text as a JSON string or array of strings, spelled by sp.
func (sp spelling) spell(r *rand.Rand, text string) string {
	if sp.form == 0 {
		return sp.quote(r, text)
	}
	var parts []string
	if sp.form == 1 {
		parts = strings.SplitAfter(text, "\n")
		if parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
	} else {
		units := textUnits(text)
		for len(units) > 0 {
			n := min(len(units), r.IntN(200))
			parts = append(parts, strings.Join(units[:n], ""))
			units = units[n:]
		}
	}
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = sp.quote(r, p)
	}
	return "[" + strings.Join(quoted, ",\n    ") + "]"
}

// editText returns lines edited one random way (or not at all).
func editText(r *rand.Rand, lines []string) []string {
	out := append([]string(nil), lines...)
	last := len(out) - 1
	switch r.IntN(10) {
	case 0: // unchanged (but spelled its own way)
	case 1:
		out[0] = "first " + spellLine(r)
	case 2:
		out[last] = "last " + spellLine(r)
	case 3:
		out[r.IntN(len(out))] = "mid " + spellLine(r)
	case 4:
		i := r.IntN(len(out) + 1)
		out = append(out[:i], append([]string{"ins " + spellLine(r)}, out[i:]...)...)
	case 5:
		i := r.IntN(len(out))
		out = append(out[:i], out[i+1:]...)
	case 6: // the last line's newline toggled
		if strings.HasSuffix(out[last], "\n") {
			out[last] = strings.TrimSuffix(out[last], "\n")
		} else {
			out[last] += "\n"
		}
	case 7:
		out = append(out, "appended "+spellLine(r))
	case 8:
		i := r.IntN(len(out))
		out[i] = strings.Replace(out[i], "\n", "\r\n", 1)
	case 9:
		for i := range out {
			out[i] = "Z" + out[i]
		}
	}
	return out
}

// spelledNotebook is a notebook whose code cell has one output of kind
// holding the text spelled, after a markdown cell of pad bytes.
func spelledNotebook(kind, spelled string, pad int) string {
	var out string
	switch kind {
	case "stream":
		out = `{"name": "stdout", "output_type": "stream", "text": ` + spelled + `}`
	case "execute_result":
		out = `{"data": {"text/plain": ` + spelled + `}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"}`
	default:
		out = `{"data": {"text/html": ` + spelled + `, "text/plain": ["<obj>"]}, "metadata": {}, "output_type": "display_data"}`
	}
	return `{"cells": [{"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "` + strings.Repeat("p", pad) + `"},
 {"cell_type": "code", "execution_count": 3, "id": "c1", "metadata": {}, "outputs": [` + out + `], "source": "run()"}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
`
}

// A large output text both sides may change, each side spelling it its
// own way (one string or a list, escapes anywhere, lone surrogates):
// where the texts are equal as decoded, or one side's equals base's, the
// merge is clean and holds the other's (whatever its spelling); else
// where git merge-file merges the texts cleanly, the merge holds what it
// gives (exit 0), and where it conflicts, ours' output and theirs'
// between marker outputs (exit 1). Texts near 64 kB (decoded whole or
// compared by their lines) and over it; base over 1 MiB (read apart) or
// not. The result's texts are decoded by Python's json.
func TestMergeBigTextSpellings(t *testing.T) {
	py, err := nbtest.AnyPython()
	if err != nil {
		t.Skip("python3 not found")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	type want struct {
		dir    string
		status int
		texts  []string
	}
	var cases []want
	for seed := range 48 {
		r := rand.New(rand.NewPCG(uint64(seed), 21))
		size := []int{60000, 63500, 65000, 66500, 70000, 150000}[seed%6]
		var lines []string
		for n := 0; n < size; {
			l := spellLine(r)
			if r.IntN(20) == 0 {
				l = "\n"
			}
			lines = append(lines, l)
			n += len(l) + 4
		}
		if r.IntN(3) == 0 {
			lines[len(lines)-1] = "tail without newline"
		}
		ours := editText(r, lines)
		theirs := editText(r, lines)
		if r.IntN(6) == 0 {
			theirs = ours
		}
		kind := []string{"stream", "execute_result", "display_data"}[r.IntN(3)]
		pad := 0
		if seed%3 == 0 {
			pad = 1100000 // base over 1 MiB: reduced, its output read apart
		}
		dir := t.TempDir()
		texts := map[string]string{"base": strings.Join(lines, ""), "ours": strings.Join(ours, ""), "theirs": strings.Join(theirs, "")}
		for name, text := range texts {
			nb := spelledNotebook(kind, randomSpelling(r).spell(r, text), pad)
			if err := os.WriteFile(filepath.Join(dir, name+".ipynb"), []byte(nb), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, o, th := texts["base"], texts["ours"], texts["theirs"]
		w := want{dir: dir, status: exitOK}
		switch {
		case o == th, th == b:
			w.texts = []string{o}
		case o == b:
			w.texts = []string{th}
		default:
			cmd := exec.Command("git", "merge-file", "-p", "ours.txt", "base.txt", "theirs.txt")
			cmd.Dir = dir
			merged, err := cmd.Output()
			if exitStatus(err) == 0 {
				w.texts = []string{string(merged)}
			} else if exitStatus(err) > 0 {
				w.status = exitFindings
				w.texts = []string{"<<<<<<< ours\n", o, "=======\n", th, ">>>>>>> theirs\n"}
			} else {
				t.Fatalf("git merge-file: %v", err)
			}
		}
		cmd := exec.Command(binary, "merge", "-o", filepath.Join(dir, "out.ipynb"), "base.ipynb", "ours.ipynb", "theirs.ipynb")
		cmd.Dir = dir
		msg, err := cmd.CombinedOutput()
		if st := exitStatus(err); st != w.status {
			t.Errorf("seed %d (%s, %d bytes, pad %d): exit %d, want %d: %s", seed, kind, len(b), pad, st, w.status, msg)
			continue
		}
		cases = append(cases, w)
	}
	// Python decodes each result: the texts of its code cell's outputs
	// (a stream's text, else text/html or text/plain), lone surrogates
	// kept (as their WTF-8 bytes).
	script := `import json,sys
def text(o):
    v = o['text'] if 'text' in o else o['data'].get('text/html', o['data'].get('text/plain'))
    return (''.join(v) if isinstance(v, list) else v).encode('utf-8', 'surrogatepass').hex()
for p in sys.argv[1:]:
    nb = json.loads(open(p, encoding='utf-8', errors='surrogatepass').read())
    print(json.dumps([text(o) for o in nb['cells'][1]['outputs']]))`
	args := []string{"-c", script}
	for _, c := range cases {
		args = append(args, filepath.Join(c.dir, "out.ipynb"))
	}
	out, err := exec.Command(py, args...).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	rows := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(rows) != len(cases) {
		t.Fatalf("python3 decoded %d results, want %d", len(rows), len(cases))
	}
	for i, c := range cases {
		var got []string
		if err := json.Unmarshal(rows[i], &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.texts) {
			t.Errorf("%s: %d outputs, want %d", c.dir, len(got), len(c.texts))
			continue
		}
		for j, h := range got {
			g, _ := hex.DecodeString(h)
			if string(g) != c.texts[j] {
				t.Errorf("%s: output %d: %d bytes, not the %d wanted", c.dir, j, len(g), len(c.texts[j]))
			}
		}
	}
}
