package mergecheck

// Tests of the checker itself: it accepts true merges and catches mutants of
// them.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The checker is not vacuous: on cases whose true merge is known (the
// sides edit disjoint cells, so applying ours' edits and then theirs' to
// base is the merge), it accepts the true merge and conflicts marked as
// the format says, and it catches each planted bug.

// trueMerge returns the merge of a case whose sides touch disjoint cells
// (targets and anchors), not both the notebook metadata, not both moving
// cells; ok is false for other cases.
func trueMerge(c *tcase) (*doc, bool) {
	var cells [2]map[string]bool
	var nb, mov [2]bool
	for s, es := range c.ed {
		cells[s] = map[string]bool{}
		for _, e := range es {
			cells[s][e.tok], cells[s][e.at] = true, true
			nb[s] = nb[s] || e.op == "nbmeta"
			mov[s] = mov[s] || e.op == "mov"
		}
		delete(cells[s], "")
	}
	for k := range cells[0] {
		if cells[1][k] {
			return nil, false
		}
	}
	if nb[0] && nb[1] || mov[0] && mov[1] {
		return nil, false
	}
	return c.mergedWithout(func(edit) bool { return false }), true
}

// mergedWithout applies ours' edits and then theirs' but those drop
// says, written in ours' style.
func (c *tcase) mergedWithout(drop func(edit) bool) *doc {
	d := c.base.clone()
	for _, e := range c.ed[0] {
		d.apply(e)
	}
	st := d.st
	for _, e := range c.ed[1] {
		if !drop(e) {
			d.apply(e)
		}
	}
	d.st = st
	return d
}

// A mutant makes a result from a case and its true merge; ok is false
// where it does not apply (or changes nothing).
type mutant struct {
	name string
	want string // a failure whose text holds this (or, after "|", that) must be found; "" any
	make func(c *tcase, m *doc, fs [3][]byte) (result []byte, clean, ok bool)
}

// dropTheirs is the true merge without theirs' edits of one kind.
func dropTheirs(op, want string) mutant {
	return mutant{"drops theirs' " + op, want, func(c *tcase, m *doc, _ [3][]byte) ([]byte, bool, bool) {
		d := c.mergedWithout(func(e edit) bool { return e.op == op })
		if op == "mov" { // only moves of base's cells show
			baseCells := func(d *doc) []string {
				return slices.DeleteFunc(d.tokens(), func(t string) bool { return c.base.find(t) < 0 })
			}
			return d.bytes(), true, !slices.Equal(baseCells(d), baseCells(m))
		}
		return d.bytes(), true, !equal(d.nb, m.nb)
	}}
}

func markerOutput(line string) *obj {
	return newObj("name", "stdout", "output_type", "stream", "text", []any{line + "\n"})
}

