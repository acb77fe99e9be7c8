package main

// The peak memory of check and fmt --check, as a multiple of the file.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// TestCheckPeakMemoryLong: check, fmt --check and fmt --canonical --check
// peak at no more than 2× the file (and the runtime's own few MB), at 8,
// 16 and 32 MB, whatever the file's layout: an output-heavy notebook
// written compactly, indented by two spaces as Colab writes (by
// encoding/json's Indent), and in Python nbformat's layout, and notebooks
// dense in small values: a metadata array of numbers, one of small
// objects (written from their bytes, no node per value), a cell source of
// one-character lines. fmt --check compares the canonical bytes
// with the file as they are written, so a file not in Python's layout
// stops it at the first difference and a file in it is never copied
// (IPYNB_LONG=1; GNU time measures).
func TestCheckPeakMemoryLong(t *testing.T) {
	testtier.Long(t)
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	const runtimeOwn = 12 << 20 // the runtime and binary, measured by `ipynb check` of a small file: about 8 MB
	for _, mb := range []int{8, 16, 32} {
		dir := t.TempDir()
		heavy := heavyNotebook(mb)
		var compact, indented bytes.Buffer
		if err := json.Compact(&compact, heavy); err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&indented, heavy, "", "  "); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{
			"compact.ipynb":  compact.Bytes(),
			"indented.ipynb": indented.Bytes(),
			"dense.ipynb":    nbtest.Dense("meta", mb*1e6/2), // values of two bytes: "0,"
			// small objects in the metadata, {"a":0}, and a source of
			// one-character lines, "a"
			"dense-objects.ipynb": nbtest.Dense("objects", mb*1e6/8),
			"dense-source.ipynb":  nbtest.Dense("source", mb*1e6/4),
		}
		files["canonical.ipynb"] = compact.Bytes()
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// The canonical layout: fmt --canonical of the compact file.
		if r := ipynbWithin(t, 2*time.Minute, dir, "fmt", "--canonical", "canonical.ipynb"); r.code != 0 {
			t.Fatalf("fmt --canonical: %+v", r)
		}
		canonical, _ := os.ReadFile(filepath.Join(dir, "canonical.ipynb"))
		files["canonical.ipynb"] = canonical
		for name, data := range files {
			for _, args := range [][]string{{"check"}, {"fmt", "--check"}, {"fmt", "--canonical", "--check"}} {
				want := exitFindings
				if args[0] == "check" || name == "canonical.ipynb" {
					want = exitOK
				}
				cmd := exec.Command(binary, append(args, name)...)
				cmd.Dir = dir
				kb, err := peakKiB(t, cmd)
				if st := exitStatus(err); st != want {
					t.Fatalf("%v %s: exit %d, want %d", args, name, st, want)
				}
				x := float64(kb<<10) / float64(len(data))
				t.Logf("%d MB %s: %v peaks at %.2f× the file (%d MB)", mb, name, args, x, kb>>10)
				if kb<<10 > 2*int64(len(data))+runtimeOwn {
					t.Errorf("%d MB %s: %v peaks at %.2f× the file (%d MB), past 2× and %d MB", mb, name, args, x, kb>>10, runtimeOwn>>20)
				}
			}
		}
	}
}
