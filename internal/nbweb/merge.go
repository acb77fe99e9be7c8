package nbweb

// The merge page's app: the conflicts shown, and the resolutions chosen
// applied, checked and saved.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbhtml"
	"github.com/nbdialog/ipynb/nbformat"
)

// ipynb web --merge: the merge's conflicts on a page (nbhtml.Merge), the
// page's choices applied to the merged notebook (the one `ipynb merge`
// writes: conflict markers inside cells, ours' version of everything
// else), checked, and saved into OURS. Each check and the save start
// again from the merged notebook, so a choice changed is a choice made
// anew. A text part (a cell's content, or reply) is resolved by the text
// the page sends, and stays unresolved while it holds conflict markers;
// another part by the side chosen; a cell both sides moved to different
// places by the place chosen (theirs' where its record names a cell to
// put it after, or the front: see mergemove.go).

// mergeConflict is one conflict the merge left.
type mergeConflict = dialog.Conflict

// mergeApp is the state of a merge page.
type mergeApp struct {
	in        reader
	paths     [3]string
	target    string            // the file saved into: OURS, or -o's
	stamp     *atomicfile.Stamp // target's read (nil: it did not exist)
	data      []byte            // the merged notebook
	conflicts []dialog.Conflict // its conflicts
	labels    [2]string         // the markers' labels
	quit      func()
	// at is, for each conflict, the position of its message in the merged
	// notebook (-1: the notebook's metadata, or not found).
	at []int

	mu    sync.Mutex
	saved bool
	exit  int
}

// resolution is the page's choice for one conflict.
type resolution struct {
	Choice string    `json:"choice"` // ours, theirs, both, delete, keep, edit, or "" (none yet)
	Text   unitsText `json:"text"`   // the text of a text conflict
}

// unitsText is a text the page sends, decoded with its lone surrogates
// kept (as WTF-8, jsonvalue.Decode) where encoding/json would make each
// U+FFFD: the page holds a cell's text exactly (nbhtml.Merge).
type unitsText string

func (t *unitsText) UnmarshalJSON(b []byte) error {
	v, err := jsonvalue.Decode(b)
	s, ok := v.(string)
	if err != nil || !ok {
		return errors.New("nbweb: a resolution's text is not a string")
	}
	*t = unitsText(s)
	return nil
}

