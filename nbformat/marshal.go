package nbformat

// Marshal and MarshalOptions: the bytes read for an unedited notebook, else
// the notebook written in its style.

import (
	"fmt"
	"io"
	"sync"

	"github.com/nbdialog/ipynb/internal/cellid"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// MarshalOptions configures writing. The zero value preserves the file's
// own bytes and style.
type MarshalOptions struct {
	// Canonical writes exactly what Python nbformat writes
	// (nbformat.write): indent 1, keys sorted, raw UTF-8, Python number
	// spelling, text split into lines by str.splitlines, transient keys
	// removed, and a final newline. Version 3 notebooks get nbformat's v3
	// writer (ASCII-escaped, v3 line splitting). A notebook Python
	// nbformat cannot write (its reader or writer raises: a code cell
	// without outputs, a cell without metadata, …) has no canonical form:
	// Marshal then fails with a *FormatError wrapping ErrNotCanonical
	// that locates the cause.
	Canonical bool
}

// Marshal writes nb preserving its bytes. See [MarshalOptions.Marshal].
func Marshal(nb *Notebook) ([]byte, error) { return MarshalOptions{}.Marshal(nb) }

// Marshal writes nb.
//
// Without Canonical, a notebook read by [Unmarshal] and not changed is
// written back byte for byte, whatever wrote it (indentation, key order,
// escapes, number spellings, line splitting, line endings, a missing final
// newline are all kept). A changed notebook differs only where it was
// changed: an edited cell's bytes change and nothing else does, and new
// parts are written in the file's own detected style. A notebook built in
// memory is written as Python nbformat writes it.
func (o MarshalOptions) Marshal(nb *Notebook) ([]byte, error) {
	if o.Canonical {
		return marshalCanonical(nb)
	}
	return nb.marshal()
}

// MarshalTo writes to w what Marshal returns. An unedited notebook's
// bytes go to w straight from the bytes it was read from, so no second
// copy of the file is made (a caller comparing or hashing the output holds
// only the notebook). Otherwise, and always with Canonical, the output is
// written in pieces (about 64 KiB; 32 KiB with Canonical) as it is built:
// the notebook and one piece in memory, not the whole output. A failed
// write is returned as an error wrapping w's error; so is a failure to
// build the output, which may then have been written in part.
func (o MarshalOptions) MarshalTo(w io.Writer, nb *Notebook) error {
	if o.Canonical {
		return writeCanonical(w, nb)
	}
	return nb.marshalTo(w)
}

// writeAll writes the pieces to w, wrapping its error.
func writeAll(w io.Writer, pieces ...[]byte) error {
	for _, p := range pieces {
		if len(p) == 0 {
			continue
		}
		if _, err := w.Write(p); err != nil {
			return fmt.Errorf("nbformat: writing: %w", err)
		}
	}
	return nil
}

func (nb *Notebook) marshal() ([]byte, error) {
	if err := nilVariantError(nb); err != nil {
		return nil, err
	}
	if lead, rest, ok := nb.asRead(); ok {
		// (Without the closure below: called with a variadic argument,
		// a function value would have the notebook's one copy cost two
		// more allocations.)
		return join([][]byte{lead, rest}), nil
	}
	var out []byte
	err := nb.encode(func(pieces ...[]byte) error {
		if len(pieces) == 1 { // the encoder's own buffer
			out = pieces[0]
			return nil
		}
		out = join(pieces)
		return nil
	}, false)
	return out, err
}

func (nb *Notebook) marshalTo(w io.Writer) error {
	return nb.write(func(pieces ...[]byte) error { return writeAll(w, pieces...) }, true)
}

// newEncoder returns the encoder that writes nb, or compares it with the
// bytes it was read from: cell ids written from nbformat 4.5 on, the
// required members of the structs Heal filled written (see fillMissing),
// values compared with their originals when nb was read (new content in
// Python's style, until the caller chooses the file's).
func (nb *Notebook) newEncoder() encoder {
	var e encoder
	nb.initEncoder(&e)
	return e
}

// initEncoder sets up e as newEncoder describes.
func (nb *Notebook) initEncoder(e *encoder) {
	e.st, e.ids, e.filledStructs = &nbstyle.Python, cellid.Written(nb.Nbformat, nb.NbformatMinor), nb.filled
	if nb.src != nil {
		e.t, e.src, e.decoded = nb.src.tape, nb.src, true
	}
}

// write hands the notebook's bytes to emit: the bytes read (in pieces)
// when nb is unedited, else what the encoder builds: one buffer, or with
// stream, pieces as they are built (emit must not keep them).
func (nb *Notebook) write(emit func(pieces ...[]byte) error, stream bool) error {
	if err := nilVariantError(nb); err != nil {
		return err
	}
	// Unchanged: the input itself.
	if lead, rest, ok := nb.asRead(); ok {
		return emit(lead, rest)
	}
	return nb.encode(emit, stream)
}

// asRead returns the bytes nb was read from as Marshal writes them (the
// white space before the root value, without a byte-order mark Heal
// removed, and the rest) when nb is unedited.
func (nb *Notebook) asRead() (lead, rest []byte, ok bool) {
	if nb.src == nil || !nb.unedited() {
		return nil, nil, false
	}
	t := nb.src.tape
	root := &t.Nodes[jsontree.Root]
	lead = t.Data[:root.Start]
	if nb.dropBOM && t.BOM {
		lead = lead[3:]
	}
	return lead, t.Data[root.Start:], true
}

// emit hands the encoder's buffer to emit, unless encoding failed.
func (e *encoder) emit(emit func(pieces ...[]byte) error) error {
	if e.err != nil {
		return e.err
	}
	return emit(e.buf)
}

// Edited reports whether Marshal would write anything other than the
// bytes nb was read from: true for a notebook built in memory or changed
// since it was read. It compares the typed values with the values read
// (every cell, output and member; not the text), which is cheaper than
// marshalling and comparing.
func (nb *Notebook) Edited() bool {
	if nb.src == nil || nb.dropBOM && nb.src.tape.BOM {
		return true
	}
	return !nb.unedited()
}

// unedited reports whether nb, read from bytes, would be written as
// exactly those bytes (whatever its byte-order mark): whether its Document
// equals the root node read (see eqStruct).
func (nb *Notebook) unedited() bool {
	if nb.src == nil {
		return false
	}
	e := comparers.Get().(*encoder)
	*e = encoder{stack: e.stack[:0], scratch: e.scratch[:0]}
	nb.initEncoder(e)
	ok := e.eqStruct(&nb.Document, jsontree.Root)
	e.t, e.src, e.filledStructs = nil, nil, nil
	comparers.Put(e)
	return ok
}

// comparers are the encoders of unedited checks, with their scratch
// lists, for reuse: a check allocates nothing.
var comparers = sync.Pool{New: func() any { return new(encoder) }}

// join returns the pieces as one new slice of their total length. The
// bytes read are written in two pieces (the white space before the root
// value, mostly none, and the rest): one non-empty piece, or a short one
// before a longer one, is copied by append into a new slice of the total
// length, which allocates it without zeroing the bytes copied (make
// zeroes all of them first: a second pass over the file's size).
func join(pieces [][]byte) []byte {
	n := 0
	var first, second []byte // the first two non-empty pieces
	nonEmpty := 0
	for _, p := range pieces {
		if len(p) == 0 {
			continue
		}
		n += len(p)
		switch nonEmpty {
		case 0:
			first = p
		case 1:
			second = p
		}
		nonEmpty++
	}
	switch {
	case nonEmpty == 0:
		return []byte{}
	case nonEmpty == 1:
		return append([]byte(nil), first...)
	case nonEmpty == 2 && 2*len(first) < n:
		// From a full slice of the first piece, append grows to
		// exactly the total (more than twice the first's length).
		return append(first[:len(first):len(first)], second...)
	}
	out := make([]byte, 0, n)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out
}

// encode hands to emit the bytes the encoder builds for nb, built in
// memory or edited (without a nil cell or output): in one buffer, or with
// stream in pieces of about spillSize bytes as they are built.
func (nb *Notebook) encode(emit func(pieces ...[]byte) error, stream bool) (err error) {
	e := nb.newEncoder()
	if stream {
		e.out = func(p []byte) error { return emit(p) }
	}
	defer func() {
		if err != nil {
			err = cycleAt(err, &nb.Document) // the place of a cycle, looked for only now
		}
	}()
	if nb.src == nil {
		e.encStruct(&nb.Document, -1, "")
		e.buf = append(e.buf, '\n')
		return e.emit(emit)
	}
	t := nb.src.tape
	root := &t.Nodes[jsontree.Root]
	lead := t.Data[:root.Start]
	if nb.dropBOM && t.BOM {
		lead = lead[3:]
	}
	e.st = nb.src.styleOf()
	if stream {
		e.buf = make([]byte, 0, min(2*spillSize, len(t.Data)+len(t.Data)/8))
	} else {
		e.buf = make([]byte, 0, len(t.Data)+len(t.Data)/8)
	}
	e.buf = append(e.buf, lead...)
	e.encStruct(&nb.Document, jsontree.Root, "")
	e.buf = append(e.buf, t.Data[root.End:]...)
	return e.emit(emit)
}
