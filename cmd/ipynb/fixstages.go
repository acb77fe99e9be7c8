package main

// fix of a file git left unmerged: its stages :1: :2: :3:, merged as
// ipynb merge merges them where the file is as git's merge left it (or
// where the sides read back from the markers are not notebooks), and its
// base stage where the markers carry no base.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/nbdialog/ipynb/convert"
)

// stagesHint follows the error of sides that are not notebooks when git
// has no stages of the file: what can merge it then.
const stagesHint = " (run ipynb fix inside the repository while git has the file unmerged, to merge git's stages :1: :2: :3: instead; or ipynb merge BASE OURS THEIRS of the files merged)"

// editedHint is said instead when git has the stages but the file holds
// lines none of them has.
const editedHint = " (git's stages :1: :2: :3: of the file are not merged in its place: it is not as git's merge left it, edited since git's merge or merged otherwise than git merge-file and git merge-tree make it again; git checkout --merge FILE writes git's merge again, losing those edits)"

// gitStaged is what git's index holds of a file while it is unmerged (git
// ls-files -u): the base (stage 1; none when the file was added on both
// sides), ours (2) and theirs (3), copied into files of a folder of its
// own, so that a merge reads each when it asks for it (as ipynb merge
// reads its files) and not all three at once.
type gitStaged struct {
	dir   string
	files [3]string                      // "" for a stage git does not have
	oids  [3]string                      // the stages' blobs
	name  string                         // the file's path from the top of the work tree
	git   func(args ...string) *exec.Cmd // git in the file's folder
	stop  func()                         // ends removeOnSignal's watch
}

// stageFiles copies git's stages of path into a temporary folder; ok is
// false outside a repository, for standard input, when git has the file
// merged, or when ours or theirs is missing. The caller removes the folder
// (remove).
func stageFiles(path string) (g *gitStaged, ok bool) {
	if path == "-" {
		return nil, false
	}
	// (git runs in the file's folder: the repository is the file's,
	// wherever fix runs.)
	dir, file := filepath.Split(path)
	git := func(args ...string) *exec.Cmd {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		// (A file name is a name, not a pattern: nb[1].ipynb or
		// :nb.ipynb names that file only.)
		cmd.Env = append(os.Environ(), "GIT_LITERAL_PATHSPECS=1")
		return cmd
	}
	out, err := git("ls-files", "-u", "-z", "--full-name", "--", file).Output()
	if err != nil || len(out) == 0 {
		return nil, false
	}
	var oids [3]string
	name := ""
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// <mode> SP <object> SP <stage> TAB <file>
		info, full, found := strings.Cut(rec, "\t")
		if name == "" {
			name = full
		}
		f := strings.Fields(info)
		if !found || len(f) != 3 {
			return nil, false
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 1 || n > 3 || oids[n-1] != "" || full != name {
			return nil, false // another file under path, or more than one
		}
		oids[n-1] = f[1]
	}
	if oids[1] == "" || oids[2] == "" || filepath.Base(filepath.FromSlash(name)) != file {
		return nil, false
	}
	tmp, err := os.MkdirTemp("", "ipynb-fix-")
	if err != nil {
		return nil, false
	}
	g = &gitStaged{dir: tmp, oids: oids, name: name, git: git, stop: removeOnSignal(tmp)}
	for i, oid := range oids {
		if oid == "" {
			continue
		}
		name := filepath.Join(tmp, strconv.Itoa(i+1))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			g.remove()
			return nil, false
		}
		cmd := git("cat-file", "blob", oid)
		cmd.Stdout = f // (git writes the blob there, not into memory)
		err = cmd.Run()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			g.remove()
			return nil, false
		}
		g.files[i] = name
	}
	return g, true
}

// remove removes the stages' folder.
func (g *gitStaged) remove() {
	if g != nil {
		g.stop()
		os.RemoveAll(g.dir)
	}
}

// removeOnSignal removes dir if fix is interrupted or terminated while it
// holds it (the signal then ends fix as it would have); stop ends the
// watch.
func removeOnSignal(dir string) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			os.RemoveAll(dir)
			signal.Reset(s)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(s)
			}
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// baseHasMarkers reports whether git's base stage holds conflict
// markers: the virtual base git makes of a criss-cross merge's two bases,
// which merged with conflicts, is no notebook (fix reads the sides from
// the file's markers then).
func (g *gitStaged) baseHasMarkers() bool {
	base, err := g.read(0)
	if err != nil {
		return true
	}
	for l := range bytes.Lines(base) {
		if k, _, _ := markerKind(l, 0); k == '<' {
			return true
		}
	}
	return false
}

// read returns stage i+1 (nil without it).
func (g *gitStaged) read(i int) ([]byte, error) {
	if g.files[i] == "" {
		return nil, nil
	}
	return os.ReadFile(g.files[i])
}

