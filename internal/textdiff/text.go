package textdiff

import (
	"strings"
)

// Lines splits text into lines, each keeping its "\n" (the last one may
// lack it). "" has no lines.
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	out := make([]string, 0, n)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Markers configures the conflict markers MergeText writes, as git does:
// a line of Size '<' then " "+Ours, ours' lines, Size '=', theirs' lines,
// Size '>' then " "+Theirs.
type Markers struct {
	Size         int    // 0 means 7
	Ours, Theirs string // labels; "" leaves them out
}

func (mk Markers) line(c byte, label string) string {
	n := mk.Size
	if n <= 0 {
		n = 7
	}
	s := strings.Repeat(string(c), n)
	if label != "" {
		s += " " + label
	}
	return s + "\n"
}

// MergeText merges the edits ours and theirs made to base line by line
// (diff3). Where both changed the same lines differently, the result
// holds both versions between conflict markers, trimmed of the lines the
// two versions share at their start and end (as git merge-file does);
// conflicts counts those regions.
func MergeText(base, ours, theirs string, mk Markers) (merged string, conflicts int) {
	if ours == theirs || theirs == base {
		return ours, 0
	}
	if ours == base {
		return theirs, 0
	}
	chunks := Merge3(Lines(base), Lines(ours), Lines(theirs))
	var b strings.Builder
	b.Grow(max(len(ours), len(theirs)))
	for _, c := range chunks {
		if lines, ok := c.Resolved(); ok {
			for _, l := range lines {
				b.WriteString(l)
			}
			continue
		}
		o, t := c.Ours, c.Theirs
		p := 0
		for p < len(o) && p < len(t) && o[p] == t[p] {
			p++
		}
		s := 0
		for s < len(o)-p && s < len(t)-p && o[len(o)-1-s] == t[len(t)-1-s] {
			s++
		}
		for _, l := range o[:p] {
			b.WriteString(l)
		}
		conflicts++
		b.WriteString(mk.line('<', mk.Ours))
		writeLines(&b, o[p:len(o)-s])
		b.WriteString(mk.line('=', ""))
		writeLines(&b, t[p:len(t)-s])
		b.WriteString(mk.line('>', mk.Theirs))
		for _, l := range o[len(o)-s:] {
			b.WriteString(l)
		}
	}
	return b.String(), conflicts
}

// MergeClean merges as MergeText does where no lines conflict, and
// otherwise reports ok false without building any text: a caller that
// takes a merge only when it is clean (dialog's strict values) holds no
// merged copy of texts that conflict.
func MergeClean(base, ours, theirs string) (merged string, ok bool) {
	if ours == theirs || theirs == base {
		return ours, true
	}
	if ours == base {
		return theirs, true
	}
	chunks := Merge3(Lines(base), Lines(ours), Lines(theirs))
	n := 0
	for _, c := range chunks {
		lines, ok := c.Resolved()
		if !ok {
			return "", false
		}
		for _, l := range lines {
			n += len(l)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, c := range chunks {
		lines, _ := c.Resolved()
		for _, l := range lines {
			b.WriteString(l)
		}
	}
	return b.String(), true
}

// writeLines writes lines, ending the last with "\n" if it lacks one (a
// marker line follows).
func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
	}
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		b.WriteByte('\n')
	}
}

// Conflict writes a whole-text conflict: ours and theirs between markers
// (for a message deleted on one side and edited on the other, say, where
// a side's text is "").
func Conflict(ours, theirs string, mk Markers) string {
	var b strings.Builder
	b.WriteString(mk.line('<', mk.Ours))
	writeLines(&b, Lines(ours))
	b.WriteString(mk.line('=', ""))
	writeLines(&b, Lines(theirs))
	b.WriteString(mk.line('>', mk.Theirs))
	return b.String()
}

// CommonLines returns how many lines texts x and y share, counted as
// multisets (order aside: each line of one pairs with at most one equal
// line of the other), and how many lines each has (as Lines splits
// them), in time linear in their lengths. Its steps are its lines and
// its bytes by 64 (hashing long lines is most of its work).
func CommonLines(x, y string) (common, nx, ny int) {
	count := make(map[string]int32, strings.Count(x, "\n")+1)
	for l := range lines(x) {
		count[l]++
		nx++
	}
	for l := range lines(y) {
		ny++
		if count[l] > 0 {
			count[l]--
			common++
		}
	}
	work.Add(int64(1 + nx + ny + (len(x)+len(y))/64))
	return common, nx, ny
}

// lines yields the lines of s as Lines returns them.
func lines(s string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for s != "" {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				yield(s)
				return
			}
			if !yield(s[:i+1]) {
				return
			}
			s = s[i+1:]
		}
	}
}
