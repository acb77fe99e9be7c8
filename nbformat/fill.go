package nbformat

// Heal's writing of missing required members: the structs lacking one,
// recorded, are written with it.

import (
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
)

// Writing missing required members: a struct decoded from a file that
// lacks one of its required members is written without it, while the
// member holds its zero value (Unmarshal and Marshal never repair). Heal's
// repair of a missing required member is the explicit step below: it
// records the struct that lacks the member, and from then on the encoder
// writes that struct's required members, a missing one with its empty
// value (an empty source, no outputs, a null execution count, {}
// metadata). Nothing else about the notebook changes how it is written.

// fillMissing records, for each problem of a missing required member in
// found (a validation of nb as it is now), the struct that lacks it.
func (nb *Notebook) fillMissing(found []located) {
	for _, f := range found {
		if f.err.Keyword != "required" {
			continue
		}
		x, ok := structAt(&nb.Document, f.err.Pointer)
		if !ok {
			continue
		}
		if nb.filled == nil {
			nb.filled = map[codecStruct]bool{}
		}
		nb.filled[x] = true
	}
}

// structAt returns the generated struct that pointer p (in the notebook as
// written) locates below the document doc, or the nearest one above p's
// place when p leads into a value that is not one (a member, generic
// JSON). It reports false when p's place is not in the typed values at
// all (an index past the end of a list).
func structAt(doc codecStruct, p Pointer) (codecStruct, bool) {
	found := doc
	x := doc
	var list int // x's field that the next token indexes, or -1
	list = -1
	for tok := range jsonpointer.Tokens(string(p)) {
		if list >= 0 {
			k, err := strconv.Atoi(tok)
			if err != nil {
				return nil, false
			}
			s, ok := x.fieldIndex(list, k)
			if !ok {
				return nil, false
			}
			if s == nil {
				return found, true
			}
			x, found, list = s, s, -1
			continue
		}
		i := x.fieldNamed(tok)
		if i < 0 {
			return found, true
		}
		if x.codec().fields[i].typ.kind == kindSlice {
			list = i
			continue
		}
		s := x.fieldStruct(i, false)
		if s == nil {
			return found, true
		}
		x, found = s, s
	}
	return found, true
}
