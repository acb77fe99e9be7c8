package atomicfile

// Tests of Read and Replace: refusals, limits, changes caught right before the
// rename, locks, modes, moved folders, no lost updates.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const nb = `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}` + "\n"

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// within fails the test if f does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still blocked after %v", what, d)
	}
}

// Read refuses, at once, what is not a regular file, and a link where
// links are not followed; it follows links otherwise.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.ipynb")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	write(t, filepath.Join(dir, "a.ipynb"), nb)
	os.Symlink("a.ipynb", filepath.Join(dir, "l.ipynb"))
	os.Symlink("p.ipynb", filepath.Join(dir, "lp.ipynb"))
	os.Mkdir(filepath.Join(dir, "d.ipynb"), 0o755)
	for _, tc := range []struct {
		name     string
		noFollow bool
		want     error
	}{
		{"p.ipynb", false, ErrNotRegular},
		{"p.ipynb", true, ErrNotRegular},
		{"lp.ipynb", false, ErrNotRegular},
		{"lp.ipynb", true, ErrSymlink},
		{"l.ipynb", true, ErrSymlink},
		{"d.ipynb", false, ErrNotRegular},
		{"l.ipynb", false, nil},
	} {
		within(t, 10*time.Second, "Read "+tc.name, func() {
			data, st, err := Read(filepath.Join(dir, tc.name), ReadOptions{NoFollow: tc.noFollow})
			if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
				t.Errorf("Read %s (NoFollow %v) = %v, want %v", tc.name, tc.noFollow, err, tc.want)
			}
			if tc.want == nil && (string(data) != nb || st.Path() != filepath.Join(dir, "a.ipynb")) {
				t.Errorf("Read %s: %q, stamp path %s", tc.name, data, st.Path())
			}
		})
	}
}

// The byte limit holds while reading: a file over it is refused from its
// size, and an endless stream after limit+1 bytes, with memory bounded by
// the limit.
func TestReadLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.ipynb")
	write(t, path, strings.Repeat(" ", 1001)+"{}")
	var tl *TooLargeError
	if _, _, err := Read(path, ReadOptions{MaxBytes: 1000}); !errors.As(err, &tl) || tl.Size != 1003 {
		t.Errorf("Read over the limit = %v", err)
	}
	if data, _, err := Read(path, ReadOptions{MaxBytes: 1003}); err != nil || len(data) != 1003 {
		t.Errorf("Read at the limit = %d bytes, %v", len(data), err)
	}
	for _, n := range []int{1, 4095, 4096, 4097, 100000, 1 << 20} {
		src := bytes.Repeat([]byte("x"), n)
		if data, err := ReadAll(bytes.NewReader(src), int64(n)); err != nil || !bytes.Equal(data, src) {
			t.Errorf("ReadAll of %d bytes at the limit: %d bytes, %v", n, len(data), err)
		}
		if _, err := ReadAll(bytes.NewReader(append(src, 'y')), int64(n)); !errors.As(err, &tl) {
			t.Errorf("ReadAll of %d+1 bytes over the limit: %v", n, err)
		}
	}
	for _, limit := range []int64{1 << 20, 4 << 20, 16 << 20} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadAll(zeros{}, limit)
		runtime.ReadMemStats(&after)
		if !errors.As(err, &tl) {
			t.Fatalf("ReadAll of an endless stream = %v", err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("limit %d: %d bytes allocated (%.2f× the limit)", limit, alloc, float64(alloc)/float64(limit))
		if alloc > uint64(limit+limit/4) {
			t.Errorf("limit %d: %d bytes allocated", limit, alloc)
		}
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

var _ io.Reader = zeros{}

// Replace over a stamp leaves alone a file that changed between the read
// and the rename, in any way, and never blocks or writes through a link.
func TestReplaceChecksRightBeforeRename(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
		want   string // in the error
	}{
		{"appended", func(t *testing.T, p string) { write(t, p, nb+" ") }, "size"},
		{"same size and time", func(t *testing.T, p string) {
			fi, _ := os.Stat(p)
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte("\t"), 1)
			f.Close()
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
		}, "content"},
		{"replaced", func(t *testing.T, p string) {
			write(t, p+".x", nb)
			os.Rename(p+".x", p)
		}, "another file"},
		{"removed", func(t *testing.T, p string) { os.Remove(p) }, "removed"},
		{"pipe", func(t *testing.T, p string) {
			os.Remove(p)
			syscall.Mkfifo(p, 0o644)
		}, "named pipe"},
		{"link", func(t *testing.T, p string) {
			os.Remove(p)
			os.Symlink(filepath.Join(filepath.Dir(p), "..", "outside"), p)
		}, "symbolic link"},
		{"link inside", func(t *testing.T, p string) {
			os.Rename(p, p+".moved")
			os.Symlink(filepath.Base(p)+".moved", p)
		}, "symbolic link"},
	} {
		for _, digest := range []bool{false, true} {
			for _, streamed := range []bool{false, true} {
				name := tc.name
				if digest {
					name += ", digest"
				}
				if streamed {
					name += ", ReplaceWith"
				}
				t.Run(name, func(t *testing.T) {
					base := t.TempDir()
					dir := filepath.Join(base, "d")
					os.Mkdir(dir, 0o755)
					path := filepath.Join(dir, "a.ipynb")
					outside := filepath.Join(dir, "..", "outside")
					write(t, outside, "outside\n")
					write(t, path, nb)
					_, st, err := Read(path, ReadOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if digest {
						st = st.Digest()
					}
					var want []byte
					var wantInfo fs.FileInfo
					within(t, 20*time.Second, "Replace", func() {
						_, err = replaceOrStream(streamed, path, []byte("new\n"), Options{Expect: st, BeforeCheck: func() {
							tc.change(t, path)
							wantInfo, _ = os.Lstat(path)
							if wantInfo != nil && wantInfo.Mode().IsRegular() {
								want, _ = os.ReadFile(path)
							}
						}})
					})
					if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), tc.want) {
						t.Errorf("Replace = %v, want ErrChanged saying %q", err, tc.want)
					}
					now, _ := os.Lstat(path)
					switch {
					case wantInfo == nil:
						if now != nil {
							t.Error("a removed file was written")
						}
					case now == nil || !os.SameFile(now, wantInfo):
						t.Error("the changed file was replaced")
					case wantInfo.Mode().IsRegular():
						if b, _ := os.ReadFile(path); !bytes.Equal(b, want) {
							t.Errorf("the changed file was overwritten: %q", b)
						}
					}
					if b, _ := os.ReadFile(outside); string(b) != "outside\n" {
						t.Errorf("a file outside was written: %q", b)
					}
					entries, _ := os.ReadDir(dir)
					for _, e := range entries {
						if _, ok := tempOwner(e.Name()); ok {
							t.Errorf("temporary left: %s", e.Name())
						}
					}
				})
			}
		}
	}
}

