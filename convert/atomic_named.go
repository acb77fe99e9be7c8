//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package convert

import (
	"errors"
	"io/fs"
	"os"
)

// createTemp opens a named temporary file in dir.
func createTemp(dir, base string, perm fs.FileMode) (*os.File, string, error) {
	return createNamed(dir, base, perm)
}

func link(f *os.File, dir, base string) (string, error) {
	return "", errors.New("unnamed temporary files are not supported here")
}
