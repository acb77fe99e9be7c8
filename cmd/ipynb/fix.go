package main

// ipynb fix: a notebook git merged as text, its sides split out of the conflict
// markers (or git's stages) and merged as notebooks.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/internal/mergeparts"
	"github.com/nbdialog/ipynb/nbformat"
)

var fixCmd = &command{
	name:    "fix",
	summary: "repair notebooks with git's conflict markers in their JSON",
	doc: `Repairs notebooks into which a merge without ipynb's driver wrote git's
conflict markers (<<<<<<<, ||||||| in the diff3 style, =======, >>>>>>>),
so that the JSON no longer reads.

While git has the file unmerged (git ls-files -u) and the file is as
git's merge left it (its sides are those git merge-file or git
merge-tree makes of git's stages again), git's stages :1: :2: :3: are
merged, as "ipynb merge" merges them: the same result whatever the
conflict style. Git merges lines, not cells, so that the sides between
its markers can join lines of two versions of a cell (ours' new kind
with theirs' attachments); the stages are the versions themselves.

Otherwise (outside a repository, on standard input, or edited since
git's merge) each side is read back from the markers (the lines outside
the conflicts with that side's lines), and the sides are merged cell by
cell, as "ipynb merge" does: with the base side when the markers carry
one (merge.conflictStyle diff3 or zdiff3) and it reads as a notebook,
else with git's stage :1: of the file as the base while git has it
unmerged, else two-way, from an empty base, so that every cell the two
sides do not agree on is kept from both (a cell one side deleted and the
other edited is then kept edited: without a base, a deletion and an
addition look alike). Sides whose cells hold members of another kind of
cell (a code cell with attachments), differently on each side, are
refused (merging them would drop a side's value), as are sides that are
not notebooks (git's unchanged lines mix two layouts, as when one side
was re-saved with Colab's 2-space indent); while git has the file
unmerged, its stages are merged instead, unless the file holds lines
none of them has (edited since git's merge). What still conflicts is
marked inside the cell's text, with the markers' own size and labels;
the file written is a valid notebook.

The file is replaced atomically, only if it is still, right before the
rename, the file read (else it is left alone, reported, exit 1); a folder is searched for *.ipynb files; "-" reads standard
input and writes standard output. A file without markers is left alone.
Prints each file it repairs cleanly; the conflicts left go to standard
error.

Exit status: 0 all repaired and merged cleanly (or nothing to do), 1
conflicts remain (marked in the cells) or a file changed meanwhile (left
alone), 2 a file cannot be read or its sides are not notebooks (the
reason with path:line:column).`,
	usage: "[--outputs STRATEGY] PATH...",
}

func init() { fixCmd.run = runFix }

func runFix(e *env, args []string) int {
	fs := fixCmd.flags(e)
	strategy := outputsFlag(fs)
	walk := walkFlags(fs, "fix", nil)
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	opt, err := strategy.options()
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb fix: %v\n", err)
		return exitError
	}
	ins, ok, st := inputs(e, fs, "", walk)
	if st >= 0 {
		return st
	}
	status := exitOK
	if !ok {
		status = exitError
	}
	for _, in := range ins {
		a, name := in.path, quoteName(in.path)
		data, stamp, err := e.readStamped(in)
		if errors.Is(err, atomicfile.ErrChanged) {
			status = max(status, leftAlone(e.stderr, a, err))
			continue
		}
		if err != nil {
			fmt.Fprintln(e.stderr, readFailure(name, err))
			status = exitError
			continue
		}
		restore := mergeMemory(len(data))
		// A file's bytes become ours' side (its stamp keeps their digest
		// for the check before writing it back), so that they are not
		// in memory beside the sides and the result; standard input's
		// are kept to be written out when they hold no markers (the
		// split changes nothing then).
		var kept []byte
		if stamp != nil {
			stamp = stamp.Digest()
		} else {
			kept = data
		}
		f, err := splitForFix(data, opt)
		if err == nil {
			f.path = a
		}
		if err == nil {
			defer f.close()
			f.useStages()
		}
		if err == nil && stamp != nil && !f.unedited {
			f.sides.compactOurs() // (data, in ours' place, is let go)
		}
		st := exitOK
		switch {
		case errors.Is(err, errNoMarkers):
			if stamp == nil {
				e.stdout.Write(kept)
			}
			restore()
			continue
		case err != nil:
			printError(e.stderr, name, err)
			st = exitError
		default:
			st = f.write(e, a, stamp)
			switch {
			case st != exitOK:
			case f.unedited && f.staged.files[0] == "":
				fmt.Fprintf(e.stderr, "%s: merged git's stages :2: :3: from an empty base (added on both sides; the file is as git's merge left it)\n", name)
			case f.unedited:
				fmt.Fprintf(e.stderr, "%s: merged git's stages :1: :2: :3: (the file is as git's merge left it)\n", name)
			case f.stageBase:
				fmt.Fprintf(e.stderr, "%s: merged with git's stage :1: as the base (the markers carry none)\n", name)
			}
		}
		restore()
		if st != exitOK {
			status = max(status, st)
			continue
		}
		if f.summary != "" {
			fmt.Fprintf(e.stderr, "%s: %s\n", name, f.summary)
			status = max(status, exitFindings)
		} else if stamp != nil {
			fmt.Fprintf(e.stdout, "%s\n", name)
		}
	}
	return status
}

