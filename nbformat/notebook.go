package nbformat

// Notebook, UnmarshalOptions and Unmarshal: the document, the source it was
// read from and the limits of reading.

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// The format version this package writes for new notebooks, upgrades to
// and heals to (4.5).
const (
	majorVersion = nblimits.MajorVersion
	minorVersion = nblimits.MinorVersion
)

// defaultMaxDepth is the nesting limit of reading (UnmarshalOptions), also
// applied to generic JSON values.
const defaultMaxDepth = nblimits.DefaultMaxDepth

// Notebook is a Jupyter notebook. Its fields are the schema's top-level
// fields (in the embedded, generated [Document]); its unexported part
// remembers the bytes it was read from, so that [Marshal] can write
// unedited parts back exactly.
//
// A Notebook may be read by several goroutines at once, but must not be
// changed while anything else reads or writes it.
type Notebook struct {
	Document
	src     *source
	filled  map[codecStruct]bool // structs whose missing required members are written (see fillMissing)
	dropBOM bool                 // leave out the byte-order mark read (set by Heal)
}

// New returns an empty notebook of the current format (4.5).
func New() *Notebook {
	return &Notebook{Document: Document{
		Cells:         []Cell{},
		Nbformat:      majorVersion,
		NbformatMinor: minorVersion,
	}}
}

// source is what a notebook was read from.
type source struct {
	tape  *jsontree.Tape
	order []int32 // structCodec.id → 1 + the node of the first object of that type
	style *nbstyle.Style
	once  sync.Once
	// deep: read with a nesting limit above the default (the version 3
	// upgrade then parses the worksheets again within the default).
	deep bool
	// problems: the validation of these bytes, once done (see
	// Notebook.problems); an empty list for valid bytes.
	problems atomic.Pointer[[]located]
}

// learnOrder records the first object (node j of the source's tape) of
// each struct type: for unsorted files, the order of its keys is the order
// new members of that type are written in (see orderOf).
func (s *source) learnOrder(id, j int) {
	if id < 0 {
		return // a struct of the tests (see codec_synth_test.go)
	}
	if s.order == nil {
		s.order = make([]int32, len(structCodecs))
	}
	if s.order[id] == 0 {
		s.order[id] = int32(j) + 1
	}
}

// orderOf returns the keys of the first object of the struct of codec id
// read, in file order (ok false when none was read).
func (s *source) orderOf(id int) (keys []string, ok bool) {
	if id < 0 || id >= len(s.order) || s.order[id] == 0 {
		return nil, false
	}
	t, j := s.tape, int(s.order[id]-1)
	keys = make([]string, 0, t.Nodes[j].Len)
	t.Children(j, func(k int) bool {
		keys = append(keys, t.KeyString(k))
		return true
	})
	return keys, true
}

func (s *source) styleOf() *nbstyle.Style {
	s.once.Do(func() { s.style = nbstyle.Detect(s.tape) })
	return s.style
}

// UnmarshalOptions configures reading. The zero value uses the defaults,
// which are far beyond real notebooks (the largest seen are a few hundred
// megabytes, a few thousand cells, nesting below 50) and keep hostile
// input cheap to refuse. A field 0 (or negative) means its default.
type UnmarshalOptions struct {
	// MaxBytes is the largest input accepted: 0 means 1 GiB (1 << 30
	// bytes); at most 2 GiB - 1, the tape's offset range.
	MaxBytes int64
	// MaxDepth is the deepest nesting of arrays and objects accepted: 0
	// means 10,000.
	MaxDepth int
	// MaxCells is the most cells accepted: 0 means 100,000.
	MaxCells int
	// MaxString is the longest string accepted, in bytes as written: 0
	// means 512 MiB (512 << 20 bytes).
	MaxString int
	// MaxValues is the most JSON values accepted, counting every value
	// at every depth: 0 means 1 << 26 (67,108,864; a 50 MB file of 25
	// million small values reads in a few hundred megabytes; the limit
	// bounds the work and the memory of hostile input well below what
	// MaxBytes alone allows). Exceeding it is a *SyntaxError at the first
	// value past the limit.
	MaxValues int
	// NoCopy makes Unmarshal keep data instead of copying it: the
	// notebook reads from data for as long as it lives, so data must
	// never change afterwards. It saves a copy of the input for a caller
	// that read the bytes itself and keeps them as they are.
	NoCopy bool
}

// Unmarshal reads a notebook with default limits. See
// [UnmarshalOptions.Unmarshal].
func Unmarshal(data []byte) (*Notebook, error) { return UnmarshalOptions{}.Unmarshal(data) }

