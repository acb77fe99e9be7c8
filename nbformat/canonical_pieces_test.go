package nbformat_test

// Tests of canonical output of multiline strings written as arrays of odd
// pieces: the bytes Python nbformat writes.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// linePieces are string tokens (as a file spells them) for the pieces of
// multiline strings: whole lines, a line without its end, the boundaries
// str.splitlines knows (raw and escaped), escapes Python spells so and
// escapes it does not, a backslash before "n", empty pieces.
var linePieces = []string{
	`"a\n"`, `"b"`, `"\"q\"\n"`, `"x\\\n"`, `"x\\n"`, `"t\tb\bx\n"`, `"\r"`, `"\n"`, `"\r\n"`,
	"\"c\u2028d\\n\"", `"c\u2028d\n"`, "\"e\u0085\\n\"", `"e\u0085\n"`, `"\u001c\n"`, `"\f\n"`, `"\u000b\n"`,
	`"é\n"`, `"\u00e9\n"`, `""`, `"\/\n"`, `"\u0041\n"`, `"end"`, `"\ud83e\udd16\n"`, "\"🤖\\n\"", `"x\u000c\n"`,
	`"\u0009\n"`, `"\\"`, `"\\\\\n"`, `"q\"\n"`,
}

// wholeLines are pieces Python writes as they are (whole lines).
var wholeLines = []string{`"a\n"`, `"\"q\"\n"`, `"t\tb\bx\n"`, `"é\n"`, `"\\\\\n"`, "\"🤖 \u2027\\n\"", `"\\\\n\n"`}

// Notebooks in Python's layout whose sources, stream texts and text data
// are arrays of such pieces: the canonical bytes ours writes (streamed,
// and compared with the file as it is made, when the notebook is unedited)
// are Python nbformat's (scripts/reference/nbformat_canonical.py, the
// reference), whether the file already is (then they are the file) or not.
func TestCanonicalLinePiecesMatchPython(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil || exec.Command("/usr/bin/python3", "-c", "import nbformat").Run() != nil {
		t.Skip("Debian's python3-nbformat is not installed")
	}
	r := rand.New(rand.NewPCG(7, 11))
	arr := func(ind string) string {
		n := 1 + r.IntN(4)
		ps := make([]string, n)
		clean := r.IntN(10) < 6 // whole lines, the last maybe without its end
		for i := range ps {
			switch {
			case clean && i == n-1 && r.IntN(2) == 0:
				ps[i] = ind + `"end"`
			case clean:
				ps[i] = ind + wholeLines[r.IntN(len(wholeLines))]
			default:
				ps[i] = ind + linePieces[r.IntN(len(linePieces))]
			}
		}
		return "[\n" + strings.Join(ps, ",\n") + "\n" + ind[:len(ind)-1] + "]"
	}
	src, dst := t.TempDir(), t.TempDir()
	const n = 400
	files := make([][]byte, n)
	for i := range files {
		files[i] = fmt.Appendf(nil, `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "m",
   "metadata": {},
   "source": %s
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "c",
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": %s
    },
    {
     "data": {
      "text/plain": %s
     },
     "execution_count": 1,
     "metadata": {},
     "output_type": "execute_result"
    }
   ],
   "source": %s
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`, arr("    "), arr("      "), arr("       "), arr("    "))
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("%03d.ipynb", i)), files[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("/usr/bin/python3", referenceScript(t, "nbformat_canonical.py"), src, dst).CombinedOutput()
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	same := 0
	for i, data := range files {
		name := fmt.Sprintf("%03d.ipynb", i)
		if !bytes.Contains(out, []byte("same "+name)) && !bytes.Contains(out, []byte("rewritten "+name)) {
			t.Fatalf("%s: Python did not write it:\n%s", name, data)
		}
		want := data
		if w, err := os.ReadFile(filepath.Join(dst, name)); err == nil {
			want = w
		} else {
			same++
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: canonical bytes differ from Python's (%v)\nfile:\n%s\nours:\n%s\nPython:\n%s", name, err, data, got, want)
		}
	}
	if same < n/20 || same == n {
		t.Errorf("%d of %d files already canonical: the cases do not cover both", same, n)
	}
	t.Logf("%d of %d files already in Python's bytes", same, n)
}
