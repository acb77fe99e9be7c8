//go:build !linux

package atomicfile

// Temporary files where O_TMPFILE is not available: always named.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// createTemp opens a named temporary file in the folder.
func createTemp(root *os.Root, _ *os.File, base string, perm fs.FileMode) (*os.File, string, error) {
	return createNamed(root, base, perm)
}

func link(_, _ *os.File, _ string) (string, error) {
	return "", errors.New("unnamed temporary files are not supported here")
}

// writable checks that the caller may write the file in place (with the
// real ids: access(2)).
func writable(_ *os.File, dir, base string) error {
	return syscall.Access(filepath.Join(dir, base), 2)
}