// errNoMarkers: a file without conflict markers (fix leaves it alone).
var errNoMarkers = errors.New("no conflict markers")

// locError is an error at a line (and column) of the input file.
type locError struct {
	Line, Column int // 1-based; Column 0 if unknown
	Err          error
}

func (e *locError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%d: %v", e.Line, e.Err)
}

func (e *locError) Unwrap() error { return e.Err }

// printError prints err about path: "path:line:column: message" for a
// *locError, else "path: message".
func printError(w io.Writer, path string, err error) {
	var le *locError
	if errors.As(err, &le) {
		fmt.Fprintf(w, "%s:%v\n", path, le)
		return
	}
	fmt.Fprintf(w, "%s: %s\n", path, strings.TrimPrefix(strings.TrimPrefix(err.Error(), "nbformat: "), "convert: "))
}

// fixMerge is the merge fix makes of a file's conflicts: the sides split
// out of the file, and once merged, what the conflicts left are (said as
// soon as the merge is made: the conflicts hold parts of theirs' side,
// which is let go).
type fixMerge struct {
	sides     *conflictSides
	opt       mergeOptions
	summary   string // "" when none is left
	path      string // the file, as named (for git's stages: fixstages.go)
	stageOurs []byte // git's stage :2: when the stages were merged
	stageBase bool   // git's stage :1: was the base of the sides
	// Git's stages of the file (nil: none), asked for once (stages);
	// unedited: the file is git's merge of them (mergedAsGit), which
	// fix merges instead of the sides.
	staged      *gitStaged
	stagesAsked bool
	unedited    bool
	crlf        bool // the file as git wrote it has CRLF line ends
}

// useStages makes fix merge git's stages of the file rather than the
// sides read back from its markers when git has the file unmerged and
// the file is as git's merge left it (see mergedAsGit): the sides read
// back are then lines of different versions of a cell joined (a code
// cell with theirs' attachments, where ours changed the kind), and
// differ with the conflict style; the stages are the versions themselves,
// merged as ipynb merge merges them. The sides are let go then.
func (f *fixMerge) useStages() {
	if g := f.stages(); g != nil && !g.baseHasMarkers() && f.mergedAsGit(g) {
		f.unedited = true
		f.sides.ours, f.sides.theirs, f.sides.base = side{}, side{}, side{}
	}
}

// close removes what fix kept of git's stages.
func (f *fixMerge) close() { f.staged.remove() }

// splitForFix splits data, a notebook with conflict markers, into the
// sides fix merges (errNoMarkers without markers; errors locate the
// problem in data, *locError). Data is given away: where it has markers,
// ours' side is split out in its place (only theirs' and the base's are
// copies), so the file is in memory once.
func splitForFix(data []byte, opt mergeOptions) (*fixMerge, error) {
	cs, err := splitConflictsOwned(data)
	if err != nil {
		var me *markerError
		if errors.As(err, &me) {
			return nil, &locError{Line: me.Line, Err: errors.New(me.Msg)}
		}
		return nil, err
	}
	if cs.hunks == 0 {
		if _, err := nbformat.Unmarshal(data); err != nil {
			return nil, located(err, nil)
		}
		return nil, errNoMarkers
	}
	opt.MarkerSize = cs.markerSize
	opt.OursLabel, opt.TheirsLabel = mergeLabels(cs.oursLabel, cs.theirsLabel, os.Environ())
	return &fixMerge{sides: cs, opt: opt}, nil
}

