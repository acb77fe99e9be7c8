package atomicfile

// Tests of Replace's temporaries: a full disk, sweeping leftovers of dead
// processes once a minute, unnamed and long-named temporaries.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A full disk (simulated: the write fails with ENOSPC halfway) leaves the
// original intact, says what happened and leaves no temporary file.
func TestReplaceFullDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	orig := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}` + "\n")
	os.WriteFile(path, orig, 0o644)
	saved := writeData
	defer func() { writeData = saved }()
	writeData = func(f *os.File, data []byte) error {
		f.Write(data[:len(data)/2])
		return &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	_, err := Replace(path, bytes.Repeat([]byte("x"), 1<<16), Options{})
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on the device (the file is unchanged)") {
		t.Errorf("error %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
		t.Error("original changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// deadPID returns the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	return cmd.Process.Pid
}

// Temporary files of processes that are gone are swept, whatever file
// they were for; those of running processes, and other files, are not.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	dead := strconv.Itoa(deadPID(t))
	names := map[string]bool{ // name → kept
		".nb.ipynb.save-" + dead + "-0123456789ab.tmp":                                 false,
		".other.ipynb.save-" + dead + "-0123456789ab.tmp":                              false,
		".with.save-in.name.ipynb.save-" + dead + "-abcdefabcdef.tmp":                  false,
		"." + strings.Repeat("l", maxTempBase) + ".save-" + dead + "-00aa11bb22cc.tmp": false,
		".nb.ipynb.save-" + strconv.Itoa(os.Getppid()) + "-0123456789ab.tmp":           true,
		".nb.ipynb.save-" + strconv.Itoa(os.Getpid()) + "-0123456789ab.tmp":            true,
		".nb.ipynb.save-" + dead + "-abc.tmp":                                          true, // not our pattern
		".nb.ipynb.save-0" + dead + "-0123456789ab.tmp":                                true,
		"nb.ipynb.save-" + dead + "-0123456789ab.tmp":                                  true,
		"nb.ipynb":             true,
		".nb.ipynb.save-x.tmp": true,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, ".d.save-"+dead+"-0123456789ab.tmp"), 0o755) // a folder: kept
	names[".d.save-"+dead+"-0123456789ab.tmp"] = true
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	dirf, _ := root.Open(".")
	defer dirf.Close()
	sweep(root, dirf)
	for n, kept := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if (err == nil) != kept {
			t.Errorf("%s: kept=%v, want %v", n, err == nil, kept)
		}
	}
}

// A folder is swept at most once a minute per process: writing 50 files
// into one folder scans it once, not 50 times.
func TestSweepOncePerFolder(t *testing.T) {
	dir := t.TempDir()
	sweptMu.Lock()
	before := sweeps
	sweptMu.Unlock()
	for i := range 50 {
		if _, err := Replace(filepath.Join(dir, strconv.Itoa(i)+".ipynb"), []byte("{}"), Options{}); err != nil {
			t.Fatal(err)
		}
	}
	sweptMu.Lock()
	n := sweeps - before
	sweptMu.Unlock()
	if n != 1 {
		t.Errorf("%d scans of the folder for 50 writes, want 1", n)
	}
}

// On Linux the temporary file has no name while it is written.
func TestUnnamedTemp(t *testing.T) {
	dir := t.TempDir()
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	dirf, _ := root.Open(".")
	defer dirf.Close()
	f, tmp, err := createTemp(root, dirf, "nb.ipynb", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, _ := os.ReadDir(dir)
	t.Logf("temporary name %q; folder %v", tmp, entries)
	if tmp == "" && len(entries) != 0 {
		t.Error("an unnamed file shows in the folder")
	}
	if tmp != "" {
		if _, ok := tempOwner(tmp); !ok {
			t.Errorf("temporary name %q is not one sweep recognizes", tmp)
		}
	}
}

// A very long file name still gets a temporary name within NAME_MAX.
func TestReplaceLongName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("n", 249)+".ipynb")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := Replace(path, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	if len(tempBase(filepath.Base(path))) > 255 {
		t.Error("temporary name longer than 255 bytes")
	}
}

// Where unnamed files are not available, the temporary file is named (as
// sweep recognizes) while it is written, and gone after the replace or a
// failure.
func TestReplaceNamedTemp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("named temporaries are the only kind here")
	}
	namedOnly = true
	defer func() { namedOnly = false }()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.ipynb")
	os.WriteFile(path, []byte("old"), 0o644)
	_, st, err := Read(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	_, err = Replace(path, []byte("new"), Options{Expect: st, BeforeCheck: func() {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if _, ok := tempOwner(e.Name()); ok {
				seen = append(seen, e.Name())
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], ".a.ipynb.save-"+strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("temporaries during the replace: %v", seen)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
	// A replace that fails its check removes its named temporary.
	_, st, _ = Read(path, ReadOptions{})
	change := func() { os.WriteFile(path, []byte("changed"), 0o644) }
	if _, err := Replace(path, []byte("x"), Options{Expect: st, BeforeCheck: change}); !errors.Is(err, ErrChanged) {
		t.Fatalf("Replace = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the folder after a refusal: %v", entries)
	}
}
