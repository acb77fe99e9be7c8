package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nbdialog/ipynb/nbformat"
)

// input is one notebook to process: a file, or standard input ("-").
type input struct {
	path string // "-" for standard input
}

func (in input) stdin() bool { return in.path == "-" }

// skipDirs are not searched: version-control data and Jupyter's autosave
// copies.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".ipynb_checkpoints": true}

// expand turns PATH arguments into inputs: files as given, folders
// searched for *.ipynb (skipping skipDirs), "-" for standard input.
// Missing paths are reported; ok is false then.
func expand(e *env, args []string) (ins []input, ok bool) {
	ok = true
	for _, a := range args {
		if a == "-" {
			ins = append(ins, input{path: "-"})
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", a, pathError(err))
			ok = false
			continue
		}
		if !fi.IsDir() {
			ins = append(ins, input{path: a})
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(e.stderr, "%s: %v\n", p, pathError(err))
				ok = false
				return nil
			}
			if d.IsDir() {
				if p != a && skipDirs[d.Name()] {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(d.Name(), ".ipynb") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", a, err)
			ok = false
		}
		sort.Strings(found)
		for _, p := range found {
			ins = append(ins, input{path: p})
		}
	}
	return ins, ok
}

// pathError drops the operation and path from an *fs.PathError, which the
// message already names.
func pathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// read returns the bytes of an input, refusing more than nbformat's
// default size limit.
func (e *env) read(in input) ([]byte, error) {
	if !in.stdin() {
		data, err := nbformat.UnmarshalOptions{}.ReadBytes(in.path)
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(strings.TrimPrefix(err.Error(), "nbformat: "), in.path+": "))
		}
		return data, nil
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, nbformat.DefaultMaxBytes+1))
	if err == nil && len(data) > nbformat.DefaultMaxBytes {
		err = fmt.Errorf("standard input is more than the limit of %d bytes", nbformat.DefaultMaxBytes)
	}
	return data, err
}