// mergedAsGit reports whether the file's sides are git's line merge of
// its stages, unedited since: ours' side read back from the markers is
// ours' side of git's merge of the stages, and theirs' side theirs'.
// These hold whatever the conflict style, marker size and labels (the
// lines outside the conflicts are git's clean merge, each conflict's part
// its side's lines), and an edit since (a line changed, added or removed,
// a conflict resolved by hand) changes one of them. Git's merge is made
// again two ways: by git merge-file --ours and --theirs (the diff
// algorithm of git merge-file, git checkout --merge, the default of git
// before merge-ort), and, while git merges (MERGE_HEAD), by git merge-tree
// --write-tree HEAD MERGE_HEAD (merge-ort's own, whose histogram diff can
// place a conflict elsewhere), where its stages of the file are the
// index's. A merge git made otherwise (whitespace rules, renormalizing, a
// rebase's merge placed differently) is not recognized: fix reads the
// sides from the markers then.
//
// A file git wrote with CRLF line ends (core.autocrlf, eol=crlf: the
// stages hold LF) is compared with its carriage returns left out (JSON
// holds a raw CR only as white space), and the merge is written with
// CRLF line ends again (crlf).
func (f *fixMerge) mergedAsGit(g *gitStaged) bool {
	if f.sameAsMergeFile(g, false) || f.sameAsMergeTree(g, false) {
		return true
	}
	first, _, _ := bytes.Cut(f.sides.ours.text, []byte("\n"))
	if !bytes.HasSuffix(first, []byte("\r")) {
		return false
	}
	f.crlf = f.sameAsMergeFile(g, true) || f.sameAsMergeTree(g, true)
	return f.crlf
}

// sideReader reads a side's text, without its carriage returns if noCR.
func (f *fixMerge) sideReader(s *side, noCR bool) io.Reader {
	r := s.reader(&f.sides.ours)
	if noCR {
		return &dropCR{r}
	}
	return r
}

// dropCR reads r without its carriage returns.
type dropCR struct{ r io.Reader }

func (d *dropCR) Read(p []byte) (int, error) {
	for {
		n, err := d.r.Read(p)
		k := 0
		for _, c := range p[:n] {
			if c != '\r' {
				p[k] = c
				k++
			}
		}
		if k > 0 || err != nil {
			return k, err
		}
	}
}

// crlfWriter writes to w with each LF written as CRLF (a notebook the
// merge wrote has no CR of its own).
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// sameAsMergeFile compares the sides with git merge-file's of the stages.
func (f *fixMerge) sameAsMergeFile(g *gitStaged, noCR bool) bool {
	base := g.files[0]
	if base == "" {
		// (git merges a file added on both sides from an empty one.)
		base = filepath.Join(g.dir, "empty")
		if err := os.WriteFile(base, nil, 0o600); err != nil {
			return false
		}
	}
	cs := f.sides
	for _, s := range []struct {
		favor string
		side  *side
	}{{"--ours", &cs.ours}, {"--theirs", &cs.theirs}} {
		cmd := g.git("merge-file", "-p", s.favor, "--", g.files[1], base, g.files[2])
		same, err := sameOutput(cmd, f.sideReader(s.side, noCR))
		if err != nil || !same {
			return false
		}
	}
	return true
}

// sameAsMergeTree compares the sides with those of git merge-tree's merge
// of HEAD and MERGE_HEAD, while git merges and its stages of the file are
// the index's. (git merge-tree writes the merge's objects into the
// repository, as a merge does.)
func (f *fixMerge) sameAsMergeTree(g *gitStaged, noCR bool) bool {
	if g.git("rev-parse", "-q", "--verify", "MERGE_HEAD").Run() != nil {
		return false
	}
	out, err := g.git("merge-tree", "--write-tree", "-z", "HEAD", "MERGE_HEAD").Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // (1: conflicts)
		return false
	}
	// <tree> NUL, then <mode> SP <object> SP <stage> TAB <file> NUL each,
	// then NUL and the messages.
	recs := strings.Split(string(out), "\x00")
	var oids [3]string
	for _, rec := range recs[1:] {
		if rec == "" {
			break
		}
		info, file, _ := strings.Cut(rec, "\t")
		fs := strings.Fields(info)
		if file != g.name || len(fs) != 3 {
			continue
		}
		if n, err := strconv.Atoi(fs[2]); err == nil && n >= 1 && n <= 3 {
			oids[n-1] = fs[1]
		}
	}
	if oids != g.oids {
		return false // (another merge than the index's)
	}
	blob, err := g.git("cat-file", "blob", recs[0]+":"+g.name).Output()
	if err != nil {
		return false
	}
	cs := f.sides
	return sameSide(blob, false, f.sideReader(&cs.ours, noCR)) && sameSide(blob, true, f.sideReader(&cs.theirs, noCR))
}

