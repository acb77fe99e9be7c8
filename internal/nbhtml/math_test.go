package nbhtml

// Tests that math parsing is linear and that remembering unclosed openers
// changes nothing rendered.

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func renderMD(src string) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	renderMarkdown(w, src, nil, map[string]int{}, newHighlighter())
	w.Flush()
	return b.String()
}

// Math parsing is linear: the bytes it scans double when a paragraph
// does, whatever the shape of the unclosed openers ($ before spaces, $
// refused as a closer before a digit, $$ never closed, openers on many
// lines of one paragraph, inside table cells and list items).
func TestMathLinear(t *testing.T) {
	shapes := map[string]func(n int) string{
		"open $":      func(n int) string { return strings.Repeat("$a ", n) },
		"digit after": func(n int) string { return strings.Repeat("$a$1 ", n) },
		"open $$":     func(n int) string { return "$$" + strings.Repeat("a $ ", n) },
		"$$ and $":    func(n int) string { return strings.Repeat("$$a $a ", n) },
		"many lines":  func(n int) string { return strings.Repeat("$a\n", n) },
		"escaped":     func(n int) string { return strings.Repeat(`$a \$ `, n) },
		"table cells": func(n int) string {
			return "|a|b|\n|-|-|\n" + strings.Repeat("|$a "+strings.Repeat("$a ", 20)+"|$b|\n", n/20)
		},
		"list item":     func(n int) string { return "- " + strings.Repeat("$a\n  ", n) },
		"quote":         func(n int) string { return strings.Repeat("> $a\n", n) },
		"closed at end": func(n int) string { return strings.Repeat("$a ", n) + "b$" },
	}
	for name, gen := range shapes {
		var works []int64
		for _, n := range []int{1000, 2000, 4000} {
			before := mathWork.Load()
			renderMD(gen(n))
			works = append(works, mathWork.Load()-before)
		}
		for i := 1; i < len(works); i++ {
			if works[i] > 3*works[i-1]+1000 {
				t.Errorf("%s: math scans %v bytes at n = 1000, 2000, 4000: not linear", name, works)
				break
			}
		}
	}
}

// Remembering where openers found no closer changes nothing: random
// paragraphs of $, \, digits, letters, spaces and line ends render the
// same with and without the memory.
func TestMathMemoryChangesNothing(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"$", "$", "$$", `\`, "1", "a", "b", " ", "\n", "|", "-", "> ", "*"}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		src := b.String()
		with := renderMD(src)
		rememberFailedMath = false
		without := renderMD(src)
		rememberFailedMath = true
		if d := cmp.Diff(without, with); d != "" {
			t.Fatalf("%q renders differently with the memory (-without +with):\n%s", src, d)
		}
	}
}
