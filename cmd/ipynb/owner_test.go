package main

// Tests of files of other users: fmt refuses what the user could not write in
// place, and search-only folders are read by name.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// ownerOf returns a file's uid and gid.
func ownerOf(t *testing.T, path string) (uint32, uint32) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

// A user may not have fmt replace a file they could not write in place,
// even in a folder they may write: as uid 1000, a 0644 file of uid 1001
// is refused and stays as it is (its owner too), while the user's own file
// is formatted, and so is a file shared through a group the user is in
// (it keeps its group and mode). As root, the file is formatted and keeps its owner and
// mode.
func TestForeignOwner(t *testing.T) {
	t.Parallel()
	base, bin := privateCopy(t)
	dir := filepath.Join(base, "shared")
	os.Mkdir(dir, 0o777)
	os.Chmod(dir, 0o777)
	src, _ := os.ReadFile(filepath.Join(shipped, "invalid.ipynb"))
	mk := func(name string, uid, gid int, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, src, mode)
		os.Chmod(p, mode)
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := mk("other.ipynb", 1001, 1001, 0o644)
	mine := mk("mine.ipynb", 1000, 1000, 0o644)
	group := mk("group.ipynb", 1001, 1002, 0o664) // shared through group 1002

	r := asUser(t, dir, &syscall.Credential{Uid: 1000, Gid: 1000, Groups: []uint32{1002}}, bin, "fmt", "other.ipynb", "mine.ipynb", "group.ipynb")
	code, out, errb := r.code, bytes.NewBufferString(r.stdout), bytes.NewBufferString(r.stderr)
	if code != exitError || !strings.Contains(errb.String(), "other.ipynb: permission denied: you may not write the file in place (owner uid 1001") {
		t.Errorf("as uid 1000: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(other); !bytes.Equal(b, src) {
		t.Error("the other user's file was replaced")
	}
	if uid, gid := ownerOf(t, other); uid != 1001 || gid != 1001 {
		t.Errorf("the other user's file now belongs to %d:%d", uid, gid)
	}
	if out.String() != "mine.ipynb\ngroup.ipynb\n" {
		t.Errorf("the user's own file was not formatted: %q", out.String())
	}
	if uid, _ := ownerOf(t, mine); uid != 1000 {
		t.Errorf("the user's own file now belongs to uid %d", uid)
	}
	// A file the user may write through its group is replaced by the
	// user's file, which keeps the group and the mode.
	if _, gid := ownerOf(t, group); gid != 1002 {
		t.Errorf("the group-shared file's group became %d", gid)
	}
	if fi, _ := os.Stat(group); fi.Mode().Perm() != 0o664 {
		t.Errorf("the group-shared file's mode became %v", fi.Mode().Perm())
	}

	// As root: formatted, owner and mode kept.
	r = ipynbWithin(t, 20*time.Second, dir, "fmt", "other.ipynb")
	if r.code != 0 || r.stdout != "other.ipynb\n" {
		t.Errorf("as root: %+v", r)
	}
	if uid, gid := ownerOf(t, other); uid != 1001 || gid != 1001 {
		t.Errorf("as root, the file's owner became %d:%d", uid, gid)
	}
	if fi, _ := os.Stat(other); fi.Mode().Perm() != 0o644 {
		t.Errorf("as root, the mode became %v", fi.Mode().Perm())
	}
}

// asUser runs bin in dir with the credential.
func asUser(t *testing.T, dir string, cred *syscall.Credential, bin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// privateCopy returns a folder others may enter, holding a copy of the
// binary (the test binary's folder is private to root).
func privateCopy(t *testing.T) (base, bin string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to act as other users")
	}
	base, err := os.MkdirTemp("", "ipynb-users-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	exe, _ := os.ReadFile(binary)
	bin = filepath.Join(base, "ipynb")
	nbtest.WriteExecutable(t, bin, exe)
	return base, bin
}

// A notebook in a folder others may search but not list (mode 0711) is
// read by name, as any program reads it.
func TestSearchOnlyFolder(t *testing.T) {
	t.Parallel()
	base, bin := privateCopy(t)
	dir := filepath.Join(base, "home")
	os.Mkdir(dir, 0o711)
	os.Chmod(dir, 0o711)
	src, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	os.WriteFile(filepath.Join(dir, "pub.ipynb"), src, 0o644)
	nobody := &syscall.Credential{Uid: 65534, Gid: 65534}
	r := asUser(t, base, nobody, bin, "check", "home/pub.ipynb")
	if r.code != 0 || r.stdout != "same home/pub.ipynb\n1 same, 0 diff, 0 invalid, 0 error\n" {
		t.Errorf("check as nobody: %+v", r)
	}
	r = asUser(t, base, nobody, bin, "check", "home")
	if r.code != exitError || !strings.Contains(r.stderr, "home: permission denied") {
		t.Errorf("check of a folder nobody may not list: %+v", r)
	}
}
