package main

// The outputs of a changed cell in ipynb diff, paired and compared, within the
// caps on lines shown.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// The outputs of a changed cell in ipynb diff. The outputs before and
// after are paired by kind (type and stream name, or first
// representation: outview.go) with the project's sequence matching
// (textdiff.Match). An unchanged output is a context line; a changed one
// its summary lines before and after, then what changed under them: text
// as a line diff with context (-U), each changed representation of
// output data under a line naming its type, images as type, pixel size
// and bytes before → after, the output's metadata by nested path. An
// output added or removed is its summary line and its text. Runs of
// unchanged outputs further than -U outputs from a change are one line
// that counts them. What is shown under summaries is capped (outCaps).

// outCaps bound the lines shown under output summary lines, so that a
// large output never buries a change of code: at most output lines under
// each output, cell lines under all of a cell's outputs; what is left
// out is counted on a line of its own ("## … 120 more lines"). The
// summary lines themselves (with their digests) are always shown.
type outCaps struct{ output, cell int }

// defaultCaps are the caps of ipynb diff and of the textconv
// (--output-lines, --cell-lines).
var defaultCaps = outCaps{output: 20, cell: 60}

// maxOutputLines bounds --output-lines and --cell-lines.
const maxOutputLines = 100_000_000

// A lineBudget is what one cell's outputs may still show.
type lineBudget struct {
	caps outCaps
	left int
}

func newBudget(c outCaps) *lineBudget { return &lineBudget{caps: c, left: c.cell} }

// room is how many lines the next output may show.
func (b *lineBudget) room() int { return max(min(b.caps.output, b.left), 0) }

// show returns the lines an output shows of lines (more: lines after
// them not in lines), with a line counting those left out, each line
// ending with a newline.
func (b *lineBudget) show(prefix string, lines []string, more int) string {
	n := min(len(lines), b.room())
	more += len(lines) - n
	b.left -= n
	var s strings.Builder
	for _, l := range lines[:n] {
		s.WriteString(cutLine(l) + "\n")
	}
	if more > 0 && b.caps.output > 0 {
		fmt.Fprintf(&s, "%s%s… %d more line%s\n", prefix, headerMark, more, plural(more))
	}
	return s.String()
}

// maxLineRunes is the longest output line shown whole: longer ones (an
// HTML table on one line, a data URL) are cut, saying how much is left
// out, so that one line cannot bury the rest either.
const maxLineRunes = 300

// cutLine is l cut to maxLineRunes characters (when more than 100 bytes
// would be left out).
func cutLine(l string) string {
	if len(l) <= maxLineRunes {
		return l
	}
	n := 0
	for i := range l {
		if n == maxLineRunes && len(l)-i > 100 {
			return fmt.Sprintf("%s… (%s more)", l[:i], sizeText(len(l)-i))
		}
		n++
	}
	return l
}

// outputsDiff shows the outputs of two versions of a message.
func (d *differ) outputsDiff(a, b *dialog.Message) string {
	va, vb := outViews(a), outViews(b)
	ka, kb := make([]string, len(va)), make([]string, len(vb))
	for i, v := range va {
		ka[i] = v.key
	}
	for i, v := range vb {
		kb[i] = v.key
	}
	match := textdiff.Match(ka, kb)
	type item struct{ a, b *outView }
	var items []item
	j := 0
	for i := range va {
		if match[i] < 0 {
			items = append(items, item{a: &va[i]})
			continue
		}
		for ; j < match[i]; j++ {
			items = append(items, item{b: &vb[j]})
		}
		items = append(items, item{a: &va[i], b: &vb[j]})
		j++
	}
	for ; j < len(vb); j++ {
		items = append(items, item{b: &vb[j]})
	}
	changed := make([]bool, len(items))
	for i, it := range items {
		changed[i] = it.a == nil || it.b == nil || !it.a.same(*it.b)
	}
	// near[i]: item i is within -U items of a change.
	near := make([]bool, len(items))
	last := -1 << 30
	for i := range items {
		if changed[i] {
			last = i
		}
		near[i] = i-last <= d.context
	}
	last = 1 << 30
	for i := len(items) - 1; i >= 0; i-- {
		if changed[i] {
			last = i
		}
		near[i] = near[i] || last-i <= d.context
	}
	budget := newBudget(d.caps)
	var s strings.Builder
	hidden := 0
	flush := func() {
		if hidden > 0 {
			fmt.Fprintf(&s, " %s… %d unchanged %s\n", headerMark, hidden, "output"+plural(hidden))
			hidden = 0
		}
	}
	for i, it := range items {
		switch {
		case !changed[i] && !near[i]:
			hidden++
			continue
		case !changed[i]:
			flush()
			s.WriteString(" " + headerMark + "out: " + it.b.summary + "\n")
		case it.b == nil:
			flush()
			s.WriteString("-" + headerMark + "out: " + it.a.summary + "\n")
			lines, more := outBody(*it.a, "-", budget.room())
			s.WriteString(budget.show("-", lines, more))
		case it.a == nil:
			flush()
			s.WriteString("+" + headerMark + "out: " + it.b.summary + "\n")
			lines, more := outBody(*it.b, "+", budget.room())
			s.WriteString(budget.show("+", lines, more))
		default:
			flush()
			s.WriteString("-" + headerMark + "out: " + it.a.summary + "\n")
			s.WriteString("+" + headerMark + "out: " + it.b.summary + "\n")
			lines, more := d.pairLines(*it.a, *it.b)
			s.WriteString(budget.show(" ", lines, more))
		}
	}
	flush()
	return s.String()
}

