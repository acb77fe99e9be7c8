package nbhtml

// Outputs on a page: streams, the richest representation of data, HTML in
// sandboxed frames, images.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	nblines "github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/termtext"
)

// Outputs are shown as Jupyter shows the outputs of a notebook it does
// not trust (see the package doc): streams and error tracebacks as text
// (terminal codes removed, progress-bar rewrites shown as their last
// state, as `ipynb md` shows them; consecutive writes to one stream as
// one block), and of a result's representations the richest one that
// runs nothing in the page:
//
//	text/html        in a sandboxed frame (no scripts, no same origin,
//	                 nothing loaded), unless it holds a script and an
//	                 image or text representation exists (a plot drawn by
//	                 a script is blank without it)
//	text/markdown    rendered as notes are (sanitised)
//	text/latex       as its TeX source
//	image/svg+xml    as an <img> of a data URL (SVG in an image runs no
//	                 script)
//	image/png, image/jpeg, image/gif, image/webp, image/bmp  as <img>
//	application/json (and +json types) as indented JSON
//	text/plain       as text
//
// application/javascript is never run; widgets and other types a page
// cannot show are named with their size, and their text/plain shown.

// output preference, richest first (text/html is weighed apart).
var richTypes = []string{"text/markdown", "text/latex", "image/svg+xml", "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"}

// outputs writes a message's outputs.
func (p *page) outputs(m *dialog.Message, outs []dialog.Output) {
	if len(outs) == 0 {
		return
	}
	p.s(`<div class="nb-outputs">` + "\n")
	for i := 0; i < len(outs); i++ {
		o, err := outs[i].Map()
		if err != nil {
			p.s(`<div class="nb-output nb-missing">`)
			p.text(outs[i].Type() + " output unreadable: " + err.Error())
			p.s("</div>\n")
			continue
		}
		if outs[i].Type() == "stream" {
			// Consecutive writes to one stream show as one block.
			name, _ := o["name"].(string)
			text := nblines.Text(o["text"])
			for i+1 < len(outs) && outs[i+1].Type() == "stream" {
				n, err := outs[i+1].Map()
				if next, _ := n["name"].(string); err != nil || next != name {
					break
				}
				text += nblines.Text(n["text"])
				i++
			}
			p.stream(name, text)
			continue
		}
		p.output(m, outs[i].Type(), o)
	}
	p.s("</div>\n")
}

func (p *page) stream(name, text string) {
	class := "nb-stdout"
	if name == "stderr" {
		class = "nb-stderr"
	}
	p.s(`<div class="nb-output"><pre class="nb-stream ` + class + `" title="`)
	p.text(name)
	p.s(`">`)
	p.text(strings.TrimSuffix(termtext.Plain(text), "\n"))
	p.s("</pre></div>\n")
}

// output writes one output that is not a stream.
func (p *page) output(m *dialog.Message, typ string, o map[string]any) {
	switch typ {
	case "error":
		ename, _ := o["ename"].(string)
		evalue, _ := o["evalue"].(string)
		p.s(`<div class="nb-output"><pre class="nb-error">`)
		if tb, ok := o["traceback"].([]any); ok && len(tb) > 0 {
			// The traceback ends with "ename: evalue" already.
			lines := make([]string, len(tb))
			for k, l := range tb {
				lines[k] = strings.TrimRight(termtext.Plain(nblines.Text(l)), "\n")
			}
			p.text(strings.Join(lines, "\n"))
		} else {
			p.s(`<span class="nb-ename">`)
			p.text(ename)
			p.s(`</span>: `)
			p.text(termtext.Plain(evalue))
		}
		p.s("</pre></div>\n")
	case "execute_result", "display_data":
		data, _ := decodeObject(o["data"])
		meta, _ := decodeObject(o["metadata"])
		p.s(`<div class="nb-output" title="`)
		p.text(strings.Join(sortedKeys(data), ", "))
		p.s(`">`)
		if typ == "execute_result" && m.ExecutionCount != nil {
			p.s(`<div class="nb-output-prompt">Out[` + strconv.Itoa(*m.ExecutionCount) + "]:</div>")
		}
		p.bundle(data, meta)
		p.s("</div>\n")
	default:
		p.s(`<div class="nb-output nb-missing">`)
		p.text("[" + typ + " output]")
		p.s("</div>\n")
	}
}

