package main

// Reading the command's inputs: files and standard input within the size limit,
// their stamps, and the lines saying why one could not be read.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/nbformat"
)

// input is one notebook to process: a file, or standard input ("-").
type input struct {
	path   string      // as shown; "-" for standard input
	walked bool        // found in a folder: read without following links or blocking
	real   string      // for a walked symbolic link, the file it leads to
	folder fs.FileInfo // for a walked file, the folder listed (see walker.dir)
	size   int64       // for a regular file, its size when it was found,
	sized  bool        // if known (see cost)
}

func (in input) stdin() bool { return in.path == "-" }

// pathError drops the operation and path from an *fs.PathError, which the
// message already names.
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// read returns the bytes of an input, refusing more than nbformat's
// default size limit while reading (files without a size, such as pipes
// and /dev/zero, included).
func (e *env) read(in input) ([]byte, error) {
	data, _, err := e.readStamped(in)
	return data, err
}

// streamError drops the package prefix from nbformat's errors, as the
// command names the input itself.
func streamError(err error) error {
	if err != nil && strings.HasPrefix(err.Error(), "nbformat: ") {
		return errors.New(strings.TrimPrefix(err.Error(), "nbformat: "))
	}
	return err
}

// readStamped returns the bytes of an input and, for a regular file, its
// stamp (for writing it back); standard input and pipes or devices named
// on the command line have none. Files found in folders are read without
// following links; opening never blocks on a pipe put in a file's place.
func (e *env) readStamped(in input) ([]byte, *atomicfile.Stamp, error) {
	var data []byte
	var stamp *atomicfile.Stamp
	var err error
	switch {
	case in.stdin():
		// The limit is enforced while reading, and bytes no JSON holds
		// (such as NUL) are refused as soon as they are read.
		data, err = readAll(e.stdin)
		if errors.Is(err, nbformat.ErrLimit) {
			err = fmt.Errorf("standard input is more than the limit of %d bytes", maxBytes)
		}
		if refusedSyntax(err) == nil {
			err = streamError(err)
		}
		return data, nil, err
	case in.walked:
		name := in.path
		if in.real != "" {
			name = in.real
		}
		data, stamp, err = atomicfile.Read(name, atomicfile.ReadOptions{MaxBytes: maxBytes, NoFollow: true, Folder: in.folder})
	case stream(in.path):
		// As standard input (/dev/zero is refused at its first byte).
		data, err = atomicfile.ReadStreamWith(in.path, readAll)
		if refusedSyntax(err) == nil {
			err = streamError(err)
		}
	default:
		data, stamp, err = atomicfile.Read(in.path, atomicfile.ReadOptions{MaxBytes: maxBytes})
	}
	if errors.Is(err, atomicfile.ErrSymlink) {
		err = errors.New("it became a symbolic link after its folder was searched; left alone")
	}
	return data, stamp, err
}

// refusedSyntax returns the syntax error for which reading a stream
// (standard input, a pipe) stopped before its end, nil for any other
// error: the bytes read are not JSON, which is what the stream holds, not
// a failure to read it, so commands report it as they report a file's
// (PATH:LINE:COLUMN: …, a finding of check, fmt and strip).
func refusedSyntax(err error) *nbformat.SyntaxError {
	var se *nbformat.SyntaxError
	if errors.As(err, &se) && !se.Limit && se.Line > 0 {
		return se
	}
	return nil
}

// readFailure is the line saying why the input shown (its name as
// printed) could not be read: "shown:LINE:COLUMN: why" for a stream
// whose bytes are not JSON (see refusedSyntax), "shown: why" otherwise.
func readFailure(shown string, err error) string {
	if se := refusedSyntax(err); se != nil {
		return fmt.Sprintf("%s:%d:%d: %s", shown, se.Line, se.Column, se.Msg)
	}
	return shown + ": " + pathError(err).Error()
}

// stream reports whether a path named on the command line is read as a
// stream (its result, for fmt and strip, going to standard output): a
// named pipe, socket or device, or a descriptor such as /dev/stdin or
// bash's <(...) (/dev/fd/N), even when it stands for a regular file.
func stream(p string) bool {
	c := filepath.Clean(p)
	if c == "/dev/stdin" || strings.HasPrefix(c, "/dev/fd/") || strings.HasPrefix(c, "/proc/self/fd/") {
		return true
	}
	if strings.HasPrefix(c, "/proc/") && strings.Contains(c, "/fd/") {
		return true
	}
	fi, err := os.Stat(p)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}
