package convert

// Tests of texts read a line at a time from their bytes (outputslines.go): the lines as encoding/json decodes the text, and the conflicts summaries claim as textdiff merges the texts.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// decodedText is the text raw (a JSON string or array of strings)
// joins to, as encoding/json decodes it.
func decodedText(t *testing.T, raw string) string {
	t.Helper()
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err == nil {
		return s
	}
	var list []string
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return strings.Join(list, "")
}

func cursorLines(raw string) []string {
	var out []string
	c := lineCursor{raw: []byte(raw)}
	for {
		l, ok := c.line()
		if !ok {
			return out
		}
		out = append(out, string(l))
	}
}

// randomRaw is a JSON text of random lines (escapes of every kind, "\n"
// spelled three ways), as one string or split into an array's strings
// at random places.
func randomRaw(r *rand.Rand, lines int) string {
	pieces := []string{`a`, `bc`, `\"`, `\\`, `\\n`, `\/`, `\t`, `\u00e9`, `é`, `\ud83d\ude00`, `\u0041`, ` `, `x\\u000a`}
	newlines := []string{`\n`, `\u000a`, `\u000A`}
	var text []string // escaped, in units never cut
	for range lines {
		for range r.IntN(4) {
			text = append(text, pieces[r.IntN(len(pieces))])
		}
		if r.IntN(8) > 0 {
			text = append(text, newlines[r.IntN(len(newlines))])
		}
	}
	if r.IntN(3) == 0 {
		return `"` + strings.Join(text, "") + `"`
	}
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(`"`)
	for _, u := range text {
		if r.IntN(3) == 0 {
			b.WriteString(`", "`)
		}
		b.WriteString(u)
	}
	b.WriteString(`"]`)
	return b.String()
}

// The lines a lineCursor reads are textdiff.Lines of the text
// encoding/json decodes, and equalTexts is the equality of those texts.
func TestLineCursorAsDecoded(t *testing.T) {
	raws := []string{`""`, `[]`, `["", ""]`, `"a"`, `"a\n"`, `"\n\n"`, `["a", "b\n", "c"]`, `["a\\", "n"]`, `"a\\nb"`,
		`"a\u000ab\u000Ac"`, `["\ud83d\ude00\n", "\n"]`, `[ "x" , "y\n" ]`}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		raws = append(raws, randomRaw(r, 1+r.IntN(6)))
	}
	for _, raw := range raws {
		want := textdiff.Lines(decodedText(t, raw))
		if diff := cmp.Diff(want, cursorLines(raw)); diff != "" {
			t.Errorf("%s: lines (-want +got):\n%s", raw, diff)
		}
	}
	for i := range raws {
		for _, j := range []int{i, (i * 7) % len(raws), (i + 1) % len(raws)} {
			want := decodedText(t, raws[i]) == decodedText(t, raws[j])
			if got := equalTexts([]byte(raws[i]), []byte(raws[j])); got != want {
				t.Errorf("equalTexts(%s, %s) = %v, want %v", raws[i], raws[j], got, want)
			}
		}
	}
}

// A conflict textSummary.conflicts claims is one textdiff.MergeClean
// finds (the merge the value merge of outputs makes), on texts of lines
// drawn from few, so that the sides share many; and it finds those of
// texts both sides rewrote from their first line or to their last.
func TestTextSummaryConflictsAsMerged(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	text := func(lines []string) (string, string) {
		s := strings.Join(lines, "")
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return s, string(raw)
	}
	edit := func(lines []string, by string) []string {
		out := slices.Clone(lines)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(out) + 1)
			switch r.IntN(3) {
			case 0:
				out = slices.Insert(out, i, fmt.Sprintf("%s%d\n", by, r.IntN(4)))
			case 1:
				if i < len(out) {
					out = slices.Delete(out, i, i+1)
				}
			default:
				if i < len(out) {
					out[i] = fmt.Sprintf("%s%d\n", by, r.IntN(4))
				}
			}
		}
		return out
	}
	claimed := 0
	for n := range 3000 {
		var base []string
		for range 1 + r.IntN(8) {
			base = append(base, fmt.Sprintf("b%d\n", r.IntN(5)))
		}
		ours, theirs := edit(base, "o"), edit(base, "t")
		if n%3 == 0 { // both rewrote it from the first line, or to the last
			ours, theirs = slices.Concat(ours, []string{"o\n"}), slices.Concat(theirs, []string{"t\n"})
			if n%2 == 0 {
				ours, theirs = slices.Concat([]string{"o\n"}, ours[1:]), slices.Concat([]string{"t\n"}, theirs[1:])
			}
		}
		sb, rb := text(base)
		so, ro := text(ours)
		st, rt := text(theirs)
		got := summarize([]byte(rb)).conflicts(summarize([]byte(ro)), summarize([]byte(rt)))
		if !got {
			continue
		}
		claimed++
		if _, clean := textdiff.MergeClean(sb, so, st); clean {
			t.Errorf("base %q, ours %q, theirs %q: conflict claimed, merged cleanly", sb, so, st)
		}
	}
	if claimed < 300 {
		t.Errorf("%d conflicts claimed of 3000 merges (at least 300 rewrote an end differently)", claimed)
	}
}
