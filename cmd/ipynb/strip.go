package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/nbformat"
)

var stripCmd = &command{
	name:    "strip",
	summary: "remove outputs, execution counts and volatile metadata",
	doc: `Removes outputs, execution counts and the metadata nbstripout removes by
default (listed at --keep), in place and atomically, keeping each file's
own style; "-" reads standard input and writes standard output. Prints
the files it changed.`,
	usage: "[--keep-count] [--keep KEY]... PATH...",
}

func init() { stripCmd.run = runStrip }

// strippedKeys are nbstripout's default extra keys: notebook metadata
// (metadata.*) and cell metadata (cell.metadata.*) that changes on every
// run.
var strippedKeys = []string{
	"metadata.signature",
	"metadata.widgets",
	"cell.metadata.collapsed",
	"cell.metadata.ExecuteTime",
	"cell.metadata.execution",
	"cell.metadata.heading_collapsed",
	"cell.metadata.hidden",
	"cell.metadata.scrolled",
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func runStrip(e *env, args []string) int {
	fs := stripCmd.flags(e)
	keepCount := fs.Bool("keep-count", false, "keep execution counts")
	var keep listFlag
	fs.Var(&keep, "keep", "keep this key, one of "+strings.Join(strippedKeys, ", ")+" (repeatable)")
	if st := parseFiles(e, fs, args); st >= 0 {
		return st
	}
	for _, k := range keep {
		if !slices.Contains(strippedKeys, k) {
			fmt.Fprintf(e.stderr, "ipynb strip: --keep %q: not a key strip removes (%s)\n", k, strings.Join(strippedKeys, ", "))
			return exitError
		}
	}
	var drop []string
	for _, k := range strippedKeys {
		if !slices.Contains(keep, k) {
			drop = append(drop, k)
		}
	}
	ins, ok := expand(e, fs.Args())
	status := rewrite(e, ins, false, func(_ input, data []byte) ([]byte, error) {
		return strip(data, *keepCount, drop)
	})
	if !ok {
		status = exitError
	}
	return status
}

// strip removes outputs, counts and the drop keys; the rest of the file
// keeps its bytes.
func strip(data []byte, keepCount bool, drop []string) ([]byte, error) {
	nb, err := nbformat.UnmarshalOptions{}.UnmarshalOwned(data)
	if err != nil {
		return nil, err
	}
	if nb.Nbformat != 4 {
		return nil, fmt.Errorf("nbformat %d: strip handles version 4 notebooks (upgrade with 'ipynb fmt --upgrade')", nb.Nbformat)
	}
	for _, k := range drop {
		if key, ok := strings.CutPrefix(k, "metadata."); ok {
			if _, has := nb.Metadata.AdditionalProperties[key]; has {
				nb.Metadata.AdditionalProperties = without(nb.Metadata.AdditionalProperties, key)
			}
		}
	}
	for _, c := range nb.Cells {
		md := nbformat.CellMetadataOf(c)
		for _, k := range drop {
			if key, ok := strings.CutPrefix(k, "cell.metadata."); ok && md != nil {
				dropMeta(md, key)
			}
		}
		if code, ok := c.(*nbformat.CodeCell); ok {
			if len(code.Outputs) > 0 {
				code.Outputs = []nbformat.Output{}
			}
			if !keepCount {
				code.ExecutionCount = nil
			}
		}
	}
	if !nb.Edited() {
		return data, nil
	}
	return nbformat.Marshal(nb)
}

// dropMeta removes key from a cell's metadata, typed or not.
func dropMeta(md any, key string) {
	if cm, ok := md.(*nbformat.CodeCellMetadata); ok {
		switch key {
		case "collapsed":
			cm.Collapsed = nil
		case "scrolled":
			cm.Scrolled = nil
		case "execution":
			cm.Execution = nil
		}
	}
	var extra *map[string]any
	switch m := md.(type) {
	case *nbformat.CodeCellMetadata:
		extra = &m.AdditionalProperties
	case *nbformat.MarkdownCellMetadata:
		extra = &m.AdditionalProperties
	case *nbformat.RawCellMetadata:
		extra = &m.AdditionalProperties
	}
	if _, has := (*extra)[key]; has {
		*extra = without(*extra, key)
	}
}

func without(m map[string]any, key string) map[string]any {
	n := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			n[k] = v
		}
	}
	if len(n) == 0 {
		return nil
	}
	return n
}
