package main

// Outputs as ipynb diff and the textconv show them: each representation, most
// readable first, and their comparison.

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	nblines "github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/termtext"
)

// Outputs as ipynb diff and the textconv show them below their summary
// line: each representation an output holds, most readable first —
// images (type, pixel size and bytes: imageinfo.go), Markdown, LaTeX,
// plain text, JSON (indented, keys sorted), HTML source, other text, then
// other data by size — a stream's text and an error's traceback as
// their own. Text is shown as a terminal would leave it (termtext: colour
// codes and progress-bar rewrites removed), as ipynb md shows it.

// An outRep is one representation of an output.
type outRep struct {
	mime  string // "" for a stream's text or an error's traceback
	text  string // the text shown and compared (for images and other data: none)
	info  string // images and other data: what they are (imageinfo.go)
	value any    // the data as held, for images and other data
}

func (r outRep) isText() bool { return r.info == "" }

// An outView is one output as shown.
type outView struct {
	key     string // what pairs it with an output of the other side: type, stream name or first representation
	summary string // its summary line (outputSummary)
	reps    []outRep
	meta    map[string]any // its metadata
	out     dialog.Output
	m       map[string]any // decoded (nil: unreadable)
}

// outViews are the outputs of a message but a prompt's reply (shown as
// text of its own).
func outViews(m *dialog.Message) []outView {
	outs := otherOutputs(m)
	vs := make([]outView, 0, len(outs))
	for _, o := range outs {
		vs = append(vs, viewOutput(o))
	}
	return vs
}

func viewOutput(out dialog.Output) outView {
	v := outView{key: out.Type(), summary: outputSummary(out), out: out}
	o, err := out.Map()
	if err != nil {
		return v
	}
	v.m = o
	v.meta, _ = o["metadata"].(map[string]any)
	switch out.Type() {
	case "stream":
		name, _ := o["name"].(string)
		v.key += " " + name
		v.reps = []outRep{{text: termtext.Plain(nblines.Text(o["text"]))}}
	case "error":
		v.reps = []outRep{{text: tracebackText(o)}}
	case "execute_result", "display_data", "pyout":
		data, _ := o["data"].(map[string]any)
		mimes := slices.SortedFunc(maps.Keys(data), func(x, y string) int {
			if rx, ry := mimeRank(x), mimeRank(y); rx != ry {
				return rx - ry
			}
			return strings.Compare(x, y)
		})
		for _, k := range mimes {
			v.reps = append(v.reps, dataRep(k, data[k]))
		}
		if len(mimes) > 0 {
			v.key += " " + mimes[0]
		}
	}
	return v
}

// tracebackText is an error's traceback as a terminal shows it (it ends
// with "ename: evalue"), or "ename: evalue" when it has none.
func tracebackText(o map[string]any) string {
	if tb, ok := o["traceback"].([]any); ok && len(tb) > 0 {
		lines := make([]string, len(tb))
		for k, l := range tb {
			lines[k] = strings.TrimRight(termtext.Plain(nblines.Text(l)), "\n")
		}
		return strings.Join(lines, "\n") + "\n"
	}
	return termtext.Plain(nblines.Text(o["ename"])+": "+nblines.Text(o["evalue"])) + "\n"
}

// mimeRank orders an output's representations, most readable first.
func mimeRank(mime string) int {
	switch {
	case strings.HasPrefix(mime, "image/"):
		return 0
	case mime == "text/markdown":
		return 1
	case mime == "text/latex":
		return 2
	case mime == "text/plain":
		return 3
	case isJSONType(mime):
		return 4
	case mime == "text/html":
		return 5
	case isTextType(mime):
		return 6
	}
	return 7
}

func isJSONType(mime string) bool {
	return mime == "application/json" || strings.HasSuffix(mime, "+json")
}

func isTextType(mime string) bool {
	return strings.HasPrefix(mime, "text/") || strings.HasSuffix(mime, "javascript") || strings.HasSuffix(mime, "+xml") || strings.HasSuffix(mime, "/xml")
}

// dataRep is the representation of type mime holding v.
func dataRep(mime string, v any) outRep {
	switch r := mimeRank(mime); {
	case r == 0:
		return outRep{mime: mime, info: imageInfo(mime, v), value: v}
	case r == 4:
		return outRep{mime: mime, text: indentedJSON(v)}
	case r <= 6:
		return outRep{mime: mime, text: termtext.Plain(textOf(v))}
	}
	return outRep{mime: mime, info: sizeText(base64Len(textOf(v))), value: v}
}

// indentedJSON is a JSON value indented by one space a level, keys
// sorted, ending with a newline.
func indentedJSON(v any) string {
	b, err := json.MarshalIndent(jsonValue(v), "", " ")
	if err != nil {
		return textOf(v)
	}
	return string(b) + "\n"
}

// same reports whether two outputs are equal as JSON values.
func (v outView) same(w outView) bool {
	if v.out.Equal(w.out) {
		return true
	}
	return v.m != nil && w.m != nil && sameJSON(v.m, w.m)
}

// rep returns v's representation of type mime.
func (v outView) rep(mime string) (outRep, bool) {
	for _, r := range v.reps {
		if r.mime == mime {
			return r, true
		}
	}
	return outRep{}, false
}

// repTypes are the representation types of a and b, in the order shown.
func repTypes(a, b outView) []string {
	var ts []string
	for _, r := range a.reps {
		ts = append(ts, r.mime)
	}
	for _, r := range b.reps {
		if _, ok := a.rep(r.mime); !ok {
			ts = append(ts, r.mime)
		}
	}
	slices.SortStableFunc(ts, func(x, y string) int { return mimeRank(x) - mimeRank(y) })
	return ts
}

// sameOutputs reports whether two messages' outputs (but prompts'
// replies) are equal as JSON values, one by one.
func sameOutputs(a, b *dialog.Message) bool {
	oa, ob := otherOutputs(a), otherOutputs(b)
	if len(oa) != len(ob) {
		return false
	}
	for i := range oa {
		if oa[i].Equal(ob[i]) {
			continue
		}
		x, errA := oa[i].Map()
		y, errB := ob[i].Map()
		if errA != nil || errB != nil || !sameJSON(x, y) {
			return false
		}
	}
	return true
}