// mergeAnswer is what check and save tell the page.
type mergeAnswer struct {
	Resolved int      `json:"resolved"`
	Total    int      `json:"total"`
	Valid    bool     `json:"valid"`
	Problems []string `json:"problems,omitempty"`
	Saved    string   `json:"saved,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// newMergeApp reads a merge's three notebooks; the resolution is saved
// into target ("": into OURS).
func newMergeApp(in reader, paths [3]string, target string) (webApp, int) {
	a := &mergeApp{in: in, paths: paths, target: paths[1], exit: exitFindings}
	if target != "" && target != paths[1] {
		a.target = target
		// The file saved into is checked, as OURS would be, for a change
		// made while the page is open.
		// One that does not exist is created only if nothing, not even a
		// link, has appeared at its name by then (atomicfile's New).
		if _, err := os.Lstat(target); err == nil {
			if _, st, ok := in.read(target); ok {
				a.stamp = st
			} else {
				return nil, exitError
			}
		}
	}
	var texts [3][]byte
	for i, p := range paths {
		if i == 1 && p == "-" {
			fmt.Fprintln(in.stderr, "ipynb web --merge: OURS must be a file (the merge is saved into it)")
			return nil, exitError
		}
		data, st, ok := in.read(p)
		if !ok {
			return nil, exitError
		}
		if i == 1 && a.target == paths[1] {
			a.stamp = st
		}
		texts[i] = data
	}
	a.labels = [2]string{"ours", "theirs"}
	base := texts[0]
	var err error
	if len(bytes.TrimSpace(base)) == 0 {
		// No base (git's, when both sides added the file): every cell
		// is added on both sides.
		base, err = emptyLike(texts[1])
	}
	if err == nil {
		a.data, a.conflicts, err = convert.Merge(base, texts[1], texts[2], dialog.MergeOptions{OursLabel: a.labels[0], TheirsLabel: a.labels[1]})
	}
	if mie := (*convert.Error)(nil); errors.As(err, &mie) && mie.Op == "merge" {
		fmt.Fprintf(in.stderr, "ipynb web: %s (%s): %s\n", quote(paths[max(slices.Index([]string{"base", "ours", "theirs"}, mie.Input), 0)]), mie.Input,
			strings.TrimPrefix(mie.Err.Error(), "nbformat: "))
		return nil, exitError
	}
	if err != nil {
		fmt.Fprintf(in.stderr, "ipynb web: %s: %s\n", quote(paths[1]), strings.TrimPrefix(err.Error(), "convert: "))
		return nil, exitError
	}
	f, err := convert.Unmarshal(a.data, convert.ReadOptions{})
	if err != nil {
		fmt.Fprintf(in.stderr, "ipynb web: the merge: %v\n", err)
		return nil, exitError
	}
	d := f.Dialog
	a.at = locate(d, a.conflicts)
	return a, -1
}

// messageAt is conflict i's message in d (nil for none).
func (a *mergeApp) messageAt(d *dialog.Dialog, i int) *dialog.Message {
	if k := a.at[i]; k >= 0 && k < len(d.Messages) {
		return d.Messages[k]
	}
	return nil
}

func (a *mergeApp) setQuit(f func()) { a.quit = f }

func (a *mergeApp) status() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.exit
}

// page is the merge page of the conflicts.
func (a *mergeApp) page() ([]byte, error) {
	f, err := convert.Unmarshal(a.data, convert.ReadOptions{})
	if err != nil {
		return nil, err
	}
	d := f.Dialog
	var cs []nbhtml.MergeConflict
	for i := range a.conflicts {
		cs = append(cs, a.view(d, i))
	}
	var b bytes.Buffer
	err = nbhtml.Merge(&b, cs, nbhtml.MergeOptions{Base: a.paths[0], Ours: a.paths[1], Theirs: a.paths[2], Target: a.target})
	return b.Bytes(), err
}

// textPart is the text a conflict is about ("" when it is not text).
func textPart(c mergeConflict) string {
	switch c.What {
	case "content", "added on both sides":
		return "content"
	case "reply":
		return "reply"
	}
	return ""
}

func partOf(m *dialog.Message, part string) string {
	switch {
	case m == nil:
		return ""
	case part == "reply":
		return m.Reply()
	}
	return m.Content
}

// view is a conflict as the page shows it.
func (a *mergeApp) view(d *dialog.Dialog, i int) nbhtml.MergeConflict {
	c := a.conflicts[i]
	m := a.messageAt(d, i)
	v := nbhtml.MergeConflict{Title: c.What}
	if m != nil {
		v.Title = fmt.Sprintf("cell %d · %s · %s", a.at[i]+1, m.Kind, c.What)
	}
	if part := textPart(c); part != "" && m != nil {
		v.Text = true
		v.Base, v.Ours, v.Theirs = partOf(c.Base, part), partOf(c.Ours, part), partOf(c.Theirs, part)
		v.Merged = partOf(m, part)
		v.Choices = []nbhtml.MergeChoice{
			{Value: "ours", Label: "ours", Text: v.Ours},
			{Value: "theirs", Label: "theirs", Text: v.Theirs},
			{Value: "both", Label: "both", Text: bothSides(v.Merged)},
		}
		return v
	}
	if c.What == replacedBoth {
		v.Title = "cells replaced on both sides"
		if m != nil {
			v.Title = fmt.Sprintf("cells %d… · replaced on both sides", a.at[i]+1)
			if sep, end := replacedRegion(d, a.at[i]); sep >= 0 {
				v.Base, v.Ours, v.Theirs = "(the cells both sides deleted)", cellsText(d, a.at[i]+1, sep), cellsText(d, sep+1, end)
			}
		}
		v.Choices = []nbhtml.MergeChoice{{Value: "ours", Label: "ours' cells"}, {Value: "theirs", Label: "theirs' cells"}, {Value: "both", Label: "both"}}
		return v
	}
	if isPlaceWhat(c.What) && m != nil {
		return movedView(v, d, m, c.What)
	}
	describe := func(m *dialog.Message, value any, side int) string {
		switch {
		case strings.HasPrefix(c.What, "deleted by"):
			if m == nil {
				return "(deleted)"
			}
			return m.Content
		case strings.HasPrefix(c.What, "outputs"):
			if m == nil {
				return "(no cell)"
			}
			return outputsText(m)
		case c.What == "kind":
			if m == nil {
				return "(no cell)"
			}
			return string(m.Kind)
		}
		if value == nil {
			return "(absent)"
		}
		j, err := json.Marshal(value)
		if err != nil {
			return fmt.Sprint(value)
		}
		return string(j)
	}
	v.Base, v.Ours, v.Theirs = describe(c.Base, c.Values[0], 0), describe(c.Ours, c.Values[1], 1), describe(c.Theirs, c.Values[2], 2)
	switch {
	case strings.HasPrefix(c.What, "deleted by"):
		v.Choices = []nbhtml.MergeChoice{{Value: "delete", Label: "delete the cell"}, {Value: "keep", Label: "keep the edited cell"}}
	case strings.HasPrefix(c.What, "outputs"):
		v.Choices = []nbhtml.MergeChoice{{Value: "ours", Label: "ours"}, {Value: "theirs", Label: "theirs"}, {Value: "both", Label: "both"}}
	default:
		v.Choices = []nbhtml.MergeChoice{{Value: "ours", Label: "ours"}, {Value: "theirs", Label: "theirs"}}
	}
	return v
}

// outputsText shows a message's outputs for choosing between them:
// streams as their text, others by their summary line.
func outputsText(m *dialog.Message) string {
	var b strings.Builder
	for _, o := range m.Outputs {
		if m.Kind == dialog.Prompt && o.IsReply() {
			continue
		}
		if o.Type() == "stream" {
			if om, err := o.Map(); err == nil {
				name, _ := om["name"].(string)
				b.WriteString(name + ": " + lines.Text(om["text"]))
				if !strings.HasSuffix(b.String(), "\n") {
					b.WriteString("\n")
				}
				continue
			}
		}
		b.WriteString(summary(o) + "\n")
	}
	if b.Len() == 0 {
		return "(no outputs)"
	}
	return b.String()
}

// markerLine is a conflict marker line, of the size the merge writes.
var markerLine = regexp.MustCompile(`(?m)^(<{7}|\|{7}|={7}|>{7})( |$)`)

// bothSides is a merged text with each conflict region replaced by ours'
// lines then theirs' (the base's, between ||||||| and =======, left out).
func bothSides(s string) string {
	var b strings.Builder
	state := 0 // 0 outside, 1 ours, 2 base, 3 theirs
	for _, l := range strings.SplitAfter(s, "\n") {
		switch {
		case strings.HasPrefix(l, "<<<<<<<") && state == 0:
			state = 1
		case strings.HasPrefix(l, "|||||||") && state == 1:
			state = 2
		case strings.HasPrefix(l, "=======") && (state == 1 || state == 2):
			state = 3
		case strings.HasPrefix(l, ">>>>>>>") && state == 3:
			state = 0
		case state != 2:
			b.WriteString(l)
		}
	}
	return b.String()
}

// action answers the page's check and save.
func (a *mergeApp) action(name string, body []byte) (any, bool) {
	if name != "check" && name != "save" {
		return nil, false
	}
	var req struct {
		Resolutions []resolution `json:"resolutions"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Resolutions) != len(a.conflicts) {
		return mergeAnswer{Error: "the page sent no resolution for each conflict"}, true
	}
	data, resolved, err := a.apply(req.Resolutions)
	ans := mergeAnswer{Resolved: resolved, Total: len(a.conflicts)}
	if err != nil {
		ans.Error = strings.TrimPrefix(err.Error(), "convert: ")
		return ans, true
	}
	ans.Valid, ans.Problems = validity(data)
	if name == "save" {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.saved {
			ans.Error = "saved already"
			return ans, true
		}
		if _, err := atomicfile.Replace(a.target, data, atomicfile.Options{Expect: a.stamp, New: a.stamp == nil}); err != nil {
			ans.Error = "not saved: " + err.Error()
			if errors.Is(err, atomicfile.ErrChanged) || errors.Is(err, atomicfile.ErrLocked) {
				ans.Error = "not saved: " + quote(a.target) + " changed on disk since it was read; left alone"
				if a.stamp == nil {
					ans.Error = "not saved: something was put at " + quote(a.target) + " while the page was open; left alone"
				}
			}
			fmt.Fprintf(a.in.stderr, "ipynb web: %s\n", ans.Error)
			return ans, true
		}
		a.saved = true
		if resolved == ans.Total && ans.Valid {
			a.exit = exitOK
		}
		ans.Saved = fmt.Sprintf("saved into %s (%d of %d conflicts resolved); the server stops", a.target, resolved, ans.Total)
		fmt.Fprintf(a.in.stderr, "ipynb web: %s\n", ans.Saved)
		if a.quit != nil {
			go func() { time.Sleep(300 * time.Millisecond); a.quit() }()
		}
	}
	return ans, true
}