// replaceOrStream is Replace, or with streamed ReplaceWith writing data in
// two pieces.
func replaceOrStream(streamed bool, path string, data []byte, o Options) (*Stamp, error) {
	if !streamed {
		return Replace(path, data, o)
	}
	return ReplaceWith(path, func(w io.Writer) error {
		h := len(data) / 2
		if _, err := w.Write(data[:h]); err != nil {
			return err
		}
		_, err := w.Write(data[h:])
		return err
	}, nil, o)
}

// A Digest stamp holds no bytes; Replace over it writes a file left as
// read, its content compared by digest while its times leave a change in
// doubt (just written).
func TestReplaceDigestStamp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.ipynb")
	write(t, path, nb)
	_, st, err := Read(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := st.Digest()
	if d.Data() != nil || st.Data() == nil || d.Digest().sum != d.sum {
		t.Fatalf("Digest: data %q (the stamp's %q)", d.Data(), st.Data())
	}
	if fi, _ := os.Stat(path); !d.doubt(fi) {
		t.Fatal("a file just written is not in doubt: the digest is not compared")
	}
	if _, err := Replace(path, []byte("new\n"), Options{Expect: d}); err != nil {
		t.Fatalf("Replace over an unchanged file's digest: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("file %q", b)
	}
}

// A folder moved away (and another put in its place) while Replace runs
// takes the new file with it: Replace writes into the folder it checked,
// never into the one put in its place.
func TestReplaceFolderMoved(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "d")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "a.ipynb")
	write(t, path, nb)
	_, st, _ := Read(path, ReadOptions{})
	_, err := Replace(path, []byte("new\n"), Options{Expect: st, BeforeCheck: func() {
		os.Rename(dir, dir+".old")
		os.Mkdir(dir, 0o755)
		write(t, path, "other\n")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "other\n" {
		t.Errorf("the file in the folder put in place was written: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir+".old", "a.ipynb")); string(b) != "new\n" {
		t.Errorf("the file read was not replaced: %q", b)
	}
	// A folder replaced before Replace starts is refused.
	_, st, _ = Read(path, ReadOptions{})
	os.Rename(dir, dir+".older")
	os.Mkdir(dir, 0o755)
	write(t, path, "third\n")
	if _, err := Replace(path, []byte("x"), Options{Expect: st}); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "folder") {
		t.Errorf("Replace into a replaced folder = %v", err)
	}
}

// An unchanged file is replaced, and the new stamp lets the next replace
// through; an old stamp does not.
func TestReplaceStamps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.ipynb")
	write(t, path, nb)
	_, st, err := Read(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st2, err := Replace(path, []byte("one\n"), Options{Expect: st})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replace(path, []byte("stale\n"), Options{Expect: st}); !errors.Is(err, ErrChanged) {
		t.Errorf("replace over a stale stamp = %v", err)
	}
	if _, err := Replace(path, []byte("two\n"), Options{Expect: st2}); err != nil {
		t.Errorf("replace over the new stamp = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two\n" {
		t.Errorf("content %q", b)
	}
}

// While another process holds a lock on the file, Replace waits (a
// while, not forever) and then leaves the file alone.
func TestReplaceWaitsForLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.ipynb")
	write(t, path, nb)
	_, st, _ := Read(path, ReadOptions{})
	holder, _ := os.Open(path)
	defer holder.Close()
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Skip(err)
	}
	saved := lockWait
	lockWait = 200 * time.Millisecond
	defer func() { lockWait = saved }()
	if _, err := Replace(path, []byte("x"), Options{Expect: st}); !errors.Is(err, ErrLocked) {
		t.Errorf("Replace of a locked file = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != nb {
		t.Error("a locked file was replaced")
	}
	fd := int(holder.Fd())
	unlocked := make(chan struct{})
	time.AfterFunc(50*time.Millisecond, func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		close(unlocked)
	})
	lockWait = 10 * time.Second
	if _, err := Replace(path, []byte("x"), Options{Expect: st}); err != nil {
		t.Errorf("Replace after the lock was dropped = %v", err)
	}
	<-unlocked
}

// Writers that each read, change and replace the file, retrying on
// ErrChanged, lose no update: the lock and the check right before the
// rename serialize them.
func TestNoLostUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	write(t, path, "")
	const writers, updates = 6, 25
	var wg sync.WaitGroup
	retries := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := 0; u < updates; {
				data, st, err := Read(path, ReadOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				next := fmt.Appendf(append([]byte(nil), data...), "w%d-u%d\n", w, u)
				_, err = Replace(path, next, Options{Expect: st})
				switch {
				case errors.Is(err, ErrChanged):
					retries[w]++
					continue
				case err != nil:
					t.Error(err)
					return
				}
				u++
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	total := 0
	for _, r := range retries {
		total += r
	}
	t.Logf("%d lines, %d retries on ErrChanged", len(lines), total)
	if len(lines) != writers*updates {
		t.Errorf("%d updates in the file, want %d: %d lost", len(lines), writers*updates, writers*updates-len(lines))
	}
}

// Replace refuses a file whose owner made it read-only (even for root)
// and keeps the mode of the file it replaces.
func TestReplaceModes(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.ipynb")
	write(t, ro, nb)
	os.Chmod(ro, 0o444)
	if _, err := Replace(ro, []byte("x"), Options{}); !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("Replace of a read-only file = %v", err)
	}
	rw := filepath.Join(dir, "rw.ipynb")
	write(t, rw, nb)
	os.Chmod(rw, 0o640)
	if _, err := Replace(rw, []byte("x"), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(rw); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
}

// A file read by a relative name is written back to the same file after
// the working folder changes.
func TestReplaceAfterChdir(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.ipynb"), nb)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	_, st, err := Read("a.ipynb", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	os.Chdir(t.TempDir())
	if _, err := Replace("a.ipynb", []byte("new\n"), Options{Expect: st}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.ipynb")); string(b) != "new\n" {
		t.Errorf("content %q", b)
	}
	if _, err := os.Stat("a.ipynb"); err == nil {
		t.Error("written in the new working folder")
	}
}

// Read with a Folder refuses a file whose folder is not that one.
func TestReadFolder(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "x.ipynb"), nb)
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	if _, _, err := Read(filepath.Join(a, "x.ipynb"), ReadOptions{Folder: fa}); err != nil {
		t.Errorf("Read in its folder = %v", err)
	}
	if _, _, err := Read(filepath.Join(a, "x.ipynb"), ReadOptions{Folder: fb}); !errors.Is(err, ErrChanged) {
		t.Errorf("Read in another folder = %v", err)
	}
}
