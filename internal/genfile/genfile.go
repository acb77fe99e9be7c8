// Package genfile writes the files the module's generation steps
// (internal/cmd/flatten, internal/cmd/retag) produce.
package genfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces the file name with data through a temporary file in the
// same folder, synced and renamed over it: readers see the old or the new
// file, whole. It refuses to write through a symbolic link.
func Write(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename, there is nothing to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; not writing through it", name)
	}
	return os.Rename(tmp, name)
}
