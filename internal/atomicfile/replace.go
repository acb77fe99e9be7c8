package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrLocked is returned when another process held a lock on the file for
// longer than Replace waits; the file was left alone.
var ErrLocked = errors.New("another process holds a lock on the file")

// Owner is a file's numeric user and group.
type Owner struct{ UID, GID int }

// Options configures [Replace]. The zero value replaces the file the
// name leads to, with no check.
type Options struct {
	// Expect is the Stamp of the Read whose file is replaced: Replace
	// writes to the folder and name read (not wherever the name leads
	// now) and, unless Force, only if the file is still as read
	// (ErrChanged otherwise).
	Expect *Stamp
	// Force replaces the file read even if it changed (Expect still
	// fixes where to write, and its folder must be the one read).
	Force bool
	// Owner, if set, is given to the new file; otherwise the old file's
	// owner and group are kept when the process may set them.
	Owner *Owner
	// BeforeCheck, if set, runs right before the final check (a seam for
	// tests, which change the file there).
	BeforeCheck func()
}

// writeData writes the content; tests replace it to simulate a full disk.
var writeData = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// Replace replaces the file name by data (see the package documentation)
// and returns the Stamp of the new file. Without Options.Expect, symbolic
// links in name are followed (a dangling link's target is created), and a
// missing file is created with mode 0666 less the umask. The file is
// unchanged whenever an error is returned.
func Replace(name string, data []byte, o Options) (*Stamp, error) {
	dir, base, err := o.place(name)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) && o.Expect != nil {
		return nil, changed("its folder %s was removed", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (the file is unchanged)", err)
	}
	defer root.Close()
	dirf, err := root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("%w (the file is unchanged)", err)
	}
	defer dirf.Close()
	dirInfo, err := dirf.Stat()
	if err != nil {
		return nil, err
	}
	if o.Expect != nil && idOf(dirInfo) != o.Expect.dirID {
		return nil, changed("its folder %s was moved or replaced", dir)
	}

	perm, keepPerm, keepGroup := fs.FileMode(0o666), false, -1
	var owner *Owner
	cur, err := root.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if o.Expect != nil && !o.Force {
			return nil, changed("it was removed")
		}
	case err != nil:
		return nil, pathErr(err)
	case cur.Mode()&fs.ModeSymlink != 0:
		if o.Expect != nil && !o.Force {
			return nil, changed("it was replaced by a symbolic link")
		}
		// The rename replaces the link itself; it is never followed.
	case !cur.Mode().IsRegular():
		if o.Expect != nil && !o.Force {
			return nil, changed("it was replaced by %s", Kind(cur.Mode()))
		}
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, Kind(cur.Mode()))
	default:
		if o.Expect != nil && !o.Force && !o.Expect.Unchanged(cur) {
			return nil, changed("%s", difference(o.Expect, cur))
		}
		if cur.Mode().Perm()&0o222 == 0 {
			// Replacing it by rename would work, but its owner marked it
			// read-only.
			return nil, fmt.Errorf("the file is read-only (mode %v; it is unchanged): %w", cur.Mode().Perm(), fs.ErrPermission)
		}
		switch err := writable(dirf, dir, base); {
		case err == nil:
		case errors.Is(err, fs.ErrPermission):
			return nil, fmt.Errorf("permission denied: you may not write the file in place (%s, mode %v; it is unchanged): %w", ownerText(cur), cur.Mode().Perm(), fs.ErrPermission)
		case errors.Is(err, syscall.EROFS):
			return nil, fmt.Errorf("the file is on a read-only file system (it is unchanged): %w", err)
		case errors.Is(err, fs.ErrNotExist) && o.Expect != nil:
			return nil, changed("it was removed")
		default:
			return nil, fmt.Errorf("%w (the file is unchanged)", err)
		}
		perm, keepPerm = cur.Mode().Perm(), true
		if st, ok := cur.Sys().(*syscall.Stat_t); ok {
			if os.Geteuid() == 0 {
				owner = &Owner{UID: int(st.Uid), GID: int(st.Gid)}
			} else if int(st.Gid) != os.Getegid() {
				keepGroup = int(st.Gid) // kept where the user belongs to it
			}
		}
	}
	if o.Owner != nil {
		owner = o.Owner
	}
	sweep(root, dirf)

	f, tmp, err := createTemp(root, dirf, base, perm)
	if err != nil {
		return nil, saveError(dir, err)
	}
	published := false
	defer func() {
		if !published {
			f.Close()
			if tmp != "" {
				root.Remove(tmp)
			}
		}
	}()
	if err := writeData(f, data); err != nil {
		return nil, saveError(dir, err)
	}
	if keepPerm {
		if err := f.Chmod(perm); err != nil {
			return nil, saveError(dir, err)
		}
	}
	if owner != nil {
		if err := f.Chown(owner.UID, owner.GID); err != nil {
			return nil, saveError(dir, err)
		}
	} else if keepGroup >= 0 {
		f.Chown(-1, keepGroup) // fails, harmlessly, if the user is not in the group
	}
	if err := f.Sync(); err != nil {
		return nil, saveError(dir, err)
	}
	if tmp == "" {
		// An unnamed file: it gets a name just before the rename.
		if tmp, err = link(f, dirf, base); err != nil {
			return nil, saveError(dir, err)
		}
	}
	release, err := o.finalCheck(root, base)
	if err != nil {
		return nil, err
	}
	err = root.Rename(tmp, base)
	release()
	if err != nil {
		return nil, saveError(dir, err)
	}
	published = true
	fi, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := dirf.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return nil, fmt.Errorf("the file was replaced, but syncing its folder failed: %w", err)
	}
	return &Stamp{dir: dir, base: base, dirID: idOf(dirInfo), id: idOf(fi), size: fi.Size(),
		mtime: fi.ModTime(), ctime: ctimeOf(fi), readAt: time.Now(), data: data}, nil
}

// place is the folder and name to write.
func (o Options) place(name string) (dir, base string, err error) {
	if o.Expect != nil {
		return o.Expect.dir, o.Expect.base, nil
	}
	target, err := resolve(name, 0)
	if err != nil {
		return "", "", err
	}
	dir, base = filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	if base == "" || base == "." || base == ".." {
		return "", "", fmt.Errorf("%w (a folder)", ErrNotRegular)
	}
	return dir, base, nil
}

func changed(format string, args ...any) error {
	return fmt.Errorf("%w (%s)", ErrChanged, fmt.Sprintf(format, args...))
}

// difference says how fi differs from the stamp.
func difference(s *Stamp, fi fs.FileInfo) string {
	switch {
	case !fi.Mode().IsRegular():
		return "it was replaced by " + Kind(fi.Mode())
	case !s.SameFile(fi):
		return "it was replaced by another file"
	case fi.Size() != s.size:
		return fmt.Sprintf("its size went from %d to %d bytes", s.size, fi.Size())
	case !fi.ModTime().Equal(s.mtime):
		return "its modification time moved"
	}
	return "its content changed"
}

func ownerText(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("owner uid %d", st.Uid)
	}
	return "another owner"
}

// resolve follows symbolic links in name (the file itself may not exist
// yet, its folder must).
func resolve(name string, depth int) (string, error) {
	if depth > 40 {
		return "", errors.New("too many levels of symbolic links")
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

// saveError explains a failed write; the original file is untouched.
func saveError(dir string, err error) error {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("permission denied writing in %s (the file is unchanged): %w", dir, err)
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("no space left on the device (the file is unchanged): %w", err)
	}
	return fmt.Errorf("%w (the file is unchanged)", err)
}
