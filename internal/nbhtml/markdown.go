package nbhtml

// Markdown rendered by goldmark with the renderers of this package: links,
// images, raw HTML, headings, fenced code and math.

import (
	"bufio"
	"html"
	"strconv"
	"strings"
	"sync"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown (notes, prompts, replies, text/markdown outputs) is rendered by
// goldmark as CommonMark with the GitHub extensions Jupyter's renderer
// (marked, gfm) has: tables, strikethrough, task lists, bare URLs as
// links. On top of goldmark's own rendering: raw HTML goes through the
// sanitiser (sanitize.go), links and images through the rules of
// urls.go, math is kept as TeX (math.go), headings get Jupyter's anchor
// ids (the heading's text, spaces as "-"), and fenced code is
// highlighted like code cells.

var (
	mdOnce sync.Once
	md     goldmark.Markdown
)

func markdown() goldmark.Markdown {
	mdOnce.Do(func() {
		md = goldmark.New(
			goldmark.WithExtensions(extension.Linkify, extension.Strikethrough, extension.TaskList,
				extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))),
			goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(mathParser{}, 150))),
			goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(mdRenderer{}, 100))),
		)
	})
	return md
}

// mdWriter is the writer goldmark renders into, carrying what the
// renderers need to know about the message being rendered.
type mdWriter struct {
	*bufio.Writer
	z    sanitizer
	atts []dialog.Attachment
	ids  map[string]int // heading ids used in the page so far
	hl   *highlighter   // the page's code highlighting
}

// renderMarkdown writes src as HTML to w (a message with attachments
// atts; ids: the page's heading ids; hl: its highlighting).
func renderMarkdown(w *bufio.Writer, src string, atts []dialog.Attachment, ids map[string]int, hl *highlighter) {
	src = jsonvalue.Shown(src) // Markdown reads characters: a surrogate as its escape
	work := linkWork(src)
	if work > linkBudget(len(src)) {
		plainMarkdown(w, src, "it opens so many links that rendering it would take too long ("+strconv.FormatInt(work, 10)+" bytes to scan)")
		return
	}
	if d := nestDepth(src); d > maxNesting {
		plainMarkdown(w, src, "it nests "+strconv.Itoa(d)+" quotes or lists deep, more than "+strconv.Itoa(maxNesting))
		return
	}
	linkWorkAllowed.Add(work)
	m := markdown()
	source := []byte(src)
	doc := m.Parser().Parse(text.NewReader(source))
	mw := &mdWriter{Writer: w, atts: atts, ids: ids, hl: hl}
	mw.z.img = func(s string) string { return imageSrc(s, atts) }
	// Errors are the writer's, which the page reports.
	m.Renderer().Render(mw, source, doc)
	mw.z.closeAll(w)
}

// mdRenderer renders the nodes whose goldmark rendering this package
// replaces.
type mdRenderer struct{}

func (mdRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindAutoLink, renderAutoLink)
	r.Register(ast.KindImage, renderImage)
	r.Register(ast.KindRawHTML, renderRawHTML)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
	r.Register(ast.KindHeading, renderHeading)
	r.Register(ast.KindFencedCodeBlock, renderFencedCode)
	r.Register(kindMath, renderMath)
}

func state(w util.BufWriter) *mdWriter { return w.(*mdWriter) }

func renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if !entering {
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	writeLinkStart(w, html.UnescapeString(string(n.Destination)), string(n.Title))
	return ast.WalkContinue, nil
}

// writeLinkStart writes an <a> start tag to dest, inert when the link
// rule does not follow it.
func writeLinkStart(w util.BufWriter, dest, title string) {
	if href, ok := linkHref(dest); ok {
		w.WriteString(`<a href="` + html.EscapeString(href) + `" rel="noopener noreferrer"`)
		if title != "" {
			w.WriteString(` title="` + html.EscapeString(title) + `"`)
		}
		w.WriteString(">")
		return
	}
	w.WriteString(`<a class="nb-inert" title="` + html.EscapeString("link not followed: "+dest) + `">`)
}

func renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.AutoLink)
	if !entering {
		return ast.WalkContinue, nil
	}
	label := string(n.Label(source))
	dest := string(n.URL(source))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	} else if n.Protocol == nil && n.AutoLinkType == ast.AutoLinkURL {
		dest = "http://" + dest // linkify's www. links
	}
	writeLinkStart(w, dest, "")
	w.WriteString(html.EscapeString(label) + "</a>")
	return ast.WalkContinue, nil
}

func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	alt := plainText(n, source)
	dest := html.UnescapeString(string(n.Destination))
	src := imageSrc(dest, state(w).atts)
	if src == "" {
		w.WriteString(`<span class="nb-noimg" title="image not embedded in the notebook: not shown">`)
		w.WriteString(html.EscapeString(imageLabel(alt, dest)) + "</span>")
		return ast.WalkSkipChildren, nil
	}
	w.WriteString(`<img src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(alt) + `"`)
	if n.Title != nil {
		w.WriteString(` title="` + html.EscapeString(string(n.Title)) + `"`)
	}
	w.WriteString(">")
	return ast.WalkSkipChildren, nil
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	var s strings.Builder
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		s.Write(seg.Value(source))
	}
	st := state(w)
	st.z.write(w, s.String())
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	var s strings.Builder
	if entering {
		for i := range n.Lines().Len() {
			seg := n.Lines().At(i)
			s.Write(seg.Value(source))
		}
	} else if n.HasClosure() {
		s.Write(n.ClosureLine.Value(source))
	}
	state(w).z.write(w, s.String())
	return ast.WalkContinue, nil
}

func renderHeading(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	tag := "h" + strconv.Itoa(n.Level)
	if !entering {
		id, _ := n.AttributeString("id")
		sid, _ := id.(string)
		w.WriteString(`<a class="nb-anchor" href="#` + html.EscapeString(sid) + `" title="link to this heading">¶</a></` + tag + ">\n")
		return ast.WalkContinue, nil
	}
	id := headingID(state(w).ids, plainText(n, source))
	n.SetAttributeString("id", id)
	w.WriteString("<" + tag + ` id="` + html.EscapeString(id) + `">`)
	return ast.WalkContinue, nil
}

// headingID is the anchor of a heading with text t, as Jupyter makes it
// (the text, spaces as "-"), made unique in the page (-1, -2, … added)
// and kept apart from the page's own ids (which start with "nb-").
func headingID(ids map[string]int, t string) string {
	id := strings.ReplaceAll(strings.TrimSpace(t), " ", "-")
	if id == "" || strings.HasPrefix(id, "nb-") {
		id = "h-" + id
	}
	if n := ids[id]; n > 0 {
		ids[id] = n + 1
		id += "-" + strconv.Itoa(n)
	}
	ids[id]++
	return id
}

// plainText is the text of a node's inline children.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(source))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *mathNode:
			b.Write(t.tex)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func renderFencedCode(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var code strings.Builder
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		code.Write(seg.Value(source))
	}
	lang := ""
	if n.Info != nil {
		lang, _, _ = strings.Cut(strings.TrimSpace(string(n.Info.Segment.Value(source))), " ")
	}
	w.WriteString(state(w).hl.code(lang, code.String()))
	return ast.WalkSkipChildren, nil
}

func renderMath(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*mathNode)
	class := "nb-math"
	if n.display {
		class += " nb-display"
	}
	w.WriteString(`<span class="` + class + `" title="TeX">` + html.EscapeString(string(n.tex)) + "</span>")
	return ast.WalkSkipChildren, nil
}
