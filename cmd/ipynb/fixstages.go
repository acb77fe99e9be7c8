package main

// fix of a file git left unmerged: its stages, when the sides read back
// from the markers are not notebooks, and its base stage, when the
// markers carry no base.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/convert"
)

// stagesHint follows the error of sides that are not notebooks when git
// has no stages of the file: what can merge it then.
const stagesHint = " (run ipynb fix inside the repository while git has the file unmerged, to merge git's stages :1: :2: :3: instead; or ipynb merge BASE OURS THEIRS of the files merged)"

// editedHint is said instead when git has the stages but the file holds
// lines none of them has.
const editedHint = " (git's stages :1: :2: :3: of the file are not merged in its place: it holds lines none of them has, edited since git's merge; git checkout --merge FILE writes git's merge again, losing those edits)"

// gitStages returns the versions git's index holds of path while it is
// unmerged (git ls-files -u): the base (stage 1, nil when the file was
// added on both sides), ours (2) and theirs (3); ok is false outside a
// repository, for standard input, or when ours or theirs is missing.
// Lines git's text merge makes of two layouts of one notebook (Colab
// re-saves with a 2-space indent) mix both, so that a side read back
// from the markers is no notebook; the stages are the sides themselves.
func gitStages(path string) (stages [3][]byte, ok bool) {
	if path == "-" {
		return stages, false
	}
	cmd := exec.Command("git", "ls-files", "-u", "-z", "--", path)
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return stages, false
	}
	var oids [3]string
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// <mode> SP <object> SP <stage> TAB <file>
		info, _, found := strings.Cut(rec, "\t")
		f := strings.Fields(info)
		if !found || len(f) != 3 {
			return stages, false
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 1 || n > 3 || oids[n-1] != "" {
			return stages, false // another file under path, or more than one
		}
		oids[n-1] = f[1]
	}
	if oids[1] == "" || oids[2] == "" {
		return stages, false
	}
	for i, oid := range oids {
		if oid == "" {
			continue
		}
		data, err := exec.Command("git", "cat-file", "blob", oid).Output()
		if err != nil {
			return stages, false
		}
		stages[i] = data
	}
	return stages, true
}

// onlyStageLines reports whether every line of the sides read back from
// the markers is a line of one of git's stages: the file is what git's
// merge wrote (a line edited since, which the stages do not hold, keeps
// fix from merging the stages over it).
func onlyStageLines(st [3][]byte, sides ...[]byte) bool {
	lines := map[string]bool{}
	for _, s := range st {
		for l := range bytes.Lines(s) {
			lines[string(bytes.TrimRight(l, "\r\n"))] = true
		}
	}
	for _, s := range sides {
		for l := range bytes.Lines(s) {
			if !lines[string(bytes.TrimRight(l, "\r\n"))] {
				return false
			}
		}
	}
	return true
}

// mergeOnStageBase merges the sides read back from markers without a base
// section (git's default conflict style) three-way, with git's stage :1:
// of the file as the base, when git has the file unmerged with a base
// (ok false otherwise, nothing written: the merge is two-way then). The
// sides are git's stages :2: and :3: with any edit made since, so a cell
// one side deleted and the other edited is a conflict, as ipynb merge
// makes it, not an addition. A base stage that does not read as a
// notebook is not used.
func (f *fixMerge) mergeOnStageBase(w io.Writer, ours, theirs []byte) (conflicts []mergeConflict, ok bool, err error) {
	st, staged := gitStages(f.path)
	if _, readable := majorVersionOf(st[0]); !staged || !readable {
		return nil, false, nil
	}
	read := func(which string) ([]byte, error) {
		switch which {
		case "base":
			return st[0], nil
		case "ours":
			return ours, nil
		}
		return theirs, nil
	}
	conflicts, err = convert.MergeTo(w, read, f.opt)
	var mie *convert.Error
	if errors.As(err, &mie) && mie.Op == "merge" && mie.Input == "base" {
		return nil, false, nil // (nothing is written of a merge whose input does not read)
	}
	f.stageBase = true
	return conflicts, true, err
}

// mergeStages merges git's stages of the file as ipynb merge does (from
// an empty base when there is no base stage), writing the result to w.
func (f *fixMerge) mergeStages(w io.Writer, st [3][]byte) error {
	var conflicts []mergeConflict
	var err error
	if st[0] != nil {
		read := func(which string) ([]byte, error) {
			switch which {
			case "base":
				return st[0], nil
			case "ours":
				return st[1], nil
			}
			return st[2], nil
		}
		conflicts, err = convert.MergeTo(w, read, f.opt)
	} else {
		conflicts, err = mergeTwoWayTo(w, st[1], st[2], f.opt)
		for i := range conflicts {
			if conflicts[i].What == "added on both sides" {
				conflicts[i].What = "changed on both sides"
			}
		}
	}
	var mie *convert.Error
	if errors.As(err, &mie) && mie.Op == "merge" {
		n := map[string]int{"base": 1, "ours": 2, "theirs": 3}[mie.Input]
		return fmt.Errorf("the sides of the conflicts are not notebooks, nor is git's stage :%d: (%s): %w", n, mie.Input, mie.Err)
	}
	if err != nil {
		return err
	}
	f.stageOurs = st[1]
	if len(conflicts) > 0 {
		f.summary = conflictSummary(conflicts, idsIn(conflicts, st[1], st[2]))
	}
	return nil
}
