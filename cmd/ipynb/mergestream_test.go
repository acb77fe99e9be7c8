package main

// merge and fix of notebooks large enough for their base to be reduced
// write what the library's in-memory merge writes.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// TestStreamedMergesAsInMemory: on an output-heavy notebook of 1.4 MB
// (past the size from which the base is reduced before theirs is read,
// and the result streamed), merge (clean and conflicting) writes over
// ours, and with -o, the bytes convert.Merge returns for the same inputs
// (mergeBytes), also where theirs re-ran a cell, and fix (both marker
// styles) the bytes the merge of the sides split in memory gives; with
// the same exit status.
func TestStreamedMergesAsInMemory(t *testing.T) {
	base := nbtest.Heavy{Cells: 100, Seed: 100, ImageLines: true}.Notebook()
	if len(base) < 1<<20 {
		t.Fatalf("the notebook is %d bytes: too small to be reduced", len(base))
	}
	dir := t.TempDir()
	c := newMemCase(t, base)
	c.write(t, dir)
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	opt := mergeOptions{MarkerSize: 7}
	opt.OursLabel, opt.TheirsLabel = mergeLabels("", "", os.Environ())
	for k, mc := range memoryCommands {
		var want []byte
		if mc.prepare == "" {
			res, err := mergeBytes(c.base, c.ours, read(mc.args[len(mc.args)-1]), opt)
			if err != nil {
				t.Fatal(err)
			}
			want = res.data
		} else {
			want = fixInMemory(t, read(mc.prepare))
		}
		runMemoryCommand(t, dir, k) // (fails on another exit status)
		got := read("out.ipynb")
		if mc.prepare != "" {
			got = read("fixed.ipynb")
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: wrote %d bytes, not the %d of the merge in memory", mc.name, len(got), len(want))
		}
		if mc.prepare == "" && k == 0 {
			// Theirs re-ran a cell (an output changed, which ours
			// left as base's): theirs' output is the merge's.
			rerun := bytes.Replace(c.theirs, []byte(`"text": [`), []byte(`"text": ["theirs re-ran\n", `), 1)
			if bytes.Equal(rerun, c.theirs) {
				t.Fatal("no stream output")
			}
			if err := os.WriteFile(filepath.Join(dir, "rerun.ipynb"), rerun, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := mergeBytes(c.base, c.ours, rerun, opt)
			if err != nil {
				t.Fatal(err)
			}
			e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
			if st := runMerge(e, []string{"-o", filepath.Join(dir, "out.ipynb"), filepath.Join(dir, "base.ipynb"), filepath.Join(dir, "ours.ipynb"), filepath.Join(dir, "rerun.ipynb")}); st != exitOK {
				t.Errorf("merge of a re-run: exit %d", st)
			}
			if got := read("out.ipynb"); !bytes.Equal(got, res.data) || !bytes.Contains(got, []byte("theirs re-ran")) {
				t.Errorf("merge of a re-run: wrote %d bytes, not the %d of the merge in memory", len(got), len(res.data))
			}
		}
		if mc.prepare == "" {
			// Over ours itself.
			ours := filepath.Join(dir, "over.ipynb")
			if err := os.WriteFile(ours, c.ours, 0o644); err != nil {
				t.Fatal(err)
			}
			e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
			if st := runMerge(e, []string{filepath.Join(dir, "base.ipynb"), ours, filepath.Join(dir, mc.args[len(mc.args)-1])}); st != mc.status {
				t.Errorf("%s over ours: exit %d, want %d", mc.name, st, mc.status)
			}
			if got := read("over.ipynb"); !bytes.Equal(got, want) {
				t.Errorf("%s over ours: wrote %d bytes, not the %d of the merge in memory", mc.name, len(got), len(want))
			}
		}
	}
}

// fixInMemory is fix's merge of a file with markers as made in memory:
// the sides split (copies), merged three-way or, without a base, two-way.
func fixInMemory(t *testing.T, data []byte) []byte {
	t.Helper()
	cs, err := splitConflicts(data)
	if err != nil {
		t.Fatal(err)
	}
	opt := mergeOptions{MarkerSize: cs.markerSize}
	opt.OursLabel, opt.TheirsLabel = mergeLabels(cs.oursLabel, cs.theirsLabel, os.Environ())
	var res *merged
	if cs.base.text != nil {
		res, err = mergeBytes(cs.base.text, cs.ours.text, cs.theirs.text, opt)
	} else {
		res, err = mergeTwoWay(cs.ours.text, cs.theirs.text, opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res.data
}