// mergeTo merges the sides, writing the result to w as it is made (see
// convert.MergeTo: the base's side is let go as soon as the merge has
// taken what it needs of it). Errors locate the problem in the file
// (*locError); nothing is written to w then.
func (f *fixMerge) mergeTo(w io.Writer) error {
	if f.unedited {
		if f.crlf {
			w = crlfWriter{w}
		}
		return f.mergeStages(w, f.staged)
	}
	cs := f.sides
	ours := cs.ours.text
	if om, _ := majorVersionOf(ours); om > 0 && om < 3 {
		return fmt.Errorf("nbformat %d: %w", om, errOldFormat)
	}
	var theirs []byte // made when the merge asks for it (after the base)
	threeWay := cs.base.has()
	var conflicts []mergeConflict
	var err error
	var mie *convert.Error
	if threeWay {
		baseAsked := false
		read := func(which string) ([]byte, error) {
			switch which {
			case "base":
				// (Made anew if asked again, after theirs: see
				// convert.MergeTo, which asks twice at most. A side
				// made when asked holds its own lines only, until
				// taken.)
				if cs.base.lazy && !baseAsked {
					baseAsked = true
					return cs.base.make(&cs.ours), nil
				}
				return cs.base.take(&cs.ours), nil
			case "ours":
				return ours, nil
			}
			if theirs == nil {
				collectLarge(len(ours)) // (the base, let go, makes room for theirs)
				theirs = cs.theirs.take(&cs.ours)
			}
			return theirs, nil
		}
		// Base's outputs neither side holds are read from its pieces
		// as the merge looks at them, not base made whole again.
		conflicts, err = mergeparts.MergeTo(w, f.checkedSides(read, "base", "ours", "theirs"), sideParts(&cs.base, &cs.ours), f.opt)
		if errors.As(err, &mie) && mie.Op == "merge" && mie.Input == "base" {
			// The zdiff3 style moves lines both sides share out of the
			// conflicts, so the lines around a base section need not be
			// the base's: without a readable base, merge two-way.
			// (Nothing is written of a merge whose input does not read.)
			threeWay = false
		}
	}
	if !threeWay {
		if theirs == nil {
			theirs = cs.theirs.take(&cs.ours)
		}
		if conflicts, threeWay, err = f.mergeOnStageBase(w, ours, theirs); !threeWay {
			check := f.checkedSides(func(which string) ([]byte, error) {
				return map[string][]byte{"ours": ours, "theirs": theirs}[which], nil
			}, "ours", "theirs")
			if _, err = check("ours"); err == nil {
				_, err = check("theirs")
			}
			if err == nil {
				conflicts, err = mergeTwoWayTo(w, ours, theirs, f.opt)
			}
		}
	}
	if errors.As(err, &mie) && mie.Op == "merge" {
		// (Git's stages are merged only where the file is as git's merge
		// left it: see useStages. Here it is not, and merging them would
		// undo what was edited since, a line deleted or a conflict
		// resolved by hand.)
		hint := stagesHint
		if f.stages() != nil {
			hint = editedHint
		}
		which := mie.Input
		var he *hybridCellError
		if errors.As(mie.Err, &he) {
			which = he.side
			return &locError{Line: he.member.line, Err: fmt.Errorf("%s side of the conflicts is not a notebook: %w%s", which, he, hint)}
		}
		sd := map[string]*side{"ours": &cs.ours, "theirs": &cs.theirs}[which]
		err := located(fmt.Errorf("%s side of the conflicts is not a notebook: %w", which, mie.Err), sd)
		if le, ok := err.(*locError); ok {
			le.Err = errors.New(le.Err.Error() + hint)
			return le
		}
		return fmt.Errorf("%w%s", err, hint)
	}
	if err != nil {
		return err
	}
	if !threeWay {
		// From an empty base every cell is "added": a cell both sides
		// have in two versions was changed on both.
		for i := range conflicts {
			if conflicts[i].What == "added on both sides" {
				conflicts[i].What = "changed on both sides"
			}
		}
	}
	if len(conflicts) > 0 {
		f.summary = conflictSummary(conflicts, idsIn(conflicts, ours, theirs))
	}
	return nil
}

