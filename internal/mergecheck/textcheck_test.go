package mergecheck

import (
	"strings"
	"unicode/utf8"
)

// The checks of texts: a cell's source (with a prompt's reply), and the
// texts of outputs merged line by line.

// textKept reports whether the result text holds a side's text edits:
// every line it added, and (unique lines) none it deleted outside
// conflicts where the other side kept it.
func (k *run) textKept(side, base, other, result string, hasOther bool) (place string, ok bool) {
	have := lineSet(result)
	baseLines := lineSet(base)
	reply := strings.Index(side, separator)
	off := 0
	for _, l := range lines(side) {
		lineAt := off
		off += len(l) + 1
		if l == "" || baseLines[l] || have[l] {
			continue
		}
		if reply >= 0 && lineAt > reply {
			return "/source (reply)", false
		}
		return "/source", false
	}
	if !k.opt.uniqueLines {
		return "", true
	}
	outside, _ := regions(result)
	sideLines, otherLines := lineSet(side), lineSet(other)
	for _, l := range lines(base) {
		if l != "" && !sideLines[l] && (!hasOther || otherLines[l]) && outside[l] && !strings.Contains(separator, l) {
			return "/source (deletion undone)", false
		}
	}
	return "", true
}

// copiesUndone reports whether the result text, outside its conflicts,
// holds more copies of a line the side deleted copies of than the
// merge can: a line base has more than once, or a blank line (one the
// unique-line check above passes over, since the separator of a
// prompt's reply, added or dropped with the reply, has two). The texts
// are counted without that separator. Where the other side deleted
// none of base's lines (base's are a subsequence of its lines), a line
// merge keeps exactly the copies the side kept and those the other
// added, and a conflict shows the rest inside markers; where the other
// side deleted the cell, the side's copies (as for unique lines, the
// uniqueLines option only).
func (k *run) copiesUndone(side, base, other, result string, hasOther bool) bool {
	if !k.opt.uniqueLines {
		return false
	}
	count := func(ls []string) map[string]int {
		n := map[string]int{}
		for _, l := range ls {
			n[l]++
		}
		return n
	}
	unsep := func(s string) []string { return lines(unseparated(s)) }
	bl := unsep(base)
	nb, ns, no := count(bl), count(unsep(side)), count(unsep(other))
	if hasOther && !subsequence(bl, unsep(other)) {
		return false // the other side deleted lines: which copies is not known
	}
	out, _ := regionLines(unseparated(result))
	nr := count(out)
	for l, b := range nb {
		can := ns[l]
		if hasOther {
			can += no[l] - b
		}
		if ns[l] < b && nr[l] > can {
			return true
		}
	}
	return false
}

// unseparated is text s without its prompt's reply separator: the lines
// of the prompt, then those of the reply. A prompt whose text ends with a
// line end ("x\n", its last line ended) is followed by the separator's
// own line ends: read with the separator as one line end, the file would
// show a blank line the prompt has not (seed 7019647: ours deleted a
// code cell's blank line and last line, keeping the line end before them,
// and theirs made the cell a prompt).
func unseparated(s string) string {
	parts := strings.Split(s, separator)
	for i := range len(parts) - 1 {
		if !strings.HasSuffix(parts[i], "\n") {
			parts[i] += "\n"
		}
	}
	return strings.Join(parts, "")
}

// subsequence reports whether the lines of a are, in order, among those
// of b.
func subsequence(a, b []string) bool {
	i := 0
	for _, l := range b {
		if i < len(a) && a[i] == l {
			i++
		}
	}
	return i == len(a)
}

