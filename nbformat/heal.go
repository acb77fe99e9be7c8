package nbformat

// Heal: a notebook made valid with the fewest changes, each repair
// reported.

import (
	"fmt"
	"strconv"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// A Repair is one change [Heal] made.
type Repair struct {
	Pointer Pointer // where, in the notebook as it was when repaired (for most repairs, as read)
	What    string
}

// Heal makes an nbformat 4 notebook valid against the schema of its
// version, changing only what is invalid, and reports each change. A valid
// notebook is left exactly as it is.
//
// The contract: for every nbformat 4 notebook, Heal returns a nil error and
// Validate(nb) is then nil; healing the result again changes nothing; the
// same input gives the same bytes (fresh ids are derived from each cell's
// position, type and source: 8 hex digits of a CRC-32C checksum; set other ids
// afterwards with [SetCellID] if you want them); and every
// string and number of the input that has a valid place in the notebook is
// still in it. Where something invalid holds content, the content is kept
// in a valid place:
//
//   - a value of the wrong type where text is expected (a source, stream
//     text, a text/* entry of output data or of an attachment, a traceback
//     line, ename, evalue) becomes its text: a string as it is, a list of
//     strings joined, anything else its JSON text (42 becomes "42"); a
//     traceback given as one string becomes a one-line list; output data
//     that is not an object becomes its text/plain entry;
//   - a cell of an unrecognized type becomes the cell it resembles: a type
//     that differs from a valid one only in case or surrounding space
//     ("Code", "MARKDOWN") becomes that type; a version 3 heading a
//     markdown heading; a cell with outputs or an execution count a code
//     cell (keeping both); anything else a raw cell holding its source (or,
//     lacking one, its JSON);
//   - an output of an unrecognized type becomes the output it resembles
//     (a case variant of a valid type; pyout and pyerr; execute_result when
//     it has data and an execution count, display_data when it has data,
//     stream when it has text, error when it has a traceback, else
//     display_data showing its JSON as text/plain); an output whose
//     members are another type's and not those of the type it names (a
//     "stream" or "Stream" holding data and no text) becomes the type of
//     its members; a display_data with an execution count becomes an
//     execute_result; text beside an output's data becomes the data's
//     text/plain when that is free; members an output's type does not
//     have (an execution count on a stream) are removed;
//   - nbformat 4.0–4.4 notebooks whose cells carry ids (Colab writes 4.0
//     with ids) are raised to 4.5, cells lacking an id get one, when that
//     keeps an id and makes nothing else invalid; otherwise the ids, which
//     those versions do not have, are removed;
//   - missing, invalid and duplicate cell ids (4.5 and later) get fresh
//     unique ids;
//   - missing required members are written with their empty values (an
//     empty source, no outputs, a null execution count, {} metadata), an
//     execution count that is not a non-negative integer becomes the
//     integer it spells or null;
//   - duplicate and invalid tags are removed from a cell's tag list;
//     other metadata keys with invalid values are removed, as Python
//     nbformat's strip_invalid_metadata does, and members the schema does
//     not allow (a markdown cell's outputs, say) are removed;
//   - a UTF-8 byte-order mark before the JSON (which Python's json module
//     refuses) is removed.
//
// Heal repairs every problem of a place in one pass and repeats until the
// notebook validates; a cell or output that still has problems after a
// few passes is replaced as a whole (a raw cell holding the cell's JSON as
// its source, a display_data output showing the output's JSON), so Heal
// always converges. Its work is linear in the size of the notebook.
//
// Heal replaces rather than changes shared values: cells and outputs it
// repairs are new values in nb.Cells, and the cells it leaves alone keep
// their identity (so unedited cells are still written byte for byte). It
// fails only for notebooks that are not nbformat 4 ([ErrUnsupportedVersion];
// use [Upgrade] for older ones) or that cannot be written.
func Heal(nb *Notebook) ([]Repair, error) { return heal(nb, HealOptions{}, nil) }

// HealOptions configures healing. The zero value heals as [Heal] does.
type HealOptions struct {
	// KeepBOM leaves a UTF-8 byte-order mark read before the JSON as it
	// is (Heal removes it, as Python's json module refuses such a file),
	// so that a file comes back exactly as it went in.
	KeepBOM bool
	// Written, if not nil, is set to the bytes [Marshal] writes for the
	// healed notebook when Heal wrote them itself to check its result (it
	// repaired something, or the notebook was not as read), and to nil
	// otherwise (Marshal then writes the bytes read, with no encoding).
	// They are what Marshal writes as long as the notebook is not
	// changed, and no one else holds them: a caller that writes the
	// notebook right after healing it is spared a second encoding.
	Written *[]byte
}

// Heal is [Heal] with options.
func (o HealOptions) Heal(nb *Notebook) ([]Repair, error) { return heal(nb, o, nil) }

// heal is Heal with options, and candidate ids from newID (nil: ids
// derived from each cell's position, type and source; tests set it, see
// export_test.go).
func heal(nb *Notebook, o HealOptions, newID func() CellID) ([]Repair, error) {
	if nb.Nbformat != 4 {
		return nil, fmt.Errorf("nbformat: heal nbformat %d: %w", nb.Nbformat, ErrUnsupportedVersion)
	}
	if err := nilVariantError(nb); err != nil {
		return nil, err
	}
	h := healer{nb: nb, owned: map[codecStruct]bool{}, newID: newID}
	if nb.src != nil && nb.src.tape.BOM && !nb.dropBOM && !o.KeepBOM {
		// Not a schema matter, but Python's json module refuses the file.
		nb.dropBOM = true
		h.note("", "removed the UTF-8 byte-order mark at the start of the file (Python's json module refuses it)")
	}
	h.version()
	if err := h.keepIDs(); err != nil {
		return h.repairs, err
	}
	if o.Written != nil {
		*o.Written = nil
	}
	for round := 0; round < healRounds; round++ {
		var t *jsontree.Tape
		var found []located
		if c := h.checked; c != nil {
			// Written and checked by keepIDs; nothing changed since.
			t, found, h.checked = c.t, c.found, nil
		} else {
			var err error
			if round == 0 {
				t, err = nb.tape()
			} else {
				// Repaired: written anew (see encodedTape), without
				// asking whether it is as read.
				t, err = nb.encodedTape()
			}
			if err != nil {
				return h.repairs, err
			}
			found = nb.problems(t)
		}
		if len(found) == 0 {
			if o.Written != nil && !nb.isSourceTape(t) {
				// t was parsed from what Marshal writes for nb now (see
				// tape), which nothing has changed since.
				*o.Written = t.Data
			}
			return h.repairs, nil
		}
		if t.HasLazy() {
			// Repairs read any value's interior: a full parse. The
			// problems are those found (the schemas read no lazy value's
			// interior, see locateProblems); repairs find their places
			// by pointer, never by the nodes of the tape they were found on.
			full, err := t.Full()
			if err != nil {
				return h.repairs, err
			}
			t = full
		}
		h.round(t, found, round >= healWholeAfter)
		// Missing required members: written, with their empty values,
		// from the next pass on.
		nb.fillMissing(found)
	}
	err := Validate(nb)
	if err == nil {
		return h.repairs, nil
	}
	return h.repairs, fmt.Errorf("nbformat: cannot heal: %w", err)
}

// isSourceTape reports whether t is (a copy of) the tape nb was read
// from, rather than a tape tape() parsed from a new write of nb: its bytes
// are then the bytes read, held by nb.
func (nb *Notebook) isSourceTape(t *jsontree.Tape) bool {
	if nb.src == nil {
		return false
	}
	src := nb.src.tape.Data
	return len(t.Data) > 0 && len(src) > 0 && &t.Data[0] == &src[0]
}

// Passes of Heal: after healWholeAfter passes, a cell or output that still
// has problems is replaced as a whole, after which at most two more passes
// (ids, the notebook's own members) are needed.
const (
	healWholeAfter = 3
	healRounds     = healWholeAfter + 4
)

type healer struct {
	nb      *Notebook
	newID   func() CellID
	repairs []Repair
	owned   map[codecStruct]bool // structs whose AdditionalProperties Heal copied, changed in place
	used    map[CellID]bool      // ids in use (built once, when first needed)
	// checked: the notebook's tape and problems, found by keepIDs, for
	// the first pass (nil: the pass writes and checks the notebook).
	checked *checkedTape

	// per pass
	t          *jsontree.Tape
	cellNode   []int // tape node of each cell (built when needed)
	outCell    int   // the cell whose output nodes outNodes holds
	outNodes   []int
	whole      bool  // replace places that still have problems as a whole
	needID     []int // cells to give fresh ids
	idNote     []int // the index of its repair, for each
	newCells   []pendingCell
	newOutputs []pendingOutput
}

func (h *healer) note(p Pointer, format string, args ...any) {
	h.repairs = append(h.repairs, Repair{Pointer: p, What: fmt.Sprintf(format, args...)})
}

// version repairs an nbformat_minor that is not a non-negative integer
// (the validator then knows no schema to check the rest against).
func (h *healer) version() {
	nb := h.nb
	if x, ok := nb.AdditionalProperties["nbformat_minor"]; ok {
		minor, isInt := intOf(x)
		h.dropKey(&nb.Document, "nbformat_minor")
		if !isInt || minor < 0 {
			minor = 0
		}
		nb.NbformatMinor = minor
		h.note("/nbformat_minor", "replaced nbformat_minor %s by %d", jsonText(x), minor)
	}
	if nb.NbformatMinor < 0 {
		h.note("/nbformat_minor", "replaced nbformat_minor %d by 0", nb.NbformatMinor)
		nb.NbformatMinor = 0
	}
}

// keepIDs raises nbformat 4.0–4.4 notebooks whose cells have ids to 4.5
// when that keeps at least one id and makes nothing else invalid.
func (h *healer) keepIDs() error {
	nb := h.nb
	if cellid.Written(nb.Nbformat, nb.NbformatMinor) {
		return nil
	}
	kept := false
	for _, c := range nb.Cells {
		if CellIDOf(c).valid() {
			kept = true
			break
		}
	}
	if !kept {
		return nil
	}
	others := func() (map[Pointer]bool, *jsontree.Tape, []located, error) {
		t, err := nb.tape()
		if err != nil {
			return nil, nil, nil, err
		}
		found := nb.problems(t)
		out := map[Pointer]bool{}
		for _, f := range found {
			if !isIDProblem(f.err) {
				out[f.err.Pointer] = true
			}
		}
		return out, t, found, nil
	}
	before, _, _, err := others()
	if err != nil {
		return err
	}
	old := nb.NbformatMinor
	nb.NbformatMinor = minorVersion
	after, t, found, err := others()
	if err != nil {
		nb.NbformatMinor = old
		return err
	}
	for p := range after {
		if !before[p] {
			nb.NbformatMinor = old // raising would break something else
			return nil
		}
	}
	h.note("/nbformat_minor", "raised nbformat_minor from %d to %d to keep the cell ids (nbformat 4.%d has none)", old, minorVersion, old)
	// The first pass checks the notebook as it is now: what was just
	// found.
	h.checked = &checkedTape{t, found}
	return nil
}

// A checkedTape is a tape of the notebook as it is and the problems found
// on it.
type checkedTape struct {
	t     *jsontree.Tape
	found []located
}

// isIDProblem reports whether p is about a cell's id (see cellid.Problem).
func isIDProblem(p *ValidationError) bool {
	_, ok := cellid.Problem(string(p.Pointer), p.Keyword, p.Member)
	return ok
}

func tokens(p Pointer) []string {
	var toks []string
	for t := range jsonpointer.Tokens(string(p)) {
		toks = append(toks, t)
	}
	return toks
}

// A healProblem is a problem, its place as tokens, and its tape node.
type healProblem struct {
	located
	toks []string
}

// round repairs every problem found in one pass over the notebook's tape.
// Problems come in document order, so those of one cell are adjacent.
func (h *healer) round(t *jsontree.Tape, found []located, whole bool) {
	h.t, h.cellNode, h.outNodes, h.whole = t, nil, nil, whole
	h.needID, h.idNote, h.newCells, h.newOutputs = nil, nil, nil, nil
	probs := make([]healProblem, len(found))
	for i, f := range found {
		probs[i] = healProblem{f, tokens(f.err.Pointer)}
	}
	for len(probs) > 0 {
		p := probs[0]
		if len(p.toks) >= 2 && p.toks[0] == "cells" {
			i, err := strconv.Atoi(p.toks[1])
			n := 1
			for n < len(probs) && len(probs[n].toks) >= 2 && probs[n].toks[0] == "cells" && probs[n].toks[1] == p.toks[1] {
				n++
			}
			if err == nil && i >= 0 && i < len(h.nb.Cells) {
				h.cell(i, probs[:n])
			}
			probs = probs[n:]
			continue
		}
		h.top(p)
		probs = probs[1:]
	}
	h.flushCells()
	h.giveIDs()
}

// top repairs a problem outside the cells.
func (h *healer) top(p healProblem) {
	nb := h.nb
	switch {
	case len(p.toks) == 0:
		if p.err.Keyword == "required" {
			h.note(Pointer("").appendToken(p.err.Member), "added the missing member with its empty value")
		}
	case p.toks[0] == "metadata" && len(p.toks) >= 2:
		if p.err.Keyword == "required" && !h.whole {
			return // written from now on (fillMissing)
		}
		md := &nb.Metadata
		gone := h.dropPath("/metadata", md, p.toks[1:])
		if h.whole && h.dropKey(md, p.toks[1]) {
			gone = Pointer("/metadata").appendToken(p.toks[1])
		}
		if gone != "" {
			h.note(gone, "removed invalid notebook metadata (%s)", p.err.Msg)
		}
	case p.toks[0] == "nbformat" || p.toks[0] == "nbformat_minor":
		// Set by version; the schema has nothing else to say about them.
	default:
		if h.dropKey(&nb.Document, p.toks[0]) {
			h.note(Pointer("").appendToken(p.toks[0]), "removed (%s)", p.err.Msg)
		}
	}
}

// dropKey removes member key from the struct v: its field is zeroed and
// it leaves AdditionalProperties, which is copied the first time (it may
// be shared with the notebook as read) and changed in place after. It
// reports whether there was anything to remove.
func (h *healer) dropKey(v codecStruct, key string) bool {
	changed := false
	if fi := v.fieldNamed(key); fi >= 0 && !v.fieldZero(fi) {
		v.clearField(fi)
		changed = true
	}
	extra := v.extra()
	if _, ok := (*extra)[key]; ok {
		m := *extra
		if !h.owned[v] {
			m = make(map[string]any, len(*extra))
			for k, x := range *extra {
				m[k] = x
			}
			h.owned[v] = true
		}
		delete(m, key)
		if len(m) == 0 {
			m = nil
		}
		*extra = m
		changed = true
	}
	return changed
}