// write merges the sides and writes the result: to standard output
// (stamp nil), from memory, only if the merge is made; over the file
// path read with stamp, as it is made, into the temporary file that
// replaces it (checked there before the rename: see
// atomicfile.ReplaceWith), only if it is still the file read. It returns
// the status, errors said.
func (f *fixMerge) write(e *env, path string, stamp *atomicfile.Stamp) int {
	sideOurs := f.sides.ours.text
	ours := func() []byte { // the ours merged
		if f.stageOurs != nil {
			return f.stageOurs
		}
		return sideOurs
	}
	inMemory := func() ([]byte, error) {
		var buf bytes.Buffer
		if err := f.mergeTo(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), checkMerged(buf.Bytes(), ours())
	}
	if stamp == nil {
		out, err := inMemory()
		if err != nil {
			printError(e.stderr, quoteName(path), err)
			return exitError
		}
		e.stdout.Write(out)
		return exitOK
	}
	if beforeReplace != nil {
		beforeReplace(path)
	}
	ran := false
	produce := func(w io.Writer) error {
		ran = true
		if err := f.mergeTo(w); err != nil {
			return &mergeFailed{err, -1}
		}
		return nil
	}
	readBack := func(r io.ReaderAt, size int64) error {
		collectLarge(int(size)) // (the sides and the merge, done with, make room for the result)
		data := make([]byte, size)
		if _, err := r.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if err := checkMerged(data, ours()); err != nil {
			return &mergeFailed{err, -1}
		}
		return nil
	}
	_, err := atomicfile.ReplaceWith(path, produce, readBack, atomicfile.Options{Expect: stamp})
	if err != nil && !ran && !errors.Is(err, atomicfile.ErrChanged) && !errors.Is(err, atomicfile.ErrLocked) {
		// The file cannot be written (read-only, say): the merge is
		// made all the same, as its errors are said first.
		out, merr := inMemory()
		if merr != nil {
			printError(e.stderr, quoteName(path), merr)
			return exitError
		}
		return replaceRead(e, path, out, stamp)
	}
	var mf *mergeFailed
	switch {
	case errors.As(err, &mf):
		printError(e.stderr, quoteName(path), mf.err)
		return exitError
	case errors.Is(err, atomicfile.ErrChanged), errors.Is(err, atomicfile.ErrLocked):
		return leftAlone(e.stderr, path, err)
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\n", quoteName(path), pathError(err))
		return exitError
	}
	return exitOK
}

// located turns a syntax error in a side's text into a *locError at the
// line of the file it came from (s nil: the file itself).
func located(err error, s *side) error {
	var se *nbformat.SyntaxError
	if !errors.As(err, &se) || se.Line == 0 {
		return err
	}
	line := se.Line
	if s != nil {
		line = s.fileLine(se.Line)
	}
	// The message without the place (given by the *locError).
	msg := strings.Replace(err.Error(), se.Error(), se.Msg, 1)
	msg = strings.ReplaceAll(strings.ReplaceAll(msg, "convert: ", ""), "nbformat: ", "")
	return &locError{Line: line, Column: se.Column, Err: errors.New(msg)}
}

// checkMerged refuses merged bytes that are not a notebook, or not a
// valid one when ours is valid.
func checkMerged(data, ours []byte) error {
	nb, err := unmarshalOwned(data) // (data is not changed afterwards)
	if err != nil {
		return fmt.Errorf("the merge did not give a notebook (nothing written): %w", err)
	}
	if err := nbformat.Validate(nb); err != nil {
		if o, oerr := unmarshalOwned(ours); oerr == nil && nbformat.Validate(o) == nil {
			first, more := err, ""
			if ps := nbformat.Problems(err); len(ps) > 0 {
				first = ps[0]
				if len(ps) > 1 {
					more = fmt.Sprintf(" (and %d more problems)", len(ps)-1)
				}
			}
			return fmt.Errorf("the merge did not give a valid notebook (nothing written): %w%s", first, more)
		}
	}
	return nil
}

// replaceRead replaces the file path, read with stamp, by data: only if
// it is still, right before the rename, the file read (see
// internal/atomicfile); otherwise it is left alone and reported, and the
// status is 1. It returns the status (0 when written).
func replaceRead(e *env, path string, data []byte, stamp *atomicfile.Stamp) int {
	if beforeReplace != nil {
		beforeReplace(path)
	}
	_, err := atomicfile.Replace(path, data, atomicfile.Options{Expect: stamp})
	switch {
	case errors.Is(err, atomicfile.ErrChanged), errors.Is(err, atomicfile.ErrLocked):
		return leftAlone(e.stderr, path, err)
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\n", quoteName(path), pathError(err))
		return exitError
	}
	return exitOK
}
