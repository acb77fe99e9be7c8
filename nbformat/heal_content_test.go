package nbformat_test

// Tests of Heal keeping content: every string and number with a valid place in
// the input is in the healed notebook.

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// healWith heals nb as Heal does, with candidate ids from newID, so that
// expectations read well.
func healWith(nb *nbformat.Notebook, newID func() nbformat.CellID) ([]nbformat.Repair, error) {
	return nbformat.HealWithIDs(nb, newID)
}

// counterIDs returns candidate ids h1, h2, … (deterministic heals).
func counterIDs() func() nbformat.CellID {
	n := 0
	return func() nbformat.CellID { n++; return nbformat.CellID("h" + strconv.Itoa(n)) }
}

// healBytes reads in, heals it with counter ids and returns the notebook
// written, failing t if Heal fails or leaves the notebook invalid.
func healBytes(t testing.TB, in []byte) []byte {
	t.Helper()
	nb, err := nbformat.Unmarshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := healWith(nb, counterIDs()); err != nil {
		t.Fatalf("Heal: %v", err)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Fatalf("healed notebook invalid: %v", err)
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// decodeUseNumber decodes JSON keeping numbers as written.
func decodeUseNumber(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// Metadata keys the schema gives a shape to: their invalid values have no
// valid place (Heal removes them, as Python's strip_invalid_metadata does).
var (
	shapedNotebookMetadata = map[string]bool{"kernelspec": true, "language_info": true, "orig_nbformat": true, "title": true, "authors": true}
	shapedCellMetadata     = map[string]bool{"name": true, "tags": true, "jupyter": true, "execution": true, "collapsed": true, "scrolled": true, "format": true}
)

// placedContent lists the strings and numbers (as written) of a notebook
// that have a valid place in some valid notebook: cell sources, outputs
// (text, data, traceback, ename, evalue, output metadata), attachments,
// free-form metadata, and everything in a cell or output that is not an
// object. Not listed: member names, cell and output types, ids, execution
// counts, values of metadata keys the schema shapes, and members a cell or
// output may not have.
func placedContent(doc any) []string {
	var out []string
	var leaves func(x any)
	leaves = func(x any) {
		switch x := x.(type) {
		case string:
			out = append(out, x)
		case json.Number:
			out = append(out, string(x))
		case []any:
			for _, e := range x {
				leaves(e)
			}
		case map[string]any:
			for _, e := range x {
				leaves(e)
			}
		}
	}
	free := func(md any, shaped map[string]bool) {
		if m, ok := md.(map[string]any); ok {
			for k, v := range m {
				if !shaped[k] {
					leaves(v)
				}
			}
		}
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	free(m["metadata"], shapedNotebookMetadata)
	cells, _ := m["cells"].([]any)
	for _, c := range cells {
		cm, ok := c.(map[string]any)
		if !ok {
			leaves(c)
			continue
		}
		kind := cellKind(cm)
		if typ, _ := cm["cell_type"].(string); typ == "heading" {
			// A heading becomes one markdown line: its lines are kept,
			// their line breaks are not.
			var text strings.Builder
			switch src := cm["source"].(type) {
			case string:
				text.WriteString(src)
			case []any:
				for _, l := range src {
					s, _ := l.(string)
					text.WriteString(s)
				}
			}
			for _, l := range strings.Split(text.String(), "\n") {
				out = append(out, strings.TrimSpace(l))
			}
		} else {
			leaves(cm["source"])
		}
		free(cm["metadata"], shapedCellMetadata)
		if kind != "code" {
			if att, ok := cm["attachments"].(map[string]any); ok {
				for _, b := range att {
					if _, ok := b.(map[string]any); ok {
						leaves(b)
					}
				}
			}
		}
		outs, _ := cm["outputs"].([]any)
		if kind != "code" {
			outs = nil
		}
		for _, o := range outs {
			om, ok := o.(map[string]any)
			if !ok {
				leaves(o)
				continue
			}
			for _, k := range outputContent(om) {
				if _, isObj := om[k].(map[string]any); k == "metadata" && !isObj {
					continue // output metadata is an object or nothing
				}
				leaves(om[k])
			}
		}
	}
	return out
}

// missingContent returns the placed content of in (see placedContent) that
// the healed notebook out no longer holds: each string must be part of a
// string or number of out, or of a value kept as its JSON text.
func missingContent(in, out []byte) ([]string, error) {
	din, err := decodeUseNumber(bytes.TrimPrefix(in, []byte("\xef\xbb\xbf")))
	if err != nil {
		return nil, err
	}
	dout, err := decodeUseNumber(out)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	var all strings.Builder
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			have[x] = true
			all.WriteString(x)
			all.WriteByte(0)
			if t := strings.TrimSpace(x); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
				// A value Heal kept as its JSON text.
				if v, err := decodeUseNumber([]byte(t)); err == nil {
					walk(v)
				}
			}
		case json.Number:
			have[string(x)] = true
			all.WriteString(string(x))
			all.WriteByte(0)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(dout)
	hay := all.String()
	var missing []string
	for _, s := range placedContent(din) {
		if s == "" || have[s] || strings.Contains(hay, s) {
			continue
		}
		q, _ := json.Marshal(s)
		if strings.Contains(hay, string(q[1:len(q)-1])) {
			continue
		}
		missing = append(missing, s)
	}
	return missing, nil
}

// outputContent names the members of an output that have a valid place:
// those of its type or, for an unknown type, of the type it resembles (the
// one holding data, else text, else a traceback); nil means all of it (it
// resembles nothing and is kept as text).
func outputContent(om map[string]any) []string {
	display := []string{"data", "metadata"}
	if data, ok := om["data"].(map[string]any); ok && data["text/plain"] == nil && isText(om["text"]) {
		display = append(display, "text") // its place: the data's text/plain
	}
	typ, _ := om["output_type"].(string)
	has := func(k string) bool { return om[k] != nil }
	// The type named (or a case variant) holds the content, unless the
	// output has none of that type's content and another type's.
	others := has("data") || has("text") || has("traceback") || has("ename") || has("evalue")
	switch strings.ToLower(strings.TrimSpace(typ)) {
	case "stream":
		if has("text") || !others {
			return []string{"text"}
		}
	case "display_data", "execute_result", "pyout":
		if has("data") || !others {
			return display
		}
	case "error", "pyerr":
		if has("traceback") || has("ename") || has("evalue") || !others {
			return []string{"ename", "evalue", "traceback"}
		}
	}
	switch {
	case has("data"):
		return display
	case has("text"):
		return []string{"text"}
	case has("traceback") || has("ename") || has("evalue"):
		return []string{"ename", "evalue", "traceback"}
	}
	var all []string
	for k := range om {
		all = append(all, k)
	}
	return all
}

// cellKind is the type of a cell or, for an unknown type, of the cell it
// resembles: a case variant of a valid type; markdown for a heading; code
// when it has outputs or an execution count; else raw.
func cellKind(cm map[string]any) string {
	typ, _ := cm["cell_type"].(string)
	switch k := strings.ToLower(strings.TrimSpace(typ)); k {
	case "code", "markdown", "raw":
		return k
	case "heading":
		return "markdown"
	}
	if cm["outputs"] != nil || cm["execution_count"] != nil {
		return "code"
	}
	return "raw"
}

// isText reports whether x is a string or a list of strings.
func isText(x any) bool {
	switch x := x.(type) {
	case string:
		return true
	case []any:
		for _, e := range x {
			if _, ok := e.(string); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// Candidate ids that are not valid are skipped.
func TestHealSkipsInvalidCandidates(t *testing.T) {
	t.Parallel()
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": ""}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ids := []nbformat.CellID{"not valid!", "given1"}
	if _, err := healWith(nb, func() nbformat.CellID { id := ids[0]; ids = ids[1:]; return id }); err != nil {
		t.Fatal(err)
	}
	if got := nbformat.CellIDOf(nb.Cells[0]); got != "given1" {
		t.Errorf("id %q, want given1 (the first valid candidate)", got)
	}
}