// scriptTag finds a script in HTML.
var scriptTag = regexp.MustCompile(`(?i)<script[\s>/]`)

// bundle writes the representation chosen from a result's data.
func (p *page) bundle(data, meta map[string]any) {
	chosen := ""
	if h, ok := data["text/html"]; ok {
		chosen = "text/html"
		if scriptTag.MatchString(nblines.Text(h)) && slices.ContainsFunc(richTypes, func(t string) bool { _, ok := data[t]; return ok }) {
			chosen = ""
		}
	}
	if chosen == "" {
		for _, t := range richTypes {
			if _, ok := data[t]; ok {
				chosen = t
				break
			}
		}
	}
	if chosen == "" {
		for _, t := range sortedKeys(data) {
			if t == "application/json" || strings.HasPrefix(t, "application/") && strings.HasSuffix(t, "+json") && data["text/plain"] == nil {
				chosen = t
				break
			}
		}
	}
	if chosen == "" && data["text/plain"] != nil {
		chosen = "text/plain"
	}
	// Representations of other kinds than those shown (scripts, widgets,
	// PDF…) are named, the usual alternatives (text, images) are not.
	var skipped []string
	for _, t := range sortedKeys(data) {
		if t != chosen && !strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "image/") {
			skipped = append(skipped, fmt.Sprintf("%s (%s)", t, sizeText(dataSize(t, data[t]))))
		}
	}
	switch {
	case chosen == "text/html":
		p.htmlFrame(nblines.Text(data[chosen]))
	case chosen == "text/markdown":
		p.md(nblines.Text(data[chosen]), nil)
	case chosen == "text/latex":
		p.s(`<pre class="nb-latex">`)
		p.text(nblines.Text(data[chosen]))
		p.s("</pre>")
	case strings.HasPrefix(chosen, "image/"):
		p.image(chosen, data[chosen], meta)
	case chosen == "text/plain":
		p.s(`<pre class="nb-text">`)
		p.text(strings.TrimSuffix(termtext.Plain(nblines.Text(data[chosen])), "\n"))
		p.s("</pre>")
	case chosen != "":
		p.s(`<pre class="nb-json">`)
		p.text(indentJSON(data[chosen]))
		p.s("</pre>")
	}
	if len(skipped) > 0 {
		p.s(`<div class="nb-note">not shown: `)
		p.text(strings.Join(skipped, ", "))
		if slices.ContainsFunc(skipped, func(s string) bool { return strings.Contains(s, "javascript") }) {
			p.text(" — scripts from a notebook never run here")
		}
		p.s("</div>")
	}
}

// htmlFrame writes an HTML output in a sandboxed frame: no scripts, an
// opaque origin (it cannot read the page), and a policy of its own that
// loads nothing from outside (the page's policy applies to it too).
func (p *page) htmlFrame(h string) {
	p.s(`<iframe class="nb-html" sandbox="" referrerpolicy="no-referrer" loading="lazy" title="HTML output (sandboxed: scripts do not run)" height="`)
	p.s(strconv.Itoa(frameHeight(h)))
	p.s(`" srcdoc="`)
	p.text(frameDoc(h))
	p.s(`"></iframe>`)
	if scriptTag.MatchString(h) {
		p.s(`<div class="nb-note">this output's scripts were not run</div>`)
	}
}

// frameCSP is the policy inside an HTML output's frame.
const frameCSP = "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'"

// frameCSS styles HTML outputs as Jupyter does (pandas tables).
const frameCSS = `body{margin:4px;font:13px/1.4 -apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;color:#1f2328}` +
	`table{border-collapse:collapse;border:none;font-size:12px}th,td{padding:.3em .6em;text-align:right;vertical-align:middle;border:none}` +
	`thead th{border-bottom:1px solid #999}tbody tr:nth-child(odd){background:#f5f5f5}tbody tr:hover{background:#e1f0ff}` +
	`img{max-width:100%}`

