package main

// One-letter numeric flags with their value attached, as git reads them.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -U3 is -U 3 (git accepts -U3; it was "unknown flag -U3"), -U0 is
// -U 0, and the bounds hold for the attached form too.
func TestAttachedNumericFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flagFiles(t, dir)
	for _, n := range []string{"0", "1", "3", "100000000"} {
		sep := ipynb(t, dir, "", "diff", "-U", n, "base.ipynb", "ours.ipynb")
		att := ipynb(t, dir, "", "diff", "-U"+n, "base.ipynb", "ours.ipynb")
		if att != sep || att.code != 1 {
			t.Errorf("-U%s: %+v, -U %s: %+v", n, att, n, sep)
		}
	}
	os.WriteFile(filepath.Join(dir, "long.ipynb"), []byte(mknbText(t, `l1\nl2\nl3\nl4\nl5`)), 0o644)
	os.WriteFile(filepath.Join(dir, "long2.ipynb"), []byte(mknbText(t, `l1\nl2\nL3\nl4\nl5`)), 0o644)
	a := ipynb(t, dir, "", "diff", "-U0", "long.ipynb", "long2.ipynb")
	b := ipynb(t, dir, "", "diff", "-U1", "long.ipynb", "long2.ipynb")
	if !strings.Contains(a.stdout, "@@ -3 +3 @@\n-l3\n+L3\n") || !strings.Contains(b.stdout, "@@ -2,3 +2,3 @@\n l2\n-l3\n+L3\n l4\n") {
		t.Errorf("-U0:\n%s-U1:\n%s", a.stdout, b.stdout)
	}
	for _, v := range []string{"100000001", "-1", "x", "9223372036854775808"} {
		r := ipynb(t, dir, "", "diff", "-U"+v, "base.ipynb", "ours.ipynb")
		if r.code != exitError || !strings.Contains(r.stderr, `invalid value "`+v+`" for -U: want an integer from 0 to `) {
			t.Errorf("-U%s: %+v", v, r)
		}
	}
	// Not a numeric flag: still unknown.
	if r := ipynb(t, dir, "", "diff", "-Q3", "base.ipynb", "ours.ipynb"); r.code != exitError || !strings.Contains(r.stderr, "unknown flag -Q3") {
		t.Errorf("-Q3: %+v", r)
	}
}
