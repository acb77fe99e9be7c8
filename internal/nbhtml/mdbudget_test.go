package nbhtml

import (
	"fmt"
	"strings"
	"testing"
)

// Markdown of shapes that make goldmark scan quadratically (links,
// destinations in <>, titles, references and definitions that never
// close, on one line or across a paragraph) is rendered only while the
// bound of that scanning is within the budget, and shown as its source
// beyond: the scanning allowed grows linearly with the text.
func TestMarkdownLinkWorkLinear(t *testing.T) {
	shapes := map[string]func(n int) string{
		"link":          func(n int) string { return strings.Repeat("[a](", n) },
		"<destination>": func(n int) string { return strings.Repeat("[a](< ", n) },
		"title":         func(n int) string { return strings.Repeat("[a](x '\n", n) },
		"reference":     func(n int) string { return strings.Repeat("[a][", n) },
		"definition":    func(n int) string { return strings.Repeat("[a]: <", n) },
		"image":         func(n int) string { return strings.Repeat("![a](", n) },
		"nested":        func(n int) string { return strings.Repeat("[", n) + strings.Repeat("](", n) },
		"in a list":     func(n int) string { return "- " + strings.Repeat("[a](", n) },
		"in a quote":    func(n int) string { return strings.Repeat("> [a](x '\n", n) },
	}
	for name, gen := range shapes {
		var works []int64
		sizes := []int{2000, 4000, 8000, 16000, 32000}
		for _, n := range sizes {
			before := linkWorkAllowed.Load()
			out := renderMD(gen(n))
			works = append(works, linkWorkAllowed.Load()-before)
			if n == sizes[len(sizes)-1] && !strings.Contains(out, "shown as its source") {
				t.Errorf("%s at %d: rendered, not shown as source", name, n)
			}
		}
		for i, w := range works {
			if max := linkBudget(len(gen(sizes[i]))); w > max {
				t.Errorf("%s: %d bytes of scanning allowed at %d, over the budget %d", name, w, sizes[i], max)
			}
		}
	}
}

// Real Markdown is rendered: many links on a line, in a paragraph, in a
// long document, a long data URL, reference links with definitions.
func TestMarkdownLinkWorkKeepsRealText(t *testing.T) {
	t.Parallel()
	var line, para, doc strings.Builder
	for i := range 100 {
		fmt.Fprintf(&line, "[link %d](https://example.org/some/path/%d) and ", i, i)
		fmt.Fprintf(&para, "see [item %d](https://example.org/%d \"title %d\")\n", i, i, i)
	}
	for i := range 2000 {
		fmt.Fprintf(&doc, "## Part %d\n\nText with [a link](https://example.org/%d) and [a reference][r%d].\n\n[r%d]: https://example.org/r/%d\n\n", i, i, i, i, i)
	}
	data := "![plot](data:image/png;base64," + strings.Repeat("iVBORw0KGgo", 20000) + ")"
	for name, src := range map[string]string{"line": line.String(), "paragraph": para.String(), "document": doc.String(), "data URL": data} {
		out := renderMD(src)
		if strings.Contains(out, "shown as its source") {
			t.Errorf("%s (%d bytes, bound %d, budget %d): shown as source", name, len(src), linkWork(src), linkBudget(len(src)))
		}
		if name != "data URL" && !strings.Contains(out, `<a href="https://example.org/`) {
			t.Errorf("%s: no links rendered", name)
		}
	}
}

// Markdown nested deeper than maxNesting quotes or lists — opened on one
// line, by indentation over many lines, or kept by lazy continuation
// lines — is shown as its source; real nesting (lists ten deep, YAML
// indented in a fence, numbered lists, a quote in a list) is rendered.
func TestMarkdownNesting(t *testing.T) {
	t.Parallel()
	deepList := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i) + "- item\n")
		}
		return b.String()
	}
	for name, src := range map[string]string{
		"quotes":           strings.Repeat(">", 20000) + " x",
		"spaced quotes":    strings.Repeat("> ", 10000) + "x",
		"dashes":           strings.Repeat("- ", 10000) + "x",
		"stars":            strings.Repeat("* ", 10000) + "x",
		"numbers":          strings.Repeat("1. ", 10000) + "x",
		"mixed":            strings.Repeat("> - 1) ", 5000) + "x",
		"indented lists":   deepList(300),
		"empty items":      strings.ReplaceAll(deepList(300), "- item", "-"),
		"empty numbered":   strings.ReplaceAll(deepList(300), "- item", "1."),
		"lazy lines after": strings.Repeat(">", 500) + " x\n" + strings.Repeat("lazy\n", 5000),
	} {
		if out := renderMD(src); !strings.Contains(out, "This Markdown is shown as its source: it nests") {
			t.Errorf("%s (depth bound %d): rendered, not shown as source", name, nestDepth(src))
		}
	}
	fence := "```yaml\n" + strings.Repeat(" ", 60) + "- deep: yaml\n" + strings.Repeat(" ", 120) + "x: 1\n```\n"
	for name, src := range map[string]string{
		"a list ten deep":  deepList(10),
		"YAML in a fence":  fence,
		"numbered":         "1. a\n2. b\n   1. c\n      - d\n",
		"a quote in lists": "- a\n  - b\n    > q\n    > > qq\n",
		"code":             "    " + strings.Repeat(" ", 500) + "x = 1\n",
	} {
		if out := renderMD(src); strings.Contains(out, "shown as its source") {
			t.Errorf("%s (depth bound %d): shown as source", name, nestDepth(src))
		}
	}
}
