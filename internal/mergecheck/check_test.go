package mergecheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// A failure is one way a merge result breaks the invariant.
type failure struct {
	check string // what failed, e.g. "lost", "deleted cell kept"
	side  string // whose value: "ours", "theirs", or ""
	key   string // the cell's key; "" for the notebook
	ptr   string // where, relative to the cell (or notebook)
	msg   string // the values involved
}

// class names the failure without its case: check, side and the kind of
// place.
func (f failure) class() string {
	s := f.check
	if f.side != "" {
		s += " (" + f.side + ")"
	}
	p := f.ptr
	if i := strings.IndexByte(p[min(1, len(p)):], '/'); i >= 0 && !strings.HasPrefix(p, "/source") {
		p = p[:i+1]
	}
	switch {
	case f.key == "" && p != "":
		s += " notebook " + p
	case p != "":
		s += " " + p
	}
	return s
}

func (f failure) String() string {
	where := "cell " + f.key
	if f.key == "" {
		where = "notebook"
	}
	return fmt.Sprintf("%s: %s%s: %s", f.class(), where, f.ptr, f.msg)
}

// checkOptions configure the checker.
type checkOptions struct {
	// keys sets the key of every cell of base, ours, theirs and the result
	// (cells with one key are one cell's versions).
	keys func(vs [4]*nbView)
	// uniqueLines: the texts' lines are unique (generated texts), so a
	// line one side deleted that is outside the result's conflicts is a
	// deletion undone.
	uniqueLines bool
}

type run struct {
	opt   checkOptions
	fails []failure
	// dupIDs holds, for ours and theirs, the ids a side gives more than
	// one cell (a side git's markers hold can): a valid result cannot
	// keep them on every such cell.
	dupIDs [3]map[string]bool
	// resultIDs holds the ids of the result's cells.
	resultIDs map[string]bool
}

func (k *run) fail(check, side, key, ptr, format string, args ...any) {
	k.fails = append(k.fails, failure{check, side, key, ptr, fmt.Sprintf(format, args...)})
}

// check judges result (clean: the merge reported no conflict) as the
// merge of ours and theirs, made from base.
func check(base, ours, theirs, result []byte, clean bool, opt checkOptions) []failure {
	k := &run{opt: opt}
	rv, err := viewOf(result)
	if err != nil {
		k.fail("result not JSON", "", "", "", "%v", err)
		return k.fails
	}
	if err := validNotebook(result); err != nil {
		k.fail("result invalid", "", "", "", "%v", err)
	}
	takeMarkerCells(rv)
	var vs [4]*nbView
	for i, data := range [3][]byte{base, ours, theirs} {
		if vs[i], err = viewOf(data); err != nil {
			k.fail("input not JSON", sideNames[i], "", "", "%v", err)
			return k.fails
		}
	}
	vs[3] = rv
	opt.keys(vs)
	for i := 1; i < 3; i++ {
		seen := map[string]bool{}
		k.dupIDs[i] = map[string]bool{}
		for _, c := range vs[i].cells {
			if id, ok := c.c.vals["id"].(string); ok {
				k.dupIDs[i][id] = seen[id]
				seen[id] = true
			}
		}
	}
	k.resultIDs = map[string]bool{}
	for _, c := range rv.cells {
		if id, ok := c.c.vals["id"].(string); ok {
			k.resultIDs[id] = true
		}
	}
	vb, vo, vt := vs[0], vs[1], vs[2]
	if rv.major != vo.major {
		// (its cells' members are others: comparing them says nothing more)
		k.fail(fmt.Sprintf("version %d written as %d", vo.major, rv.major), "", "", "", "ours %d.%d, result %d.%d", vo.major, vo.minor, rv.major, rv.minor)
		return k.fails
	}
	if vo.minor == vt.minor && rv.minor != vo.minor {
		k.fail("version", "", "", "", "ours %d.%d theirs %d.%d, result %d.%d", vo.major, vo.minor, vt.major, vt.minor, rv.major, rv.minor)
	}
	if rv.major == 4 && rv.minor >= 5 {
		seen := map[string]bool{}
		for _, c := range rv.cells {
			id := str(c.c.vals["id"])
			if seen[id] {
				k.fail("duplicate cell id", "", c.key, "/id", "%q", id)
			}
			seen[id] = true
		}
	}
	groups := [4]map[string][]*cellView{}
	var order []string
	for i, v := range vs {
		groups[i] = map[string][]*cellView{}
		for _, c := range v.cells {
			if i < 3 && len(groups[0][c.key])+len(groups[1][c.key])+len(groups[2][c.key]) == 0 {
				order = append(order, c.key)
			}
			groups[i][c.key] = append(groups[i][c.key], c)
		}
	}
	first := func(g map[string][]*cellView, key string) *cellView {
		if cs := g[key]; len(cs) > 0 {
			return cs[0]
		}
		return nil
	}
	for _, key := range order {
		k.cell(key, first(groups[0], key), first(groups[1], key), first(groups[2], key), groups[3][key])
	}
	for _, key := range slices.Sorted(maps.Keys(groups[3])) {
		if !slices.Contains(order, key) {
			k.fail("cell from nowhere", "", key, "", "%.80q", groups[3][key][0].text)
		}
	}
	k.values("", vb.top, [2]*obj{vo.top, vt.top}, []*cellView{{c: rv.top, recs: rv.recs}})
	if rv.recErr != nil {
		k.fail("record malformed", "", "", "/metadata", "%v", rv.recErr)
	}
	k.order(vs)
	k.placeRecords(vs)
	marked := len(rv.recs) > 0 || rv.markerCells > 0
	for _, c := range rv.cells {
		if c.recErr != nil {
			k.fail("record malformed", "", c.key, "/metadata", "%v", c.recErr)
		}
		var ins []*cellView
		for _, g := range groups[:3] {
			ins = append(ins, g[c.key]...)
		}
		marked = marked || cellMarked(c, ins)
	}
	switch {
	case clean && marked:
		k.fail("marks in a clean result", "", "", "", "the merge reported no conflict")
	case !clean && !marked:
		k.fail("conflict not marked in the file", "", "", "", "the merge reported a conflict")
	}
	return k.fails
}

