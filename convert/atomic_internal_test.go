package convert

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A full disk (simulated: the write fails with ENOSPC halfway) leaves the
// original intact, says what happened and leaves no temporary file.
func TestSaveFullDisk(t *testing.T) {
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
	err := Options{}.WriteAtomic(path, bytes.Repeat([]byte("x"), 1<<16))
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

// Temporary files of processes that are gone are swept; those of running
// processes, and other files, are not.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := cmd.Process.Pid
	names := map[string]bool{ // name → kept
		tempPrefix("nb.ipynb") + strconv.Itoa(dead) + "-abc.tmp":         false,
		tempPrefix("nb.ipynb") + strconv.Itoa(os.Getppid()) + "-abc.tmp": true,
		tempPrefix("nb.ipynb") + strconv.Itoa(os.Getpid()) + "-abc.tmp":  true,
		tempPrefix("other.ipynb") + strconv.Itoa(dead) + "-abc.tmp":      true,
		"nb.ipynb":             true,
		".nb.ipynb.save-x.tmp": true,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	sweep(dir, "nb.ipynb")
	for n, kept := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if (err == nil) != kept {
			t.Errorf("%s: kept=%v, want %v", n, err == nil, kept)
		}
	}
}

// On Linux the temporary file has no name while it is written.
func TestUnnamedTemp(t *testing.T) {
	dir := t.TempDir()
	f, tmp, err := createTemp(dir, "nb.ipynb", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, _ := os.ReadDir(dir)
	t.Logf("temporary name %q; folder %v", tmp, entries)
	if tmp == "" && len(entries) != 0 {
		t.Error("an unnamed file shows in the folder")
	}
}
