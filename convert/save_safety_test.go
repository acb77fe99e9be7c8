package convert_test

// Tests of Save's safety: changes during Save not overwritten, links swapped in
// never followed, stale temporaries swept, pipes refused.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/convert"
)

// during returns Options whose registry converts the attribute "mark" with
// a function that runs hook once: a seam inside Save, after the early look
// at the file and before the marshalling is done.
func during(t *testing.T, hook func()) convert.Options {
	t.Helper()
	var once sync.Once
	reg := &convert.Registry{}
	if err := reg.Register(convert.Descriptor{Attr: "mark", Key: "mark", ToFile: func(v any) any {
		once.Do(hook)
		return v
	}}); err != nil {
		t.Fatal(err)
	}
	return convert.Options{Registry: reg}
}

// A change made to the file while Save converts and marshals the dialog
// is not overwritten: Save returns ErrChanged — also for an edit that
// keeps the file's size and modification time.
func TestSaveChecksAfterMarshal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(path string) []byte
	}{
		{"appended", func(path string) []byte {
			data, _ := os.ReadFile(path)
			data = append(data, ' ')
			os.WriteFile(path, data, 0o644)
			return data
		}},
		{"same size and time", func(path string) []byte {
			fi, _ := os.Stat(path)
			data, _ := os.ReadFile(path)
			i := bytes.IndexByte(data, '{')
			data[i+1] = '\t' // a newline or space before becomes a tab
			f, _ := os.OpenFile(path, os.O_WRONLY, 0)
			f.WriteAt(data, 0)
			f.Close()
			os.Chtimes(path, fi.ModTime(), fi.ModTime())
			return data
		}},
		{"replaced", func(path string) []byte {
			data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}` + "\n")
			os.WriteFile(path+".new", data, 0o644)
			os.Rename(path+".new", path)
			return data
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := copyTestdata(t, "dialog.ipynb", t.TempDir())
			var edited []byte
			o := during(t, func() { edited = tc.edit(path) })
			d, err := o.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d.Messages[0].Attrs = map[string]any{"mark": 1}
			if err := o.Save(d); !errors.Is(err, convert.ErrChanged) {
				t.Fatalf("Save = %v, want ErrChanged", err)
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, edited) {
				t.Error("the change made during Save was overwritten")
			}
			if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
				t.Errorf("left in the folder: %v", entries)
			}
		})
	}
}

// Save writes back only to the file that was read: a symbolic link put in
// its place after the read is never followed — neither when it appears
// during Save (ErrChanged) nor with Force (the link, not its target, is
// replaced).
func TestSaveNeverFollowsALinkSwappedIn(t *testing.T) {
	t.Parallel()
	for _, force := range []bool{false, true} {
		t.Run("force="+strconv.FormatBool(force), func(t *testing.T) {
			dir := t.TempDir()
			path := copyTestdata(t, "dialog.ipynb", dir)
			outside := filepath.Join(t.TempDir(), "precious")
			os.WriteFile(outside, []byte("precious\n"), 0o644)
			swap := func() {
				os.Remove(path)
				if err := os.Symlink(outside, path); err != nil {
					t.Fatal(err)
				}
			}
			o := convert.Options{Force: force}
			d, err := o.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d.Messages[0].Content = "edited"
			if force {
				swap()
			} else {
				o = during(t, swap)
				o.Force = false
				d.Messages[0].Attrs = map[string]any{"mark": 1}
			}
			err = o.Save(d)
			if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
				t.Fatalf("the file the link leads to was written (Save = %v)", err)
			}
			if !force {
				if !errors.Is(err, convert.ErrChanged) {
					t.Errorf("Save = %v, want ErrChanged", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fi, _ := os.Lstat(path); !fi.Mode().IsRegular() {
				t.Error("with Force, the link was not replaced by the notebook")
			}
		})
	}
}

// Any write into a folder removes the named temporaries there of
// processes that are gone, whatever notebook they were for; a running
// process's temporary is kept.
func TestWriteSweepsStaleTemporaries(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	live := strconv.Itoa(os.Getppid())
	dir := t.TempDir()
	names := map[string]bool{ // name → kept
		".a.ipynb.save-" + dead + "-0123456789ab.tmp":     false,
		".b.ipynb.save-" + dead + "-ba9876543210.tmp":     false,
		".notes.ipynb.save-" + dead + "-0000ffff0000.tmp": false,
		".a.ipynb.save-" + live + "-0123456789ab.tmp":     true,
		"a.ipynb":        true,
		"readme.save.md": true,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	d, err := convert.ReadFile(copyTestdata(t, "dialog.ipynb", dir), convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names["dialog.ipynb"] = true
	d.Messages[0].Content = "edited"
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	for n, kept := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); (err == nil) != kept {
			t.Errorf("%s: kept=%v, want %v", n, err == nil, kept)
		}
	}
}

// ReadFile of a named pipe does not block: it is refused at once.
func TestReadFileRefusesAPipe(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "p.ipynb")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := convert.ReadFile(p, convert.ReadOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a pipe was read as a notebook")
		}
		t.Log(err)
	case <-time.After(10 * time.Second):
		// Unblock the reader so the test binary can end.
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("ReadFile blocks on a named pipe")
	}
}
