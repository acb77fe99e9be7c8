package atomicfile

// Replace and ReplaceWith: the new content in a temporary file in the same
// folder, given the old file's mode and owner, synced and renamed over it.

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
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
	// New creates the file, which must not exist: nothing may be at the
	// name when Replace starts, nor when it publishes, where the new file
	// is linked to the name (link(2) fails on anything there, a symbolic
	// link, dangling or not, included): ErrChanged otherwise, and nothing
	// is written. No link in the name itself is followed (those in its
	// folder are). Not with Expect.
	New bool
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
//
// The steps, in this order: find the folder and name (place), open the
// folder and check it is the one read (openTarget), check the file there
// and learn what the new file keeps of it (inspect), sweep leftover
// temporaries, write and sync the new bytes to a temporary file
// (writeTemp), then check the file once more under its lock and rename the
// temporary over it (publish).
func Replace(name string, data []byte, o Options) (*Stamp, error) {
	return o.replace(name, func(f *os.File) error { return writeData(f, data) }, data)
}

// ReplaceWith is Replace with the new content written by write, as it is
// made, into the temporary file (through a buffer of 64 KiB), rather
// than given whole: the caller need not hold it in memory. check, if not
// nil, is then given the temporary file's content to read (and its size),
// before the temporary is synced and the file checked a last time: an
// error of write or check leaves the file alone (the temporary is
// removed) and is returned as it is. The Stamp
// returned holds the SHA-256 digest of the content in place of its bytes
// (see Stamp.Digest).
func ReplaceWith(name string, write func(w io.Writer) error, check func(content io.ReaderAt, size int64) error, o Options) (*Stamp, error) {
	h := sha256.New()
	var size int64
	s, err := o.replace(name, func(f *os.File) error {
		var werr error // writing the temporary file's
		bw := bufio.NewWriterSize(writerFunc(func(p []byte) (int, error) {
			if err := writeData(f, p); err != nil {
				werr = err
				return 0, err
			}
			h.Write(p)
			size += int64(len(p))
			return len(p), nil
		}), 64<<10)
		if err := write(bw); err != nil {
			if werr != nil {
				return werr // (a full disk, say: explained as Replace explains it)
			}
			return &callerError{err}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if check != nil {
			if err := check(f, size); err != nil {
				return &callerError{err}
			}
		}
		return nil
	}, nil)
	if err != nil {
		var ce *callerError
		if errors.As(err, &ce) {
			return nil, ce.err
		}
		return nil, err
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	s.sum = &sum
	return s, nil
}

// writerFunc is an io.Writer of a function.
type writerFunc func(p []byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }

// callerError is an error of ReplaceWith's caller (its write or check),
// returned as it is.
type callerError struct{ err error }

func (e *callerError) Error() string { return e.err.Error() }

// replace is Replace with the content written by fill into the temporary
// file (data, if not nil, being that content, kept in the Stamp).
func (o Options) replace(name string, fill func(f *os.File) error, data []byte) (*Stamp, error) {
	dir, base, err := o.place(name)
	if err != nil {
		return nil, err
	}
	d, err := o.openTarget(dir)
	if err != nil {
		return nil, err
	}
	defer d.close()
	keep, err := o.inspect(d, base)
	if err != nil {
		return nil, err
	}
	sweep(d.root, d.f)
	t, err := d.writeTemp(base, fill, keep)
	if err != nil {
		return nil, err
	}
	defer t.discard()
	return o.publish(d, base, t, data)
}

// target is the folder Replace writes into, opened once when it starts:
// every later step works through these descriptors, never through its
// name.
type target struct {
	name string
	root *os.Root
	f    *os.File
	info fs.FileInfo
}

// openTarget opens the folder dir and, with an Expect stamp, checks that
// it is the folder read.
func (o Options) openTarget(dir string) (*target, error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) && o.Expect != nil {
		return nil, changed("its folder %s was removed", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (the file is unchanged)", err)
	}
	d := &target{name: dir, root: root}
	if d.f, err = root.Open("."); err != nil {
		d.close()
		return nil, fmt.Errorf("%w (the file is unchanged)", err)
	}
	if d.info, err = d.f.Stat(); err != nil {
		d.close()
		return nil, err
	}
	if o.Expect != nil && idOf(d.info) != o.Expect.dirID {
		d.close()
		return nil, changed("its folder %s was moved or replaced", dir)
	}
	return d, nil
}

func (d *target) close() {
	if d.f != nil {
		d.f.Close()
	}
	d.root.Close()
}

// kept is what the new file takes over from the one it replaces.
type kept struct {
	perm     fs.FileMode
	keepPerm bool   // set perm exactly (the umask does not apply)
	owner    *Owner // set owner and group
	group    int    // if ≥ 0 (and owner is nil), try to set this group
}

// inspect checks the file base in the folder before anything is written:
// with an Expect stamp (and no Force) that it is still the file read;
// always that it may be replaced (a regular file the caller may write in
// place, a symbolic link, or nothing). It returns what the new file keeps.
func (o Options) inspect(d *target, base string) (kept, error) {
	k := kept{perm: 0o666, group: -1}
	check := o.Expect != nil && !o.Force
	cur, err := d.root.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if check {
			return k, changed("it was removed")
		}
	case err != nil:
		return k, pathErr(err)
	case o.New:
		return k, changed("%s appeared at its name", Kind(cur.Mode()))
	case cur.Mode()&fs.ModeSymlink != 0:
		if check {
			return k, changed("it was replaced by a symbolic link")
		}
		// The rename replaces the link itself; it is never followed.
	case !cur.Mode().IsRegular():
		if check {
			return k, changed("it was replaced by %s", Kind(cur.Mode()))
		}
		return k, fmt.Errorf("%w (%s)", ErrNotRegular, Kind(cur.Mode()))
	default:
		if check && !o.Expect.Unchanged(cur) {
			return k, changed("%s", difference(o.Expect, cur))
		}
		if err := o.writableInPlace(d, base, cur); err != nil {
			return k, err
		}
		k = keptOf(cur)
	}
	if o.Owner != nil {
		k.owner = o.Owner
	}
	return k, nil
}

// writableInPlace refuses the regular file cur (base in the folder) if
// the caller could not write it in place: its mode has no write bit, or
// access(2) with the effective ids says no.
func (o Options) writableInPlace(d *target, base string, cur fs.FileInfo) error {
	if cur.Mode().Perm()&0o222 == 0 {
		// Replacing it by rename would work, but its owner marked it
		// read-only.
		return fmt.Errorf("the file is read-only (mode %v; it is unchanged): %w", cur.Mode().Perm(), fs.ErrPermission)
	}
	switch err := writable(d.f, d.name, base); {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("permission denied: you may not write the file in place (%s, mode %v; it is unchanged): %w", ownerText(cur), cur.Mode().Perm(), fs.ErrPermission)
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("the file is on a read-only file system (it is unchanged): %w", err)
	case errors.Is(err, fs.ErrNotExist) && o.Expect != nil:
		return changed("it was removed")
	default:
		return fmt.Errorf("%w (the file is unchanged)", err)
	}
}

// keptOf is what a new file keeps of the regular file cur: its permission
// bits, and its owner and group when the process may set them (root), or
// else its group, which the process may set where it belongs to it.
func keptOf(cur fs.FileInfo) kept {
	k := kept{perm: cur.Mode().Perm(), keepPerm: true, group: -1}
	if st, ok := cur.Sys().(*syscall.Stat_t); ok {
		if os.Geteuid() == 0 {
			k.owner = &Owner{UID: int(st.Uid), GID: int(st.Gid)}
		} else if int(st.Gid) != os.Getegid() {
			k.group = int(st.Gid) // kept where the user belongs to it
		}
	}
	return k
}

// temp is the temporary file holding the new bytes.
type temp struct {
	root      *os.Root
	f         *os.File
	name      string // "" while unnamed
	published bool   // renamed over the file
}

// writeTemp writes the content (fill) to a new temporary file in the
// folder, gives it the kept mode and owner, syncs it and, if unnamed,
// names it.
func (d *target) writeTemp(base string, fill func(f *os.File) error, k kept) (*temp, error) {
	f, tmp, err := createTemp(d.root, d.f, base, k.perm)
	if err != nil {
		return nil, saveError(d.name, err)
	}
	t := &temp{root: d.root, f: f, name: tmp}
	if err := t.fill(d, base, fill, k); err != nil {
		t.discard()
		if ce := (*callerError)(nil); errors.As(err, &ce) {
			return nil, err
		}
		return nil, saveError(d.name, err)
	}
	return t, nil
}

// fill writes, chmods, chowns, syncs and names the temporary file.
func (t *temp) fill(d *target, base string, fill func(f *os.File) error, k kept) error {
	if err := fill(t.f); err != nil {
		return err
	}
	if k.keepPerm {
		if err := t.f.Chmod(k.perm); err != nil {
			return err
		}
	}
	if k.owner != nil {
		if err := t.f.Chown(k.owner.UID, k.owner.GID); err != nil {
			return err
		}
	} else if k.group >= 0 {
		t.f.Chown(-1, k.group) // fails, harmlessly, if the user is not in the group
	}
	if err := t.f.Sync(); err != nil {
		return err
	}
	if t.name == "" {
		// An unnamed file: it gets a name just before the rename.
		name, err := link(t.f, d.f, base)
		if err != nil {
			return err
		}
		t.name = name
	}
	return nil
}

// discard closes and removes the temporary file unless it was published.
func (t *temp) discard() {
	if t.published {
		return
	}
	t.published = true // once
	t.f.Close()
	if t.name != "" {
		t.root.Remove(t.name)
	}
}

// publish checks the file a last time (finalCheck, under its lock),
// renames the temporary over it, syncs the folder and returns the new
// file's Stamp.
func (o Options) publish(d *target, base string, t *temp, data []byte) (*Stamp, error) {
	release, err := o.finalCheck(d.root, base)
	if err != nil {
		return nil, err
	}
	if o.New {
		err = d.root.Link(t.name, base)
		if errors.Is(err, fs.ErrExist) {
			release()
			return nil, changed("a file appeared at its name")
		}
		if err == nil {
			d.root.Remove(t.name)
		}
	} else {
		err = d.root.Rename(t.name, base)
	}
	release()
	if err != nil {
		return nil, saveError(d.name, err)
	}
	t.published = true
	fi, err := t.f.Stat()
	t.f.Close()
	if err != nil {
		return nil, err
	}
	if err := d.f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return nil, fmt.Errorf("the file was replaced, but syncing its folder failed: %w", err)
	}
	return &Stamp{dir: d.name, base: base, dirID: idOf(d.info), id: idOf(fi), size: fi.Size(),
		mtime: fi.ModTime(), ctime: ctimeOf(fi), readAt: time.Now(), data: data}, nil
}

// place is the folder and name to write.
func (o Options) place(name string) (dir, base string, err error) {
	if o.Expect != nil {
		return o.Expect.dir, o.Expect.base, nil
	}
	if o.New {
		// The name itself is not resolved: a link there is refused.
		if dir, err = filepath.EvalSymlinks(filepath.Dir(name)); err != nil {
			return "", "", err
		}
		base = filepath.Base(name)
		if base == "." || base == ".." || base == string(filepath.Separator) {
			return "", "", fmt.Errorf("%w (a folder)", ErrNotRegular)
		}
		return dir, base, nil
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
