package main

// Tests that terminal columns agree with Python's unicodedata, and that the
// progress line fits wide names.

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// pyColumns is the reference for terminal columns: Python's unicodedata
// (east_asian_width W or F: 2; categories Mn, Me, Cf: 0; else 1), for
// every assigned code point of Python's Unicode version, as "CODE WIDTH"
// lines.
const pyColumns = `import sys, unicodedata
for cp in range(0x20, 0x110000):
    c = chr(cp)
    cat = unicodedata.category(c)
    if cat in ("Cn", "Cs", "Co", "Cc"):
        continue
    w = 2 if unicodedata.east_asian_width(c) in ("W", "F") else 0 if cat in ("Mn", "Me", "Cf") else 1
    sys.stdout.write("%x %d\n" % (cp, w))
`

// runeColumns agrees with Python's unicodedata on every assigned code
// point (skipped without Python).
func TestColumnsMatchPython(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("/usr/bin/python3", "-c", pyColumns).Output()
	if err != nil {
		t.Skip("python3:", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	n, bad := 0, 0
	for sc.Scan() {
		code, w, _ := strings.Cut(sc.Text(), " ")
		cp, _ := strconv.ParseUint(code, 16, 32)
		want, _ := strconv.Atoi(w)
		n++
		if got := runeColumns(rune(cp)); got != want {
			if bad++; bad <= 10 {
				t.Errorf("U+%04X: %d columns, Python says %d", cp, got, want)
			}
		}
	}
	if n < 100000 {
		t.Fatalf("only %d code points from Python", n)
	}
	if bad > 0 {
		t.Errorf("%d of %d code points disagree", bad, n)
	}
}

// The progress line fits the terminal also when the names hold wide
// characters (CJK, emoji: two columns each) or combining marks: every
// line drawn takes at most W-1 columns as Python's unicodedata counts
// them, and keeps its counter and the end of the name.
func TestProgressFitsWideNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("データ分析ノート/", 4), "e\u0301\u0301quipe-🎉🎉")
	if err := os.MkdirAll(long, 0o755); err != nil {
		t.Fatal(err)
	}
	nb, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range screenful + 1 {
		if err := os.WriteFile(filepath.Join(long, "実験"+strconv.Itoa(i)+".ipynb"), nb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := `import sys, unicodedata
for line in sys.stdin.read().split("\0"):
    print(sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 0 if unicodedata.category(c) in ("Mn", "Me", "Cf") else 1 for c in line))`
	for _, width := range []int{30, 80, 120} {
		var stdout, stderr bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, stderrTTY: true, termWidth: width}
		if code := run(e, []string{"check", dir}); code != 0 {
			t.Fatalf("check: exit %d\n%s", code, stderr.String())
		}
		var segs []string
		for _, seg := range strings.Split(stderr.String(), "\r\x1b[K") {
			if seg != "" {
				segs = append(segs, seg)
				if !regexp.MustCompile(`^\[\d+/\d+\] .*\.ipynb$`).MatchString(seg) {
					t.Errorf("width %d: progress line %q lost its counter or file name", width, seg)
				}
			}
		}
		cmd := exec.Command("/usr/bin/python3", "-c", script)
		cmd.Stdin = strings.NewReader(strings.Join(segs, "\x00"))
		out, err := cmd.Output()
		if err != nil {
			t.Skip("python3:", err)
		}
		for i, w := range strings.Fields(string(out)) {
			if n, _ := strconv.Atoi(w); n > width-1 {
				t.Errorf("width %d: a progress line of %d columns: %q", width, n, segs[i])
			}
		}
	}
}
