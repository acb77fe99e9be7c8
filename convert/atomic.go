package convert

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// writeAtomic replaces the file name by data: a temporary file in the same
// folder (github.com/google/renameio/v2) is written, synced and renamed
// over it, then the folder is synced. A symbolic link is followed, so its
// target is replaced; the file's permissions are kept (0666 less the umask
// for a new file); its owner is kept when the process may set it, or set
// to Options.Owner. It returns the new file's information.
func (o Options) writeAtomic(name string, data []byte) (fs.FileInfo, error) {
	target, err := resolve(name)
	if err != nil {
		return nil, fmt.Errorf("convert: save %s: %w", name, err)
	}
	dir := filepath.Dir(target)
	var owner *Owner
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("convert: save %s: not a regular file", name)
		}
		if fi.Mode().Perm()&0o222 == 0 {
			// Replacing it by rename would work, but the owner marked it
			// read-only.
			return nil, fmt.Errorf("convert: save %s: the file is read-only (mode %v; it is unchanged): %w", name, fi.Mode().Perm(), fs.ErrPermission)
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
			owner = &Owner{UID: int(st.Uid), GID: int(st.Gid)}
		}
	}
	if o.Owner != nil {
		owner = o.Owner
	}
	pf, err := renameio.NewPendingFile(target,
		renameio.WithTempDir(dir),
		renameio.WithPermissions(0o666),
		renameio.WithExistingPermissions())
	if err != nil {
		return nil, saveError(name, dir, err)
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return nil, saveError(name, dir, err)
	}
	if owner != nil {
		if err := pf.Chown(owner.UID, owner.GID); err != nil {
			return nil, saveError(name, dir, err)
		}
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return nil, saveError(name, dir, err)
	}
	if err := syncDir(dir); err != nil {
		return nil, saveError(name, dir, err)
	}
	fi, err := os.Stat(target)
	if err != nil {
		return nil, fmt.Errorf("convert: save %s: %w", name, err)
	}
	return fi, nil
}

// resolve follows symbolic links in name (the file itself may not exist
// yet, its folder must).
func resolve(name string) (string, error) {
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
		return resolve(t)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(name))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(name)), nil
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// saveError explains a failed save; the original file is untouched.
func saveError(name, dir string, err error) error {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("convert: save %s: permission denied writing in %s (the file is unchanged): %w", name, dir, err)
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("convert: save %s: no space left on the device (the file is unchanged): %w", name, err)
	}
	return fmt.Errorf("convert: save %s (the file is unchanged): %w", name, err)
}
