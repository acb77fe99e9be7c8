package atomicfile

// Reading files with their Stamp and a size limit (Read), and streams with no
// size (ReadStream, ReadAll), never blocking on pipes.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// DefaultMaxBytes is the limit of ReadOptions.MaxBytes left zero: 1 GiB,
// nbformat's default.
const DefaultMaxBytes = 1 << 30

// Errors, matched with errors.Is.
var (
	// ErrChanged: the file changed (or was replaced, removed, or turned
	// into a link) since it was read, and was left alone.
	ErrChanged = errors.New("the file changed on disk since it was read")
	// ErrNotRegular: the file is a named pipe, socket, device or folder
	// where a regular file was expected.
	ErrNotRegular = errors.New("not a regular file")
	// ErrSymlink: the name is a symbolic link where links are not
	// followed.
	ErrSymlink = errors.New("a symbolic link")
)

// A TooLargeError reports input over the byte limit.
type TooLargeError struct {
	Limit int64
	Size  int64 // the file's size, or -1 when only the reading found it out
}

func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("file is %d bytes, more than the limit of %d", e.Size, e.Limit)
	}
	return fmt.Sprintf("more than the limit of %d bytes", e.Limit)
}

// ReadOptions configures [Read].
type ReadOptions struct {
	// MaxBytes is the largest file accepted (0: DefaultMaxBytes).
	MaxBytes int64
	// NoFollow refuses a name that is a symbolic link (ErrSymlink);
	// otherwise links in the name are resolved, once, before opening.
	NoFollow bool
	// Folder, if set, is the folder the file must be in (compared with
	// os.SameFile; ErrChanged otherwise): a caller that found the file by
	// listing a folder makes sure a folder swapped in since is not read.
	Folder fs.FileInfo
}

func (o ReadOptions) limit() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// errRetry: the file changed between looking and opening, or while it
// was read.
var errRetry = errors.New("retry")

// retries is how often Read starts again on a file that changes under it.
const retries = 5

// Read reads the regular file name and returns its bytes and its Stamp
// (see the package documentation). It never blocks on a named pipe or
// device: those, and folders, are refused with ErrNotRegular (read them on
// purpose with ReadStream). Errors are *fs.PathError (naming the path
// inside its folder), *TooLargeError, or wrap ErrNotRegular, ErrSymlink or
// ErrChanged.
func Read(name string, o ReadOptions) ([]byte, *Stamp, error) {
	for range retries {
		data, st, err := readOnce(name, o.NoFollow, o.Folder, o.limit())
		if !errors.Is(err, errRetry) {
			return data, st, err
		}
	}
	return nil, nil, fmt.Errorf("%w: it kept changing while it was read", ErrChanged)
}

func readOnce(name string, noFollow bool, folder fs.FileInfo, limit int64) ([]byte, *Stamp, error) {
	real := name
	if !noFollow {
		r, err := filepath.EvalSymlinks(name)
		if err != nil {
			return nil, nil, err
		}
		real = r
	}
	dir, base := filepath.Split(filepath.Clean(real))
	// An absolute folder: the stamp stays right if the working folder
	// changes before the file is written back.
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	root, err := openFolder(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	dirInfo, err := root.Stat(".")
	if err != nil {
		return nil, nil, err
	}
	if folder != nil && !os.SameFile(dirInfo, folder) {
		return nil, nil, changed("its folder was replaced since it was searched")
	}
	lfi, err := root.Lstat(base)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "lstat", Path: name, Err: pathErr(err)}
	}
	switch {
	case lfi.Mode()&fs.ModeSymlink != 0:
		if noFollow {
			return nil, nil, ErrSymlink
		}
		return nil, nil, errRetry // it became a link after the resolution
	case !lfi.Mode().IsRegular():
		return nil, nil, fmt.Errorf("%w (%s)", ErrNotRegular, Kind(lfi.Mode()))
	}
	// O_NONBLOCK: should a pipe take the file's place now, opening it
	// returns at once, and the check below refuses it.
	f, err := root.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, nil, errRetry // it became a link after the Lstat
	}
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: pathErr(err)}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || idOf(fi) != idOf(lfi) {
		return nil, nil, errRetry
	}
	data, err := readAll(f, fi.Size(), limit)
	if err != nil {
		return nil, nil, err
	}
	after, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) || !ctimeOf(after).Equal(ctimeOf(fi)) {
		return nil, nil, errRetry
	}
	s := &Stamp{dir: dir, base: base, dirID: idOf(dirInfo), id: idOf(fi), size: fi.Size(),
		mtime: fi.ModTime(), ctime: ctimeOf(fi), readAt: time.Now(), data: data}
	return data, s, nil
}

