package main

// Tests that the sides read back from conflict markers are what git merge-file
// --ours and --theirs give, and that bad markers are refused.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// The sides read back from git's markers are exactly what git itself
// gives when told to take one side (git merge-file --ours / --theirs),
// for every real conflicted merge, in both conflict styles and with
// another marker size.
func TestSplitConflictsAgreesWithGit(t *testing.T) {
	t.Parallel()
	needGit(t)
	n := 0
	for i, c := range mergeCases(t) {
		if c.gitClean || !testtier.Sample(i) {
			continue
		}
		for _, style := range [][]string{nil, {"--diff3"}, {"--zdiff3"}, {"--marker-size=11"}, {"--diff3", "--marker-size=9"}} {
			t.Run(c.name()+strings.Join(style, ""), func(t *testing.T) {
				if style != nil && style[0] == "--zdiff3" && !gitHasZdiff3(t) {
					t.Skip("git merge-file has no --zdiff3 (git before 2.35)")
				}
				dir := t.TempDir()
				conflicted, hunks := gitMergeFile(t, c, dir, "conflicted.ipynb", style...)
				if hunks == 0 {
					t.Fatal("git merged cleanly; MANIFEST says it conflicts")
				}
				data, _ := os.ReadFile(conflicted)
				cs, err := splitConflicts(data)
				if err != nil {
					t.Fatal(err)
				}
				if cs.hunks != hunks {
					t.Errorf("%d conflicts, git reports %d", cs.hunks, hunks)
				}
				size := 7
				if len(style) > 0 && strings.HasPrefix(style[len(style)-1], "--marker-size=") {
					fmt.Sscan(strings.TrimPrefix(style[len(style)-1], "--marker-size="), &size)
				}
				if cs.markerSize != size {
					t.Errorf("marker size %d, want %d", cs.markerSize, size)
				}
				oursFile, _ := gitMergeFile(t, c, dir, "ours.ipynb", "--ours")
				theirsFile, _ := gitMergeFile(t, c, dir, "theirs.ipynb", "--theirs")
				wantOurs, _ := os.ReadFile(oursFile)
				wantTheirs, _ := os.ReadFile(theirsFile)
				if !bytes.Equal(cs.ours.text, wantOurs) {
					t.Errorf("ours side differs from git merge-file --ours %s", nbtest.FirstDiff(wantOurs, cs.ours.text))
				}
				if !bytes.Equal(cs.theirs.text, wantTheirs) {
					t.Errorf("theirs side differs from git merge-file --theirs %s", nbtest.FirstDiff(wantTheirs, cs.theirs.text))
				}
				if diff3 := len(style) > 0 && strings.HasSuffix(style[0], "diff3"); diff3 != (cs.base.text != nil) {
					t.Errorf("base side present: %v, diff3 style: %v", cs.base.text != nil, diff3)
				}
				// Every line of each side maps back to the same line of
				// the conflicted file.
				lines := bytes.SplitAfter(data, []byte("\n"))
				for _, s := range []side{cs.ours, cs.theirs, cs.base} {
					for i, l := range bytes.SplitAfter(s.text, []byte("\n")) {
						if len(l) > 0 && !bytes.Equal(lines[s.fileLine(i+1)-1], l) {
							t.Fatalf("line %d of a side: maps to line %d %q, is %q", i+1, s.fileLine(i+1), lines[s.fileLine(i+1)-1], l)
						}
					}
				}
				n++
			})
		}
	}
	t.Logf("%d conflicted files split", n)
}

