package nbhtml

// Tests in Chromium of random mixtures of Markdown and HTML that parsers
// disagree about: nothing active or foreign in the document.

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// mxssFragments are pieces of Markdown and HTML that parsers disagree
// about: tags the sanitiser keeps and those it shows, broken and quoted
// attributes, comments, CDATA, declarations, end tags, entities, code
// spans and fences, link syntax, HTML block starts and ends, the raw
// text elements, SVG and MathML, and line structure.
func mxssFragments(p string) []string {
	return []string{
		"<b>", "</b>", "<i ", "<div>", "</div>", "<p>", "</p>", "<table>", "<td>", "</table>", "<details open>", "<summary>", "<pre>", "</pre>",
		"<a href=\"https://example.org/\">", "<a href=javascript:" + strings.ReplaceAll(p, " ", "") + ">", "</a>", "<img src=x onerror=\"" + p + "\">",
		"<script>" + p + "</script>", "<script>", "</script>", "<style>", "</style>", "<textarea>", "</textarea>", "<title>", "</title>",
		"<noscript>", "</noscript>", "<xmp>", "</xmp>", "<iframe>", "</iframe>", "<template>", "</template>", "<plaintext>",
		"<svg>", "</svg>", "<math>", "<mtext>", "<mglyph>", "<foreignObject>", "<![CDATA[", "]]>", "<!--", "-->", "--!>", "<!-->", "<!", "<?", "?>",
		"\"", "'", "`", "``", "```", "=", ">", "<", "&", "&lt;", "&#60;", "&#x3c;", "&quot;", "&#34;", "&#0;", "&amp;lt;", "\\", "\\<",
		" onerror=\"" + p + "\" ", " title=\"", " style=\"background:red\" ", "/>", "/",
		"[", "]", "(", ")", "](", "](javascript:" + strings.ReplaceAll(p, " ", "") + ")", "![", "<https://example.org>", "<javascript:alert(1)>",
		"$", "$$", "*", "_", "~~", "|", "|-|", "- ", "1. ", "> ", "# ",
		"\n", "\n\n", "\n    ", "\n```\n", "\n<div>\n", "\n</div>\n", "\n<script>\n", "\n<!--\n", "\n<pre>\n", "\n<textarea>\n", "\n<style>\n",
		"x", "word ", " ",
	}
}

// Random mixtures of those pieces, rendered as notes, prompts and
// Markdown outputs of one page in Chromium: whatever the mixture, the
// document holds nothing active or foreign (the audit of
// TestBrowserHostileNotebook) and no planted script runs. The fast tier
// renders 150 mixtures, the long one 3,000.
func TestBrowserMarkdownMixtures(t *testing.T) {
	t.Parallel()
	n := 150
	if testtier.Full() {
		n = 3000
	}
	tab := browsertest.Open(t, nil)
	fr := mxssFragments(payload(tab.Trap()))
	r := rand.New(rand.NewPCG(23, 5))
	for batch := 0; batch < n; batch += 150 {
		var cells []cell
		for range 150 {
			var b strings.Builder
			for range 4 + r.IntN(30) {
				b.WriteString(fr[r.IntN(len(fr))])
			}
			switch s := b.String(); r.IntN(3) {
			case 0:
				cells = append(cells, note(s))
			case 1:
				cells = append(cells, prompt(s, s))
			default:
				cells = append(cells, code("x", 1, display(map[string]any{"text/markdown": s})))
			}
		}
		path, _ := pageOf(t, Options{Lazy: -1}, cells...)
		openRendered(tab, path)
		if k := browsertest.Eval[int](tab, `document.querySelectorAll(".nb-md b, .nb-md table, .nb-md a[href], .nb-md pre").length`); k == 0 {
			t.Fatalf("batch %d: no kept formatting at all: the mixtures exercise nothing", batch/150)
		}
		for _, bad := range browsertest.Eval[[]string](tab, audit) {
			t.Errorf("batch %d: active or foreign: %s", batch/150, bad)
		}
		tab.Do(chromedp.Sleep(100e6))
		inert(t, tab)
		if t.Failed() {
			return
		}
	}
}
