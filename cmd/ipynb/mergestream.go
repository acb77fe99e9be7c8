package main

// merge's and fix's merges written as they are made: the result streamed to the file written.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/internal/mergeparts"
	"github.com/nbdialog/ipynb/nbformat"
)

// mergeRun is one run of merge: its files, what was read of them, and the
// options.
type mergeRun struct {
	e     *env
	paths []string // base, ours, theirs
	name  string   // --path
	out   string   // -o
	opt   mergeOptions
	texts [3][]byte // as read; base and theirs only while needed (see keep)
	keep  [3]bool   // read from a pipe: kept for the text fallback
	stamp *atomicfile.Stamp
	base  *os.File // base's file, open for the parts of it the merge asks for
	// memory restores the memory limits set for the inputs.
	memory []func()
}

// errMergeIsOurs: the merge is ours' very bytes, so nothing is written.
var errMergeIsOurs = errors.New("the merge is ours")

// mergeFailed is an error of the merge itself (not of writing its result):
// an input that is not a notebook (or not one merge handles), a result
// that is not a valid notebook, or an input that cannot be read (read:
// its index).
type mergeFailed struct {
	err  error
	read int // the input that could not be read, or -1
}

func (f *mergeFailed) Error() string { return f.err.Error() }

// threeWay merges the notebooks, base and ours read (base not empty), and
// writes the result. Theirs is read only once base is reduced to what the
// merge needs of it (see convert.MergeTo), and the result is written as
// it is made (into the temporary file that replaces the file written,
// and checked there before the rename; to standard output from memory),
// so that at most two of the inputs, and never the whole result beside
// them, are in memory. It returns the status, and the failure of a merge
// that could not be made (nothing written; for the caller to report, and
// to fall back on a line merge if asked).
func (m *mergeRun) threeWay() (int, *mergeFailed) {
	var summary string // of the conflicts left
	var note string
	om, _ := majorVersionOf(m.texts[1])
	tm := 0 // theirs' version, once read
	if om > 0 && om < 3 {
		return exitError, &mergeFailed{fmt.Errorf("nbformat %d: %w", om, errOldFormat), -1}
	}
	defer m.closeBase()
	read := func(which string) ([]byte, error) {
		switch which {
		case "base":
			b := m.texts[0]
			if b == nil {
				// Asked again, after theirs: where both sides re-ran a
				// cell, the merge needs base's own outputs.
				data, _, err := m.e.readStamped(input{path: m.paths[0]})
				if err != nil {
					return nil, &mergeFailed{err, 0}
				}
				return data, nil
			}
			if !m.keep[0] {
				m.texts[0] = nil // (read again for the text fallback)
			}
			return b, nil
		case "ours":
			return m.texts[1], nil
		}
		collectLarge(len(m.texts[1])) // (base, let go, makes room for theirs)
		data, st, err := m.e.readStamped(input{path: m.paths[2]})
		if err != nil {
			return nil, &mergeFailed{err, 2}
		}
		m.keep[2] = st == nil
		m.texts[2] = data
		tm, _ = majorVersionOf(data)
		m.memory = append(m.memory, mergeMemory(max(len(data), len(m.texts[1]))))
		return data, nil
	}
	// produce merges, writing the result to w; same tells, as it is
	// written, whether it is ours' bytes so far.
	same := &oursWriter{ours: m.texts[1]}
	produce := func(w io.Writer) error {
		conflicts, err := mergeparts.MergeTo(io.MultiWriter(w, same), read, m.basePart, m.opt)
		var mf *mergeFailed
		switch {
		case errors.As(err, &mf):
			return mf
		case err != nil:
			return &mergeFailed{err, -1}
		}
		if len(conflicts) > 0 {
			// Said now: the conflicts' versions of theirs' cells hold
			// parts of theirs' text (which is let go).
			summary = conflictSummary(conflicts, idsIn(conflicts, m.texts[1], m.texts[2]))
		}
		if !m.keep[2] {
			m.texts[2] = nil // (read again for the text fallback)
		}
		return nil
	}
	// check refuses a result that is not a valid notebook, read back.
	check := func(result []byte) error {
		if om == 3 && tm > 3 {
			note = formatNote(tm, result)
		}
		if err := checkMerged(result, m.texts[1]); err != nil {
			return &mergeFailed{err, -1}
		}
		return nil
	}
	readBack := func(r io.ReaderAt, size int64) error {
		if m.out == "" && same.equal(size) {
			return errMergeIsOurs
		}
		// Ours, read from a file whose stamp holds its digest (see
		// below), is let go while the result (larger than it where
		// both sides' outputs are kept) is read back and checked: read
		// again only where the result is not a valid notebook.
		var oursSum *[sha256.Size]byte
		if m.stamp != nil && m.stamp.Data() == nil && m.texts[1] != nil {
			sum := sha256.Sum256(m.texts[1])
			oursSum, same.ours, m.texts[1] = &sum, nil, nil
		}
		collectLarge(int(size)) // (theirs and the merge, done with, make room for the result)
		data := make([]byte, size)
		if _, err := r.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if oursSum != nil {
			if nb, err := unmarshalOwned(data); err == nil && nbformat.Validate(nb) == nil {
				if om == 3 && tm > 3 {
					note = formatNote(tm, data)
				}
				return nil
			}
			ours, _, err := m.e.readStamped(input{path: m.paths[1]})
			switch {
			case err != nil:
				return &mergeFailed{err, 1}
			case sha256.Sum256(ours) != *oursSum:
				return fmt.Errorf("%s changed while it was merged: %w", quoteName(m.paths[1]), atomicfile.ErrChanged)
			}
			m.texts[1] = ours
		}
		return check(data)
	}
	// inMemory merges into memory, and writes the result to standard
	// output (nothing written of a merge that fails), or to the file
	// written (which must not be ours unchanged).
	inMemory := func(dest string, o atomicfile.Options) error {
		var buf bytes.Buffer
		if err := produce(&buf); err != nil {
			return err
		}
		if err := check(buf.Bytes()); err != nil {
			return err
		}
		switch {
		case m.out == "" && bytes.Equal(buf.Bytes(), m.texts[1]):
			return errMergeIsOurs
		case dest == "":
			m.e.stdout.Write(buf.Bytes())
			return nil
		}
		_, err := atomicfile.Replace(dest, buf.Bytes(), o)
		return err
	}
	dest := m.paths[1]
	var err error
	switch {
	case m.out == "-" || m.out == "" && m.stamp == nil:
		err = inMemory("", atomicfile.Options{}) // standard output, or ours is a pipe
	default:
		if m.stamp != nil && len(m.texts[1]) >= 1<<20 {
			m.stamp = m.stamp.Digest() // (ours' bytes are let go for the read-back)
		}
		o := atomicfile.Options{Expect: m.stamp}
		if m.out != "" {
			dest, o = m.out, atomicfile.Options{}
		}
		if beforeReplace != nil && m.out == "" {
			beforeReplace(dest)
		}
		ran := false
		_, err = atomicfile.ReplaceWith(dest, func(w io.Writer) error { ran = true; return produce(w) }, readBack, o)
		if err != nil && !ran && !errors.Is(err, atomicfile.ErrChanged) && !errors.Is(err, atomicfile.ErrLocked) {
			// The file cannot be written (read-only, say): the merge
			// is made all the same, as it may be ours (nothing to
			// write) or fail on its inputs (said first).
			err = inMemory(dest, o)
		}
	}
	var mf *mergeFailed
	switch {
	case errors.As(err, &mf):
		if mf.read >= 0 {
			fmt.Fprintln(m.e.stderr, readFailure(label(m.paths[mf.read], m.name, []string{"base", "ours", "theirs"}[mf.read]), mf.err))
			return exitError, nil
		}
		return exitError, mf
	case errors.Is(err, errMergeIsOurs):
	case m.out == "" && (errors.Is(err, atomicfile.ErrChanged) || errors.Is(err, atomicfile.ErrLocked)):
		return leftAlone(m.e.stderr, dest, err), nil // nothing written
	case err != nil:
		fmt.Fprintf(m.e.stderr, "%s: %v\n", quoteName(dest), pathError(err))
		return exitError, nil
	}
	if note != "" {
		fmt.Fprintf(m.e.stderr, "%s: note: %s\n", label(m.paths[1], m.name, ""), note)
	}
	if summary != "" {
		fmt.Fprintf(m.e.stderr, "%s: %s\n", label(m.paths[1], m.name, ""), summary)
		return exitFindings, nil
	}
	return exitOK, nil
}