// conflicted is the true merge with one cell theirs edited (and ours did
// not) shown as a conflict of base against theirs: its text between
// markers (texts), its outputs between marker outputs (outs), or its
// metadata kept as base's with a record (meta); keepTheirs false leaves
// theirs' version out of the conflict.
func conflicted(kind string, keepTheirs bool) func(c *tcase, m *doc, fs [3][]byte) ([]byte, bool, bool) {
	return func(c *tcase, m *doc, fs [3][]byte) ([]byte, bool, bool) {
		ds := c.docs()
		for _, tok := range ds[2].tokens() {
			bi, oi, ti, mi := ds[0].find(tok), ds[1].find(tok), ds[2].find(tok), m.find(tok)
			if bi < 0 || oi < 0 || mi < 0 {
				continue
			}
			b, o, t := ds[0].cells()[bi].(*obj), ds[1].cells()[oi].(*obj), ds[2].cells()[ti].(*obj)
			if !equal(b, o) || equal(b, t) {
				continue
			}
			major := m.major()
			switch kind {
			case "text":
				bt, tt := cellText(b, major), cellText(t, major)
				if bt == tt || kindOf(b) != kindOf(t) || !strings.HasPrefix(tt, "«"+tok+"»\n") {
					continue
				}
				body := func(s string) string { // its lines, each ended (none: no line)
					s = strings.TrimPrefix(s, "«"+tok+"»\n")
					if s != "" && !strings.HasSuffix(s, "\n") {
						s += "\n"
					}
					return s
				}
				ours, theirs := body(bt), body(tt)
				if !keepTheirs {
					theirs = ours
				}
				m = m.clone()
				setText(m.cells()[mi].(*obj), major, "«"+tok+"»\n<<<<<<< ours\n"+ours+"=======\n"+theirs+">>>>>>> theirs")
			case "outs":
				bo, ok1 := b.vals["outputs"].([]any)
				to, ok2 := t.vals["outputs"].([]any)
				if !ok1 || !ok2 || equal(bo, to) || major != 4 {
					continue
				}
				if !keepTheirs {
					to = bo
				}
				outs := append([]any{markerOutput("<<<<<<< ours")}, bo...)
				outs = append(append(append(outs, markerOutput("=======")), to...), markerOutput(">>>>>>> theirs"))
				m = m.clone()
				m.cells()[mi].(*obj).set("outputs", clone(outs))
			case "meta":
				bm, tm := b.sub("metadata", true), t.sub("metadata", true)
				var chs []change
				diff("/metadata", bm, tm, true, true, &chs)
				if len(chs) == 0 || !equal(omit(b, "metadata"), omit(t, "metadata")) {
					continue
				}
				m = m.clone()
				mc := m.cells()[mi].(*obj)
				mc.set("metadata", clone(bm))
				var recs []any
				for _, ch := range chs {
					r := newObj("pointer", ch.ptr)
					if v, ok := at(b, ch.ptr); ok {
						r.set("base", v)
						r.set("ours", v)
					}
					if ch.has && keepTheirs {
						r.set("theirs", ch.val)
					} else if !ch.has && !keepTheirs {
						r.set("theirs", "not theirs")
					}
					recs = append(recs, r)
				}
				mc.sub("metadata", true).set(conflictsKey, recs)
			}
			return m.bytes(), false, true
		}
		return nil, false, false
	}
}

func omit(o *obj, k string) *obj {
	c := clone(o).(*obj)
	c.del(k)
	return c
}

var mutants = []mutant{
	{"returns ours", "", nil},
	{"returns theirs", "", nil},
	dropTheirs("cmeta", "lost (theirs) /metadata|unchanged value changed /metadata"),
	dropTheirs("nbmeta", "lost (theirs) notebook /metadata"),
	dropTheirs("src", "lost (theirs) /source|line from nowhere"),
	dropTheirs("reply", "lost (theirs) /source|line from nowhere"),
	dropTheirs("out", "lost (theirs) /outputs"),
	dropTheirs("att", "lost (theirs) /attachments"),
	dropTheirs("count", "lost (theirs) /execution_count"),
	dropTheirs("kind", "lost (theirs)|line from nowhere"),
	dropTheirs("id", "lost (theirs) /id"),
	dropTheirs("surr", "lost (theirs)|unchanged value changed"),
	dropTheirs("del", "deleted cell kept (theirs)|cell from nowhere"), // (a cell theirs inserted and deleted: from nowhere)
	dropTheirs("ins", "inserted cell lost (theirs)"),
	dropTheirs("mov", "order (theirs)"),
	{"lone surrogates decoded by encoding/json", "U+FFFD", func(c *tcase, m *doc, _ [3][]byte) ([]byte, bool, bool) {
		data := m.bytes()
		if bytes.Equal(markLone(data), data) {
			return nil, false, false
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			panic(err)
		}
		out, _ := json.Marshal(v)
		return out, true, true
	}},
	{"reports a conflict it does not mark", "conflict not marked in the file", func(c *tcase, m *doc, _ [3][]byte) ([]byte, bool, bool) {
		return m.bytes(), false, true
	}},
	{"leaves markers in a clean result", "marks in a clean result", func(c *tcase, m *doc, _ [3][]byte) ([]byte, bool, bool) {
		m = m.clone()
		cs := m.cells()
		if len(cs) == 0 {
			return nil, false, false
		}
		c0 := cs[0].(*obj)
		setText(c0, m.major(), cellText(c0, m.major())+"\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs")
		return m.bytes(), true, true
	}},
	{"writes an invalid notebook", "result invalid", func(c *tcase, m *doc, _ [3][]byte) ([]byte, bool, bool) {
		m = m.clone()
		cs := m.cells()
		if len(cs) == 0 {
			return nil, false, false
		}
		cs[0].(*obj).set("bogus", true)
		return m.bytes(), true, true
	}},
	{"gives two cells one id", "duplicate cell id", func(c *tcase, m *doc, _ [3][]byte) ([]byte, bool, bool) {
		m = m.clone()
		cs := m.cells()
		if len(cs) < 2 || m.major() != 4 || m.minor() < 5 {
			return nil, false, false
		}
		cs[1].(*obj).set("id", cs[0].(*obj).vals["id"])
		return m.bytes(), true, true
	}},
	{"marks a text conflict with theirs' lines (accepted)", "", conflicted("text", true)},
	{"marks a text conflict without theirs' lines", "lost (theirs) /source|conflict shows a line the side has not (theirs)", conflicted("text", false)},
	{"marks an output conflict with theirs' outputs (accepted)", "", conflicted("outs", true)},
	{"marks an output conflict without theirs' outputs", "lost (theirs) /outputs", conflicted("outs", false)},
	{"records a metadata conflict with theirs' values (accepted)", "", conflicted("meta", true)},
	{"records a metadata conflict without theirs' values", "lost (theirs) /metadata", conflicted("meta", false)},
}

