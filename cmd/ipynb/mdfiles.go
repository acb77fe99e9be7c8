package main

// Writing md's image and attachment files into one folder: through temporary
// files, never through a link, never over the notebook.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// md's image and attachment files go into one folder, under names md
// makes (one path element each: safeName keeps attachments' names
// inside). Writing them keeps three promises:
//
//   - Never outside the folder, never through a link: each file is
//     written as a new temporary file in the folder (opened through an
//     os.Root, exclusively) and renamed over its name, so a symbolic link
//     already there (planted, or dangling) is replaced, not followed.
//   - Never the notebook: a name that is the notebook being read (or a
//     folder) is refused, checked once before writing and again right
//     before the rename.
//   - Atomic: a file is whole or absent under its name, also after a
//     crash (each is synced before its rename). The syncs run
//     concurrently, so that the file system commits them together: a
//     thousand images cost about what one does, not a thousand syncs.
//
// A folder that md derives itself from -o (NAME_files) and that is a
// symbolic link is refused: only a folder the user names (--images) is
// followed.

// imageFolder is an open images folder.
type imageFolder struct {
	root     *os.Root
	dir      string
	notebook os.FileInfo // the notebook read (nil: standard input)
}

// openImageFolder creates (if needed) and opens dir. derived says md
// chose the name (from -o) rather than the user (--images).
func openImageFolder(dir string, derived bool, notebook os.FileInfo) (*imageFolder, error) {
	if derived {
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s: is a symbolic link; md does not follow it (name the folder with --images to use it)", dir)
		}
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &imageFolder{root: root, dir: dir, notebook: notebook}, nil
}

func (f *imageFolder) close() error { return f.root.Close() }

// errNotebookTarget: a file md would write is the notebook it reads.
var errNotebookTarget = errors.New("is the notebook being read; md does not overwrite it")

// check refuses to replace name when it is a folder or the notebook.
func (f *imageFolder) check(name string) error {
	fi, err := f.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", filepath.Join(f.dir, name), pathError(err))
	case fi.IsDir():
		return fmt.Errorf("%s: is a folder", filepath.Join(f.dir, name))
	case f.notebook != nil && os.SameFile(fi, f.notebook):
		return fmt.Errorf("%s: %w", filepath.Join(f.dir, name), errNotebookTarget)
	}
	return nil
}

// writeAll writes each file (name: one path element) by way of a
// temporary file, synced, then renamed over its name. The temporary files
// are written and synced concurrently (the file system then commits them
// together: one sync costs milliseconds), then renamed in order; on an
// error, the temporary files left are removed, and the files renamed
// already stay.
func (f *imageFolder) writeAll(files []mdFile) error {
	tmps := make([]string, len(files))
	errs := make([]error, len(files))
	defer func() {
		for _, tmp := range tmps {
			if tmp != "" {
				f.root.Remove(tmp)
			}
		}
	}()
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(16, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				tmps[i], errs[i] = f.temp(files[i])
			}
		}()
	}
	for i := range files {
		if err := f.check(files[i].name); err != nil {
			close(next)
			wg.Wait()
			return err
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for i, file := range files {
		if errs[i] != nil {
			return errs[i]
		}
		// Checked right before the rename.
		if err := f.check(file.name); err != nil {
			return err
		}
		if err := f.root.Rename(tmps[i], file.name); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(f.dir, file.name), pathError(err))
		}
		tmps[i] = ""
	}
	return syncFolder(f.root)
}

// temp writes a file's data to a new temporary file in the folder and
// syncs it, returning its name. The name is the one internal/atomicfile
// gives its own (.NAME.save-PID-RANDOM.tmp), so that its sweep of a dead
// process's leftovers covers these too.
func (f *imageFolder) temp(file mdFile) (string, error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := fmt.Sprintf(".%s.save-%d-%s.tmp", file.name, os.Getpid(), hex.EncodeToString(rnd[:]))
	w, err := f.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(f.dir, file.name), pathError(err))
	}
	_, err = w.Write(file.data)
	if err == nil {
		err = w.Sync()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.root.Remove(tmp)
		return "", fmt.Errorf("%s: %w", filepath.Join(f.dir, file.name), pathError(err))
	}
	return tmp, nil
}

func syncFolder(root *os.Root) error {
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