// basePart returns the n bytes of base at offset off: of base's text
// where it is kept (read from a pipe), else read from its file, kept open
// for the parts the merge asks for after (closeBase closes it). Whether
// they are the bytes first read, the merge checks.
func (m *mergeRun) basePart(off, n int64) ([]byte, error) {
	data, err := m.readBasePart(off, n)
	if err != nil {
		return nil, &mergeFailed{err, 0}
	}
	return data, nil
}

// readBasePart is basePart, its error not wrapped.
func (m *mergeRun) readBasePart(off, n int64) ([]byte, error) {
	if b := m.texts[0]; b != nil {
		if off > int64(len(b)) || n > int64(len(b))-off {
			return nil, fmt.Errorf("%s changed while it was merged: %w", quoteName(m.paths[0]), atomicfile.ErrChanged)
		}
		return b[off : off+n], nil
	}
	if m.base == nil {
		f, err := os.Open(m.paths[0])
		if err != nil {
			return nil, err
		}
		m.base = f
	}
	data := make([]byte, n)
	if _, err := m.base.ReadAt(data, off); err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("%s changed while it was merged: %w", quoteName(m.paths[0]), atomicfile.ErrChanged)
		}
		return nil, err
	}
	return data, nil
}

// closeBase closes base's file, if basePart opened it.
func (m *mergeRun) closeBase() {
	if m.base != nil {
		m.base.Close()
		m.base = nil
	}
}

