package mergecheck

// Failures of the property test: classed, shrunk to a minimal reproducer and
// reported.

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Failures are counted by class: first coarsely (the failure's class and
// the kinds of edits each side made to the cell concerned), then each
// coarse class's first case is shrunk (edits, then base cells, dropped one
// at a time while the failure remains) and named by the edits left.

// label names an edit's kind in class names.
func label(e edit) string {
	if e.op == "kind" {
		return "kind→" + e.arg
	}
	return e.op
}

// opsOn lists the kinds of a side's edits that concern a cell (key; ""
// for the notebook: all).
func opsOn(es []edit, key string) string {
	var ls []string
	for _, e := range es {
		if key == "" || e.tok == key || e.at == key || e.op == "style" || e.op == "reorder" {
			ls = append(ls, label(e))
		}
	}
	slices.Sort(ls)
	ls = slices.Compact(ls)
	if ls == nil {
		return "-"
	}
	return strings.Join(ls, "+")
}

// coarseClass is a failure's class, the kind of base (with cell ids or
// without) and the kinds of edits each side made to the cell concerned
// (none for a lone surrogate's loss, whatever carried it).
func coarseClass(f failure, c *tcase) string {
	s := f.class() + " [" + idKind(c.base) + "]"
	if wholeClass(f) {
		return s
	}
	return s + " | ours: " + opsOn(c.ed[0], f.key) + " | theirs: " + opsOn(c.ed[1], f.key)
}

// wholeClass reports whether a failure is one class whatever the edits
// (a lone surrogate decoded, whatever carried it; a version changed).
func wholeClass(f failure) bool {
	return strings.Contains(f.check, "U+FFFD") || strings.HasPrefix(f.check, "version")
}

func idKind(d *doc) string {
	switch {
	case d.major() == 3:
		return "v3"
	case d.minor() >= 5:
		return "ids"
	}
	return "no ids"
}

// A tally collects a run's failures.
type tally struct {
	cases, ran, failed int
	coarse             map[string]*seen
	byClass            map[string]int // cases per failure class and kind of base
}

type seen struct {
	count int
	c     *tcase
	f     failure
}

func (tl *tally) add(c *tcase, fs []failure, ran bool) {
	tl.cases++
	if !ran {
		return
	}
	tl.ran++
	if len(fs) > 0 {
		tl.failed++
	}
	if tl.coarse == nil {
		tl.coarse = map[string]*seen{}
	}
	if tl.byClass == nil {
		tl.byClass = map[string]int{}
	}
	done := map[string]bool{}
	for _, f := range fs {
		if k := f.class() + " [" + idKind(c.base) + "]"; !done[k] {
			done[k] = true
			tl.byClass[k]++
		}
		k := coarseClass(f, c)
		if done[k] {
			continue
		}
		done[k] = true
		if s := tl.coarse[k]; s != nil {
			s.count++
		} else {
			tl.coarse[k] = &seen{1, c, f}
		}
	}
}

// shrink drops edits, then base cells, one at a time while the case still
// fails with class want; at most budget merges.
func shrink(c *tcase, m merger, want string, budget int) (*tcase, failure) {
	failing := func(c *tcase) (failure, bool) {
		budget--
		fs, _ := runCase(c, m)
		for _, f := range fs {
			if f.class() == want {
				return f, true
			}
		}
		return failure{}, false
	}
	last, _ := failing(c)
	for changed := true; changed && budget > 0; {
		changed = false
		for s := range 2 {
			for i := 0; i < len(c.ed[s]) && budget > 0; i++ {
				try := *c
				try.ed[s] = slices.Delete(slices.Clone(c.ed[s]), i, i+1)
				if f, ok := failing(&try); ok {
					c, last, changed = &try, f, true
					i--
				}
			}
		}
		for i := 0; i < len(c.base.cells()) && budget > 0; i++ {
			try := *c
			try.base = c.base.clone()
			try.base.setCells(slices.Delete(try.base.cells(), i, i+1))
			if f, ok := failing(&try); ok {
				c, last, changed = &try, f, true
				i--
			}
		}
		// then the members of base's metadata, cells' metadata, outputs
		// and attachments
		for _, p := range simplifications(c.base) {
			if budget <= 0 {
				break
			}
			try := *c
			try.base = c.base.clone()
			if !p(try.base) {
				continue
			}
			if f, ok := failing(&try); ok {
				c, last, changed = &try, f, true
			}
		}
	}
	return c, last
}

// simplifications are the ways to make a base smaller by one member
// (each reports whether it applied).
func simplifications(d *doc) []func(*doc) bool {
	var ps []func(*doc) bool
	delKey := func(get func(*doc) *obj, k string) func(*doc) bool {
		return func(d *doc) bool {
			o := get(d)
			_, ok := o.get(k)
			o.del(k)
			return ok
		}
	}
	nbMeta := func(d *doc) *obj { return d.nb.sub("metadata", true) }
	for _, k := range nbMeta(d).keys {
		if k != "name" {
			ps = append(ps, delKey(nbMeta, k))
		}
	}
	for i := range d.cells() {
		cell := func(d *doc) *obj {
			if cs := d.cells(); i < len(cs) {
				return cs[i].(*obj)
			}
			return newObj()
		}
		meta := func(d *doc) *obj { return cell(d).sub("metadata", true) }
		for _, k := range meta(d).keys {
			if k != "solveit_ai" {
				ps = append(ps, delKey(meta, k))
			}
		}
		ps = append(ps, delKey(cell, "attachments"), func(d *doc) bool {
			outs, ok := cell(d).vals["outputs"].([]any)
			if ok && len(outs) > 0 {
				cell(d).set("outputs", []any{})
			}
			return ok && len(outs) > 0
		})
	}
	return ps
}

// A row of the findings: a class after shrinking.
type row struct {
	name   string
	count  int
	c      *tcase
	f      failure
	coarse []string
	shrunk bool
}

// report shrinks each coarse class (the most frequent first, at most
// maxShrink of them), fails t once per class with its count and minimal
// reproducer (its files written under t.TempDir()), and logs the table.
func report(t *testing.T, what string, tl *tally, m merger, maxShrink int) []row {
	t.Helper()
	keys := make([]string, 0, len(tl.coarse))
	for k := range tl.coarse {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(tl.coarse[b].count, tl.coarse[a].count), strings.Compare(a, b))
	})
	rows := map[string]*row{}
	for i, k := range keys {
		s := tl.coarse[k]
		c, f := s.c, s.f
		name := k
		if i < maxShrink {
			c, f = shrink(s.c, m, s.f.class(), 100)
			name = s.f.class() + " [" + idKind(c.base) + "] | ours: " + opsOn(c.ed[0], "") + " | theirs: " + opsOn(c.ed[1], "")
			if wholeClass(f) {
				name = s.f.class() + " [" + idKind(c.base) + "]"
			}
		}
		r := rows[name]
		if r == nil {
			r = &row{name: name, c: c, f: f, shrunk: i < maxShrink}
			rows[name] = r
		}
		r.count += s.count
		r.coarse = append(r.coarse, k)
	}
	list := make([]row, 0, len(rows))
	for _, r := range rows {
		list = append(list, *r)
	}
	slices.SortFunc(list, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.count, a.count), strings.Compare(a.name, b.name))
	})
	var tab strings.Builder
	fmt.Fprintf(&tab, "%s: %d cases, %d merged, %d failing\n\n| failure | cases |\n|---|---|\n", what, tl.cases, tl.ran, tl.failed)
	byClass := slices.Collect(maps.Keys(tl.byClass))
	slices.SortFunc(byClass, func(a, b string) int { return cmp.Or(cmp.Compare(tl.byClass[b], tl.byClass[a]), strings.Compare(a, b)) })
	for _, k := range byClass {
		fmt.Fprintf(&tab, "| %s | %d |\n", k, tl.byClass[k])
	}
	fmt.Fprintf(&tab, "\n| failure class, by the edits left after shrinking | cases | reproducer seed |\n|---|---|---|\n")
	dir := t.TempDir()
	for i, r := range list {
		fmt.Fprintf(&tab, "| %s | %d | %d |\n", strings.ReplaceAll(r.name, "|", "¦"), r.count, r.c.seed)
		if !r.shrunk {
			t.Errorf("%s\n  %d of %d cases; first: seed %d (not shrunk)\n  failure: %v", r.name, r.count, tl.ran, r.c.seed, r.f)
			continue
		}
		sub := filepath.Join(dir, fmt.Sprintf("class%02d", i+1))
		os.Mkdir(sub, 0o755)
		fs := r.c.files()
		var inline strings.Builder
		for j, name := range []string{"base", "ours", "theirs"} {
			p := filepath.Join(sub, name+".ipynb")
			if err := os.WriteFile(p, fs[j], 0o644); err != nil {
				t.Fatal(err)
			}
			if len(fs[j]) < 3000 {
				fmt.Fprintf(&inline, "\n--- %s\n%s", p, fs[j])
			} else {
				fmt.Fprintf(&inline, "\n--- %s (%d bytes)", p, len(fs[j]))
			}
		}
		t.Errorf("%s\n  %d of %d cases; minimal reproducer: %v\n  failure: %v%s", r.name, r.count, tl.ran, r.c, r.f, inline.String())
	}
	t.Log(tab.String())
	return list
}

