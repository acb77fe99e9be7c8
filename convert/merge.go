package convert

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/nbformat"
)

// MergeResult is the outcome of a merge of notebooks.
type MergeResult struct {
	// Data is the merged notebook, in ours' style: it differs from ours
	// only in the cells (and notebook metadata keys) the merge changed.
	// It is a valid notebook even when conflicts remain.
	Data []byte
	// Conflicts are what the merge could not decide (see
	// dialog.Conflict), in cell order, notebook metadata last. Their
	// unresolved texts are in Data between conflict markers, the others
	// in records (see ConflictsKey).
	Conflicts []dialog.Conflict
}

// Clean reports whether the merge left no conflicts.
func (r *MergeResult) Clean() bool { return len(r.Conflicts) == 0 }

// Merge merges notebooks three-way. See [Options.Merge].
func Merge(base, ours, theirs []byte, opt dialog.MergeOptions) (*MergeResult, error) {
	return Options{}.Merge(base, ours, theirs, opt)
}

// A MergeInputError reports a merge input that cannot be read as a
// notebook: Input is "base", "ours" or "theirs"; Err says why and where
// (an *nbformat.SyntaxError with line and column, or an error with a JSON
// Pointer; use errors.As).
type MergeInputError struct {
	Input string
	Err   error
}

// Error returns "convert: merge: INPUT: " and the reader's message.
func (e *MergeInputError) Error() string {
	return "convert: merge: " + e.Input + ": " + trimPrefix(e.Err)
}

// Unwrap returns the reader's error.
func (e *MergeInputError) Unwrap() error { return e.Err }

