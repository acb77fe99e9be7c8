package main

// The one line an error about a file is reported as, placed by line and column
// where it has a place.

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/nbformat"
)

// describe is the one line an error about path is reported as:
// "path:line:col: message" where the error has a place in the file (a
// syntax error), else "path: message", the path quoted if it must be
// (quoteName). Package prefixes and a repeated path (as an *fs.PathError
// carries it, or a message such as "save PATH: …") are left out.
func describe(path string, err error) string {
	var se *nbformat.SyntaxError
	if errors.As(err, &se) && se.Line > 0 {
		return place(path, se.Line, se.Column) + ": " + se.Msg
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && (pe.Path == path || path == "-") {
		err = pe.Err
	}
	msg := err.Error()
	for _, prefix := range []string{"convert: ", "nbformat: ", path + ": "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	// The operation and path an error text repeats ("save x.md: …").
	for _, op := range []string{"open", "read", "save", "stat", "write", "rename"} {
		msg = strings.TrimPrefix(msg, op+" "+path+": ")
	}
	return quoteName(path) + ": " + msg
}

// locate returns the line and column (1-based, columns in bytes) of the
// value a JSON Pointer names in data — or, for a member that is missing,
// of the object that lacks it (as schema problems are placed) — or 0, 0
// when data does not parse: errors about a notebook's structure (a
// *nbformat.FormatError) then name a place editors can jump to.
func locate(data []byte, ptr nbformat.Pointer) (line, col int) {
	t, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: maxDepth, MaxString: maxString})
	if err != nil {
		return 0, 0
	}
	n := jsontree.Root
	for tok := range jsonpointer.Tokens(string(ptr)) {
		next := -1
		switch t.Nodes[n].Kind {
		case jsontree.Object:
			next = t.Lookup(n, tok)
		case jsontree.Array:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < int(t.Nodes[n].Len) {
				next = t.ChildList(n)[i]
			}
		}
		if next < 0 {
			break
		}
		n = next
	}
	return jsontree.Position(data, int64(t.Nodes[n].Start))
}