// fffd returns v with its lone surrogates as U+FFFD, as encoding/json
// (and a careless merge) decodes them.
func fffd(v any) any {
	switch v := v.(type) {
	case string:
		var b strings.Builder
		for i := 0; i < len(v); {
			r, n := utf8.DecodeRuneInString(v[i:])
			if r == sentinel && i+n+4 <= len(v) {
				b.WriteRune(utf8.RuneError)
				i += n + 4
				continue
			}
			b.WriteString(v[i : i+n])
			i += n
		}
		return b.String()
	case *obj:
		c := &obj{keys: v.keys, vals: make(map[string]any, len(v.vals))}
		for k, x := range v.vals {
			c.vals[k] = fffd(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = fffd(x)
		}
		return c
	}
	return v
}

func fffdObj(o *obj) *obj {
	if o == nil {
		return nil
	}
	return fffd(o).(*obj)
}

func fffdViews(rs []*cellView) []*cellView {
	out := make([]*cellView, len(rs))
	for i, r := range rs {
		out[i] = &cellView{c: fffdObj(r.c), text: fffd(r.text).(string), key: r.key}
		for _, rec := range r.recs {
			for j := range rec.vals {
				rec.vals[j] = fffd(rec.vals[j])
			}
			out[i].recs = append(out[i].recs, rec)
		}
	}
	return out
}

// texts checks a result cell's text line by line: each conflict region's
// part of a side shows only lines that side has, and a line base and
// both sides have is kept.
func (k *run) texts(key string, b *obj, sides [2]*obj, rc *cellView) {
	text := func(o *obj) string {
		if o == nil {
			return ""
		}
		return str(o.vals["source"])
	}
	outside, parts := regions(rc.text)
	inputs := map[string]bool{}
	for i, o := range [3]*obj{b, sides[0], sides[1]} {
		has := lineSet(text(o))
		for l := range has {
			inputs[l] = true
		}
		n := map[string]int{}
		for _, l := range lines(text(o)) {
			n[l]++
		}
		for _, p := range parts {
			shown := map[string]int{}
			for _, l := range p[i] {
				// A side's part is a run of its lines: it shows each
				// (a blank one too) at most as often as the side has it.
				if shown[l]++; shown[l] > n[l] {
					check := "conflict shows a line the side has not"
					if becameFFFD(l, has) {
						check += ": lone surrogate became U+FFFD"
					}
					k.fail(check, sideNames[i], key, "/source", "%q in %s's part", l, sideNames[i])
					return
				}
			}
		}
	}
	for l := range outside {
		if l != "" && !inputs[l] {
			check := "line from nowhere"
			if becameFFFD(l, inputs) {
				check += ": lone surrogate became U+FFFD"
			}
			k.fail(check, "", key, "/source", "%q: no input has it", l)
			return
		}
	}
	if sides[0] == nil || sides[1] == nil {
		return
	}
	if covers(rc.recs, "/source", 1, sides[0].vals["source"], true) && covers(rc.recs, "/source", 2, sides[1].vals["source"], true) {
		return // both sides' texts are in a record
	}
	have, haveFFFD := lineSet(rc.text), lineSet(fffd(rc.text).(string))
	ours, theirs := lineSet(text(sides[0])), lineSet(text(sides[1]))
	for _, l := range lines(text(b)) {
		if l != "" && ours[l] && theirs[l] && !have[l] {
			check := "unchanged line lost"
			if haveFFFD[fffd(l).(string)] {
				check += ": lone surrogate became U+FFFD"
			}
			k.fail(check, "", key, "/source", "%q: base and both sides have it", l)
			return
		}
	}
}

// becameFFFD reports whether line l is one of lines with its lone
// surrogates decoded as U+FFFD.
func becameFFFD(l string, lines map[string]bool) bool {
	if !strings.ContainsRune(l, utf8.RuneError) {
		return false
	}
	for a := range lines {
		if fffd(a) == l {
			return true
		}
	}
	return false
}

// outputTextsKept reports whether result, outputs merged output by
// output as git's line merge of the file merges them, holds side's
// changes to base's outputs: member for member side's outputs but for
// their texts, which hold the lines side's texts added to base's; where
// side left an output as base has it (lists of one length), the result's
// is base's or other's (the other side's outputs, as long: its change
// there, which its own check judges), as side made no change there.
func (k *run) outputTextsKept(side []any, base, other any, result []any) bool {
	bs, _ := base.([]any)
	os, _ := other.([]any)
	if len(side) != len(result) {
		return false
	}
	for i, so := range side {
		if len(bs) == len(side) && equal(so, bs[i]) && (equal(result[i], so) || len(os) == len(side) && equal(result[i], os[i])) {
			continue
		}
		so, ok1 := so.(*obj)
		ro, ok2 := result[i].(*obj)
		if !ok1 || !ok2 || !equal(omit(so, "text"), omit(ro, "text")) {
			return false
		}
		bt := ""
		if i < len(bs) {
			if bo, ok := bs[i].(*obj); ok {
				bt = str(bo.vals["text"])
			}
		}
		if _, ok := k.textKept(str(so.vals["text"]), bt, "", str(ro.vals["text"]), false); !ok {
			return false
		}
	}
	return true
}
