package mergecheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The checker's view of a notebook: its cells in order, each normalised
// so that versions and spellings compare as values — the text member
// ("source", or a version 3 code cell's "input") as one string named
// "source", a version 3 "prompt_number" as "execution_count" and a
// version 3 code cell's "collapsed" as its metadata's, a version 3
// cell's or pyout/display_data output's missing metadata as the empty
// one (as the upgrade reads them), the multiline strings of outputs and attachments as one string each — and
// its conflict records taken out of the metadata.

type nbView struct {
	major, minor int
	top          *obj // the notebook without cells/worksheets/version, records taken out
	recs         []record
	recErr       error
	cells        []*cellView
	markerCells  int // marker cells taken out (takeMarkerCells)
}

// takeMarkerCells takes out of a result's view the marker cells of cells
// both sides put in one place (the merge keeps ours' new cells, then
// theirs', between cells holding one marker line each: <<<<<<< ours,
// =======, >>>>>>> theirs), in that order: they mark a conflict, and are
// no input's cell. The cells between them are marked inRegion: the region
// is their conflict (ours' cells against theirs' in that place), so a
// cell one side edited and the other deleted is shown as conflicting
// there, whether the merge paired it with the base cell or took it as
// new (pairings of rewritten cells differ; the region shows both sides'
// cells either way).
func takeMarkerCells(v *nbView) {
	isMarker := func(c *cellView, ch byte) bool {
		t := strings.TrimRight(c.text, "\n")
		if strings.Contains(t, "\n") {
			return false // a text holding a conflict (its own markers among other lines), not a marker cell
		}
		m := markerLine.FindStringSubmatch(t)
		return m != nil && m[1][0] == ch && (ch != '=' || t == m[1])
	}
	keep := v.cells[:0:0]
	for i := 0; i < len(v.cells); i++ {
		c := v.cells[i]
		if isMarker(c, '<') {
			sep, end := -1, -1
			for j := i + 1; j < len(v.cells) && end < 0; j++ {
				switch {
				case sep < 0 && isMarker(v.cells[j], '='):
					sep = j
				case sep >= 0 && isMarker(v.cells[j], '>'):
					end = j
				}
			}
			if end > 0 {
				v.markerCells += 3
				for _, in := range v.cells[i+1 : end] {
					in.inRegion = true
				}
				keep = append(keep, v.cells[i+1:sep]...)
				keep = append(keep, v.cells[sep+1:end]...)
				i = end
				continue
			}
		}
		keep = append(keep, c)
	}
	v.cells = keep
}

type cellView struct {
	c        *obj // normalised cell
	text     string
	recs     []record
	recErr   error
	key      string
	inRegion bool // between marker cells (see takeMarkerCells)
}

// separator is what a Solveit prompt's source has between its content and
// its reply.
const separator = "\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n"

// conflictsKey is the metadata member holding conflict records.
const conflictsKey = "ipynb_conflicts"

func number(v any) int {
	n, _ := v.(json.Number)
	i, err := n.Int64()
	if err != nil {
		return -1
	}
	return int(i)
}

// rawCells returns a notebook's cells (a version 3 notebook's worksheets'
// cells, in order).
func rawCells(nb *obj) []*obj {
	var list []any
	if number(nb.vals["nbformat"]) == 3 {
		ws, _ := nb.vals["worksheets"].([]any)
		for _, w := range ws {
			if w, ok := w.(*obj); ok {
				cs, _ := w.vals["cells"].([]any)
				list = append(list, cs...)
			}
		}
	} else {
		list, _ = nb.vals["cells"].([]any)
	}
	cells := make([]*obj, 0, len(list))
	for _, c := range list {
		if c, ok := c.(*obj); ok {
			cells = append(cells, c)
		}
	}
	return cells
}

// textMember names a cell's text member.
func textMember(c *obj, major int) string {
	if major == 3 && str(c.vals["cell_type"]) == "code" {
		return "input"
	}
	return "source"
}

// joined returns a multiline string's text.
func joined(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []any:
		var b strings.Builder
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	}
	return "", false
}

// joinIn replaces o's multiline string members (all but those named in
// keep) by their texts.
func joinIn(o *obj, keep ...string) {
	for _, k := range o.keys {
		if strings.HasSuffix(k, "json") || slices.Contains(keep, k) {
			continue
		}
		if s, ok := joined(o.vals[k]); ok {
			o.vals[k] = s
		}
	}
}