// Unmarshal reads a notebook of any nbformat version from 1 to 4 (version
// 1 and 2 notebooks are kept, untyped, in AdditionalProperties; version 3
// ones likewise until [Upgrade]). It copies data (which must not change
// during the call, and may after it), unless NoCopy is set, and never
// changes or repairs what it reads: invalid content is kept where it was
// found (see [Validate]), and cells without ids stay without ids.
//
// It fails with a [*SyntaxError] (line, column) on input that is not JSON
// or breaks a size, depth, string or value limit while being scanned, and
// with a [*FormatError] (JSON Pointer) on JSON that is not a notebook: a
// top level that is not an object (pointer ""), no integer nbformat, an
// nbformat above 4, or more cells than MaxCells.
func (o UnmarshalOptions) Unmarshal(data []byte) (*Notebook, error) {
	return o.read(data, !o.NoCopy)
}

func (o UnmarshalOptions) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return nblimits.DefaultMaxBytes
	}
	return o.MaxBytes
}

// unmarshal reads a notebook from data, which it keeps: the caller never
// changes it after.
func (o UnmarshalOptions) unmarshal(data []byte) (*Notebook, error) {
	return o.read(data, false)
}

// unmarshalParts is unmarshal of a temporary notebook whose values are
// taken into another one (the version 3 upgrade's cells, the values Heal
// rebuilds).
func (o UnmarshalOptions) unmarshalParts(data []byte) (*Notebook, error) {
	return o.read(data, false)
}

// read reads a notebook from data, which it copies (copyData) or keeps.
// The tape's nodes and the copy are one allocation (see
// jsontree.ParseBlock): data is parsed where it is and copied after.
func (o UnmarshalOptions) read(data []byte, copyData bool) (*Notebook, error) {
	b, t, err := o.parse(data, copyData)
	if err != nil {
		return nil, err
	}
	return decodeNotebookIn(b, t), nil
}

// parse parses data into a notebook block and checks what read needs
// before decoding: a JSON object of a supported major version, within the
// limits. (Out of read's frame, which is on the stack while the notebook
// is decoded.)
func (o UnmarshalOptions) parse(data []byte, copyData bool) (*notebookBlock, *jsontree.Tape, error) {
	maxBytes := o.maxBytes()
	if int64(len(data)) > maxBytes {
		return nil, nil, &SyntaxError{Offset: maxBytes, Line: 0, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(data), maxBytes), Limit: true}
	}
	lim := jsontree.Limits{MaxDepth: o.MaxDepth, MaxNodes: o.MaxValues, MaxString: o.MaxString}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = nblimits.DefaultMaxDepth
	}
	if lim.MaxString <= 0 {
		lim.MaxString = nblimits.DefaultMaxString
	}
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = nblimits.DefaultMaxValues
	}
	b := new(notebookBlock) // (the tape is made in it)
	block := jsontree.Block{Copy: copyData, Tape: &b.tape}
	t, _, err := jsontree.ParseBlock(data, lim, notebookShape(), block)
	if err != nil {
		return nil, nil, syntaxError("", data, err)
	}
	root := &t.Nodes[jsontree.Root]
	if root.Kind != jsontree.Object {
		return nil, nil, &FormatError{Pointer: "", Msg: fmt.Sprintf("a notebook is a JSON object, not %s (%s)", kindPhrase(root.Kind), shortRaw(t.Raw(jsontree.Root)))}
	}
	nbf := t.Lookup(jsontree.Root, "nbformat")
	if nbf < 0 {
		return nil, nil, &FormatError{Pointer: "/nbformat", Msg: "missing: not a notebook"}
	}
	n := &t.Nodes[nbf]
	if n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0 {
		return nil, nil, &FormatError{Pointer: "/nbformat", Msg: fmt.Sprintf("must be an integer, not %s", t.Raw(nbf))}
	}
	major, ok := jsontree.NumberValue(t.Raw(nbf), n.Flags).(int)
	if !ok || major < 1 || major > majorVersion {
		return nil, nil, &FormatError{Pointer: "/nbformat", Msg: fmt.Sprintf("unsupported major version %s (this package reads 1 to %d)", t.Raw(nbf), majorVersion), Err: ErrUnsupportedVersion}
	}
	maxCells := o.MaxCells
	if maxCells <= 0 {
		maxCells = nblimits.DefaultMaxCells
	}
	if c := t.Lookup(jsontree.Root, "cells"); c >= 0 && t.Nodes[c].Kind == jsontree.Array && int(t.Nodes[c].Len) > maxCells {
		return nil, nil, &FormatError{Pointer: "/cells", Msg: fmt.Sprintf("%d cells, more than the limit of %d", t.Nodes[c].Len, maxCells), Err: ErrLimit}
	}
	b.src.deep = lim.MaxDepth > nblimits.DefaultMaxDepth
	return b, t, nil
}

// kindPhrase names a JSON kind with its article: "an array", "a string",
// "null".
func kindPhrase(k jsontree.Kind) string {
	switch k {
	case jsontree.Null:
		return "null"
	case jsontree.Array, jsontree.Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// shortRaw is a JSON text cut to at most 40 bytes, for messages.
func shortRaw(raw []byte) string {
	if len(raw) <= 40 {
		return string(raw)
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "..."
}
