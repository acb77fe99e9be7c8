package main

// Finding the unresolved conflicts of a version 4 notebook: markers in texts,
// marker outputs and cells, and conflict records.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// Unresolved conflicts in a notebook, as "ipynb merge" and "ipynb fix"
// leave them (check's status "conflict"):
//
//   - conflict markers in a text: a line of N '<' (N ≥ 1, any label),
//     later a line of exactly N '=', later a line of N '>' (any label) —
//     in a cell's source (a prompt's reply is part of it);
//   - marker outputs: stream outputs of a code cell each holding one such
//     line and nothing else, in that order (the outputs both sides
//     changed); marker lines inside an output's text are what the code
//     printed, not a conflict;
//   - marker cells: cells whose source is one such line, in that order
//     (both sides replacing the same cells);
//   - conflict records: a non-empty convert.ConflictsKey array in a
//     cell's or the notebook's metadata.

// A conflictMark is one unresolved conflict.
type conflictMark struct {
	pointer nbformat.Pointer // the text (or its line) or the record
	cell    int              // its cell (0-based), -1 for the notebook
	msg     string
}

// mayHoldConflicts reports whether a notebook's text may hold a conflict:
// the records' key, or a JSON string with a line starting with '<' (raw
// or escaped) and one that is a separator ('=' only). Anything else is
// spared the search (which decodes every text).
func mayHoldConflicts(data []byte) bool {
	if bytes.Contains(data, []byte(convert.ConflictsKey)) {
		return true
	}
	opens := bytes.Contains(data, []byte(`"<`)) || bytes.Contains(data, []byte(`\n<`)) ||
		bytes.Contains(data, []byte(`\u003c`)) || bytes.Contains(data, []byte(`\u003C`))
	return opens && hasSeparator(data)
}

// hasSeparator reports whether a line of a JSON string in data is a run
// of '=' alone: after a quote or an escaped line break, before one.
func hasSeparator(data []byte) bool {
	for i := 0; ; {
		k := bytes.IndexByte(data[i:], '=')
		if k < 0 {
			return false
		}
		k += i
		j := k
		for j < len(data) && data[j] == '=' {
			j++
		}
		before := k >= 1 && data[k-1] == '"' || k >= 2 && data[k-2] == '\\' && data[k-1] == 'n'
		after := j < len(data) && data[j] == '"' || j+1 < len(data) && data[j] == '\\' && (data[j+1] == 'n' || data[j+1] == 'r')
		if before && after {
			return true
		}
		i = j
	}
}

// findConflicts returns the unresolved conflicts of a version 4 notebook,
// cell by cell (texts, outputs, records), the notebook's records last.
func findConflicts(nb *nbformat.Notebook) []conflictMark {
	var out []conflictMark
	var cellLines []markLine // one per cell: its source when one line
	for i, c := range nb.Cells {
		at := nbformat.Pointer(fmt.Sprintf("/cells/%d", i))
		name := cellName(i, c)
		var src nbformat.MultilineString
		var extra map[string]any
		switch c := c.(type) {
		case *nbformat.CodeCell:
			src, extra = c.Source, c.Metadata.AdditionalProperties
		case *nbformat.MarkdownCell:
			src, extra = c.Source, c.Metadata.AdditionalProperties
		case *nbformat.RawCell:
			src, extra = c.Source, c.Metadata.AdditionalProperties
		default:
			cellLines = append(cellLines, markLine{})
			continue
		}
		lines := textLines(src, at+"/source")
		if len(lines) == 1 {
			cellLines = append(cellLines, markLine{text: lines[0].text, pointer: at + "/source", cell: i})
		} else {
			cellLines = append(cellLines, markLine{})
		}
		for _, l := range findMarkers(lines) {
			out = append(out, conflictMark{l.pointer, i, name + ": conflict markers in its source (" + l.summary + ")"})
		}
		if cc, ok := c.(*nbformat.CodeCell); ok {
			var outLines []markLine
			for j, o := range cc.Outputs {
				l := markLine{}
				if s, ok := o.(*nbformat.Stream); ok {
					if lines := textLines(s.Text, nbformat.Pointer(fmt.Sprintf("%s/outputs/%d/text", at, j))); len(lines) == 1 {
						l = lines[0]
					}
				}
				outLines = append(outLines, l)
			}
			for _, l := range findMarkers(outLines) {
				out = append(out, conflictMark{l.pointer, i, name + ": conflict marker outputs (" + l.summary + ")"})
			}
		}
		out = append(out, records(extra, at+"/metadata", i, name)...)
	}
	for _, l := range findMarkers(cellLines) {
		out = append(out, conflictMark{l.pointer, l.cell, cellName(l.cell, nb.Cells[l.cell]) + ": a marker cell of cells both sides put in one place (" + l.summary + ")"})
	}
	slices.SortStableFunc(out, func(a, b conflictMark) int { return a.cell - b.cell })
	out = append(out, records(nb.Metadata.AdditionalProperties, "/metadata", -1, "notebook metadata")...)
	return out
}

