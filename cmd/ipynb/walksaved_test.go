// Tests of the folder walk against files saved (renamed over) while it runs.
package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A file the walk found, then replaced (renamed over) by another process,
// gives up its inode number, which the next file created may get (ext4
// reuses it at once); saved under a name the walk has yet to reach, that
// file is another notebook, not a second name of the first: the walk
// takes both. (TestFmtStripRace's fmt silently skipped such a file as
// "the same file as" one found before it, and lost its change.) Here the
// later name takes the first file's inode by a hard link, and the first
// name gets a new file, before the walk looks the later one up.
func TestWalkInodeNumberGivenToAnotherFile(t *testing.T) {
	dir, a, b := twoFiles(t)
	beforeIdentify = func(p string) {
		if p != b {
			return
		}
		os.Remove(b)
		if err := os.Link(a, b); err != nil {
			t.Error(err)
		}
		replaceByRename(t, a, []byte(`{"a": 2}`))
	}
	defer func() { beforeIdentify = nil }()
	walkTakesBoth(t, dir, a, b)
}

// The same with the inode number really reused, where the file system
// reuses it (ext4; not tmpfs, which skips).
func TestWalkInodeNumberReused(t *testing.T) {
	dir, a, b := twoFiles(t)
	reused := false
	beforeIdentify = func(p string) {
		if p != b {
			return
		}
		old := inodeOf(t, a)
		replaceByRename(t, a, []byte(`{"a": 2}`)) // frees old
		tmp := filepath.Join(dir, ".b.tmp")
		os.WriteFile(tmp, []byte(`{"b": 2}`), 0o644)
		if reused = inodeOf(t, tmp) == old; reused {
			os.Rename(tmp, b)
		}
	}
	defer func() { beforeIdentify = nil }()
	walkTakesBoth(t, dir, a, b)
	if !reused {
		t.Skip("the file system did not give the freed inode number to the next file")
	}
}

// Whether a listing returns an entry renamed over while it runs is
// unspecified (POSIX); btrfs leaves out one renamed over after the folder
// was opened. The walk lists again while the folder changed, and takes
// the file. Here the first listing leaves b out, as btrfs does, after b
// was saved; the folder's time is moved on as the save moves it (a
// coarse clock may not show the move within a tick).
func TestWalkListsAgainAFolderChangedWhileListed(t *testing.T) {
	dir, a, b := twoFiles(t)
	listings := 0
	real := readDir
	readDir = func(f *os.File) ([]fs.DirEntry, error) {
		listings++
		if listings > 1 {
			return real(f)
		}
		replaceByRename(t, b, []byte(`{"b": 2}`))
		future := time.Now().Add(time.Hour)
		os.Chtimes(dir, future, future)
		entries, err := real(f)
		return slices.DeleteFunc(entries, func(d fs.DirEntry) bool { return d.Name() == "b.ipynb" }), err
	}
	defer func() { readDir = real }()
	walkTakesBoth(t, dir, a, b)
	if listings != 2 {
		t.Errorf("%d listings, want 2", listings)
	}
}

// The same with the file system's own listing: b renamed over between
// the opening of the folder and its listing (which loses it on btrfs).
func TestWalkFileRenamedOverWhileListed(t *testing.T) {
	dir, a, b := twoFiles(t)
	once := false
	real := readDir
	readDir = func(f *os.File) ([]fs.DirEntry, error) {
		if !once {
			once = true
			replaceByRename(t, b, []byte(`{"b": 2}`))
		}
		return real(f)
	}
	defer func() { readDir = real }()
	walkTakesBoth(t, dir, a, b)
}

// twoFiles makes a folder holding a.ipynb and b.ipynb.
func twoFiles(t *testing.T) (dir, a, b string) {
	dir = t.TempDir()
	a, b = filepath.Join(dir, "a.ipynb"), filepath.Join(dir, "b.ipynb")
	os.WriteFile(a, []byte(`{"a": 1}`), 0o644)
	os.WriteFile(b, []byte(`{"b": 1}`), 0o644)
	return dir, a, b
}

// replaceByRename replaces p as a save does: a new file renamed over it.
func replaceByRename(t *testing.T, p string, data []byte) {
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

func inodeOf(t *testing.T, p string) uint64 {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// walkTakesBoth walks dir (with -v) and checks that it took a and b, two
// different files once the walk is done.
func walkTakesBoth(t *testing.T, dir, a, b string) {
	t.Helper()
	var errb bytes.Buffer
	verbose := true
	ins, ok := expand(&env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &errb}, []string{dir}, &walkOptions{cmd: "fmt", verbose: &verbose})
	var paths []string
	for _, in := range ins {
		paths = append(paths, in.path)
	}
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	if os.SameFile(fa, fb) {
		t.Fatal("a and b are the same file")
	}
	if !ok || !slices.Equal(paths, []string{a, b}) {
		t.Errorf("found %q (ok %v), want both\n%s", paths, ok, errb.String())
	}
}