// pairLines are the lines showing what changed from output a to b (an
// added or removed representation's text cut at the cap: more counts the
// lines left out).
func (d *differ) pairLines(a, b outView) (ls []string, more int) {
	if a.m == nil || b.m == nil {
		return nil, 0
	}
	if t := a.out.Type(); (t == "stream" || t == "error") && t == b.out.Type() && len(a.reps) == 1 && len(b.reps) == 1 {
		ls = d.hunkLines(a.reps[0].text, b.reps[0].text)
	} else {
		// A type line before each representation's changes, unless the
		// outputs hold one, the same.
		single := len(a.reps) == 1 && len(b.reps) == 1 && a.reps[0].mime == b.reps[0].mime
		for _, t := range repTypes(a, b) {
			ra, inA := a.rep(t)
			rb, inB := b.rep(t)
			switch {
			case inA && inB && !ra.isText():
				if ra.info != rb.info {
					ls = append(ls, " "+headerMark+t+": "+ra.info+" → "+rb.info)
				} else if !sameJSON(ra.value, rb.value) {
					ls = append(ls, " "+headerMark+t+": "+ra.info+", content changed")
				}
			case inA && inB:
				if ra.text != rb.text {
					if !single {
						ls = append(ls, " "+headerMark+t)
					}
					ls = append(ls, d.hunkLines(ra.text, rb.text)...)
				}
			case inA:
				rl, n := repLines(ra, "-", true, d.caps.output)
				ls, more = append(ls, rl...), more+n
			default:
				rl, n := repLines(rb, "+", true, d.caps.output)
				ls, more = append(ls, rl...), more+n
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(union(a.meta, b.meta))) {
		va, hasA := a.meta[k]
		vb, hasB := b.meta[k]
		for _, l := range leafChanges(pathWord(k), va, vb, hasA, hasB) {
			ls = append(ls, strings.TrimSuffix(metaLine("output metadata", l), "\n"))
		}
	}
	return ls, more
}

func union(a, b map[string]any) map[string]any {
	u := maps.Clone(a)
	if u == nil {
		u = map[string]any{}
	}
	maps.Copy(u, b)
	return u
}

// hunkLines are the lines of the line diff of two texts.
func (d *differ) hunkLines(a, b string) []string {
	return strings.Split(strings.TrimSuffix(d.hunks(a, b), "\n"), "\n")
}

// outBody is what an output added or removed (prefix "+" or "-"), or
// one the textconv shows (prefix ""), shows under its summary: its
// text, at most limit lines of it, and how many lines more it has. An
// output of more than one representation shows each under a line naming
// its type (and for images, their size).
func outBody(v outView, prefix string, limit int) (lines []string, more int) {
	named := len(v.reps) > 1
	for _, r := range v.reps {
		if !named && !r.isText() {
			continue // the summary says it all
		}
		ls, n := repLines(r, prefix, named, limit-len(lines))
		lines = append(lines, ls...)
		more += n
	}
	return lines, more
}

// repLines are a representation's lines, each after prefix, under a line
// naming it when named: at most limit lines, and how many more it has.
func repLines(r outRep, prefix string, named bool, limit int) (lines []string, more int) {
	if named {
		h := prefix + headerMark + r.mime
		if !r.isText() {
			h += " " + r.info
		}
		if limit <= 0 {
			more++
		} else {
			lines = append(lines, h)
		}
	}
	if !r.isText() {
		return lines, more
	}
	text := r.text
	for text != "" {
		if len(lines) >= limit {
			more += strings.Count(text, "\n")
			if !strings.HasSuffix(text, "\n") {
				more++
			}
			break
		}
		l, rest, _ := strings.Cut(text, "\n")
		lines = append(lines, prefix+l)
		text = rest
	}
	return lines, more
}
