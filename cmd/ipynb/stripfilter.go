package main

// strip --filter: git's clean filter, which never loses what git gives it.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/nbdialog/ipynb/nbformat"
)

// cleanFilter strips the notebook on standard input to standard output,
// as git's clean filter (filter.ipynb.clean). Input that is not JSON is
// written back unchanged: git also runs the filter on what is not a
// notebook, such as the text diff --textconv makes of one (git blame
// cleans it to compare it with the committed blobs' textconv), or a
// notebook holding git's conflict markers. Input that cannot start a
// JSON object (the textconv's "## …", /dev/zero's NULs) is copied as it
// streams in; the rest is read up to nbformat's size limit, and when
// over it, copied on if what was read is not JSON. A notebook strip
// refuses (JSON) is an error, exit 1: git add fails, nothing committed.
func cleanFilter(e *env, opt stripOptions) int {
	in := bufio.NewReaderSize(e.stdin, 64<<10)
	if !mayBeObject(in) {
		return copyOn(e, nil, in)
	}
	data, err := io.ReadAll(io.LimitReader(in, maxBytes+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "<stdin>: %v\n", err)
		return exitError
	}
	if len(data) > maxBytes {
		if notJSON(data) {
			return copyOn(e, data, in)
		}
		fmt.Fprintf(e.stderr, "<stdin>: standard input is more than the limit of %d bytes\n", maxBytes)
		return exitFindings
	}
	out, _, err := stripNotebook(data, opt)
	if err != nil && notJSON(data) {
		out, err = data, nil
	}
	if err != nil {
		fmt.Fprintln(e.stderr, describe("-", err))
		return exitFindings
	}
	if _, err := e.stdout.Write(out); err != nil {
		fmt.Fprintf(e.stderr, "ipynb strip: writing: %v\n", err)
		return exitError
	}
	return exitOK
}

// mayBeObject reports whether the first byte of in after white space
// (looked at, not read) may start a JSON object: "{", or a UTF-8
// byte-order mark. White space filling the whole buffer counts as may.
func mayBeObject(in *bufio.Reader) bool {
	for n := 1; n <= in.Size(); n++ {
		b, _ := in.Peek(n)
		if len(b) < n {
			return false // the end, or an error copyOn reports
		}
		switch b[n-1] {
		case ' ', '\t', '\n', '\r':
		case '{', 0xEF:
			return true
		default:
			return false
		}
	}
	return true
}

// notJSON reports whether data, or a prefix of it, is not JSON: the
// reader's syntax error lies before its end (so no byte after could
// change it) and is not about a size limit.
func notJSON(data []byte) bool {
	_, err := unmarshalOwned(data)
	var se *nbformat.SyntaxError
	return errors.As(err, &se) && !se.Limit && se.Offset < int64(len(data))
}

// copyOn writes head, then the rest of in, to standard output unchanged.
func copyOn(e *env, head []byte, in io.Reader) int {
	if _, err := io.Copy(e.stdout, io.MultiReader(bytes.NewReader(head), in)); err != nil {
		fmt.Fprintf(e.stderr, "ipynb strip: %v\n", err)
		return exitError
	}
	return exitOK
}