// collectLarge collects garbage now, before an input or result of size
// bytes is read, when it is large (1 MiB or more): what a merge let go
// (an input as large, most likely) is then reused for it, rather than
// the heap growing by it until the collector runs. A collection takes
// about a millisecond per 10 MB live (mostly bytes, which are not scanned).
func collectLarge(size int) {
	if size >= 1<<20 {
		runtime.GC()
	}
}

// formatNote says how a merge of a version 3 ours and a theirs of
// version tm (above 3) is written: the result, in ours' version unless
// ours is base as it is (see mergeBytes).
func formatNote(tm int, result []byte) string {
	if rm, _ := majorVersionOf(result); rm != 3 {
		return fmt.Sprintf("theirs changed the format to nbformat %d (ours is base's nbformat 3): the result is nbformat %d, as theirs", tm, rm)
	}
	return fmt.Sprintf("theirs is nbformat %d: the result stays nbformat 3, as ours", tm)
}

// oursWriter tells whether what is written is ours (without stopping the
// writer where it differs, as fmt's sameWriter does).
type oursWriter struct {
	ours    []byte
	n       int64 // bytes written
	differs bool
}

func (w *oursWriter) Write(p []byte) (int, error) {
	if !w.differs {
		off := int(min(w.n, int64(len(w.ours))))
		w.differs = len(w.ours)-off < len(p) || !bytes.Equal(w.ours[off:off+len(p)], p)
	}
	w.n += int64(len(p))
	return len(p), nil
}

// equal reports whether the size bytes written are ours.
func (w *oursWriter) equal(size int64) bool {
	return !w.differs && w.n == size && size == int64(len(w.ours))
}

// mergeTwoWayTo is mergeTwoWay writing the result to w: as it is made
// (convert.MergeTo) for version 4 sides whose cells all have ids (nothing
// is done to the result afterwards), else from memory. Nothing is written
// of a merge that fails.
func mergeTwoWayTo(w io.Writer, ours, theirs []byte, opt mergeOptions) ([]mergeConflict, error) {
	om, _ := majorVersionOf(ours)
	tm, _ := majorVersionOf(theirs)
	if om == 4 && tm == 4 {
		o, t, made, _, err := pairCells(ours, theirs)
		if err != nil {
			return nil, err
		}
		if made == nil {
			base, err := emptyBase(o)
			if err != nil {
				return nil, err
			}
			return convert.MergeTo(w, func(which string) ([]byte, error) {
				return map[string][]byte{"base": base, "ours": o, "theirs": t}[which], nil
			}, opt)
		}
	}
	res, err := mergeTwoWay(ours, theirs, opt)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(res.data); err != nil {
		return nil, err
	}
	return res.conflicts, nil
}