// property runs cases of the seeds through m and reports.
func property(t *testing.T, what string, m merger, seeds []uint64, reals []realBase, maxShrink int) *tally {
	t.Helper()
	tl := &tally{}
	apart, added := movesApart.Load(), addsApart.Load()
	defer func() {
		t.Logf("%s: %d cells both sides moved to different places, %d added at different places", what, movesApart.Load()-apart, addsApart.Load()-added)
	}()
	dump := os.Getenv("IPYNB_MERGEPROP_CASES") != "" // a line per failing case, for tables made elsewhere
	for _, s := range seeds {
		c := newCase(s, reals)
		fs, ran := runCase(c, m)
		tl.add(c, fs, ran)
		if dump && len(fs) > 0 {
			var cls []string
			for _, f := range fs {
				cls = append(cls, coarseClass(f, c))
			}
			t.Logf("case\t%d\t%s", s, strings.Join(slices.Compact(slices.Sorted(slices.Values(cls))), "\t"))
		}
	}
	if tl.failed > 0 {
		report(t, what, tl, m, maxShrink)
	} else {
		t.Logf("%s: %d cases, %d merged, none failing", what, tl.cases, tl.ran)
	}
	return tl
}

func seedRange(from, n int) []uint64 {
	s := make([]uint64, n)
	for i := range s {
		s[i] = uint64(from + i)
	}
	return s
}
