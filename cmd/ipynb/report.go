package main

import (
	"errors"
	"io/fs"
	"strings"

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
