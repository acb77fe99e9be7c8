package v3write

// Outputs in their version 3 form: data under version 3 keys, texts as lines,
// and JSON as Python's json.dumps writes it.

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// Outputs from version 4 to version 3, as Python nbformat's
// downgrade_output converts them, but losing nothing: execute_result to
// pyout (execution_count to prompt_number), error to pyerr, a stream's
// name to stream, and output data out of its "data" bundle into the
// output itself, under the version 3 keys ("text", "png", …) for the
// MIME types that have one and under the MIME type for the others (which
// Python drops; the version 3 schema allows MIME-type keys, and the
// upgrade puts them back into "data"). application/json becomes "json",
// the JSON text Python's json.dumps writes.

// v3Keys are the version 3 keys of output data (nbformat's _mime_map).
var v3Keys = map[string]string{
	"text/plain":             "text",
	"text/html":              "html",
	"image/svg+xml":          "svg",
	"image/png":              "png",
	"image/jpeg":             "jpeg",
	"text/latex":             "latex",
	"application/json":       "json",
	"application/javascript": "javascript",
}

// isV3Key reports whether k is one of the version 3 keys, which the
// upgrade renames to their MIME types wherever it meets them (in output
// data and output metadata).
func isV3Key(k string) bool {
	for _, v := range v3Keys {
		if v == k {
			return true
		}
	}
	return false
}

// splitKeys are the output keys nbformat 3 stores as lists of lines
// (v3/rwbase.py's _multiline_outputs).
var splitKeys = []string{"text", "html", "svg", "latex", "javascript", "json"}

// output returns the version 3 form of a version 4 output (g: generic, n:
// decoded with texts joined), at pointer p of the cells given.
func (w *writer) output(g, n map[string]any, p string) (*obj, error) {
	d := newObj()
	typ, _ := n["output_type"].(string)
	v3typ := typ
	known := map[string]bool{"output_type": true}
	switch typ {
	case "execute_result", "display_data":
		known["data"], known["metadata"], known["execution_count"] = true, true, true
		reserved := map[string]bool{"output_type": true, "metadata": true, "execution_count": true}
		if typ == "execute_result" {
			v3typ = "pyout"
			reserved["prompt_number"] = true
		}
		d.set("output_type", v3typ)
		if typ == "execute_result" {
			d.set("prompt_number", n["execution_count"])
		}
		if md, ok := g["metadata"]; ok {
			if m, ok := n["metadata"].(map[string]any); ok {
				for k := range m {
					if isV3Key(k) {
						return nil, notRepresentable(jsonpointer.AppendToken(p+"/metadata", k), "output metadata key %q would become %q in the upgrade", k, mimeOf(k))
					}
				}
			}
			d.set("metadata", md)
		}
		if err := w.data(d, g, n, reserved, p); err != nil {
			return nil, err
		}
	case "stream":
		known["name"], known["text"] = true, true
		d.set("output_type", "stream")
		if name, ok := n["name"]; ok {
			d.set("stream", name)
		}
		if text, ok := n["text"]; ok {
			d.set("text", w.splitValue(text))
		}
	case "error":
		v3typ = "pyerr"
		d.set("output_type", "pyerr")
		for _, k := range []string{"ename", "evalue", "traceback"} {
			known[k] = true
			if v, ok := g[k]; ok {
				d.set(k, v)
			}
		}
	default:
		delete(known, "output_type")
	}
	for _, k := range sortedKeys(g) {
		if !known[k] {
			if d.has(k) {
				return nil, notRepresentable(jsonpointer.AppendToken(p, k), "member %q is taken by the version 3 output", k)
			}
			d.set(k, g[k])
		}
	}
	d.order(w.st.outOrder[v3typ])
	return d, nil
}