// cellName names a cell in messages: "cell N" (1-based) and its id.
func cellName(i int, c nbformat.Cell) string {
	if id := nbformat.CellIDOf(c); id != "" {
		return fmt.Sprintf("cell %d (id %s)", i+1, id)
	}
	return fmt.Sprintf("cell %d", i+1)
}

// records returns the conflicts recorded in metadata (extra: its members
// the schema does not type) at pointer md.
func records(extra map[string]any, md nbformat.Pointer, cell int, name string) []conflictMark {
	v, ok := extra[convert.ConflictsKey]
	if !ok {
		return nil
	}
	at := md + "/" + nbformat.Pointer(convert.ConflictsKey)
	var list []any
	switch x := v.(type) {
	case json.RawMessage:
		es, _ := jsonvalue.Elements(x)
		for _, e := range es {
			list = append(list, e)
		}
		if es == nil {
			list = []any{x}
		}
	case []any:
		list = x
	default:
		list = []any{x}
	}
	var out []conflictMark
	for k, r := range list {
		what, _ := jsonvalue.At(r, []string{"what"})
		ptr, _ := jsonvalue.At(r, []string{"pointer"})
		desc := quoteText(recordText(what))
		if p := recordText(ptr); p != "" {
			desc += " at " + quoteText(p)
		}
		if desc == "" {
			desc = "a record"
		}
		out = append(out, conflictMark{at + nbformat.Pointer("/"+strconv.Itoa(k)), cell, name + ": conflict recorded: " + strings.TrimSpace(desc)})
	}
	return out
}

// recordText is a JSON string value's text (raw JSON decoded), else "".
func recordText(v any) string {
	if r, ok := v.(json.RawMessage); ok {
		v, _ = jsonvalue.Decode(r)
	}
	s, _ := v.(string)
	return s
}

// A markLine is one line of a text being searched for markers, with the
// pointer that places it (its piece of a text stored as lines).
type markLine struct {
	text    string
	pointer nbformat.Pointer
	cell    int
}

// textLines splits a text into its lines, each placed by the pointer of
// the piece holding it (p/k for a text of several pieces, stored as a
// list; p for one piece).
func textLines(m nbformat.MultilineString, p nbformat.Pointer) []markLine {
	pieces := m.Lines()
	asList := len(pieces) > 1
	var out []markLine
	for k, piece := range pieces {
		at := p
		if asList {
			at = nbformat.Pointer(fmt.Sprintf("%s/%d", p, k))
		}
		for _, l := range strings.SplitAfter(piece, "\n") {
			if l != "" {
				out = append(out, markLine{text: l, pointer: at})
			}
		}
	}
	return out
}

// A marker found: its opening line, and a summary of its three lines.
type found struct {
	markLine
	summary string
}

// findMarkers finds conflicts marked in lines: an opening marker, then a
// separator of its size, then a closing marker of its size.
func findMarkers(lines []markLine) []found {
	var out []found
	for i := 0; i < len(lines); i++ {
		n, label := marker(lines[i].text, '<')
		if n == 0 {
			continue
		}
		sep, end := -1, -1
		for j := i + 1; j < len(lines); j++ {
			if sep < 0 {
				if m, l := marker(lines[j].text, '='); m == n && l == "" {
					sep = j
				}
				continue
			}
			if m, _ := marker(lines[j].text, '>'); m == n {
				end = j
				break
			}
		}
		if end < 0 {
			continue
		}
		_, closing := marker(lines[end].text, '>')
		out = append(out, found{lines[i], markerText('<', n, label) + " … " + markerText('>', n, closing)})
		i = end
	}
	return out
}

// marker returns the size and label of a marker line of character c, or
// 0: c repeated, then the end of the line or a space and a label.
func marker(line string, c byte) (int, string) {
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	n := 0
	for n < len(line) && line[n] == c {
		n++
	}
	if n == 0 || n < len(line) && line[n] != ' ' {
		return 0, ""
	}
	return n, strings.TrimSpace(line[n:])
}

// shownMarker is the longest run of a marker's character a message
// shows; a longer marker is shown as that many and its size.
const shownMarker = 7

// shownLabel is the most characters of a marker's label a message shows.
const shownLabel = 40

// markerText is a marker line of n characters c and its label as a
// message quotes it: up to shownMarker characters as they are, a longer
// one as shownMarker of them and its size ("<<<<<<<(1024) HEAD": a
// .gitattributes conflict-marker-size makes markers up to 1024 long), its
// label cut to shownLabel characters ("…").
func markerText(c byte, n int, label string) string {
	s := strings.Repeat(string(c), min(n, shownMarker))
	if n > shownMarker {
		s += "(" + strconv.Itoa(n) + ")"
	}
	if label != "" {
		s += " " + leadLine(label, shownLabel)
	}
	return s
}
