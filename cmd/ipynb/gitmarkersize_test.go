package main

// Conflict-marker sizes git passes the merge driver: every one is merged
// with the conflict marked in the file.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// markerRun matches a "<<<<<<< " marker (any label) inside a notebook's JSON string
// or at the start of a line of text.
var markerRun = regexp.MustCompile(`(?m)(?:^|")(<+) `)

// markerLength is the length of the first "<<<<<<<" marker in file (0 if none).
func markerLength(file string) int {
	m := markerRun.FindStringSubmatch(file)
	if m == nil {
		return 0
	}
	return len(m[1])
}

// A repository's own .gitattributes sets conflict-marker-size: git passes
// the driver 1 to 2147483647 as %L (7 for a value it cannot read); the
// driver refused more than 1024 (exit 2), leaving a conflict whose file
// held ours alone, theirs' edit only in the index. Every size is merged,
// the conflict marked in the cell with markers of the size asked, at
// most 1024 long (whose cost grows with the conflicts, not the size);
// with ipynb unable to run, the driver's fallback (git merge-file, which
// runs out of memory at 2147483647) marks it with markers at most 1024
// long too.
func TestGitLargeMarkerSizes(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	flagFiles(t, dir)
	base, _ := os.ReadFile(filepath.Join(dir, "base.ipynb"))
	ours, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	theirs, _ := os.ReadFile(filepath.Join(dir, "theirs.ipynb"))
	commitFile(t, dir, "nb.ipynb", base, "base")
	gitIn(t, dir, "checkout", "-q", "-b", "topic")
	commitFile(t, dir, "nb.ipynb", theirs, "theirs")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "nb.ipynb", ours, "ours")
	attrs := filepath.Join(dir, ".gitattributes") // not committed: git reads it from the work tree
	exe, _ := filepath.EvalSymlinks(binary)
	for _, c := range []struct {
		attr    string
		missing bool // ipynb cannot run: the fallback merges
		want    int  // the marker length
	}{
		{"2000", false, 1024},
		{"2147483647", false, 1024},
		{"1025", false, 1024},
		{"1024", false, 1024},
		{"1", false, 1},
		{"garbage", false, 7},
		{"0", false, 7},
		{"2147483647", true, 1024},
		{"1", true, 1},
	} {
		os.WriteFile(attrs, []byte("*.ipynb conflict-marker-size="+c.attr+"\n"), 0o644)
		if c.missing {
			gitIn(t, dir, "config", "merge.ipynb.driver", filepath.Join(dir, "no-such-ipynb")+" "+driverSuffix(""))
		}
		out, st := gitStatusIn(t, dir, "merge", "--no-edit", "topic")
		file := readFile(t, filepath.Join(dir, "nb.ipynb"))
		unmerged, _ := gitStatusIn(t, dir, "ls-files", "-u", "nb.ipynb")
		if st != 1 || unmerged == "" || !strings.Contains(file, "plot(1)") || !strings.Contains(file, "plot(2)") {
			t.Errorf("conflict-marker-size=%s (ipynb missing: %v): git merge exit %d, a side is missing from the file\n%s", c.attr, c.missing, st, out)
		}
		if got := markerLength(file); got != c.want {
			t.Errorf("conflict-marker-size=%s (ipynb missing: %v): markers %d long, want %d", c.attr, c.missing, got, c.want)
		}
		gitIn(t, dir, "merge", "--abort")
		if c.missing {
			gitIn(t, dir, "config", "merge.ipynb.driver", exe+" "+driverSuffix(""))
		}
	}
}

// The driver an older install wrote, whose fallback passed git
// merge-file any %L, is found outdated by ipynb git status, and install
// updates it.
func TestGitStatusFindsUnboundedRescue(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	exe, _ := filepath.EvalSymlinks(binary)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	gitIn(t, dir, "config", "merge.ipynb.driver", exe+" merge --text-fallback --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B || { s=$?; [ $s -lt 126 ] && exit $s; git merge-file -L ours -L base -L theirs --marker-size=%L -- %A %O %B; }")
	if r := ipynb(t, dir, "", "git", "status"); r.code != 1 || !strings.Contains(r.stdout, "merge.ipynb.driver was written by an older ipynb git install (when ipynb cannot run") {
		t.Errorf("status: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || !strings.Contains(r.stdout, "m=%L; [ $m -gt 1024 ] && m=1024;") {
		t.Errorf("install: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
		t.Errorf("status after install: %+v", r)
	}
}