// cellMarked reports whether a result cell carries a conflict: markers in
// its text (that no input version of it has), marker outputs, records.
func cellMarked(c *cellView, inputs []*cellView) bool {
	if len(c.recs) > 0 {
		return true
	}
	if outs, ok := c.c.vals["outputs"].([]any); ok {
		if _, ok := outputRegions(outs); ok {
			return true
		}
	}
	if !marked(c.text) {
		return false
	}
	for _, in := range inputs {
		if marked(in.text) {
			return false
		}
	}
	return true
}

// derivedOnly reports whether s differs from b only in outputs and
// execution count (a re-run).
func derivedOnly(b, s *obj) bool {
	b, s = clone(b).(*obj), clone(s).(*obj)
	for _, m := range []string{"outputs", "execution_count"} {
		b.del(m)
		s.del(m)
	}
	return equal(b, s)
}

// upgradedHeading is c, a version 3 heading, as nbformat's upgrade to
// version 4 reads it (nbformat.v4.convert.upgrade_cell): one line, the
// source's lines joined by spaces — as a markdown cell after level
// hashes (asMarkdown), or as a heading of that one line. A heading is one
// line (its line ends are no part of it that a notebook shows), which a
// merge working on the upgrade keeps: a result cell that is not a
// heading (a conflict's text, a kind changed) is compared with the
// heading versions as markdown, and one that is a heading, without
// markers, as headings of one line. Other cells are returned as they are.
func upgradedHeading(c *cellView, asMarkdown bool) *cellView {
	if c == nil || str(c.c.vals["cell_type"]) != "heading" {
		return c
	}
	text := strings.Join(lines(c.text), " ")
	u := *c
	u.c = clone(c.c).(*obj)
	if asMarkdown {
		n := number(c.c.vals["level"])
		if n < 1 {
			n = 1
		}
		text = strings.Repeat("#", n) + " " + text
		u.c.del("level")
		u.c.set("cell_type", "markdown")
	}
	u.c.set("source", text)
	u.text = text
	return &u
}

