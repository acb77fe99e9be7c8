package atomicfile

// The check right before the rename: the file under its lock is still the file
// read, by name and content.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// lockWait is how long finalCheck waits for another process's lock.
var lockWait = 10 * time.Second

// finalCheck runs right before the rename: with an Expect stamp (and no
// Force) it locks the file under base and checks that it is still the
// file read, unchanged (see the package documentation). release drops the
// lock; call it after the rename.
func (o Options) finalCheck(root *os.Root, base string) (release func(), err error) {
	if o.BeforeCheck != nil {
		o.BeforeCheck()
	}
	s := o.Expect
	if s == nil || o.Force {
		return func() {}, nil
	}
	if err := s.sameName(root, base, nil); err != nil {
		return nil, err
	}
	// O_NONBLOCK: a pipe put in the file's place now cannot block the open.
	// Root.OpenFile would follow a link inside the folder; the identity
	// checks below then refuse it.
	f, err := root.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if err := s.sameName(root, base, nil); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w (the file is unchanged)", pathErr(err))
	}
	release = func() { f.Close() } // closing drops the lock
	fail := func(err error) (func(), error) {
		release()
		return nil, err
	}
	if err := lock(f); err != nil {
		return fail(err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if !s.Unchanged(fi) {
		return fail(changed("%s", difference(s, fi)))
	}
	if s.doubt(fi) {
		same, err := s.sameContent(f)
		if err != nil {
			return fail(err)
		}
		if !same {
			return fail(changed("its content changed"))
		}
		if after, err := f.Stat(); err != nil || !after.ModTime().Equal(fi.ModTime()) || !ctimeOf(after).Equal(ctimeOf(fi)) || after.Size() != fi.Size() {
			return fail(changed("it was being written"))
		}
	}
	// The name must still hold the file locked and checked (not a link, not
	// another file put there meanwhile).
	if err := s.sameName(root, base, fi); err != nil {
		return fail(err)
	}
	return release, nil
}

// sameName checks that base in root is the stamped file, unchanged (and,
// if locked is set, the very file locked).
func (s *Stamp) sameName(root *os.Root, base string, locked fs.FileInfo) error {
	fi, err := root.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return changed("it was removed")
	case err != nil:
		return fmt.Errorf("%w (the file is unchanged)", pathErr(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return changed("it was replaced by a symbolic link")
	case !s.Unchanged(fi):
		return changed("%s", difference(s, fi))
	case locked != nil && idOf(fi) != idOf(locked):
		return changed("it was replaced by another file")
	}
	return nil
}

// sameContent reports whether f holds exactly the bytes read (for a
// Digest, bytes of the same SHA-256 digest).
func (s *Stamp) sameContent(f *os.File) (bool, error) {
	if s.sum != nil {
		h := sha256.New()
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, 1<<62)); err != nil {
			return false, err
		}
		return bytes.Equal(h.Sum(nil), s.sum[:]), nil
	}
	data := s.data
	buf := make([]byte, 64<<10)
	off := 0
	for {
		n, err := f.ReadAt(buf, int64(off))
		if n > 0 {
			if off+n > len(data) || !bytes.Equal(buf[:n], data[off:off+n]) {
				return false, nil
			}
			off += n
		}
		if errors.Is(err, io.EOF) {
			return off == len(data), nil
		}
		if err != nil {
			return false, err
		}
	}
}