// Markers out of order are refused with the line of the marker.
func TestSplitConflictsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		line int
		msg  string
	}{
		{"{\n<<<<<<< a\n1\n", 3, "not closed"},
		{"{\n=======\n}\n", 2, "separator marker outside a conflict"},
		{"{\n<<<<<<< a\n1\n>>>>>>> b\n}\n", 4, "closing marker in ours' part"},
		{"{\n<<<<<<< a\n1\n=======\n2\n<<<<<<< c\n", 6, "opening marker in theirs' part"},
		{"{\n<<<<<<< a\n1\n=======\n2\n|||||||\n", 6, "base marker in theirs' part (conflict opened at line 2)"},
	} {
		_, err := splitConflicts([]byte(tc.text))
		var me *markerError
		if !errors.As(err, &me) || me.Line != tc.line || !strings.Contains(me.Msg, tc.msg) {
			t.Errorf("%q: %v, want line %d: …%s…", tc.text, err, tc.line, tc.msg)
		}
	}
	// Lines that only look like markers are content: a run shorter than
	// 7 or than the first conflict's, or one not followed by a space.
	for _, text := range []string{"<<<<<< a\n", "<<<<<<<a\n", "=======x\n", " <<<<<<< a\n",
		"<<<<<<<< a\n<<<<<<< b\n========\n>>>>>>>> c\n"} {
		if strings.Count(text, "\n") > 1 {
			cs, err := splitConflicts([]byte(text))
			if err != nil || cs.hunks != 1 || cs.markerSize != 8 || string(cs.ours.text) != "<<<<<<< b\n" {
				t.Errorf("%q: %v, %+v", text, err, cs)
			}
			continue
		}
		cs, err := splitConflicts([]byte(text))
		if err != nil || cs.hunks != 0 || string(cs.ours.text) != text {
			t.Errorf("%q: %v, %+v", text, err, cs)
		}
	}
	// CRLF files and a last line without a newline.
	cs, err := splitConflicts([]byte("a\r\n<<<<<<< x\r\nb\r\n=======\r\nc\r\n>>>>>>> y\r\nd"))
	if err != nil || string(cs.ours.text) != "a\r\nb\r\nd" || string(cs.theirs.text) != "a\r\nc\r\nd" || cs.oursLabel != "x" || cs.theirsLabel != "y" {
		t.Errorf("CRLF: %v %q %q", err, cs.ours.text, cs.theirs.text)
	}
}

// splitConflicts never panics; without markers both sides are the
// input; with them, every line of a side is the input's line it says.
func FuzzSplitConflicts(f *testing.F) {
	f.Add([]byte("a\n<<<<<<< x\nb\n||||||| y\nc\n=======\nd\n>>>>>>> z\ne"))
	f.Add([]byte("<<<<<<<<< x\r\nb\r\n=========\r\n>>>>>>>>> z\r\n"))
	f.Add([]byte("{\n=======\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := splitConflicts(data)
		if err != nil {
			var me *markerError
			if !errors.As(err, &me) || me.Line < 1 || me.Line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("error %v", err)
			}
			return
		}
		if cs.hunks == 0 {
			if !bytes.Equal(cs.ours.text, data) || !bytes.Equal(cs.theirs.text, data) {
				t.Fatal("no markers, but the sides differ from the input")
			}
			return
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for _, s := range []side{cs.ours, cs.theirs, cs.base} {
			for i, l := range bytes.SplitAfter(s.text, []byte("\n")) {
				if len(l) > 0 && !bytes.Equal(lines[s.fileLine(i+1)-1], l) {
					t.Fatalf("side line %d is not line %d of the input", i+1, s.fileLine(i+1))
				}
			}
		}
	})
}

// conflictedText is n lines of a notebook-like JSON text with a conflict
// every 100 lines.
func conflictedText(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		if i%100 == 50 {
			fmt.Fprintf(&b, "<<<<<<< HEAD\n    \"ours %d\\n\",\n||||||| base\n    \"base %d\\n\",\n=======\n    \"theirs %d\\n\",\n>>>>>>> topic\n", i, i, i)
			continue
		}
		fmt.Fprintf(&b, "    \"line %d of a cell's source, as Jupyter writes it\\n\",\n", i)
	}
	return b.Bytes()
}

func BenchmarkSplitConflicts(b *testing.B) {
	data := conflictedText(200000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := splitConflicts(data); err != nil {
			b.Fatal(err)
		}
	}
}

// gitHasZdiff3 reports whether git merge-file knows --zdiff3.
func gitHasZdiff3(t *testing.T) bool {
	out, _ := gitStatusIn(t, t.TempDir(), "merge-file", "-h")
	return strings.Contains(out, "zdiff3")
}
