package mergecheck

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// An edit is one change a side makes, described completely by its
// fields (so a list of edits replays the same on any notebook, and one
// can be dropped): op, the target cell's token tok, a sub-operation or
// kind arg, an anchor cell at (insert or move after it; "" the front), a
// new text val unique to the edit, and a number n for the rest. An edit
// whose target is missing does nothing.
type edit struct {
	op, tok, arg, at, val string
	n                     int
}

func (e edit) String() string {
	s := e.op
	for _, f := range []string{e.tok, e.arg} {
		if f != "" {
			s += " " + f
		}
	}
	if e.op == "ins" || e.op == "mov" {
		s += " after " + or(e.at, "front")
	}
	return s + fmt.Sprintf(" %q %d", e.val, e.n)
}

func or(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// The operations, with how often the generator picks each.
var opWeights = []struct {
	op string
	w  int
}{{"ins", 3}, {"del", 2}, {"mov", 2}, {"kind", 3}, {"src", 4}, {"reply", 3}, {"out", 3}, {"count", 2},
	{"att", 3}, {"cmeta", 4}, {"nbmeta", 2}, {"style", 1}, {"reorder", 1}, {"id", 2}, {"surr", 2}}

var subOps = map[string][]string{
	"src":    {"replace", "insert", "delete", "append"},
	"reply":  {"replace", "append", "delete", "clear"},
	"out":    {"set", "append", "clear", "edit"},
	"att":    {"add", "edit", "del"},
	"cmeta":  {"tag+", "tag-", "height", "deep", "deeper", "set", "del", "colab-del"},
	"nbmeta": {"kernel", "lang", "deep", "set", "del"},
	"surr":   {"src", "meta", "flip"},
}

// splitPrompt splits a prompt's text into content and reply.
func splitPrompt(text string) (content, reply string, ok bool) {
	return strings.Cut(text, separator)
}

func joinPrompt(content, reply string) string {
	if reply == "" {
		return content
	}
	return content + separator + reply
}

// editLines applies a line operation to the lines of text, keeping line
// 0 (the token) when keep0.
func editLines(text, op, val string, n int, keep0 bool) string {
	ls := strings.Split(text, "\n")
	lo := 0
	if keep0 {
		lo = 1
	}
	span := len(ls) - lo
	switch {
	case op == "replace" && span > 0:
		ls[lo+n%span] = val
	case op == "insert":
		i := lo + n%(span+1)
		ls = slices.Insert(ls, i, val)
	case op == "delete" && span > 0:
		ls = slices.Delete(ls, lo+n%span, lo+n%span+1)
	case op == "clear":
		ls = ls[:lo]
	default:
		ls = append(ls, val)
	}
	return strings.Join(ls, "\n")
}

// apply makes an edit.
func (d *doc) apply(e edit) {
	major, minor := d.major(), d.minor()
	cs := d.cells()
	i := d.find(e.tok)
	var c *obj
	if i >= 0 {
		c = cs[i].(*obj)
	}
	switch e.op {
	case "ins":
		if i >= 0 {
			return
		}
		r := rand.New(rand.NewPCG(uint64(e.n), 1))
		kind := e.arg
		if major == 3 && kind == "prompt" {
			kind = "markdown"
		}
		nc := makeCell(r, kind, e.tok, major, minor)
		d.setCells(slices.Insert(cs, d.find(e.at)+1, any(nc)))
		return
	case "nbmeta":
		d.nbMeta(e)
		return
	case "style":
		d.st = styles[e.n%len(styles)]
		return
	case "reorder":
		r := rand.New(rand.NewPCG(uint64(e.n), 2))
		shuffle(r, d.nb)
		d.st.sorted = false
		return
	}
	if c == nil {
		return
	}
	switch e.op {
	case "del":
		d.setCells(slices.Delete(cs, i, i+1))
	case "mov":
		if e.at == e.tok {
			return
		}
		cs = slices.Delete(cs, i, i+1)
		d.setCells(cs)
		d.setCells(slices.Insert(cs, d.find(e.at)+1, any(c)))
	case "kind":
		setKind(c, e, major, minor)
	case "src", "reply":
		text := cellText(c, major)
		content, reply, isPrompt := splitPrompt(text)
		switch {
		case e.op == "src":
			content = editLines(content, e.arg, e.val, e.n, true)
		case !isPrompt || kindOf(c) != "prompt":
			return
		default:
			reply = editLines(reply, e.arg, e.val, e.n, false)
		}
		setText(c, major, joinPrompt(content, reply))
	case "out":
		outs, ok := c.vals["outputs"].([]any)
		if !ok {
			return
		}
		switch e.arg {
		case "set":
			outs = []any{makeOutput(0, e.val, major, 1)}
		case "append":
			outs = append(slices.Clone(outs), makeOutput(1+e.n%4, e.val, major, 1+e.n%50))
		case "clear":
			outs = []any{}
		default:
			if len(outs) == 0 {
				return
			}
			outs = slices.Clone(outs)
			outs[e.n%len(outs)] = makeOutput(e.n%5, e.val, major, 1+e.n%50)
		}
		c.set("outputs", outs)
	case "count":
		name := "execution_count"
		if major == 3 {
			name = "prompt_number"
		}
		if str(c.vals["cell_type"]) != "code" {
			return
		}
		switch {
		case e.n%10 != 0:
			c.set(name, num(e.n%10+e.n/10%40))
		case major == 3:
			c.del(name)
		default:
			c.set(name, nil)
		}
	case "att":
		if ct := str(c.vals["cell_type"]); major == 3 || ct != "markdown" && ct != "raw" {
			return
		}
		att := c.sub("attachments", e.arg == "add")
		switch {
		case att == nil:
		case e.arg == "add":
			att.set(e.val+".png", newObj("image/png", b64(e.val)))
		case len(att.keys) == 0:
		case e.arg == "edit" && e.n%2 == 0:
			att.set(nthKey(att, e.n), newObj("image/png", b64(e.val)))
		case e.arg == "edit":
			att.sub(nthKey(att, e.n), true).set("text/plain", e.val)
		default:
			att.del(nthKey(att, e.n))
			if len(att.keys) == 0 && e.n%2 == 0 {
				c.del("attachments")
			}
		}
	case "cmeta":
		cellMeta(c.sub("metadata", true), e)
	case "id":
		if major == 4 && minor >= 5 {
			c.set("id", e.val+"id")
		}
	case "surr":
		switch e.arg {
		case "src":
			content, reply, _ := splitPrompt(cellText(c, major))
			content = editLines(content, "insert", e.val+" lone "+lone(0xd800+e.n%1024), e.n, true)
			setText(c, major, joinPrompt(content, reply))
		case "meta":
			c.sub("metadata", true).set("lone", e.val+" "+lone(0xdc00+e.n%1024))
		default:
			text := cellText(c, major)
			if j := strings.IndexRune(text, sentinel); j >= 0 {
				setText(c, major, text[:j]+lone(0xd800+e.n%2048)+text[j+len(lone(0)):])
			}
		}
	}
}

// nthKey is an object's member number n (modulo their count) in sorted
// order: the same member whatever order the members are in.
func nthKey(o *obj, n int) string {
	keys := slices.Sorted(slices.Values(o.keys))
	return keys[n%len(keys)]
}

// setKind changes a cell's kind (e.arg: code, markdown, raw, prompt, or
// note: a markdown cell that is no prompt); a prompt loses its reply.
func setKind(c *obj, e edit, major, minor int) {
	from, to := kindOf(c), e.arg
	if to == "note" {
		to = "markdown"
	}
	if from == to || major == 3 && to == "prompt" {
		return
	}
	text := cellText(c, major)
	one := false
	if _, ok := c.vals[textMember(c, major)].(string); ok {
		one = true
	}
	c.del(textMember(c, major))
	if from == "prompt" {
		text, _, _ = splitPrompt(text)
		c.sub("metadata", true).del("solveit_ai")
	}
	ct := to
	if to == "prompt" {
		ct = "markdown"
		c.sub("metadata", true).set("solveit_ai", true)
		text += separator + e.val + " reply"
	}
	c.set("cell_type", ct)
	if from == "heading" {
		c.del("level")
	}
	if ct == "code" {
		c.del("attachments")
		if major == 3 {
			c.set("collapsed", false)
			c.set("language", "python")
		} else if _, ok := c.get("execution_count"); !ok {
			c.set("execution_count", nil)
		}
		if _, ok := c.get("outputs"); !ok {
			c.set("outputs", []any{})
		}
	} else {
		for _, m := range []string{"outputs", "execution_count", "prompt_number", "collapsed", "language"} {
			c.del(m)
		}
	}
	if one {
		c.set(textMember(c, major), text)
	} else {
		setText(c, major, text)
	}
}

func cellMeta(m *obj, e edit) {
	tags, _ := m.vals["tags"].([]any)
	switch e.arg {
	case "tag+":
		if !slices.Contains(tags, any(e.val)) { // tags are unique
			m.set("tags", append(slices.Clone(tags), e.val))
		}
	case "tag-":
		if len(tags) > 0 {
			m.set("tags", slices.Delete(slices.Clone(tags), e.n%len(tags), e.n%len(tags)+1))
		}
	case "height":
		m.sub("colab", true).set("height", num(e.n))
	case "deep":
		m.sub("deep", true).sub("a", true).sub("b", true).set("c", e.val)
	case "deeper":
		m.sub("deep", true).sub("a", true).sub("b", true).set("e", newObj("f", newObj("g", e.val)))
	case "set":
		m.set("k_"+e.val, e.val)
	case "del":
		keys := slices.DeleteFunc(slices.Sorted(slices.Values(m.keys)), func(k string) bool { return k == "solveit_ai" })
		if len(keys) > 0 {
			m.del(keys[e.n%len(keys)])
		}
	case "colab-del":
		if col := m.sub("colab", false); col != nil {
			col.del("height")
		}
	}
}

func (d *doc) nbMeta(e edit) {
	m := d.nb.sub("metadata", true)
	switch e.arg {
	case "kernel":
		m.sub("kernelspec", true).set("display_name", e.val)
		if d.major() == 4 {
			m.sub("kernelspec", true).set("name", "python3")
		}
	case "lang":
		m.sub("language_info", true).set("name", "python")
		m.sub("language_info", true).set("version", e.val)
	case "deep":
		m.sub("deep", true).sub("x", true).set("y", e.val)
	case "set":
		m.set("k_"+e.val, e.val)
	case "del":
		keys := slices.DeleteFunc(slices.Sorted(slices.Values(m.keys)), func(k string) bool { return k == "name" && d.major() == 3 })
		if len(keys) > 0 {
			m.del(keys[e.n%len(keys)])
		}
	}
}

// shuffle reorders the members of every object (not the arrays).
func shuffle(r *rand.Rand, v any) {
	switch v := v.(type) {
	case *obj:
		for _, k := range slices.Sorted(slices.Values(v.keys)) {
			shuffle(r, v.vals[k])
		}
		r.Shuffle(len(v.keys), func(i, j int) { v.keys[i], v.keys[j] = v.keys[j], v.keys[i] })
	case []any:
		for _, x := range v {
			shuffle(r, x)
		}
	}
}

// randomEdit draws an edit for a side ("o" or "t") of d, its target
// among prefer half the time (when any is in d), never one of avoid, its
// operation none of banned.
func randomEdit(r *rand.Rand, d *doc, side string, count *int, prefer []string, avoid, banned map[string]bool) edit {
	total := 0
	for _, w := range opWeights {
		total += w.w
	}
	var e edit
	for e.op == "" || banned[e.op] {
		x := r.IntN(total)
		for _, w := range opWeights {
			if x -= w.w; x < 0 {
				e.op = w.op
				break
			}
		}
	}
	*count++
	e.val = fmt.Sprintf("%s%d", side, *count)
	e.n = r.IntN(1000)
	toks := slices.DeleteFunc(d.tokens(), func(t string) bool { return avoid[t] })
	var hot []string
	for _, p := range prefer {
		if slices.Contains(toks, p) {
			hot = append(hot, p)
		}
	}
	pick := func() string {
		switch {
		case len(hot) > 0 && r.IntN(2) == 0:
			return hot[r.IntN(len(hot))]
		case len(toks) > 0:
			return toks[r.IntN(len(toks))]
		}
		return ""
	}
	if e.op == "reply" { // a prompt if there is one
		for _, t := range append(slices.Clone(hot), toks...) {
			if c := d.cells()[d.find(t)].(*obj); kindOf(c) == "prompt" && r.IntN(2) == 0 {
				e.tok = t
				break
			}
		}
	}
	if e.tok == "" && e.op != "ins" {
		e.tok = pick()
	}
	if subs := subOps[e.op]; subs != nil {
		e.arg = subs[r.IntN(len(subs))]
	}
	switch e.op {
	case "ins":
		e.tok = e.val
		e.arg = []string{"markdown", "code", "raw", "prompt"}[r.IntN(4)]
		if r.IntN(4) > 0 {
			e.at = pick()
		}
	case "mov":
		if r.IntN(4) > 0 {
			e.at = pick()
		}
	case "kind":
		e.arg = []string{"markdown", "code", "raw", "prompt", "note"}[r.IntN(5)]
	}
	if e.op == "src" || e.op == "reply" {
		e.val += " new line"
	}
	return e
}

// hasMove reports whether edits move a cell.
func hasMove(es []edit) bool {
	return slices.ContainsFunc(es, func(e edit) bool { return e.op == "mov" })
}

// moveApart draws a move for theirs (of d) of a cell one of ours' edits
// es moves, after an anchor other than ours' (the front among them), so
// that both sides move one cell to different places (issue 21).
func moveApart(r *rand.Rand, d *doc, es []edit, count *int) edit {
	var moves []edit
	for _, e := range es {
		if e.op == "mov" {
			moves = append(moves, e)
		}
	}
	om := moves[r.IntN(len(moves))]
	*count++
	e := edit{op: "mov", tok: om.tok, val: fmt.Sprintf("t%d", *count), n: r.IntN(1000)}
	anchors := slices.DeleteFunc(append([]string{""}, d.tokens()...), func(t string) bool { return t == om.tok || t == om.at })
	if len(anchors) > 0 {
		e.at = anchors[r.IntN(len(anchors))]
	}
	return e
}

// insApart is ours' insertion oe made by theirs (of d: the same cell, as
// a cherry-pick makes it, of one token, id and content) after an anchor
// other than ours' (the front among them), so that both sides add one
// cell at different places (issue 21).
func insApart(r *rand.Rand, d *doc, oe edit) edit {
	e := oe
	anchors := slices.DeleteFunc(append([]string{""}, d.tokens()...), func(t string) bool { return t == oe.at })
	if len(anchors) > 0 {
		e.at = anchors[r.IntN(len(anchors))]
	}
	return e
}