func init() {
	mutants[0].make = func(c *tcase, m *doc, fs [3][]byte) ([]byte, bool, bool) {
		return fs[1], true, !equal(c.docs()[2].nb, c.base.nb)
	}
	mutants[1].make = func(c *tcase, m *doc, fs [3][]byte) ([]byte, bool, bool) {
		return fs[2], true, !equal(c.docs()[1].nb, c.base.nb)
	}
}

// A known case is one whose true merge is known.
type known struct {
	c  *tcase
	m  *doc
	fs [3][]byte
}

var knownCases struct {
	sync.Once
	list []known
}

// trueMergeCases are the cases, among the first 200 drawn with disjoint
// edits, whose true merge is known.
func trueMergeCases() []known {
	knownCases.Do(func() {
		reals := realBases(25)
		for s := range uint64(300) {
			c := drawCase(s+1, reals, true)
			if m, ok := trueMerge(c); ok {
				knownCases.list = append(knownCases.list, known{c, m, c.files()})
			}
		}
	})
	return knownCases.list
}

func TestCheckerAcceptsTrueMerges(t *testing.T) {
	t.Parallel()
	ks := trueMergeCases()
	if len(ks) < 100 {
		t.Fatalf("only %d cases with a known merge", len(ks))
	}
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, k := range ks {
		if fails := check(k.fs[0], k.fs[1], k.fs[2], k.m.bytes(), true, opt); len(fails) > 0 {
			t.Errorf("%v\n  true merge judged failing: %v", k.c, fails)
		}
	}
	t.Logf("%d true merges accepted", len(ks))
}

func TestCheckerCatchesMutants(t *testing.T) {
	t.Parallel()
	ks := trueMergeCases()
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, mu := range mutants {
		t.Run(mu.name, func(t *testing.T) {
			applied, caught := 0, 0
			for _, k := range ks {
				if !testtier.Full() && applied == 20 {
					break // 20 cases a mutant; every case in the long tier
				}
				c, fs := k.c, k.fs
				res, clean, ok := mu.make(c, k.m, fs)
				if !ok {
					continue
				}
				applied++
				fails := check(fs[0], fs[1], fs[2], res, clean, opt)
				found := slices.ContainsFunc(fails, func(f failure) bool {
					return slices.ContainsFunc(strings.Split(mu.want, "|"), func(w string) bool { return strings.Contains(f.String(), w) })
				})
				switch {
				case mu.want == "" && strings.HasSuffix(mu.name, "(accepted)") && len(fails) > 0:
					t.Errorf("%v\n  judged failing: %v", c, fails)
				case mu.want == "" && strings.HasSuffix(mu.name, "(accepted)"):
					caught++
				case len(fails) > 0 && found:
					caught++
				default:
					t.Errorf("%v\n  not caught (want %q): %v", c, mu.want, fails)
				}
			}
			if applied < 5 {
				t.Errorf("applies to only %d cases", applied)
			}
			t.Logf("%d of %d", caught, applied)
		})
	}
}
