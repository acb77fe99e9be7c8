package convert

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Atomic saving.
//
// The new content is written to a temporary file in the target's folder,
// synced, renamed over the target, and the folder is synced: a reader (or
// a crash) sees the old file or the new one, never a mix.
//
// Where the system allows it (Linux O_TMPFILE), the temporary file has no
// name while it is written, and gets one only for the instant between
// linking and renaming, so a process killed mid-save leaves nothing behind.
// Otherwise, and for that instant, temporary files are named
// ".<name>.save-<pid>-<random>": a later save in the same folder removes
// those whose process is gone. (github.com/google/renameio, the library of
// choice for atomic writes, was used first: its temporary names do not say
// which process owns them, so leftovers of killed processes could not be
// told from saves in progress, and it does not sync the folder.)

// writeData writes the content; tests replace it to simulate a full disk.
var writeData = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

const tempMarker = ".save-"

// tempPrefix is the start of the names of temporary files for base.
func tempPrefix(base string) string { return "." + base + tempMarker }

func tempName(dir, base string) string {
	var r [6]byte
	rand.Read(r[:])
	return filepath.Join(dir, tempPrefix(base)+strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(r[:])+".tmp")
}

// sweep removes the temporary files of base in dir left by processes that
// no longer run.
func sweep(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}

// alive reports whether process pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// writeAtomic replaces the file name by data (see the comment above). A
// symbolic link is followed, so its target is replaced; the file's
// permissions are kept (0666 less the umask for a new file), and so is
// its owner when the process may set it, unless Options.Owner says
// otherwise. It returns the new file's information.
func (o Options) writeAtomic(name string, data []byte) (fs.FileInfo, error) {
	target, err := resolve(name, 0)
	if err != nil {
		return nil, fmt.Errorf("convert: save %s: %w", name, err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	perm := fs.FileMode(0o666)
	keepPerm := false
	var owner *Owner
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("convert: save %s: not a regular file", name)
		}
		if fi.Mode().Perm()&0o222 == 0 {
			// Replacing it by rename would work, but the owner marked it
			// read-only.
			return nil, fmt.Errorf("convert: save %s: the file is read-only (mode %v; it is unchanged): %w", name, fi.Mode().Perm(), fs.ErrPermission)
		}
		perm, keepPerm = fi.Mode().Perm(), true
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
			owner = &Owner{UID: int(st.Uid), GID: int(st.Gid)}
		}
	}
	if o.Owner != nil {
		owner = o.Owner
	}
	sweep(dir, base)

	f, tmp, err := createTemp(dir, base, perm)
	if err != nil {
		return nil, saveError(name, dir, err)
	}
	published := false
	defer func() {
		if !published {
			f.Close()
			if tmp != "" {
				os.Remove(tmp)
			}
		}
	}()
	if err := writeData(f, data); err != nil {
		return nil, saveError(name, dir, err)
	}
	if keepPerm {
		if err := f.Chmod(perm); err != nil {
			return nil, saveError(name, dir, err)
		}
	}
	if owner != nil {
		if err := f.Chown(owner.UID, owner.GID); err != nil {
			return nil, saveError(name, dir, err)
		}
	}
	if err := f.Sync(); err != nil {
		return nil, saveError(name, dir, err)
	}
	if tmp == "" {
		// An unnamed file: give it a name just before the rename.
		if tmp, err = link(f, dir, base); err != nil {
			return nil, saveError(name, dir, err)
		}
	}
	if err := f.Close(); err != nil {
		return nil, saveError(name, dir, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return nil, saveError(name, dir, err)
	}
	published = true
	if err := syncDir(dir); err != nil {
		return nil, saveError(name, dir, err)
	}
	fi, err := os.Stat(target)
	if err != nil {
		return nil, fmt.Errorf("convert: save %s: %w", name, err)
	}
	return fi, nil
}

// createNamed creates a named temporary file.
func createNamed(dir, base string, perm fs.FileMode) (*os.File, string, error) {
	for range 100 {
		tmp := tempName(dir, base)
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", fmt.Errorf("cannot create a temporary file in %s", dir)
}

// resolve follows symbolic links in name (the file itself may not exist
// yet, its folder must).
func resolve(name string, depth int) (string, error) {
	if depth > 40 {
		return "", fmt.Errorf("too many levels of symbolic links")
	}
	if p, err := filepath.EvalSymlinks(name); err == nil {
		return p, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	// A dangling link: write its target.
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		t, err := os.Readlink(name)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(name), t)
		}
		return resolve(t, depth+1)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(name))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(name)), nil
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// saveError explains a failed save; the original file is untouched.
func saveError(name, dir string, err error) error {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("convert: save %s: permission denied writing in %s (the file is unchanged): %w", name, dir, err)
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("convert: save %s: no space left on the device (the file is unchanged): %w", name, err)
	}
	return fmt.Errorf("convert: save %s (the file is unchanged): %w", name, err)
}
