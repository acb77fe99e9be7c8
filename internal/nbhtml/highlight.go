package nbhtml

// Code highlighted by chroma, within a budget per page.

import (
	"embed"
	"html"
	"io/fs"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Code (code cells, fenced blocks in Markdown) is highlighted by chroma,
// with CSS classes (assets/chroma.css, chroma's "github" style), never
// inline styles or external assets. Unknown languages, and code longer
// than maxHighlight bytes, are shown plain.
//
// The lexers are chroma's own definitions of the languages notebooks are
// written in (lexers/*.xml, copied verbatim from the chroma module this
// one requires; TestLexersAsChroma checks the copies, -update renews
// them), loaded on first use: chroma's lexers package would load all of
// its 280 lexers, and its styles package all of its styles, when any
// program linking them starts — 13 ms and 9 MB on every run of every
// ipynb command (git runs its drivers once per file), not only of those
// that make pages.

// maxHighlight is the longest code highlighted, in bytes.
const maxHighlight = 200 << 10

// maxPageHighlight is the most code highlighted on one page, in bytes;
// code after it is shown plain. chroma's lexers are linear but costly on
// hostile code (up to 20 µs and 7 kB of allocation a byte, the bash
// lexer on "<a " repeated), so that a notebook of 100 MB of such code
// would take half an hour to render; the corpus's notebook with the most
// code has 1.99 MB of it, the next 0.35 MB.
const maxPageHighlight = 2 << 20

// highlighter highlights the code of one page, within its budget.
type highlighter struct{ left int }

func newHighlighter() *highlighter { return &highlighter{left: maxPageHighlight} }

// code is highlight(lang, code), or code plain once the page's budget
// is spent.
func (h *highlighter) code(lang, code string) string {
	code = jsonvalue.Shown(code) // lexers read characters: a surrogate as its escape
	switch {
	case len(code) > maxHighlight:
		return highlight("", code) // plain anyway: not counted
	case len(code) > h.left:
		h.left = 0
		return highlight("", code)
	}
	h.left -= len(code)
	return highlight(lang, code)
}

//go:embed lexers/*.xml
var lexerFiles embed.FS

//go:embed assets/chroma.css
var chromaCSS string

var (
	chromaOnce sync.Once
	registry   *chroma.LexerRegistry
	chromaFmt  *chromahtml.Formatter
	// plainStyle is given to the formatter, which writes classes, not
	// the style's colours (those are in chromaCSS).
	plainStyle = chroma.MustNewStyle("plain", chroma.StyleEntries{})
)

func initChroma() {
	chromaOnce.Do(func() {
		registry = chroma.NewLexerRegistry()
		paths, _ := fs.Glob(lexerFiles, "lexers/*.xml")
		for _, p := range paths {
			if l, err := chroma.NewXMLLexer(lexerFiles, p); err == nil {
				registry.Register(l)
			}
		}
		chromaFmt = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))
	})
}

// codeCSS is the style sheet of highlighted code.
func codeCSS() string { return chromaCSS }

// highlight returns code in lang as a <pre> block, highlighted when
// chroma knows the language.
func highlight(lang, code string) string {
	var b strings.Builder
	b.WriteString(`<pre class="nb-code chroma"><code>`)
	if h, ok := highlighted(lang, code); ok {
		b.WriteString(h)
	} else {
		b.WriteString(html.EscapeString(code))
	}
	b.WriteString("</code></pre>")
	return b.String()
}

// highlighted is code in lang as chroma's HTML, if chroma knows the
// language and lexes the code (a lexer that fails, or panics, leaves
// the code plain).
func highlighted(lang, code string) (h string, ok bool) {
	if lang == "" || len(code) > maxHighlight {
		return "", false
	}
	initChroma()
	l := registry.Get(lang)
	if l == nil {
		l = registry.Get(strings.TrimRight(strings.ToLower(lang), "0123456789"))
	}
	if l == nil {
		return "", false
	}
	defer func() {
		if recover() != nil {
			h, ok = "", false
		}
	}()
	it, err := chroma.Coalesce(l).Tokenise(nil, code)
	if err != nil {
		return "", false
	}
	var out strings.Builder
	if err := chromaFmt.Format(&out, plainStyle, it); err != nil {
		return "", false
	}
	return out.String(), true
}