// cell checks one cell's versions (nil where a side has none).
func (k *run) cell(key string, b, o, t *cellView, rs []*cellView) {
	objOf := func(c *cellView) *obj {
		if c == nil {
			return nil
		}
		return c.c
	}
	if len(rs) > 1 {
		k.fail("cell duplicated", "", key, "", "%d cells in the result", len(rs))
	}
	if len(rs) > 0 {
		if str(rs[0].c.vals["cell_type"]) != "heading" {
			b, o, t = upgradedHeading(b, true), upgradedHeading(o, true), upgradedHeading(t, true)
		} else if !marked(rs[0].text) {
			b, o, t = upgradedHeading(b, false), upgradedHeading(o, false), upgradedHeading(t, false)
			rs = append([]*cellView{upgradedHeading(rs[0], false)}, rs[1:]...)
		}
	}
	sides := [2]*cellView{o, t}
	if b == nil { // inserted
		for i, s := range sides {
			switch {
			case s == nil:
			case len(rs) == 0:
				k.fail("inserted cell lost", sideNames[i+1], key, "", "%.80q", s.text)
			case i == 1 && o != nil && equal(o.c, t.c):
			default:
				k.values(key, newObj(), [2]*obj{objOf(o), objOf(t)}, rs)
				return
			}
		}
		return
	}
	for i, s := range sides {
		other := sides[1-i]
		if s != nil || other == nil {
			continue
		}
		// deleted on side i, kept on the other
		switch {
		case equal(other.c, b.c) && len(rs) > 0:
			k.fail("deleted cell kept", sideNames[i+1], key, "", "the other side left it unchanged")
		case equal(other.c, b.c):
		case len(rs) == 0 && derivedOnly(b.c, other.c):
		case len(rs) == 0 && k.idCopyOnly(b.c, other.c, 2-i):
		case len(rs) == 0:
			k.fail("edit of a deleted cell lost", sideNames[2-i], key, "", "deleted by %s; the cell is absent", sideNames[i+1])
		case !cellMarked(rs[0], nil) && !rs[0].inRegion && !derivedOnly(b.c, other.c):
			k.fail("delete/edit conflict not marked", sideNames[i+1], key, "", "deleted by %s, edited by %s; kept without a mark", sideNames[i+1], sideNames[2-i])
		}
		if len(rs) > 0 && !equal(other.c, b.c) {
			k.values(key, b.c, [2]*obj{objOf(o), objOf(t)}, rs)
		}
		return
	}
	switch {
	case o == nil && t == nil && len(rs) > 0:
		k.fail("deleted cell kept", "both", key, "", "deleted on both sides")
	case o == nil && t == nil:
	case len(rs) == 0:
		k.fail("cell lost", "", key, "", "neither side deleted it")
	default:
		k.values(key, b.c, [2]*obj{o.c, t.c}, rs)
	}
}

// A change is a value one side has at ptr (absent: !has) that base has
// not.
type change struct {
	ptr string
	val any
	has bool
}

// diff lists the changes from b to s, member by member of objects.
func diff(ptr string, b, s any, hasB, hasS bool, out *[]change) {
	bo, ok1 := b.(*obj)
	so, ok2 := s.(*obj)
	// an object one side added or removed is its members added or removed
	switch {
	case !hasB && ok2 && ptr != "":
		bo, ok1, hasB = newObj(), true, true
	case !hasS && ok1 && ptr != "":
		so, ok2, hasS = newObj(), true, true
	}
	if hasB && hasS && ok1 && ok2 {
		for _, key := range bo.keys {
			x, hx := so.get(key)
			diff(pointerTo(ptr, key), bo.vals[key], x, true, hx, out)
		}
		for _, key := range so.keys {
			if _, ok := bo.get(key); !ok {
				diff(pointerTo(ptr, key), nil, so.vals[key], false, true, out)
			}
		}
		return
	}
	if hasB != hasS || hasB && !equal(b, s) {
		*out = append(*out, change{ptr, s, hasS})
	}
}

// leaves lists the pointers of the non-object values below v.
func leaves(ptr string, v any, out map[string]bool) {
	if o, ok := v.(*obj); ok && (len(o.keys) > 0 || ptr == "") {
		for _, key := range o.keys {
			leaves(pointerTo(ptr, key), o.vals[key], out)
		}
		return
	}
	out[ptr] = true
}

// values checks the result versions rs of one cell (or of the notebook,
// key "") against base b and the sides (nil where deleted).
func (k *run) values(key string, b *obj, sides [2]*obj, rs []*cellView) {
	for i, s := range sides {
		if s == nil {
			continue
		}
		var changes []change
		diff("", b, s, true, true, &changes)
		for _, ch := range changes {
			place, ok := k.kept(ch, i+1, b, sides[1-i], rs)
			if ok || ch.ptr == "/id" && k.dupIDs[i+1][str(ch.val)] {
				continue
			}
			check := "lost"
			rv, _ := at(rs[0].c, ch.ptr)
			if _, ok := k.kept(change{ch.ptr, fffd(ch.val), ch.has}, i+1, fffd(b).(*obj), fffdObj(sides[1-i]), fffdViews(rs)); ok && hasFFFD(rv) {
				check = "lost: lone surrogate became U+FFFD"
			}
			k.fail(check, sideNames[i+1], key, place, "%s has %s, base %s, result %s", sideNames[i+1], compact(ch.val, ch.has), compact(at(b, ch.ptr)), compact(at(rs[0].c, ch.ptr)))
		}
	}
	if len(rs) != 1 {
		return
	}
	if key != "" {
		k.texts(key, b, sides, rs[0])
	}
	if sides[0] == nil || sides[1] == nil {
		return
	}
	ptrs := map[string]bool{}
	leaves("", b, ptrs)
	leaves("", rs[0].c, ptrs)
	for _, p := range slices.Sorted(maps.Keys(ptrs)) {
		vb, hb := at(b, p)
		vo, ho := at(sides[0], p)
		vt, ht := at(sides[1], p)
		vr, hr := at(rs[0].c, p)
		same := func(v any, h bool) bool { return h == hb && (!h || equal(v, vb)) }
		switch {
		case p == "/id" && hr && k.copyRenamed(str(vb)):
			// (a valid result gives a side's id of two cells to one)
		case same(vo, ho) && same(vt, ht) && !same(vr, hr) && !covers(rs[0].recs, p, 1, vb, hb):
			check := "unchanged value changed"
			if hr == hb && equal(fffd(vb), fffd(vr)) && hasFFFD(vr) {
				check += ": lone surrogate became U+FFFD"
			}
			k.fail(check, "", key, p, "base and both sides %s, result %s", compact(vb, hb), compact(vr, hr))
		case hr && !hb && !ho && !ht && !strings.HasPrefix(p, "/outputs"):
			k.fail("value from nowhere", "", key, p, "result %s, no input has it", compact(vr, hr))
		}
	}
}