func viewOf(data []byte) (*nbView, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	nb, ok := v.(*obj)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	w := &nbView{major: number(nb.vals["nbformat"]), minor: number(nb.vals["nbformat_minor"])}
	w.top = clone(nb).(*obj)
	for _, k := range []string{"cells", "worksheets", "nbformat", "nbformat_minor"} {
		w.top.del(k)
	}
	if m := w.top.sub("metadata", false); m != nil {
		w.recs, w.recErr = takeRecords(m)
	}
	for _, c := range rawCells(nb) {
		c = clone(c).(*obj)
		cv := &cellView{c: c}
		tm := textMember(c, w.major)
		if s, ok := joined(c.vals[tm]); ok {
			c.del(tm)
			c.set("source", s)
			cv.text = s
		}
		if w.major == 3 {
			if n, ok := c.get("prompt_number"); ok {
				c.del("prompt_number")
				c.set("execution_count", n)
			}
			// A code cell's "collapsed" is its metadata's, as nbformat's
			// upgrade (upgrade_cell) moves it there, over a metadata
			// "collapsed" it may have, and its downgrade moves it back.
			if x, ok := c.get("collapsed"); ok && str(c.vals["cell_type"]) == "code" {
				c.del("collapsed")
				c.sub("metadata", true).set("collapsed", x)
			}
			noMetaSpelled(c)
		}
		noneSpelled(c)
		if outs, ok := c.vals["outputs"].([]any); ok {
			for _, o := range outs {
				if o, ok := o.(*obj); ok {
					joinIn(o, "traceback")
					if d := o.sub("data", false); d != nil {
						joinIn(d)
					}
				}
			}
		}
		if att := c.sub("attachments", false); att != nil {
			for _, k := range att.keys {
				if b, ok := att.vals[k].(*obj); ok {
					joinIn(b)
				}
			}
		}
		if m := c.sub("metadata", false); m != nil {
			cv.recs, cv.recErr = takeRecords(m)
		}
		w.cells = append(w.cells, cv)
	}
	return w, nil
}

// noMetaSpelled gives a version 3 cell, and its pyout and display_data
// outputs, that lack metadata the empty metadata, as nbformat's upgrade
// reads them (upgrade_cell and upgrade_output set it by default): in
// version 3 a missing metadata and an empty one are one value, and a side
// that only spelled it otherwise (git's line merge gives the line of an
// output's "metadata": {} to one side's hunk) changed nothing.
func noMetaSpelled(c *obj) {
	if _, ok := c.get("metadata"); !ok {
		c.set("metadata", newObj())
	}
	outs, _ := c.vals["outputs"].([]any)
	for _, o := range outs {
		if o, ok := o.(*obj); ok {
			if typ := str(o.vals["output_type"]); typ == "pyout" || typ == "display_data" {
				if _, ok := o.get("metadata"); !ok {
					o.set("metadata", newObj())
				}
			}
		}
	}
}

// noneSpelled takes out of a cell the spellings of having no outputs and
// no count: "outputs": [] and "execution_count": null say what a
// markdown or raw cell without these members says too, so that a cell
// given another kind, which gains or loses them, keeps their meaning:
// a side that cleared a cell's outputs while the other made it a note
// both left it with none (and a record of [] is none too).
func noneSpelled(c *obj) {
	if o, ok := c.vals["outputs"].([]any); ok && len(o) == 0 {
		c.del("outputs")
	}
	if n, ok := c.get("execution_count"); ok && n == nil {
		c.del("execution_count")
	}
}

// A record is one conflict record: the values of the three sides at a
// pointer (relative to the cell, or to the notebook for the notebook's
// own records); has[i] is false where side i has no value.
type record struct {
	ptr  string
	vals [3]any
	has  [3]bool
}

var sideNames = [3]string{"base", "ours", "theirs"}