// sameSide reports whether ours' side (theirs' if theirs) of marked, a file
// with conflict markers, is r's bytes, compared line by line.
func sameSide(marked []byte, theirs bool, r io.Reader) bool {
	same := true
	var buf []byte
	_, _, err := eachSideLine(marked, func(line []byte, _ int, inOurs, inTheirs, _ bool) {
		if !same || (theirs && !inTheirs) || (!theirs && !inOurs) {
			return
		}
		if cap(buf) < len(line) {
			buf = make([]byte, len(line))
		}
		buf = buf[:len(line)]
		if _, err := io.ReadFull(r, buf); err != nil || !bytes.Equal(buf, line) {
			same = false
		}
	})
	if err != nil || !same {
		return false
	}
	n, _ := r.Read(make([]byte, 1))
	return n == 0
}

// sameOutput runs cmd and reports whether its standard output is want's
// bytes, compared as they come (neither is held whole).
func sameOutput(cmd *exec.Cmd, want io.Reader) (bool, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return false, err
	}
	if err := cmd.Start(); err != nil {
		return false, err
	}
	same, cmpErr := sameStream(out, want)
	if !same {
		cmd.Process.Kill()
	}
	err = cmd.Wait()
	if !same || cmpErr != nil {
		return false, cmpErr
	}
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128) {
		return false, err // (a positive status below 128 counts conflicts)
	}
	return true, nil
}

// sameStream reports whether a and b hold the same bytes.
func sameStream(a, b io.Reader) (bool, error) {
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		n, errA := io.ReadFull(a, bufA)
		if errA != nil && errA != io.EOF && errA != io.ErrUnexpectedEOF {
			return false, errA
		}
		m, errB := io.ReadFull(b, bufB[:n])
		if m != n || !bytes.Equal(bufA[:n], bufB[:n]) {
			return false, nil
		}
		if errB != nil && errB != io.EOF && errB != io.ErrUnexpectedEOF {
			return false, errB
		}
		if errA != nil { // a ended: so must b
			k, err := b.Read(bufB[:1])
			for k == 0 && err == nil {
				k, err = b.Read(bufB[:1])
			}
			return k == 0 && err == io.EOF, nil
		}
	}
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
	g := f.stages()
	if g == nil {
		return nil, false, nil
	}
	base, err := g.read(0)
	if _, readable := majorVersionOf(base); err != nil || !readable {
		return nil, false, nil
	}
	read := f.checkedSides(func(which string) ([]byte, error) {
		switch which {
		case "base":
			return base, nil
		case "ours":
			return ours, nil
		}
		return theirs, nil
	}, "ours", "theirs")
	conflicts, err = convert.MergeTo(w, read, f.opt)
	var mie *convert.Error
	if errors.As(err, &mie) && mie.Op == "merge" && mie.Input == "base" {
		return nil, false, nil // (nothing is written of a merge whose input does not read)
	}
	f.stageBase = true
	return conflicts, true, err
}

// stages returns git's stages of the file (nil when git has none), asked
// of git once.
func (f *fixMerge) stages() *gitStaged {
	if !f.stagesAsked {
		f.stagesAsked = true
		f.staged, _ = stageFiles(f.path)
	}
	return f.staged
}

// mergeStages merges git's stages of the file as ipynb merge does (from
// an empty base when there is no base stage), writing the result to w:
// each stage read when the merge asks for it.
func (f *fixMerge) mergeStages(w io.Writer, g *gitStaged) error {
	var conflicts []mergeConflict
	var err error
	stage := map[string]int{"base": 0, "ours": 1, "theirs": 2}
	var ours []byte
	if g.files[0] != "" {
		read := func(which string) ([]byte, error) {
			data, err := g.read(stage[which])
			if which == "ours" {
				ours = data
			}
			return data, err
		}
		conflicts, err = convert.MergeTo(w, read, f.opt)
	} else {
		var theirs []byte
		if ours, err = g.read(1); err == nil {
			theirs, err = g.read(2)
		}
		if err != nil {
			return err
		}
		conflicts, err = mergeTwoWayTo(w, ours, theirs, f.opt)
		for i := range conflicts {
			if conflicts[i].What == "added on both sides" {
				conflicts[i].What = "changed on both sides"
			}
		}
	}
	var mie *convert.Error
	if errors.As(err, &mie) && mie.Op == "merge" {
		return fmt.Errorf("the sides of the conflicts are not notebooks, nor is git's stage :%d: (%s): %w", stage[mie.Input]+1, mie.Input, mie.Err)
	}
	if err != nil {
		return err
	}
	f.stageOurs = ours
	if len(conflicts) > 0 {
		theirs, err := g.read(2) // (only to name the cells' ids)
		if err != nil {
			return err
		}
		f.summary = conflictSummary(conflicts, idsIn(conflicts, ours, theirs))
	}
	return nil
}