// frameDoc is the document of an HTML output's frame.
func frameDoc(h string) string {
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="` +
		frameCSP + `"><style>` + frameCSS + "</style></head><body>" + h + "</body></html>"
}

// frameHeight guesses the height an HTML output needs, in pixels, from
// its rows, lines, pictures and text (the page cannot measure a frame of
// another origin; the reader can resize the frame).
func frameHeight(h string) int {
	l := strings.ToLower(h)
	count := func(tags ...string) int {
		n := 0
		for _, t := range tags {
			n += strings.Count(l, t)
		}
		return n
	}
	rows := count("<tr")
	lines := count("<br", "<p", "<li", "<div", "<h1", "<h2", "<h3", "<h4", "<pre", "<dt", "<dd")
	pics := count("<img", "<svg", "<canvas", "<iframe", "<video")
	text := len(tagText.ReplaceAllString(scriptText.ReplaceAllString(l, ""), ""))
	px := 24 + 22*lines + 160*pics + 22*(text/110)
	if rows > 0 { // a table: its rows make its height
		px = 24 + 25*rows + 160*pics
	}
	return max(60, min(px, 600))
}

var (
	tagText    = regexp.MustCompile(`<[^>]*>`)
	scriptText = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)\s*>`)
)

// image writes an image output.
func (p *page) image(mime string, v any, meta map[string]any) {
	s := nblines.Text(v)
	var src string
	if mime == "image/svg+xml" {
		src = "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(s))
	} else {
		var ok bool
		if s, ok = cleanBase64(s); !ok {
			p.s(`<div class="nb-missing">`)
			p.text(mime + " output that is not base64")
			p.s("</div>")
			return
		}
		src = "data:" + mime + ";base64," + s
	}
	p.s(`<img class="nb-img" decoding="async" alt="`)
	p.text(mime + " output")
	p.s(`" src="`)
	p.s(src) // base64 text needs no escaping
	p.s(`"`)
	if m, ok := decodeObject(meta[mime]); ok {
		for _, k := range []string{"width", "height"} {
			if n, ok := m[k].(float64); ok && n > 0 && n < 1e5 {
				p.s(" " + k + `="` + strconv.Itoa(int(n)) + `"`)
			} else if n, ok := m[k].(int); ok && n > 0 && n < 1e5 {
				p.s(" " + k + `="` + strconv.Itoa(n) + `"`)
			}
		}
	}
	p.s(">")
}

// cleanBase64 is s, base64 text, without the white space it may be
// split with, and whether it is base64 text at all (only its alphabet,
// at most two = at its end). One pass; no copy when s has no space.
func cleanBase64(s string) (string, bool) {
	spaces, pad := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			spaces++
		case c == '=':
			pad++
		case pad > 0:
			return "", false // data after padding
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
		default:
			return "", false
		}
	}
	if pad > 2 {
		return "", false
	}
	if spaces > 0 {
		s = strings.Join(strings.Fields(s), "")
	}
	return s, true
}

// decodeObject is v as an object: v itself, or a json.RawMessage of one
// decoded.
func decodeObject(v any) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case json.RawMessage:
		var m map[string]any
		if err := json.Unmarshal(t, &m); err == nil && m != nil {
			return m, true
		}
	}
	return nil, false
}

// indentJSON is a JSON value indented.
func indentJSON(v any) string {
	var b []byte
	if raw, ok := v.(json.RawMessage); ok {
		b = raw
	} else {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return fmt.Sprint(v)
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return string(b)
	}
	return out.String()
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// dataSize is the size of an output's value in bytes (base64 images
// decoded).
func dataSize(mime string, v any) int {
	s := nblines.Text(v)
	if strings.HasPrefix(mime, "image/") && mime != "image/svg+xml" {
		return base64.StdEncoding.DecodedLen(len(strings.Join(strings.Fields(s), "")))
	}
	if _, isText := v.(string); !isText && s == "" {
		b, _ := json.Marshal(v)
		return len(b)
	}
	return len(s)
}

func sizeText(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1000000)
}

func escapeString(s string) string { return html.EscapeString(s) }
