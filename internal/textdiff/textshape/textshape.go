// Package textshape makes the shapes of text the scaling tests,
// benchmarks and comparisons with git of the text diff run on (those of
// issue 21's bounded-work item among them), for the tests of every
// package that diffs or merges text.
package textshape

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// A Shape makes a base of about n lines (each ending in "\n") and two
// edited versions of it, ours and theirs, that change different places,
// so that git merges them cleanly (nested repeats aside: there both
// sides' changes meet at the end).
type Shape struct {
	Name string
	Gen  func(n int) (base, ours, theirs []string)
}

// All is every shape.
var All = []Shape{
	{"disjoint", disjointLines},
	{"repeated", repeatedLines},
	{"nested", nestedRepeats},
	{"hunks", manySmallHunks},
	{"insertions", insertionsEach40},
}

// disjointLines: distinct lines; ours replaces every 50th line and
// theirs deletes one and inserts one every 50 lines, between ours'.
func disjointLines(n int) (base, ours, theirs []string) {
	for i := range n {
		base = append(base, fmt.Sprintf("line %d\n", i))
	}
	for i, l := range base {
		switch i % 50 {
		case 10:
			ours = append(ours, fmt.Sprintf("ours %d\n", i))
			theirs = append(theirs, l)
		case 30:
			ours = append(ours, l)
		case 35:
			ours = append(ours, l)
			theirs = append(theirs, l, fmt.Sprintf("theirs %d\n", i))
		default:
			ours = append(ours, l)
			theirs = append(theirs, l)
		}
	}
	return base, ours, theirs
}

// repeatedLines: lines of an eight-line vocabulary in random order; each
// side replaces one line in every 40 with another of the vocabulary,
// away from the other's.
func repeatedLines(n int) (base, ours, theirs []string) {
	r := rand.New(rand.NewPCG(11, uint64(n)))
	words := []string{"\n", "}\n", "{\n", "pass\n", "return\n", "x = 1\n", "else:\n", "end\n"}
	index := map[string]int{}
	for i, w := range words {
		index[w] = i
	}
	for range n {
		base = append(base, words[r.IntN(len(words))])
	}
	ours, theirs = slices.Clone(base), slices.Clone(base)
	for i := range base {
		next := words[(index[base[i]]+1)%len(words)]
		switch i % 40 {
		case 5:
			ours[i] = next
		case 25:
			theirs[i] = next
		}
	}
	return base, ours, theirs
}

// nestedRepeats: t0 t1 t0 t2 t1 t3 t2 … (every line twice, interleaved
// with its neighbours); ours swaps every pair of lines, theirs appends.
func nestedRepeats(n int) (base, ours, theirs []string) {
	base = Nested(n)
	for i := 0; i+1 < len(base); i += 2 {
		ours = append(ours, base[i+1], base[i])
	}
	if len(base)%2 == 1 {
		ours = append(ours, base[len(base)-1])
	}
	theirs = append(append([]string(nil), base...), "end\n")
	return base, ours, theirs
}

// Nested returns n lines t0 t1 t0 t2 t1 t3 t2 ….
func Nested(n int) []string {
	out := []string{"t0\n"}
	for k := 1; len(out) < n; k++ {
		out = append(out, fmt.Sprintf("t%d\n", k), fmt.Sprintf("t%d\n", k-1))
	}
	return out[:n]
}

// manySmallHunks: code-like lines (a vocabulary of 200); each side
// changes one line in every 12, away from the other's, with lines of
// the vocabulary, so that every hunk is separate.
func manySmallHunks(n int) (base, ours, theirs []string) {
	r := rand.New(rand.NewPCG(13, uint64(n)))
	for range n {
		base = append(base, fmt.Sprintf("code %d\n", r.IntN(200)))
	}
	for i, l := range base {
		o, t := l, l
		switch i % 12 {
		case 2:
			o = fmt.Sprintf("code %d\n", r.IntN(200))
		case 8:
			t = fmt.Sprintf("code %d\n", r.IntN(200))
		}
		ours, theirs = append(ours, o), append(theirs, t)
	}
	return base, ours, theirs
}

// insertionsEach40: lines of a vocabulary of 1,000 (each repeated n/1000
// times); ours inserts a new line before every 40th, theirs 20 lines
// later (the 80,000-line cell with 2,000 insertions per side).
func insertionsEach40(n int) (base, ours, theirs []string) {
	r := rand.New(rand.NewPCG(17, uint64(n)))
	for range n {
		base = append(base, fmt.Sprintf("line %d\n", r.IntN(1000)))
	}
	for i, l := range base {
		if i%40 == 0 {
			ours = append(ours, fmt.Sprintf("ours insert %d\n", i))
		}
		if i%40 == 20 {
			theirs = append(theirs, fmt.Sprintf("theirs insert %d\n", i))
		}
		ours, theirs = append(ours, l), append(theirs, l)
	}
	return base, ours, theirs
}
