package nbhtml

import (
	"html"
	"io"
	"regexp"
	"strings"
)

// Raw HTML written in Markdown (a note, a prompt, a reply, a text/markdown
// output) is sanitised, as Jupyter sanitises it, by an allow list that
// writes every tag anew rather than passing the author's bytes on:
//
//   - Formatting and structure tags (b, i, em, strong, code, pre, sub,
//     sup, kbd, span, div, p, br, hr, lists, headings, tables, details,
//     blockquote, center, font, …) are kept without their attributes (no
//     style, class, id, event handler), except the few harmless ones listed
//     in allowedAttrs (colspan, rowspan, start, open).
//   - <a href> keeps its link only under the link rule (linkHref: http,
//     https and mailto URLs and fragments); <img> keeps its source only
//     under the image rule (imageSrc: inline data images and the
//     message's attachments), with alt, title, width and height.
//   - Every other tag (script, style, iframe, object, svg, math, form,
//     input, link, meta, base, …) and everything that is not a well-formed
//     tag is shown as its source text, escaped. Comments are dropped.
//   - End tags of allowed elements close only elements the same text
//     opened (others are dropped), and what is
//     still open at its end is closed, so that a notebook's HTML can
//     neither close the page's own elements nor leave its own open.
//
// Text between tags is escaped, but for character references (&nbsp;,
// &#8364;), which are kept.

// allowedTags are kept (written anew, attributes dropped but for
// allowedAttrs); void ones have no end tag.
var allowedTags = map[string]bool{
	"a": false, "abbr": false, "b": false, "bdi": false, "blockquote": false, "br": true, "caption": false,
	"center": false, "cite": false, "code": false, "col": true, "colgroup": false, "dd": false, "del": false,
	"details": false, "dfn": false, "div": false, "dl": false, "dt": false, "em": false, "figcaption": false,
	"figure": false, "font": false, "h1": false, "h2": false, "h3": false, "h4": false, "h5": false, "h6": false,
	"hr": true, "i": false, "img": true, "ins": false, "kbd": false, "li": false, "mark": false, "ol": false,
	"p": false, "pre": false, "q": false, "s": false, "samp": false, "small": false, "span": false,
	"strike": false, "strong": false, "sub": false, "summary": false, "sup": false, "table": false,
	"tbody": false, "td": false, "tfoot": false, "th": false, "thead": false, "tr": false, "tt": false,
	"u": false, "ul": false, "var": false, "wbr": true,
}

// allowedAttrs are the attributes kept on allowed tags, with the pattern
// their value must match (img and a are handled apart).
var allowedAttrs = map[string]*regexp.Regexp{
	"colspan": regexp.MustCompile(`^[0-9]{1,3}$`),
	"rowspan": regexp.MustCompile(`^[0-9]{1,3}$`),
	"start":   regexp.MustCompile(`^-?[0-9]{1,9}$`),
	"open":    regexp.MustCompile(`^(|open)$`),
	"align":   regexp.MustCompile(`^(?i:left|right|center|justify)$`),
}

// allowedAttrNames are allowedAttrs' keys, in the order written.
var allowedAttrNames = []string{"align", "colspan", "open", "rowspan", "start"}

// size is the pattern of an image's width or height.
var size = regexp.MustCompile(`^([0-9]{1,5})(px|%)?$`)

