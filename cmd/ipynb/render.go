package main

// Notebooks as line-oriented text for git's textconv and ipynb diff: a header
// line per message, its text, and its outputs, attachments and metadata.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	nblines "github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbjson"
)

// Notebooks as line-oriented text, for git's textconv (git log -p, git
// show, git blame) and for the parts of ipynb diff that show a whole
// message. Each message is a header line, its text as it is, then one
// line per output, attachment and metadata key. Headers name the
// message by kind and id, not by position, so inserting a message does
// not change the lines of the others.

// headerMark starts every line that is not a message's own text.
const headerMark = "## "

// messageHeader is the line before a message's text (without the id
// unless showID).
func messageHeader(m *dialog.Message, showID bool) string {
	h := headerMark + string(m.Kind)
	if m.ID != "" && showID {
		h += " " + m.ID
	}
	if m.ExecutionCount != nil {
		h += fmt.Sprintf(" [%d]", *m.ExecutionCount)
	}
	return h
}

// renderDialog writes d as text (see above); each output's summary line
// is followed by its text, within caps (diffout.go).
func renderDialog(w io.Writer, d *dialog.Dialog, caps outCaps) {
	for _, l := range metaLines("", d.Meta) {
		fmt.Fprintln(w, headerMark+"notebook metadata "+l)
	}
	for _, m := range d.Messages {
		fmt.Fprintln(w)
		fmt.Fprintln(w, messageHeader(m, true))
		writeText(w, m.Content)
		if r := m.Reply(); r != "" {
			fmt.Fprintln(w, headerMark+"reply")
			writeText(w, r)
		}
		budget := newBudget(caps)
		for _, v := range outViews(m) {
			fmt.Fprintln(w, headerMark+"out: "+v.summary)
			lines, more := outBody(v, "", budget.room())
			io.WriteString(w, budget.show("", lines, more))
		}
		for _, l := range attachmentDetails(m) {
			fmt.Fprintln(w, headerMark+l)
		}
		for _, l := range metaLines("attr ", m.Attrs) {
			fmt.Fprintln(w, headerMark+l)
		}
		for _, l := range metaLines("meta ", m.Meta) {
			fmt.Fprintln(w, headerMark+l)
		}
	}
}

// writeText writes text ending with a newline.
func writeText(w io.Writer, text string) {
	if text == "" {
		return
	}
	io.WriteString(w, text)
	if !strings.HasSuffix(text, "\n") {
		io.WriteString(w, "\n")
	}
}

// attachmentDetails are the lines of a message's attachments.
func attachmentDetails(m *dialog.Message) []string {
	var ls []string
	for _, a := range m.Attachments {
		ls = append(ls, fmt.Sprintf("attachment %s: %s, %s", quoteText(a.ID), quoteText(a.MIME), sizeText(len(a.Data))))
	}
	return ls
}

// otherOutputs are a message's outputs but a prompt's first reply output
// (the one Message.Reply reads, shown as text).
func otherOutputs(m *dialog.Message) []dialog.Output {
	if m.Kind != dialog.Prompt {
		return m.Outputs
	}
	for i, o := range m.Outputs {
		if o.IsReply() {
			return append(m.Outputs[:i:i], m.Outputs[i+1:]...)
		}
	}
	return m.Outputs
}

// metaLines are "prefix key = value" lines, keys sorted (quoted as
// quoteText quotes them, so that each stays on its line), values as
// compact JSON.
func metaLines(prefix string, m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ls := make([]string, 0, len(keys))
	for _, k := range keys {
		ls = append(ls, prefix+quoteText(k)+" = "+compactJSON(m[k]))
	}
	return ls
}

// compactJSON is v as JSON, keys sorted, long values shortened with a
// digest. Strings keep what encoding/json would lose: a lone surrogate
// is written as its escape (encoding/json writes U+FFFD), so that values
// that differ show differently.
func compactJSON(v any) string {
	b, err := nbjson.Encode(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	const max = 120
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max-30]) + "… (" + sizeText(len(b)) + ", " + digest(b) + ")"
}

// exactJSON is v as encoding/json writes it, unless a string in it is
// not valid UTF-8 (a lone surrogate, held as its WTF-8 bytes), which
// encoding/json writes as U+FFFD: then as nbjson writes it, the
// surrogate's escape kept, so that outputs that differ only there get
// different digests.
func exactJSON(v any) []byte {
	b, _ := json.Marshal(v)
	if bytes.Contains(b, []byte(`\ufffd`)) {
		if e, err := nbjson.Encode(v); err == nil {
			return e
		}
	}
	return b
}

// digest is a short hash of b, so that a change in a summarised value
// shows as a changed line.
func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "#" + hex.EncodeToString(s[:4])
}

// outputSummary is one line about an output: its type, what it holds and
// how much, and a digest of its content.
func outputSummary(out dialog.Output) string {
	o, err := out.Map()
	if err != nil {
		return out.Type() + " (unreadable: " + err.Error() + ")"
	}
	b := exactJSON(o)
	var s string
	switch t := out.Type(); t {
	case "stream":
		name, _ := o["name"].(string)
		s = fmt.Sprintf("stream %s, %s", quoteText(name), linesText(nblines.Text(o["text"])))
	case "error":
		ename, _ := o["ename"].(string)
		evalue, _ := o["evalue"].(string)
		s = "error " + leadLine(ename+": "+evalue, 80)
	case "execute_result", "display_data":
		data, _ := o["data"].(map[string]any)
		mimes := make([]string, 0, len(data))
		for k := range data {
			mimes = append(mimes, k)
		}
		slices.Sort(mimes)
		var parts []string
		for _, k := range mimes {
			switch {
			case strings.HasPrefix(k, "image/"):
				parts = append(parts, quoteText(k)+" "+imageInfo(k, data[k]))
			case strings.HasPrefix(k, "text/") || strings.HasSuffix(k, "json") || strings.HasSuffix(k, "javascript") || strings.HasSuffix(k, "+xml"):
				parts = append(parts, quoteText(k)+" "+linesText(textOf(data[k])))
			default:
				parts = append(parts, quoteText(k)+" "+sizeText(len(nblines.Text(data[k]))*3/4))
			}
		}
		s = t
		if c, ok := o["execution_count"]; ok && c != nil {
			s += fmt.Sprintf(" [%v]", c)
		}
		s += ": " + strings.Join(parts, ", ")
		if tp := nblines.Text(data["text/plain"]); tp != "" {
			s += " " + quoteShort(tp)
		}
	default:
		s = quoteText(t)
	}
	return s + " " + digest(b)
}

// textOf is a text MIME value: a string, lines, or JSON for a JSON value.
func textOf(v any) string {
	switch v.(type) {
	case string, []any:
		if t := nblines.Text(v); t != "" || v == nil {
			return t
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func linesText(s string) string {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

func sizeText(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1000000)
}

// leadLine is the first line of s, at most n characters (a lone
// surrogate counted as one and never cut: codeunits.go).
func leadLine(s string, n int) string {
	l, _, more := strings.Cut(s, "\n")
	if i := unitIndex(l, n); i < len(l) {
		return l[:i] + "…"
	}
	if more {
		return l + "…"
	}
	return l
}

// quoteShort is the start of a text, quoted.
func quoteShort(s string) string {
	return quoteUnits(leadLine(s, 40))
}
