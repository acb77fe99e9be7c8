package textdiff

import (
	"fmt"
	"strings"
)

// An Edit is one line of a diff: Op is ' ' (in both), '-' (only in a) or
// '+' (only in b); Text is the line with its "\n", if it has one.
type Edit struct {
	Op   byte
	Text string
}

// A Hunk is a run of edits with their context lines. AStart and BStart are
// 1-based line numbers (0 for an empty side, as diff -u writes them).
type Hunk struct {
	AStart, ALines, BStart, BLines int
	Edits                          []Edit
}

// Edits returns the line-by-line diff of a and b, in order.
func Edits(a, b []string) []Edit {
	m := Match(a, b)
	out := make([]Edit, 0, max(len(a), len(b)))
	j := 0
	for i, x := range a {
		if m[i] < 0 {
			out = append(out, Edit{'-', x})
			continue
		}
		for ; j < m[i]; j++ {
			out = append(out, Edit{'+', b[j]})
		}
		out = append(out, Edit{' ', x})
		j++
	}
	for ; j < len(b); j++ {
		out = append(out, Edit{'+', b[j]})
	}
	return out
}

// Hunks groups the edits of a against b into hunks with ctx lines of
// context (ctx < 0 means 3); hunks closer than 2·ctx lines are joined.
// Equal inputs give no hunks. Line numbers are counted as the edits are
// passed, once: the work is linear in the edits however many the hunks.
func Hunks(a, b []string, ctx int) []Hunk {
	if ctx < 0 {
		ctx = 3
	}
	es := Edits(a, b)
	var hs []Hunk
	var at lineCounter // the lines of a and b before es[at.i]
	i := 0
	for i < len(es) {
		for i < len(es) && es[i].Op == ' ' {
			i++
		}
		if i == len(es) {
			break
		}
		start := max(at.i, i-ctx)
		end := i
		for end < len(es) {
			if es[end].Op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(es) && es[run].Op == ' ' {
				run++
			}
			if run == len(es) || run-end > 2*ctx {
				end = min(end+ctx, run)
				break
			}
			end = run
		}
		at.advance(es, start)
		h := Hunk{Edits: es[start:end], AStart: at.a + 1, BStart: at.b + 1}
		la, lb := at.a, at.b
		at.advance(es, end)
		h.ALines, h.BLines = at.a-la, at.b-lb
		if h.ALines == 0 {
			h.AStart = la
		}
		if h.BLines == 0 {
			h.BStart = lb
		}
		hs = append(hs, h)
		i = end
	}
	work.Add(int64(len(es) + at.steps)) // the scans above pass each edit at most twice
	return hs
}

// lineCounter counts the lines of a and b in the edits before es[i],
// and the edits it passed (steps).
type lineCounter struct{ i, a, b, steps int }

// advance moves the counter on to edit to.
func (c *lineCounter) advance(es []Edit, to int) {
	c.steps += 1 + max(to-c.i, 0)
	for ; c.i < to; c.i++ {
		if es[c.i].Op != '+' {
			c.a++
		}
		if es[c.i].Op != '-' {
			c.b++
		}
	}
}

// Unified returns the unified diff of texts a and b (diff -u form, with
// headers "--- aName" and "+++ bName", ctx lines of context, a line
// without final newline followed by "\ No newline at end of file"), or ""
// when they are equal.
func Unified(aName, bName, a, b string, ctx int) string {
	if a == b {
		return ""
	}
	hs := Hunks(Lines(a), Lines(b), ctx)
	var s strings.Builder
	fmt.Fprintf(&s, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range hs {
		fmt.Fprintf(&s, "@@ -%s +%s @@\n", span(h.AStart, h.ALines), span(h.BStart, h.BLines))
		for _, e := range h.Edits {
			s.WriteByte(e.Op)
			s.WriteString(e.Text)
			if !strings.HasSuffix(e.Text, "\n") {
				s.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return s.String()
}

func span(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
