package main

// The diff driver's work tree side, stripped as git stores it.

import (
	"path/filepath"
	"strings"
)

// storedSide returns data, the text of a side the diff driver was given
// as file, as git stores it: git hands the driver the work tree file
// itself (file is then the path relative to the top of the work tree,
// where git runs the driver: the path git names, or with --relative that
// path under the folder it is relative to; git's copies of blobs are
// absolute paths of temporary files) for git diff's new side, and for
// git diff --cached's when the index entry is up to date, without its
// clean filter. Where ipynb's strip filter applies to the path (git
// check-attr, and filter.ipynb.clean is ipynb's), the side is stripped
// as the filter strips it, so that git diff shows none of the outputs
// and counts git stores none of. Any other side, or one strip refuses,
// is data.
func storedSide(path, file string, data []byte) []byte {
	if data == nil || file != path && !strings.HasSuffix(file, "/"+path) || filepath.IsAbs(file) {
		return data
	}
	got, _, err := checkAttr("", []string{file})
	if err != nil || got[file]["filter"] != driver {
		return data
	}
	if v, ok, err := gitConfigGet("", "filter.ipynb.clean"); err != nil || !ok || !settingFor("filter.ipynb.clean").ours(v) {
		return data
	}
	keys, err := stripKeys(nil, nil)
	if err != nil {
		return data
	}
	out, _, err := stripNotebook(data, stripOptions{keys: keys})
	if err != nil {
		return data
	}
	return out
}