// data moves a version 4 output's data into its version 3 form d.
func (w *writer) data(d *obj, g, n map[string]any, reserved map[string]bool, p string) error {
	gd, _ := g["data"].(map[string]any)
	nd, _ := n["data"].(map[string]any)
	for _, mime := range sortedKeys(nd) {
		pp := jsonpointer.AppendToken(p+"/data", mime)
		if isV3Key(mime) {
			return notRepresentable(pp, "data key %q would become %q in the upgrade", mime, mimeOf(mime))
		}
		key := mime
		if k, ok := v3Keys[mime]; ok {
			key = k
		}
		if reserved[key] {
			return notRepresentable(pp, "data key %q is a member of the version 3 output", mime)
		}
		var v any
		switch {
		case mime == "application/json":
			v = w.splitValue(string(pyDumps(gd[mime])))
		case mimetype.IsJSON(mime):
			v = gd[mime]
		case slices.Contains(splitKeys, key):
			v = w.splitValue(nd[mime])
		default:
			v = nd[mime]
		}
		d.set(key, v)
	}
	return nil
}

// mimeOf is the MIME type the upgrade renames version 3 key k to.
func mimeOf(k string) string {
	for m, v := range v3Keys {
		if v == k {
			return m
		}
	}
	return k
}

// splitValue is w.st.split for a text, and any other value as it is.
func (w *writer) splitValue(v any) any {
	if s, ok := v.(string); ok {
		return w.st.split(s)
	}
	return v
}

func notRepresentable(p, format string, args ...any) error {
	return &Error{Input: "cells", Pointer: p, Err: fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrNotRepresentable)}
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// pyDumps returns what Python's json.dumps (its defaults: ", " and ": "
// separators, ensure_ascii, members in the order read, the last of
// duplicate keys at the place of the first, Python's float spelling)
// writes for a generic JSON value (a json.RawMessage for an array or an
// object, as output data holds them).
func pyDumps(v any) []byte {
	var buf []byte
	switch x := v.(type) {
	case json.RawMessage:
		t, err := jsontree.Parse(x, jsontree.Limits{})
		if err != nil {
			return x // (never: the bundle holds valid JSON)
		}
		return pyDumpsNode(buf, t, jsontree.Root)
	case nil:
		return append(buf, "null"...)
	case bool:
		return strconv.AppendBool(buf, x)
	case string:
		buf, _ = jsontree.AppendQuoted(buf, x, jsontree.Escaping{ASCII: true})
		return buf
	case int:
		return strconv.AppendInt(buf, int64(x), 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return append(buf, "NaN"...)
		case math.IsInf(x, 1):
			return append(buf, "Infinity"...)
		case math.IsInf(x, -1):
			return append(buf, "-Infinity"...)
		}
		return jsontree.AppendPythonFloat(buf, x)
	case json.Number:
		return jsontree.AppendPythonNumber(buf, []byte(x), numberFlags(string(x)))
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(buf, pyDumps(e)...)
		}
		return append(buf, ']')
	case map[string]any:
		buf = append(buf, '{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf, _ = jsontree.AppendQuoted(buf, k, jsontree.Escaping{ASCII: true})
			buf = append(buf, ": "...)
			buf = append(buf, pyDumps(x[k])...)
		}
		return append(buf, '}')
	}
	return append(buf, "null"...)
}

// numberFlags classifies the text of a json.Number for
// jsontree.AppendPythonNumber.
func numberFlags(s string) uint8 {
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'E' || c == 'N' || c == 'I' {
			return 0
		}
	}
	return jsontree.FlagInt
}

// pyDumpsNode appends node j of t as pyDumps writes it.
func pyDumpsNode(buf []byte, t *jsontree.Tape, j int) []byte {
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.String:
		buf, _ = jsontree.AppendQuoted(buf, t.Str(j), jsontree.Escaping{ASCII: true})
		return buf
	case jsontree.Number:
		return jsontree.AppendPythonNumber(buf, t.Raw(j), n.Flags)
	case jsontree.Array:
		buf = append(buf, '[')
		i := 0
		t.Children(j, func(k int) bool {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			i++
			buf = pyDumpsNode(buf, t, k)
			return true
		})
		return append(buf, ']')
	case jsontree.Object:
		nodes, keys := members(t, j)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf, _ = jsontree.AppendQuoted(buf, k, jsontree.Escaping{ASCII: true})
			buf = append(buf, ": "...)
			buf = pyDumpsNode(buf, t, nodes[k])
		}
		return append(buf, '}')
	}
	return append(buf, t.Raw(j)...)
}