// folder is where Read looks: an os.Root (all lookups relative to the
// folder opened), or, in a folder the process may search but not list
// (mode --x), the paths in it.
type folder interface {
	Lstat(name string) (fs.FileInfo, error)
	Stat(name string) (fs.FileInfo, error)
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Close() error
}

func openFolder(dir string) (folder, error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrPermission) {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return pathFolder(dir), nil
		}
	}
	if err != nil {
		return nil, err
	}
	return root, nil
}

// pathFolder is a folder reached by its path.
type pathFolder string

func (d pathFolder) Lstat(name string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(string(d), name))
}

func (d pathFolder) Stat(name string) (fs.FileInfo, error) {
	return os.Stat(filepath.Join(string(d), name))
}

func (d pathFolder) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(filepath.Join(string(d), name), flag, perm)
}

func (pathFolder) Close() error { return nil }

// pathErr drops the *fs.PathError wrapper (whose path is relative to the
// folder).
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ErrNoWriter is returned when a pipe gave nothing to read: a named pipe
// with no writer (start the writer first), or a pipe whose writer wrote
// nothing.
var ErrNoWriter = errors.New("nothing to read: a named pipe with no writer (start the writer first), or a pipe whose writer wrote nothing")

// ReadStream reads a named pipe, device or other file that has no size
// and is named on purpose (such as /dev/stdin or bash's <(...)). Opening
// never blocks (O_NONBLOCK): a named pipe with no writer gives
// ErrNoWriter at once, while one whose writer waits (or writes) is read to
// the end. It reads at most maxBytes (0: DefaultMaxBytes).
func ReadStream(name string, maxBytes int64) ([]byte, error) {
	return ReadStreamWith(name, func(r io.Reader) ([]byte, error) { return ReadAll(r, maxBytes) })
}

// ReadStreamWith is ReadStream reading through readAll, which must enforce
// a size limit itself: for callers that check bytes as they arrive (such
// as nbformat's UnmarshalOptions.ReadAll, which refuses NUL bytes at once).
func ReadStreamWith(name string, readAll func(io.Reader) ([]byte, error)) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAll(f)
	if err == nil && len(data) == 0 {
		if fi, serr := f.Stat(); serr == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
			return nil, ErrNoWriter
		}
	}
	return data, err
}

// ReadAll reads r to the end, refusing more than maxBytes (0:
// DefaultMaxBytes) with a *TooLargeError as soon as one byte more arrives;
// refusing costs about the limit in memory.
func ReadAll(r io.Reader, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return readAll(r, -1, maxBytes)
}

// readAll reads r, expecting size bytes (-1: unknown), up to limit.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, &TooLargeError{Limit: limit, Size: size}
	}
	if size < 0 {
		return readStream(r, limit)
	}
	// One allocation of the size the file has, plus one byte to see its
	// end (or that it grew).
	data := make([]byte, 0, min(size+1, limit+1))
	for {
		if len(data) == cap(data) {
			if int64(len(data)) > limit {
				return nil, &TooLargeError{Limit: limit, Size: -1}
			}
			// It grew while being read: go on as for a stream.
			rest, err := readStream(r, limit-int64(len(data)))
			if err != nil {
				return nil, &TooLargeError{Limit: limit, Size: -1}
			}
			return append(data, rest...), nil
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readStream reads r, of unknown size, up to limit bytes, in chunks that
// grow to 1 MiB: refusing a stream over the limit costs about the limit
// in memory, and reading one costs about twice its size.
func readStream(r io.Reader, limit int64) ([]byte, error) {
	var chunks [][]byte
	total := int64(0)
	size := int64(4 << 10)
	for {
		c := make([]byte, min(size, limit+1-total))
		n, err := io.ReadFull(r, c)
		chunks = append(chunks, c[:n])
		total += int64(n)
		if total > limit {
			return nil, &TooLargeError{Limit: limit, Size: -1}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, 1<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	data := make([]byte, 0, total)
	for _, c := range chunks {
		data = append(data, c...)
	}
	return data, nil
}

// Kind names a file type: "a named pipe", "a socket", "a device", "a
// folder", "a symbolic link", "a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}