func trimPrefix(err error) string {
	s := err.Error()
	const p = "convert: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// Merge merges the notebooks ours and theirs made from base, as
// dialog.Merge merges dialogs: cells are matched by id, or by content
// where a notebook has no cell ids (before nbformat 4.5); opt.Unkeyed is
// ORed with that. The merged notebook is written in ours' style, changing
// only the cells the merge changed: a cell ours left alone and the merge
// kept is ours' bytes; a changed cell is rewritten where it changed, in
// ours' style; a cell only theirs has keeps theirs' bytes where the two
// files share a style. Conflicting texts are written between conflict
// markers inside their cells, so the result is always a valid notebook
// (an invalid ours is healed, as Marshal heals); conflicts of values that
// have no text (a kind, a metadata value, an attachment, an execution
// count, an id, a part the merged kind has no place for) are recorded in
// the metadata of their cell, or of the notebook, under ConflictsKey, so
// that every change either side made is in the file: applied, between
// markers, or in a record. A version 3 ours that the
// merge changes is written as its upgrade to 4.5, as Marshal writes a
// changed version 3 dialog. The inputs are read, never changed or kept.
// Ids the merge has to give are drawn from a seed derived from the three
// inputs, so the same merge always writes the same bytes.
//
// An input that is not a readable notebook fails with a
// *MergeInputError; nothing is merged then.
func (o Options) Merge(base, ours, theirs []byte, opt dialog.MergeOptions) (*MergeResult, error) {
	// The three are read at once (on as many cores as there are). The
	// notebooks live only during the merge, and nothing returned refers to
	// them: they may read the inputs without copying them.
	var ds [3]*dialog.Dialog
	var errs [3]error
	var wg sync.WaitGroup
	for i, in := range [3][]byte{base, ours, theirs} {
		wg.Go(func() {
			nb, err := readNotebook(in, false)
			if err == nil {
				ds[i], err = o.toDialog(nb, in)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, &MergeInputError{Input: [3]string{"base", "ours", "theirs"}[i], Err: err}
		}
	}
	// The ids the merge gives (a message both sides added under one id, a
	// kept message whose id is taken) come from the three inputs, so the
	// same merge always writes the same bytes (git may run it again).
	ds[1].Random = dialog.Seeded(mergeSeed(base, ours, theirs))
	return o.mergeDialogs(ds[0], ds[1], ds[2], theirs, opt)
}

// mergeDialogs merges dialogs read by this package (Source set), writing
// the result in ours' style; theirsData, if not nil, is what theirs was
// read from. Ours' notebook is changed in place: it must be private to the
// merge.
func (o Options) mergeDialogs(base, ours, theirs *dialog.Dialog, theirsData []byte, opt dialog.MergeOptions) (*MergeResult, error) {
	orgs := [3]*origin{}
	for i, d := range [3]*dialog.Dialog{base, ours, theirs} {
		org, ok := d.Source.(*origin)
		if !ok {
			return nil, errors.New("convert: merge: a dialog was not read from a notebook")
		}
		if err := org.upgraded(); err != nil { // (the merge reads the snapshots' cells)
			return nil, err
		}
		orgs[i] = org
	}
	snapOf := func(m *dialog.Message) *snapshot {
		for _, org := range orgs {
			if s := org.snap(m); s != nil {
				return s
			}
		}
		return nil
	}
	if opt.KindMeta == nil {
		opt.KindMeta = map[dialog.Kind]map[string]any{dialog.Prompt: {promptKey: true}}
	}
	userUnkeyed, userEqual, userTrace := opt.Unkeyed, opt.Equal, opt.Trace
	opt.Unkeyed = func(m *dialog.Message) bool {
		if s := snapOf(m); s != nil && s.generated {
			// A base cell whose id was made up because an earlier cell
			// holds its file's id (git's hunks can put a cell twice) has
			// that id: a side giving it another is an edit.
			return orgs[0].snap(m) != s || !fileIDTaken(s, m)
		}
		return userUnkeyed != nil && userUnkeyed(m)
	}
	opt.Equal = func(a, b *dialog.Message) bool {
		if sa, sb := snapOf(a), snapOf(b); sa != nil && sb != nil && !sameHidden(sa.cell, sb.cell) {
			return false
		}
		return userEqual == nil || userEqual(a, b)
	}
	versions := map[*dialog.Message][3]*dialog.Message{}
	opt.Trace = func(m, b, o, t *dialog.Message) {
		versions[m] = [3]*dialog.Message{b, o, t}
		if userTrace != nil {
			userTrace(m, b, o, t)
		}
	}
	// Whether ours and theirs are valid (then so is the merge, and
	// healing it is spared: see marshalMerged) is found out meanwhile,
	// before anything changes ours' notebook.
	valid := make(chan bool, 1)
	go func() {
		// Ours' and theirs' notebooks as read: the validations below
		// consult their snapshots, and ours' changes in place follow.
		orgs[1].takeSnapshot()
		orgs[2].takeSnapshot()
		o, t := orgs[1].nb, orgs[2].nb
		ok := o.Nbformat == 4 && t.Nbformat == 4 && o.NbformatMinor == t.NbformatMinor
		if ok {
			var tv error
			done := make(chan struct{})
			go func() { tv = nbformat.Validate(t); close(done) }()
			ok = nbformat.Validate(o) == nil
			<-done
			ok = ok && tv == nil
		}
		valid <- ok
	}()
	merged, conflicts := dialog.Merge(base, ours, theirs, opt)
	o.recordConflicts(merged, conflicts, versions, [3]*dialog.Dialog{base, ours, theirs}, orgs)
	data, err := o.marshalMerged(merged, versions, orgs[0], orgs[1], orgs[2], theirsData, <-valid)
	if err != nil {
		return nil, err
	}
	return &MergeResult{Data: data, Conflicts: conflicts}, nil
}

// fileIDTaken reports whether m's id was made up while its cell's file
// gives one of its own (valid, so taken by an earlier cell).
func fileIDTaken(s *snapshot, m *dialog.Message) bool {
	if s.cell == nil {
		return false
	}
	id := string(nbformat.CellIDOf(s.cell))
	return id != m.ID && cellid.Valid(id)
}

// mergeSeed is the seed of the ids a merge of these three inputs gives:
// the first 8 bytes of a SHA-256 hash of the three, each prefixed by its
// length.
func mergeSeed(base, ours, theirs []byte) uint64 {
	h := sha256.New()
	for _, in := range [3][]byte{base, ours, theirs} {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(in))))
		h.Write(in)
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}