// The grammar of raw HTML in CommonMark (spec 0.31, "Raw HTML"), for one
// tag at the start of the text.
var (
	openTag  = regexp.MustCompile(`^<([A-Za-z][A-Za-z0-9-]*)((?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^"'=<>` + "`" + `\s]+|'[^']*'|"[^"]*"))?)*)\s*(/?)>`)
	closeTag = regexp.MustCompile(`^</([A-Za-z][A-Za-z0-9-]*)\s*>`)
	attr     = regexp.MustCompile(`([A-Za-z_:][A-Za-z0-9_.:-]*)(?:\s*=\s*([^"'=<>` + "`" + `\s]+|'[^']*'|"[^"]*"))?`)
	charRef  = regexp.MustCompile(`^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)
)

// sanitizer writes raw HTML through the allow list, remembering the
// elements it opened.
type sanitizer struct {
	open []string
	// img resolves an image source to the URL to write ("" for none).
	img func(src string) string
}

// write writes raw HTML s, sanitised, to b.
func (z *sanitizer) write(b io.StringWriter, s string) {
	for len(s) > 0 {
		i := strings.IndexAny(s, "<&>\"'")
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		s = s[i:]
		switch s[0] {
		case '<':
			if n := z.tag(b, s); n > 0 {
				s = s[n:]
				continue
			}
			b.WriteString("&lt;")
		case '&':
			if m := charRef.FindString(s); m != "" {
				b.WriteString(m)
				s = s[len(m):]
				continue
			}
			b.WriteString("&amp;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		}
		s = s[1:]
	}
}

// tag writes the tag, comment or other markup at the start of s, if s
// starts with one, and returns its length (0: s starts with a plain "<").
// A tag that is not allowed is written as escaped text.
func (z *sanitizer) tag(b io.StringWriter, s string) int {
	if strings.HasPrefix(s, "<!--") {
		if end := strings.Index(s[4:], "-->"); end >= 0 {
			return 4 + end + 3 // dropped
		}
		return 0
	}
	if m := closeTag.FindStringSubmatch(s); m != nil {
		if _, ok := allowedTags[strings.ToLower(m[1])]; !ok {
			b.WriteString(html.EscapeString(m[0])) // shown, as its start tag is
			return len(m[0])
		}
		z.closeTo(b, strings.ToLower(m[1]))
		return len(m[0])
	}
	m := openTag.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	name := strings.ToLower(m[1])
	void, ok := allowedTags[name]
	if !ok {
		b.WriteString(html.EscapeString(m[0]))
		return len(m[0])
	}
	attrs := attributes(m[2])
	switch name {
	case "img":
		src := ""
		if z.img != nil {
			src = z.img(attrs["src"])
		}
		if src == "" {
			b.WriteString(`<span class="nb-noimg" title="image not embedded in the notebook: not shown">`)
			b.WriteString(html.EscapeString(imageLabel(attrs["alt"], attrs["src"])))
			b.WriteString(`</span>`)
			return len(m[0])
		}
		b.WriteString(`<img src="` + html.EscapeString(src) + `"`)
		for _, k := range []string{"alt", "title"} {
			if v, ok := attrs[k]; ok {
				b.WriteString(" " + k + `="` + html.EscapeString(v) + `"`)
			}
		}
		for _, k := range []string{"width", "height"} {
			if sm := size.FindStringSubmatch(attrs[k]); sm != nil {
				v := sm[1]
				if sm[2] == "%" {
					v += "%"
				}
				b.WriteString(" " + k + `="` + v + `"`)
			}
		}
		b.WriteString(">")
		return len(m[0])
	case "a":
		b.WriteString("<a")
		if href, ok := linkHref(attrs["href"]); ok {
			b.WriteString(` href="` + html.EscapeString(href) + `" rel="noopener noreferrer"`)
		} else if v, has := attrs["href"]; has {
			b.WriteString(` class="nb-inert" title="` + html.EscapeString("link not followed: "+v) + `"`)
		}
		b.WriteString(">")
	default:
		b.WriteString("<" + name)
		for _, k := range allowedAttrNames {
			if v, ok := attrs[k]; ok && allowedAttrs[k].MatchString(v) {
				b.WriteString(" " + k + `="` + html.EscapeString(v) + `"`)
			}
		}
		b.WriteString(">")
	}
	if !void && m[3] == "" {
		z.open = append(z.open, name)
	}
	return len(m[0])
}

// closeTo writes the end tag of the innermost open element named name,
// closing those opened inside it first; an end tag of an element not
// open is dropped.
func (z *sanitizer) closeTo(b io.StringWriter, name string) {
	for i := len(z.open) - 1; i >= 0; i-- {
		if z.open[i] == name {
			for j := len(z.open) - 1; j >= i; j-- {
				b.WriteString("</" + z.open[j] + ">")
			}
			z.open = z.open[:i]
			return
		}
	}
}

// closeAll closes every element still open.
func (z *sanitizer) closeAll(b io.StringWriter) {
	for j := len(z.open) - 1; j >= 0; j-- {
		b.WriteString("</" + z.open[j] + ">")
	}
	z.open = z.open[:0]
}

// attributes are a tag's attributes, names in lower case, values
// unquoted and with character references decoded (the first of a name
// wins, as in HTML).
func attributes(s string) map[string]string {
	as := map[string]string{}
	for _, m := range attr.FindAllStringSubmatch(s, -1) {
		k := strings.ToLower(m[1])
		if _, dup := as[k]; dup {
			continue
		}
		v := m[2]
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
			v = v[1 : len(v)-1]
		}
		as[k] = html.UnescapeString(v)
	}
	return as
}

// imageLabel names an image that is not shown.
func imageLabel(alt, src string) string {
	s := "[image"
	if alt != "" {
		s += " " + alt
	}
	if src != "" {
		if r := []rune(src); len(r) > 80 {
			src = string(r[:77]) + "…"
		}
		s += ": " + src
	}
	return s + "]"
}
