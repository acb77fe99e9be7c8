package atomicfile

// Temporary files on Linux: unnamed (O_TMPFILE) and linked into the folder, and
// the write check with the effective ids.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"unsafe"
)

// oTmpfile is Linux's O_TMPFILE: __O_TMPFILE (020000000 on every
// architecture Go supports) with O_DIRECTORY.
const oTmpfile = 0o20000000 | syscall.O_DIRECTORY

// procFD: /proc/self/fd is there, so an unnamed file can be linked.
var procFD = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
})

// namedOnly makes createTemp use named files, as on file systems without
// O_TMPFILE (for tests).
var namedOnly = false

// createTemp opens an unnamed file in the folder (O_TMPFILE), or, where
// the file system does not support that, a named one; tmp is "" for an
// unnamed file.
func createTemp(root *os.Root, dirf *os.File, base string, perm fs.FileMode) (f *os.File, tmp string, err error) {
	if procFD() && !namedOnly {
		fd, err := syscall.Openat(int(dirf.Fd()), ".", oTmpfile|syscall.O_RDWR|syscall.O_CLOEXEC, uint32(perm))
		if err == nil {
			return os.NewFile(uintptr(fd), filepath.Join(dirf.Name(), "(unnamed temporary file)")), "", nil
		}
		switch {
		case errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOENT):
			// No O_TMPFILE on this file system or kernel: a named file.
		default:
			return nil, "", err
		}
	}
	return createNamed(root, base, perm)
}

const atSymlinkFollow = 0x400

// atFdcwd is AT_FDCWD (-100) as the system call takes it.
var atFdcwd = func() uintptr { v := -100; return uintptr(v) }()

// link gives the unnamed file f a temporary name in the folder dirf.
func link(f, dirf *os.File, base string) (string, error) {
	old := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	oldp, err := syscall.BytePtrFromString(old)
	if err != nil {
		return "", err
	}
	for range 100 {
		tmp := tempBase(base)
		newp, err := syscall.BytePtrFromString(tmp)
		if err != nil {
			return "", err
		}
		_, _, errno := syscall.Syscall6(syscall.SYS_LINKAT, atFdcwd, uintptr(unsafe.Pointer(oldp)),
			dirf.Fd(), uintptr(unsafe.Pointer(newp)), atSymlinkFollow, 0)
		switch errno {
		case 0:
			return tmp, nil
		case syscall.EEXIST:
			continue
		}
		return "", &os.LinkError{Op: "link", Old: old, New: tmp, Err: errno}
	}
	return "", errors.New("cannot name the temporary file")
}

const (
	wOK       = 2
	atEaccess = 0x200
)

// writable checks with the effective ids that the caller may write the
// file base in the folder dirf in place.
func writable(dirf *os.File, _, base string) error {
	return syscall.Faccessat(int(dirf.Fd()), base, wOK, atEaccess)
}
