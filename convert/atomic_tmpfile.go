//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package convert

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// oTmpfile is Linux's O_TMPFILE (with O_DIRECTORY) on these architectures.
const oTmpfile = 0x410000

// createTemp opens an unnamed file in dir (O_TMPFILE), or, where the file
// system does not support that, a named one; tmp is "" for an unnamed file.
func createTemp(dir, base string, perm fs.FileMode) (f *os.File, tmp string, err error) {
	f, err = os.OpenFile(dir, oTmpfile|os.O_WRONLY, perm)
	if err == nil {
		return f, "", nil
	}
	if errors.Is(err, fs.ErrPermission) {
		return nil, "", err
	}
	return createNamed(dir, base, perm)
}

const atSymlinkFollow = 0x400

// atFdcwd is AT_FDCWD (-100) as the system call takes it.
var atFdcwd = func() uintptr { v := -100; return uintptr(v) }()

// link gives the unnamed file f a temporary name in dir.
func link(f *os.File, dir, base string) (string, error) {
	old := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	for range 100 {
		tmp := tempName(dir, base)
		oldp, err := syscall.BytePtrFromString(old)
		if err != nil {
			return "", err
		}
		newp, err := syscall.BytePtrFromString(tmp)
		if err != nil {
			return "", err
		}
		_, _, errno := syscall.Syscall6(syscall.SYS_LINKAT, atFdcwd, uintptr(unsafe.Pointer(oldp)),
			atFdcwd, uintptr(unsafe.Pointer(newp)), atSymlinkFollow, 0)
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
