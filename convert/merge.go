package convert

// The three-way merge of notebooks (Merge, MergeTo): reading the inputs as
// dialogs, merging them, and the ids of repeated cells and of the merge.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/textdiff"
	"github.com/nbdialog/ipynb/nbformat"
)

// mergeResult is the outcome of a merge of notebooks (see Merge).
type mergeResult struct {
	Data      []byte            // the merged notebook (nil from mergeTo, which writes it)
	Conflicts []dialog.Conflict // what the merge could not decide
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
// count, an id, a part the merged kind has no place for, the place of a
// cell both sides moved to different places) are recorded in
// the metadata of their cell, or of the notebook, under ConflictsKey, so
// that every change either side made is in the file: applied, between
// markers, or in a record. The result keeps ours' major version: a
// version 3 ours is merged as its upgrade and written back as version 3,
// in its own style (ours' cells that did not change are its bytes, a
// changed one is rewritten where it changed, and cells from a version 3
// theirs keep theirs' bytes laid out as ours'); the records of its cells
// are in their metadata as for version 4, their pointers naming the
// members as the cells' version 4 form does (/source, /execution_count),
// a version 3 side's values as its file holds them (outputs as version 3
// has them, a code cell's language: see ConflictsKey). A version 3 result that would have to hold what
// version 3 has no place for (an attachment of a version 4 theirs) is an
// error, nothing merged. One exception: ours the same bytes as base, and
// theirs moved to version 4, gives theirs' version (as git leaves theirs
// when ours did not change). A version 2 ours is written as its upgrade
// to 4.5. The inputs are read, never changed or kept.
// Ids the merge has to give are drawn from a seed derived from the three
// inputs, so the same merge always writes the same bytes.
//
// Merge returns the merged notebook, data, in ours' style: it differs
// from ours only in the cells (and notebook metadata keys) the merge
// changed, and is a valid notebook even when conflicts remain. conflicts
// are what the merge could not decide (see dialog.Conflict), in cell
// order, notebook metadata last; none when the merge is clean. Their
// unresolved texts are in data between conflict markers, the others in
// records (see ConflictsKey).
//
// An input that is not a readable notebook fails with an *Error of Op
// "merge"; nothing is merged then.
func Merge(base, ours, theirs []byte, opt dialog.MergeOptions) (data []byte, conflicts []dialog.Conflict, err error) {
	res, err := options{}.Merge(base, ours, theirs, opt)
	if err != nil {
		return nil, nil, err
	}
	return res.Data, res.Conflicts, nil
}

// Merge is the function Merge with the options o.
func (o options) Merge(base, ours, theirs []byte, opt dialog.MergeOptions) (*mergeResult, error) {
	return o.mergeRead(nil, base, ours, theirs, opt)
}

// mergeRead merges the three inputs, read at once (on as many cores as
// there are), writing the result to w (nil: into the result's Data).
func (o options) mergeRead(w io.Writer, base, ours, theirs []byte, opt dialog.MergeOptions) (*mergeResult, error) {
	// The notebooks live only during the merge, and nothing returned
	// refers to them: they may read the inputs without copying them.
	var ds [3]*File
	var errs [3]error
	var wg sync.WaitGroup
	for i, in := range [3][]byte{base, ours, theirs} {
		wg.Go(func() { ds[i], errs[i] = o.readInput(in) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, &Error{Op: "merge", Input: [3]string{"base", "ours", "theirs"}[i], Err: err}
		}
	}
	// The ids the merge gives (a message both sides added under one id, a
	// kept message whose id is taken) come from the three inputs, so the
	// same merge always writes the same bytes (git may run it again).
	ds[1].Random = seeded(mergeSeed(base, ours, theirs))
	return o.mergeDialogs(ds[0], ds[1], ds[2], mergeInputs{base, ours, theirs, bytes.Equal(base, ours)}, opt, w)
}

// readInput reads a merge's input as a dialog, its notebook reading the
// input's bytes in place.
func (o options) readInput(in []byte) (*File, error) {
	nb, _, err := readNotebook(in, false)
	if err != nil {
		return nil, err
	}
	return o.toDialog(nb, in)
}

// MergeTo merges notebooks three-way as [Merge] does, writing the merged
// notebook to w as it is made (in pieces: the notebook is not built whole
// in memory), and returns the conflicts.
//
// read returns the bytes of an input, "base", "ours" or "theirs": MergeTo
// asks for each once, in that order, reads them in place (they must not
// change until it returns), and keeps none of them past the call. What
// the merge needs of a large base (1 MiB or more) is taken from it before
// theirs is asked for: its outputs and notebook metadata that ours holds
// byte for byte are compared as ours' (the same values), the other
// outputs as theirs' where theirs holds them byte for byte (known by
// their SHA-256 digests), so that a caller keeping nothing read has two
// of the inputs in memory at once. Where theirs does not hold an output
// of base that ours does not hold either (both sides re-ran its cell),
// or base is not version 4 as ours and theirs, MergeTo asks for "base"
// once more, after theirs, and reads it as it is (three inputs in memory
// then); bytes other than the first are an error wrapping ErrChanged. An
// error of read is returned as it is (nothing asked for after it); an
// input that is not a readable notebook fails with an *Error of Op "merge",
// nothing written. The conflicts' base versions hold no outputs (Outputs
// nil): base's outputs, which the caller has in base, are not kept past
// the call (where both sides re-ran every cell they are as large as base;
// what is written holds both sides' outputs, and base's where a record
// needs them). An error writing to w (or one the merge meets while
// writing) may leave a part of the notebook written.
func MergeTo(w io.Writer, read func(input string) ([]byte, error), opt dialog.MergeOptions) (conflicts []dialog.Conflict, err error) {
	return mergeToParts(w, read, nil, opt)
}

// mergeToParts is MergeTo reading base's outputs neither side holds part
// by part (see internal/mergeparts), where part is not nil.
func mergeToParts(w io.Writer, read func(input string) ([]byte, error), part func(off, n int64) ([]byte, error), opt dialog.MergeOptions) ([]dialog.Conflict, error) {
	res, err := options{}.mergeTo(w, read, part, opt)
	if err != nil {
		return nil, err
	}
	return res.Conflicts, nil
}

func (o options) mergeTo(w io.Writer, read func(input string) ([]byte, error), part func(off, n int64) ([]byte, error), opt dialog.MergeOptions) (*mergeResult, error) {
	base, err := read("base")
	if err != nil {
		return nil, err
	}
	ours, err := read("ours")
	if err != nil {
		return nil, err
	}
	if len(base) < reduceBaseFrom {
		theirs, err := read("theirs")
		if err != nil {
			return nil, err
		}
		return o.mergeRead(w, base, ours, theirs, opt)
	}
	seed := sha256.New()
	seedInput(seed, base)
	seedInput(seed, ours)
	oursIsBase := bytes.Equal(base, ours)
	var fOurs *File
	var errOurs error
	read1 := make(chan struct{})
	go func() {
		defer close(read1)
		fOurs, errOurs = o.readInput(ours)
	}()
	text, reduced := reducedBase(base, ours)
	var fBase *File
	if text != nil {
		fBase, _ = o.readInput(text)
	}
	<-read1
	if fBase != nil && (errOurs != nil || !shareOurs(fBase.Dialog, fOurs.Dialog, reduced)) {
		fBase = nil
	}
	var baseSum [sha256.Size]byte // (of base, where the merge may ask for it again)
	if fBase != nil && len(reduced.pending) > 0 {
		baseSum = sha256.Sum256(base)
	}
	if fBase == nil {
		reduced = reduction{}
		// Base as it is (also to report its error before ours').
		if fBase, err = o.readInput(base); err != nil {
			return nil, &Error{Op: "merge", Input: "base", Err: err}
		}
		text = base
	}
	if errOurs != nil {
		return nil, &Error{Op: "merge", Input: "ours", Err: errOurs}
	}
	base = nil // (what is left of it is text, read by fBase)
	theirs, err := read("theirs")
	if err != nil {
		return nil, err
	}
	seedInput(seed, theirs)
	fTheirs, err := o.readInput(theirs)
	if err != nil {
		return nil, &Error{Op: "merge", Input: "theirs", Err: err}
	}
	var lb *lazyBase // (base's outputs neither side holds, read part by part)
	whole := false   // (base's own outputs are needed: base as it is)
	if len(reduced.pending) > 0 {
		unfound, ok := sharePending(fBase.Dialog, fTheirs.Dialog, theirs, reduced)
		if ok && len(unfound) > 0 {
			if lb = lazyParts(part, reduced.minor); lb == nil || !readLazily(fBase.Dialog, unfound, lb) {
				lb, ok = nil, false
			}
		}
		whole = !ok
	}
	if whole {
		// Base's own outputs are needed: base as it is.
		again, err := read("base")
		if err != nil {
			return nil, err
		}
		if sha256.Sum256(again) != baseSum {
			return nil, &Error{Op: "merge", Input: "base", Err: fmt.Errorf("convert: base read again differs from base read first: %w", ErrChanged)}
		}
		if fBase, err = o.readInput(again); err != nil {
			return nil, &Error{Op: "merge", Input: "base", Err: err}
		}
		text = again
	}
	fOurs.Random = seeded(binary.LittleEndian.Uint64(seed.Sum(nil)))
	res, err := o.mergeDialogs(fBase, fOurs, fTheirs, mergeInputs{text, ours, theirs, oursIsBase}, opt, w)
	if lb != nil && err == nil {
		err = lb.failed() // (a part of base not read, or not as first read)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// mergeDialogs merges dialogs read by this package (Source set) from in,
// writing the result in ours' style. Ours' notebook is changed in place:
// it must be private to the merge.
func (o options) mergeDialogs(fBase, fOurs, fTheirs *File, in mergeInputs, opt dialog.MergeOptions, w io.Writer) (*mergeResult, error) {
	base, ours, theirs := fBase.Dialog, fOurs.Dialog, fTheirs.Dialog
	orgs := [3]*origin{}
	for i, f := range [3]*File{fBase, fOurs, fTheirs} {
		org := f.org
		if org == nil {
			return nil, errors.New("convert: merge: a dialog was not read from a notebook")
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
	if opt.Separator == "" {
		opt.Separator = ReplySeparator
	}
	userUnkeyed, userEqual, userTrace, userPairText := opt.Unkeyed, opt.Equal, opt.Trace, opt.PairText
	elsewhere := copiesElsewhere(base, orgs[0], ours, theirs)
	for i, d := range [2]*dialog.Dialog{ours, theirs} {
		elsewhere = sideCopies(base, d, orgs[i+1], elsewhere)
	}
	copies := pairCopies([3]*dialog.Dialog{base, ours, theirs}, orgs)
	for m := range copies {
		delete(elsewhere, m)
	}
	opt.Unkeyed = func(m *dialog.Message) bool {
		if copies[m] {
			return false
		}
		if elsewhere[m] {
			return true
		}
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
	dialogs := [3]*dialog.Dialog{base, ours, theirs}
	files := &sideFiles{}
	if heads := v3HeadingLines(dialogs[:], orgs[:], files); heads != nil {
		opt.PairText = func(m *dialog.Message) string {
			if t, ok := heads[m]; ok {
				return t
			}
			if userPairText != nil {
				return userPairText(m)
			}
			return m.Content
		}
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
	// Ours' and theirs' notebooks as read (their validations only read
	// them; ours' changes in place follow, in marshalMerged). The
	// goroutine holds these two alone: not base's, which is let go below
	// while they may still be validated.
	on, tn := orgs[1].nb, orgs[2].nb
	go func() {
		o, t := on, tn
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
	if len(copies) > 0 {
		if elsewhere == nil {
			elsewhere = map[*dialog.Message]bool{}
		}
		for m := range copies {
			elsewhere[m] = true // (for fileIDsBack: its id made up or not its file's)
		}
	}
	if len(elsewhere) > 0 {
		fileIDsBack(merged, conflicts, versions, elsewhere, snapOf)
	}
	sheets, conflicts, err := v3Sheets(merged, conflicts, versions, dialogs, orgs) // (version 3 worksheets: mergev3sheets.go)
	if err != nil {
		return nil, err
	}
	o.recordConflicts(merged, conflicts, versions, dialogs, orgs, files)
	// Base is done with: what writing takes from it is taken now, and
	// nothing below refers to it (but the conflicts' base versions), so
	// that its notebook is not in memory beside the result.
	fb := factsOfBase(merged, versions, orgs[0], orgs[1], orgs[2], in)
	fb.v3Sheets = sheets
	for m, v := range versions {
		v[0] = nil
		versions[m] = v
	}
	in.base, orgs[0], dialogs[0] = nil, nil, nil
	detachBase(conflicts, w == nil)
	data, err := o.marshalMerged(merged, versions, fb, orgs[1], orgs[2], in, <-valid, w)
	if err != nil {
		return nil, err
	}
	return &mergeResult{Data: data, Conflicts: conflicts}, nil
}

// copiesElsewhere returns the messages of sides that have, as their id,
// an id base's file gives more than one cell (git's hunks can put a cell
// twice, or give one cell's text another's id line: the first copy has
// the id, the others made-up ones, see fileIDTaken), while their content
// is that of one of base's other copies and shares no line with the
// first's (so it is not the first copy edited). Which of base's cells
// such a message is, its id does not say (base gives it to two), its
// content does: it is paired by content, as a message whose id carries
// no identity.
func copiesElsewhere(base *dialog.Dialog, orgB *origin, sides ...*dialog.Dialog) map[*dialog.Message]bool {
	if !orgB.generated {
		return nil // (every id base's file gives)
	}
	first, later := repeatedIDs(base, orgB)
	if later == nil {
		return nil
	}
	out := map[*dialog.Message]bool{}
	for _, d := range sides {
		for _, m := range d.Messages {
			copies, ok := later[m.ID]
			if !ok || first[m.ID] != nil && sharesLine(first[m.ID].Content, m.Content) {
				continue
			}
			for _, c := range copies {
				if c.Kind == m.Kind && c.Content == m.Content {
					out[m] = true
					break
				}
			}
		}
	}
	return out
}

// repeatedIDs returns, for each id d's file (read as org) gives more than
// one cell, the message of its first copy, which has the id, and those of
// the later copies, which have made-up ones (see fileIDTaken); both nil
// when the file repeats no id.
func repeatedIDs(d *dialog.Dialog, org *origin) (first map[string]*dialog.Message, later map[string][]*dialog.Message) {
	for i, m := range d.Messages {
		if s := org.snapAt(i, m); s != nil && s.generated && fileIDTaken(s, m) {
			if later == nil {
				later = map[string][]*dialog.Message{}
			}
			id := string(nbformat.CellIDOf(s.cell))
			later[id] = append(later[id], m)
		}
	}
	if later == nil {
		return nil, nil
	}
	first = make(map[string]*dialog.Message, len(later))
	for _, m := range d.Messages {
		if _, ok := later[m.ID]; ok && first[m.ID] == nil {
			first[m.ID] = m
		}
	}
	return first, later
}

// sideCopies adds to elsewhere (nil: makes it) the messages of side d,
// read as org, whose file id the side's file gives more than one cell
// (git's hunks can put a cell twice, or give one cell's text another's id
// line), where the id cannot say which copy is base's message of that
// id: the first copy has the id, the others made-up ones (see
// fileIDTaken), and a copy other than the first has the kind and text of
// base's message while the first has them too (alike copies: their places
// tell them apart), or shares no line with its text, or has the kind and
// text of another message of base (so it is not base's message edited,
// but that one given the id: seed 8002725 of the fix path, where the
// first copy paired by id put a delete/edit conflict into the copy no
// side changed). Such copies are all paired by content and place, as
// messages whose ids carry no identity, as copiesElsewhere's are.
// Otherwise the first copy may be base's message edited, as its id says:
// it stays paired by id.
func sideCopies(base, d *dialog.Dialog, org *origin, elsewhere map[*dialog.Message]bool) map[*dialog.Message]bool {
	if !org.generated {
		return elsewhere // (every id the side's file gives)
	}
	first, later := repeatedIDs(d, org)
	if later == nil {
		return elsewhere
	}
	ambiguous := map[string]bool{}
	for _, b := range base.Messages {
		f := first[b.ID]
		if f == nil || !(f.Kind == b.Kind && f.Content == b.Content) && sharesLine(f.Content, b.Content) && !asOther(base, b, f) {
			continue
		}
		for _, c := range later[b.ID] {
			if c.Kind == b.Kind && c.Content == b.Content {
				ambiguous[b.ID] = true
				break
			}
		}
	}
	if len(ambiguous) == 0 {
		return elsewhere
	}
	if elsewhere == nil {
		elsewhere = map[*dialog.Message]bool{}
	}
	for i, m := range d.Messages {
		if s := org.snapAt(i, m); s != nil && s.cell != nil && ambiguous[string(nbformat.CellIDOf(s.cell))] {
			elsewhere[m] = true
		}
	}
	return elsewhere
}

// asOther reports whether m has the kind and content of a message of base
// other than b.
func asOther(base *dialog.Dialog, b, m *dialog.Message) bool {
	for _, x := range base.Messages {
		if x != b && x.Kind == m.Kind && x.Content == m.Content {
			return true
		}
	}
	return false
}

// fileIDsBack gives a merged message whose id is made up (a version's
// generated one: where neither side's id carries an identity the merge
// takes base's, or where base's carries none either ours') the file's id of its version paired by content (see
// copiesElsewhere and sideCopies), where no other merged message holds
// it; its conflicts follow it.
func fileIDsBack(merged *dialog.Dialog, conflicts []dialog.Conflict, versions map[*dialog.Message][3]*dialog.Message,
	elsewhere map[*dialog.Message]bool, snapOf func(*dialog.Message) *snapshot) {
	held := make(map[string]bool, len(merged.Messages))
	for _, m := range merged.Messages {
		held[m.ID] = true
	}
	for _, m := range merged.Messages {
		id := ""
		madeUp := false
		for _, x := range versions[m] {
			if x == nil {
				continue
			}
			s := snapOf(x)
			if elsewhere[x] && s != nil && s.cell != nil {
				id = string(nbformat.CellIDOf(s.cell))
			}
			if x.ID == m.ID && s != nil && s.generated {
				madeUp = true
			}
		}
		if id == "" || !madeUp || held[id] {
			continue
		}
		old := m.ID
		delete(held, old)
		m.ID, held[id] = id, true
		for i := range conflicts {
			if conflicts[i].ID == old {
				conflicts[i].ID = id
			}
		}
	}
}

// sharesLine reports whether texts x and y have a line in common (line
// ends aside), or are both empty.
func sharesLine(x, y string) bool {
	if x == "" && y == "" {
		return true
	}
	in := map[string]bool{}
	for _, l := range textdiff.Lines(x) {
		in[strings.TrimRight(l, "\r\n")] = true
	}
	for _, l := range textdiff.Lines(y) {
		if in[strings.TrimRight(l, "\r\n")] {
			return true
		}
	}
	return false
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
		seedInput(h, in)
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// seedInput adds an input to the hash of a merge's seed (see mergeSeed).
func seedInput(h hash.Hash, in []byte) {
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(in))))
	h.Write(in)
}
