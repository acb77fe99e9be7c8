package atomicfile

import (
	"crypto/sha256"
	"io/fs"
	"path/filepath"
	"syscall"
	"time"
)

// A Stamp is what [Read] saw of a file: where it is (its folder, with
// symbolic links resolved, and its name there), its identity, size and
// times, and its bytes. [Replace] uses it to write back only to that file,
// and only while it is unchanged. A Stamp is not changed after Read.
type Stamp struct {
	dir, base string
	dirID     fileID
	id        fileID
	size      int64
	mtime     time.Time
	ctime     time.Time // zero where the system does not say
	readAt    time.Time
	data      []byte
	sum       *[sha256.Size]byte // in place of data (Digest)
}

// Digest returns a stamp of the same file holding, in place of its bytes
// (Data is nil), their SHA-256 digest, by which Replace compares the
// file's content where the file's times leave a change in doubt: for a
// caller that lets the bytes go before writing the file back.
func (s *Stamp) Digest() *Stamp {
	c := *s
	if c.sum == nil {
		sum := sha256.Sum256(s.data)
		c.sum = &sum
	}
	c.data = nil
	return &c
}

// Path is the file's path, links resolved: its folder joined with its
// name.
func (s *Stamp) Path() string { return filepath.Join(s.dir, s.base) }

// ModTime is the file's modification time when it was read.
func (s *Stamp) ModTime() time.Time { return s.mtime }

// Data is the bytes read (nil for a Digest); the caller must not change
// them.
func (s *Stamp) Data() []byte { return s.data }

// SameFile reports whether fi describes the file the stamp was made of
// (same device and inode).
func (s *Stamp) SameFile(fi fs.FileInfo) bool { return s.id.known() && idOf(fi) == s.id }

// Unchanged reports whether fi describes the stamped file in the state it
// was read: same identity, size and modification time.
func (s *Stamp) Unchanged(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular() && s.SameFile(fi) && fi.Size() == s.size && fi.ModTime().Equal(s.mtime)
}

// doubt: fi matches the stamp by identity, size and modification time,
// yet the content may differ: the change time moved (or is unknown), or
// the file was modified so shortly before it was read that a later write
// in the same time stamp tick would not show.
func (s *Stamp) doubt(fi fs.FileInfo) bool {
	c := ctimeOf(fi)
	if c.IsZero() || s.ctime.IsZero() || !c.Equal(s.ctime) {
		return true
	}
	return !s.mtime.Before(s.readAt.Add(-granularity))
}

// granularity is the coarsest file time stamp granularity allowed for
// (FAT's two seconds; ext4 and most others are far finer, but their clock
// ticks are a few milliseconds).
const granularity = 2 * time.Second

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

func (id fileID) known() bool { return id.ino != 0 }

func idOf(fi fs.FileInfo) fileID {
	if fi == nil {
		return fileID{}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return fileID{}
}