// validity checks a notebook against its schema.
func validity(data []byte) (bool, []string) {
	nb, err := nbformat.Unmarshal(data)
	if err == nil {
		err = nbformat.Validate(nb)
	}
	if err == nil {
		return true, nil
	}
	var ps []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && len(ps) < 5 {
			ps = append(ps, l)
		}
	}
	return false, ps
}

// apply makes the notebook of the resolutions, and counts the conflicts
// they resolve.
func (a *mergeApp) apply(rs []resolution) ([]byte, int, error) {
	f, err := convert.Unmarshal(a.data, convert.ReadOptions{})
	if err != nil {
		return nil, 0, err
	}
	d := f.Dialog
	resolved := 0
	var remove []string
	var moves [][2]*dialog.Message // a message, and the one to put it after (nil: the front)
	for i, c := range a.conflicts {
		r := rs[i]
		m := a.messageAt(d, i)
		side := c.Ours
		if r.Choice == "theirs" {
			side = c.Theirs
		}
		done := r.Choice != ""
		switch {
		case textPart(c) != "" && m != nil:
			text := string(r.Text)
			if textPart(c) == "reply" {
				m.SetReply(text)
			} else {
				m.Content = text
			}
			done = !markerLine.MatchString(text)
		case c.What == replacedBoth && m != nil:
			sep, end := replacedRegion(d, a.at[i])
			if sep < 0 {
				done = false
				break
			}
			drop := []int{a.at[i], sep, end}
			switch r.Choice {
			case "ours":
				drop = append(drop, ints(sep+1, end)...)
			case "theirs":
				drop = append(drop, ints(a.at[i]+1, sep)...)
			}
			for _, k := range drop {
				remove = append(remove, d.Messages[k].ID)
			}
		case isPlaceWhat(c.What) && m != nil && r.Choice == "theirs":
			after, ok := theirsPlace(d, m)
			if done = ok; ok {
				moves = append(moves, [2]*dialog.Message{m, after})
			}
		case strings.HasPrefix(c.What, "deleted by") && m != nil:
			edited := c.Theirs
			if strings.HasPrefix(c.What, "deleted by theirs") {
				edited = c.Ours
			}
			switch {
			case r.Choice == "delete":
				remove = append(remove, m.ID)
			case r.Choice == "keep" && edited != nil:
				id := m.ID
				*m = *edited
				m.ID = id
			}
		case strings.HasPrefix(c.What, "outputs") && m != nil && done:
			switch {
			case r.Choice == "both" && c.Ours != nil && c.Theirs != nil:
				m.Outputs = append(slices.Clone(c.Ours.Outputs), c.Theirs.Outputs...)
			case side != nil:
				m.Outputs = slices.Clone(side.Outputs)
			}
		case c.What == "kind" && m != nil && side != nil:
			m.Kind = side.Kind
		case strings.HasPrefix(c.What, "metadata key ") && m != nil && done:
			m.Meta = setPath(m.Meta, strings.TrimPrefix(c.What, "metadata key "), c.Values[sideIndex(r.Choice)])
		case strings.HasPrefix(c.What, "notebook metadata key ") && done:
			d.Meta = setPath(d.Meta, strings.TrimPrefix(c.What, "notebook metadata key "), c.Values[sideIndex(r.Choice)])
		case strings.HasPrefix(c.What, "attribute ") && m != nil && done:
			k := strings.TrimPrefix(c.What, "attribute ")
			if v := c.Values[sideIndex(r.Choice)]; v == nil {
				delete(m.Attrs, k)
			} else {
				if m.Attrs == nil {
					m.Attrs = map[string]any{}
				}
				m.Attrs[k] = v
			}
		case strings.HasPrefix(c.What, "attachment ") && m != nil && done && side != nil:
			k := strings.TrimPrefix(c.What, "attachment ")
			m.Attachments = slices.DeleteFunc(slices.Clone(m.Attachments), func(x dialog.Attachment) bool { return x.ID == k })
			for _, x := range side.Attachments {
				if x.ID == k {
					m.Attachments = append(m.Attachments, x)
				}
			}
		}
		if done {
			resolved++
			if !c.InText {
				if c.ID == "" {
					d.Meta = dropRecords(d.Meta, c.What)
				} else if m != nil {
					m.Meta = dropRecords(m.Meta, c.What)
				}
			}
		}
	}
	for _, mv := range moves {
		moveAfter(d, mv[0], mv[1])
	}
	if len(remove) > 0 {
		if _, err := d.Remove(remove...); err != nil {
			return nil, 0, err
		}
	}
	data, err := convert.Marshal(f, convert.WriteOptions{})
	return data, resolved, err
}

