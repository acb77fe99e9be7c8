package main

// More shapes of notebooks whose merge and fix TestMergePeakMemoryLong
// measures: one huge string output, many medium outputs, image-heavy.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// memShape is a shape of notebooks TestMergePeakMemoryLong measures, at
// sizes (MB), with the bounds of its commands' peaks (see peakMemoryOf).
type memShape struct {
	name   string
	sizes  []int
	bounds map[string]float64
	make   func(t *testing.T, mb int) *memCase
}

// moreMemShapes: notebooks whose outputs both sides re-ran, each in
// another shape, merged (every changed output conflicts) and fixed from
// what git merge-file leaves of them (merge and diff3 style).
var moreMemShapes = []memShape{
	{"one huge string output, both re-ran it", []int{4, 8, 16, 32}, linearOnly, func(t *testing.T, mb int) *memCase {
		return bothRerun(t, hugeStringNotebook(mb), func(data []byte, by string) []byte {
			return bytes.ReplaceAll(data, []byte(`B line `), []byte(by+` line `))
		})
	}},
	{"many medium outputs, both re-ran every cell", []int{4, 8, 16, 32}, linearOnly, func(t *testing.T, mb int) *memCase {
		nb := nbtest.Heavy{Bytes: mb * 1e6, Seed: 2, Kinds: []nbtest.OutputKind{nbtest.Stream, nbtest.Table, nbtest.Stream},
			StreamLines: 30, TableRows: 40}.Notebook()
		return bothRerun(t, nb, func(data []byte, by string) []byte { return rerunStreams(t, data, by) })
	}},
	{"image/png-heavy, both re-ran every cell", []int{4, 8, 16, 32}, rerunBothBounds, func(t *testing.T, mb int) *memCase {
		nb := nbtest.Heavy{Bytes: mb * 1e6, Seed: 3, Kinds: []nbtest.OutputKind{nbtest.Image, nbtest.Image},
			ImageBytes: 60000, ImageJitter: 60000}.Notebook()
		return bothRerun(t, nb, func(data []byte, by string) []byte { return rerunImages(t, data, by) })
	}},
}

// linearOnly bounds no command: the shape's peaks are checked to grow
// linearly only (issue 21 item 13 is open for these shapes). One huge
// string both sides changed peaks at 4.3× (merge; fix 2.7×, diff3 2.4×)
// at 32 MB: its texts are compared and found to conflict by their lines'
// summaries, never decoded, but writing theirs' output into ours' style
// decodes its text whole (1× an input) and splits it into lines (0.3×)
// beside ours and theirs. Many medium outputs peak at 4.7× (merge), 3.9×
// (fix) and 4.6× (fix, diff3): ours' and theirs' notebooks as read (the
// tape, typed cells and outputs, messages: about 0.7 bytes per byte of a
// file of small values) are 1.4× beside their bytes, before the merge.
var linearOnly = map[string]float64{}

// rerunBothBounds are the bounds of the shapes whose outputs both sides
// re-ran (at 32 MB and more: see peakMemoryOf).
var rerunBothBounds = map[string]float64{"merge": 3.0, "fix": 3.0, "fix, diff3": 3.0}

// bothRerun is the case of notebook base whose outputs ours and theirs
// re-ran (rerun by "Z" and by "Y"), with the files git's line merge
// leaves of it.
func bothRerun(t *testing.T, base []byte, rerun func(data []byte, by string) []byte) *memCase {
	c := newMemCase(t, base)
	c.ours, c.theirs = rerun(c.ours, "Z"), rerun(c.theirs, "Y")
	c.conflicting, c.conflicts = nil, true
	c.markedByGit(t, t.TempDir())
	return c
}

// rerunStreams is an nbtest.Heavy notebook whose streams a side (by: a
// letter) re-ran: a line added to each.
func rerunStreams(t testing.TB, data []byte, by string) []byte {
	t.Helper()
	line := `"run again by ` + by + `\n"`
	out := bytes.ReplaceAll(data, []byte(`"text": [`), []byte(`"text": [`+line+`, `))
	if bytes.Count(out, []byte(line)) < 2 {
		t.Fatal("rerunStreams: too few streams")
	}
	return out
}

// rerunImages is an nbtest.Heavy notebook whose images a side (by: a
// letter) re-ran: each image's base64 starts with it.
func rerunImages(t testing.TB, data []byte, by string) []byte {
	t.Helper()
	out := bytes.ReplaceAll(data, []byte(`"image/png": "`), []byte(`"image/png": "`+by))
	if bytes.Count(out, []byte(`"image/png": "`+by)) < 2 {
		t.Fatal("rerunImages: too few images")
	}
	return out
}

// hugeStringNotebook is a notebook of about mb MB whose one code cell
// has one display_data output whose text/plain is one JSON string of as
// many lines as that takes, between three markdown steps (as newMemCase
// edits them).
func hugeStringNotebook(mb int) []byte {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"m%d\",\n   \"metadata\": {},\n   \"source\": [\n    %s\n    \"text\"\n   ]\n  },\n", i, stepLine(i))
	}
	b.WriteString("  {\n   \"cell_type\": \"code\",\n   \"execution_count\": 1,\n   \"id\": \"c1\",\n   \"metadata\": {},\n   \"outputs\": [\n    {\n     \"data\": {\n      \"text/plain\": \"")
	for i := 0; b.Len() < mb<<20; i++ {
		fmt.Fprintf(&b, `B line %d %s\n`, i, strings.Repeat("y", 60))
	}
	b.WriteString("\"\n     },\n     \"metadata\": {},\n     \"output_type\": \"display_data\"\n    }\n   ],\n   \"source\": [\n    \"show(lines)\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}