// takeRecords reads and removes the conflict records of a metadata
// object: member "ipynb_conflicts", an array of objects with "pointer"
// (an RFC 6901 pointer) and "base", "ours", "theirs" (absent where that
// side has no value). This is the one place that knows the format.
func takeRecords(meta *obj) ([]record, error) {
	v, ok := meta.get(conflictsKey)
	if !ok {
		return nil, nil
	}
	meta.del(conflictsKey)
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("%s is %s, want a non-empty array", conflictsKey, compact(v, true))
	}
	var recs []record
	for i, x := range list {
		o, ok := x.(*obj)
		p, okp := o.get("pointer")
		ps, oks := p.(string)
		if !ok || !okp || !oks || (ps != "" && ps[0] != '/') {
			return recs, fmt.Errorf("%s/%d: no pointer: %s", conflictsKey, i, compact(x, true))
		}
		r := record{ptr: ps}
		for s, name := range sideNames {
			r.vals[s], r.has[s] = o.get(name)
			if v := r.vals[s]; r.has[s] && (ps == "/outputs" && equal(v, []any{}) || ps == "/execution_count" && v == nil) {
				r.vals[s], r.has[s] = nil, false // none (see noneSpelled)
			}
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// covers reports whether a record holds side's value at ptr (absent if
// !has): a record at ptr or at one of its parents. A record of pointer ""
// is of the cell's place (see movedApart), and holds none of its values.
func covers(recs []record, ptr string, side int, val any, has bool) bool {
	for _, r := range recs {
		if r.ptr == "" || r.ptr != ptr && !strings.HasPrefix(ptr, r.ptr+"/") {
			continue
		}
		if !r.has[side] {
			if !has {
				return true
			}
			continue
		}
		v, ok := at(r.vals[side], ptr[len(r.ptr):])
		if ok == has && (!ok || equal(v, val)) {
			return true
		}
	}
	return false
}

// lines splits a text into its lines, without their line ends.
func lines(text string) []string {
	if text == "" {
		return nil
	}
	ls := strings.SplitAfter(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, "\r\n")
	}
	return ls
}

func lineSet(text string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lines(text) {
		m[l] = true
	}
	return m
}

// markerStep reads git's markers in the diff3 style: the state after
// line l (0 outside the conflicts, 1 in ours' part, 2 base's, 3 theirs')
// from state, and whether l is a marker line so read.
func markerStep(l string, state int) (next int, isMarker bool) {
	m := markerLine.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
	switch {
	case m == nil:
	case m[1][0] == '<' && state == 0:
		return 1, true
	case m[1][0] == '|' && state == 1:
		return 2, true
	case m[1][0] == '=' && (state == 1 || state == 2):
		return 3, true
	case m[1][0] == '>' && state == 3:
		return 0, true
	}
	return state, false
}

var markerLine = regexp.MustCompile(`^(<{7}|\|{7}|={7}|>{7})( |$)`)

// regions reads the conflict regions of a text (<<<<<<< ours
// ||||||| base ======= theirs >>>>>>>): the lines outside regions, and
// each region's lines of ours, base and theirs. An unterminated region
// counts as none.
func regions(text string) (outside map[string]bool, parts [][3][]string) {
	outside = map[string]bool{}
	ls, parts := regionLines(text)
	for _, l := range ls {
		outside[l] = true
	}
	return outside, parts
}

// regionLines is regions with the lines outside regions as a list, in
// order, each as often as the text has it there.
func regionLines(text string) (outside []string, parts [][3][]string) {
	var pending []string
	var cur [3][]string
	state := 0 // 0 outside, 1 ours, 2 base, 3 theirs
	for _, l := range lines(text) {
		m := markerLine.FindStringSubmatch(l)
		switch {
		case m != nil && m[1][0] == '<' && state == 0:
			state, pending, cur = 1, []string{l}, [3][]string{}
			continue
		case m != nil && m[1][0] == '|' && state == 1:
			state = 2
		case m != nil && m[1][0] == '=' && (state == 1 || state == 2):
			state = 3
		case m != nil && m[1][0] == '>' && state == 3:
			state, pending = 0, nil
			parts = append(parts, cur)
			continue
		case state > 0:
			i := [4]int{0, 1, 0, 2}[state]
			cur[i] = append(cur[i], l)
		}
		if state == 0 {
			outside = append(outside, l)
		} else {
			pending = append(pending, l)
		}
	}
	return append(outside, pending...), parts
}

// sideText is what a side (0 base, 1 ours, 2 theirs) has of a text with
// conflict regions: the lines outside them with its part of each (the
// text itself if it has none).
func sideText(text string, side int) string {
	_, parts := regions(text)
	if len(parts) == 0 {
		return text
	}
	var b strings.Builder
	state := 0 // as in regions
	for _, l := range lines(text) {
		var isMarker bool
		if state, isMarker = markerStep(l, state); isMarker {
			continue
		}
		if state == 0 || [4]int{0, 1, 0, 2}[state] == side {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func marked(text string) bool {
	_, parts := regions(text)
	return len(parts) > 0
}

// outputRegions splits outputs at marker outputs (stream outputs whose
// text is a marker line): the runs of ours, base and theirs of each
// region; ok is false if there is no whole region.
func outputRegions(outs []any) (runs [][3][]any, ok bool) {
	state := 0
	var cur [3][]any
	for _, o := range outs {
		oo, _ := o.(*obj)
		text, _ := joined(oo.vals["text"])
		m := markerLine.FindStringSubmatch(strings.TrimRight(text, "\n"))
		if str(oo.vals["output_type"]) != "stream" || strings.Count(strings.TrimRight(text, "\n"), "\n") > 0 {
			m = nil
		}
		switch {
		case m != nil && m[1][0] == '<' && state == 0:
			state, cur = 1, [3][]any{}
		case m != nil && m[1][0] == '|' && state == 1:
			state = 2
		case m != nil && m[1][0] == '=' && (state == 1 || state == 2):
			state = 3
		case m != nil && m[1][0] == '>' && state == 3:
			state = 0
			runs = append(runs, cur)
		case state == 1:
			cur[1] = append(cur[1], o)
		case state == 2:
			cur[0] = append(cur[0], o)
		case state == 3:
			cur[2] = append(cur[2], o)
		}
	}
	return runs, len(runs) > 0
}