// idCopyOnly reports whether side's version s of base's cell b differs
// from it only in its id, now one the side gives another cell too and a
// cell of the result keeps: the side made the cell a copy of that one
// (git's hunks gave it that cell's id line), and a valid result cannot
// keep the id on both, so the change is none a deletion of the cell
// loses (the id is kept on the other).
func (k *run) idCopyOnly(b, s *obj, side int) bool {
	var chs []change
	diff("", b, s, true, true, &chs)
	return len(chs) == 1 && chs[0].ptr == "/id" && chs[0].has && k.dupIDs[side][str(chs[0].val)] && k.resultIDs[str(chs[0].val)]
}

// copyRenamed reports whether id is one a side gives more than one cell
// and that a cell of the result keeps: a copy with another id is then
// the result's one way to stay valid (ids are unique).
func (k *run) copyRenamed(id string) bool {
	return (k.dupIDs[1][id] || k.dupIDs[2][id]) && k.resultIDs[id]
}

// kept reports whether side's change is in one of the result versions:
// as the value, in a record, or (texts, outputs) between markers; place
// is where it is missing.
func (k *run) kept(ch change, side int, b, other *obj, rs []*cellView) (place string, ok bool) {
	place = ch.ptr
	for _, rc := range rs {
		rv, rok := at(rc.c, ch.ptr)
		if rok == ch.has && (!rok || equal(rv, ch.val)) || covers(rc.recs, ch.ptr, side, ch.val, ch.has) {
			return "", true
		}
		switch ch.ptr {
		case "/source":
			bt, _ := at(b, "/source")
			var ot any
			if other != nil {
				ot, _ = at(other, "/source")
			}
			where, ok := k.textKept(str(ch.val), str(bt), str(ot), rc.text, other != nil)
			if ok && k.copiesUndone(str(ch.val), str(bt), str(ot), rc.text, other != nil) {
				where, ok = "/source (deletion undone)", false
			}
			if ok {
				return "", true
			}
			place = where
		case "/outputs":
			if outs, ok := rv.([]any); ok {
				want, _ := ch.val.([]any) // none (!ch.has): see noneSpelled
				runs, _ := outputRegions(outs)
				for _, r := range runs {
					if equal(r[side], want) {
						return "", true
					}
				}
				bo, _ := at(b, "/outputs")
				var oo any
				if other != nil {
					oo, _ = at(other, "/outputs")
				}
				if ch.has && k.outputTextsKept(want, bo, oo, outs) {
					return "", true
				}
			}
		}
	}
	return place, false
}

// order checks the order of the cells all four have once: a side's
// reordering is the result's when the other side reordered nothing; when
// both did, a cell both moved to different places is at each side's place
// or records it (see movedApart); a cell both sides added at different
// places likewise (see addedApart).
func (k *run) order(vs [4]*nbView) {
	count := map[string][4]int{}
	for i, v := range vs {
		for _, c := range v.cells {
			n := count[c.key]
			n[i]++
			count[c.key] = n
		}
	}
	var seqs [4][]string
	for i, v := range vs {
		for _, c := range v.cells {
			if count[c.key] == [4]int{1, 1, 1, 1} {
				seqs[i] = append(seqs[i], c.key)
			}
		}
	}
	k.addedApart(vs, count, seqs)
	want, who := seqs[0], ""
	switch om, tm := !slices.Equal(seqs[1], seqs[0]), !slices.Equal(seqs[2], seqs[0]); {
	case om && tm:
		k.movedApart(vs, seqs)
		return
	case om:
		want, who = seqs[1], "ours"
	case tm:
		want, who = seqs[2], "theirs"
	}
	if !slices.Equal(seqs[3], want) {
		k.fail("order", who, "", "", "want %v, result %v", want, seqs[3])
	}
}

// hasFFFD reports whether a value holds U+FFFD.
func hasFFFD(v any) bool {
	return strings.ContainsRune(string(oneLineStyle.write(v)), utf8.RuneError)
}