// ints are the integers from up to (not including) to.
func ints(from, to int) []int {
	var out []int
	for k := from; k < to; k++ {
		out = append(out, k)
	}
	return out
}

// sideIndex is the index in Conflict.Values of the side chosen.
func sideIndex(choice string) int {
	if choice == "theirs" {
		return 2
	}
	return 1
}

// setPath sets the value at a metadata path ("a/b": key b of object a)
// in meta, nil deleting it, and returns meta.
func setPath(meta map[string]any, path string, v any) map[string]any {
	if meta == nil {
		meta = map[string]any{}
	}
	keys := strings.Split(path, "/")
	if len(keys) == 1 {
		if v == nil {
			delete(meta, path)
		} else {
			meta[path] = v
		}
		return meta
	}
	inner, _ := decodeMap(meta[keys[0]])
	inner = setPath(inner, strings.Join(keys[1:], "/"), v)
	b, _ := json.Marshal(inner)
	meta[keys[0]] = json.RawMessage(b)
	return meta
}

// decodeMap is an object value as a map (a json.RawMessage decoded).
func decodeMap(v any) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case json.RawMessage:
		var m map[string]any
		if json.Unmarshal(t, &m) == nil {
			return m, true
		}
	}
	return nil, false
}

// summary is one line about an output that is not a stream: its type and
// what it holds.
func summary(o dialog.Output) string {
	m, err := o.Map()
	if err != nil {
		return o.Type() + " (unreadable)"
	}
	switch o.Type() {
	case "error":
		return fmt.Sprintf("error %s: %s", lines.Text(m["ename"]), lines.Text(m["evalue"]))
	case "execute_result", "display_data":
		data, _ := m["data"].(map[string]any)
		var parts []string
		for k, v := range data {
			parts = append(parts, fmt.Sprintf("%s (%d bytes)", k, len(lines.Text(v))))
		}
		slices.Sort(parts)
		s := o.Type() + ": " + strings.Join(parts, ", ")
		if t := lines.Text(data["text/plain"]); t != "" {
			s += "\n" + t
		}
		return s
	}
	return o.Type()
}
