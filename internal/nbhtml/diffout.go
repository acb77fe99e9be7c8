package nbhtml

// A diff page's outputs: compared one by one, images side by side, stacked,
// swiped and differenced.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // image sizes
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	nblines "github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/termtext"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Outputs on a diff page. The outputs of a changed cell before and after
// are paired by kind (stream name, or the representation shown) with the
// project's sequence matching; a pair that is equal is shown once, marked
// unchanged; images of a pair are shown side by side with their pixel
// size and bytes, and, when they are of one size, stacked with a swipe
// (a slider uncovers the new one over the old) and a difference view;
// HTML outputs side by side in sandboxed frames with their source's
// diff; every other pair as the line diff of its text (terminal codes
// removed, as the page shows them). Unpaired outputs are shown as
// removed or added.

// outView is one output as a diff page compares it.
type outView struct {
	key  string // what pairs it: the output's type and representation
	text string // its text, for a line diff
	mime string // the representation shown
	raw  string // for images and HTML: the image's data or the HTML
	typ  string
	m    map[string]any // the output (nil for streams joined)
	out  dialog.Output
}

// outViews are a message's outputs (but a prompt's reply) as compared,
// consecutive writes to one stream joined.
func outViews(m *dialog.Message) []outView {
	outs := m.Outputs
	if m.Kind == dialog.Prompt {
		outs = nonReply(outs)
	}
	var vs []outView
	for i := 0; i < len(outs); i++ {
		o, err := outs[i].Map()
		typ := outs[i].Type()
		if err != nil {
			vs = append(vs, outView{key: typ, text: typ + " output unreadable: " + err.Error(), typ: typ})
			continue
		}
		if typ == "stream" {
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
			vs = append(vs, outView{key: "stream " + name, text: termtext.Plain(text), typ: typ, mime: name})
			continue
		}
		v := outView{typ: typ, m: o, out: outs[i]}
		switch typ {
		case "error":
			v.key = "error"
			if tb, ok := o["traceback"].([]any); ok && len(tb) > 0 {
				lines := make([]string, len(tb))
				for k, l := range tb {
					lines[k] = strings.TrimRight(termtext.Plain(nblines.Text(l)), "\n")
				}
				v.text = strings.Join(lines, "\n") + "\n"
			} else {
				v.text = nblines.Text(o["ename"]) + ": " + termtext.Plain(nblines.Text(o["evalue"])) + "\n"
			}
		case "execute_result", "display_data":
			data, _ := decodeObject(o["data"])
			v.mime = chosenType(data)
			v.key = "data " + v.mime
			switch {
			case strings.HasPrefix(v.mime, "image/"):
				v.raw = nblines.Text(data[v.mime])
				v.text = imageInfo(v.mime, v.raw) + "\n"
			case v.mime == "text/html":
				v.raw = nblines.Text(data[v.mime])
				v.text = v.raw
			case v.mime == "text/plain" || v.mime == "text/markdown" || v.mime == "text/latex":
				v.text = termtext.Plain(nblines.Text(data[v.mime]))
			case v.mime != "":
				v.text = indentJSON(data[v.mime]) + "\n"
			}
		default:
			v.key, v.text = typ, "["+typ+" output]"
		}
		vs = append(vs, v)
	}
	return vs
}

func (v outView) same(w outView) bool {
	if v.m == nil || w.m == nil {
		return v.key == w.key && v.text == w.text
	}
	return v.out.Equal(w.out)
}

// chosenType is the representation a page shows of output data (see
// bundle).
func chosenType(data map[string]any) string {
	if h, ok := data["text/html"]; ok {
		rich := false
		for _, t := range richTypes {
			_, has := data[t]
			rich = rich || has
		}
		if !scriptTag.MatchString(nblines.Text(h)) || !rich {
			return "text/html"
		}
	}
	for _, t := range richTypes {
		if _, ok := data[t]; ok {
			return t
		}
	}
	for _, t := range sortedKeys(data) {
		if t == "application/json" || strings.HasPrefix(t, "application/") && strings.HasSuffix(t, "+json") && data["text/plain"] == nil {
			return t
		}
	}
	if data["text/plain"] != nil {
		return "text/plain"
	}
	return ""
}

// imageBytes decodes an image output's data.
func imageBytes(mime, raw string) []byte {
	if mime == "image/svg+xml" {
		return []byte(raw)
	}
	s, ok := cleanBase64(raw)
	if !ok {
		return nil
	}
	b, _ := base64.StdEncoding.DecodeString(s)
	return b
}

// imageSize is an image's size in pixels (0, 0 when unknown: SVG, or
// not decodable).
func imageSize(mime, raw string) (w, h int) {
	if mime == "image/svg+xml" {
		return 0, 0
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(imageBytes(mime, raw)))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

// imageInfo is an image's type, pixel size and bytes.
func imageInfo(mime, raw string) string {
	s := mime
	if w, h := imageSize(mime, raw); w > 0 {
		s += fmt.Sprintf(", %d×%d px", w, h)
	}
	return s + ", " + sizeText(len(imageBytes(mime, raw)))
}

// outputsDiff writes the outputs of a changed message.
func (p *page) outputsDiff(a, b *dialog.Message) {
	va, vb := outViews(a), outViews(b)
	ka, kb := make([]string, len(va)), make([]string, len(vb))
	for i, v := range va {
		ka[i] = v.key
	}
	for i, v := range vb {
		kb[i] = v.key
	}
	match := textdiff.Match(ka, kb)
	p.s(`<div class="nb-outputs nb-outdiff">` + "\n")
	j := 0 // the next output of b to write
	for i, v := range va {
		if match[i] < 0 {
			p.outLabel("del", "output removed")
			p.outView(a, v)
			continue
		}
		for ; j < match[i]; j++ {
			p.outLabel("add", "output added")
			p.outView(b, vb[j])
		}
		p.outPair(a, b, v, vb[j])
		j++
	}
	for ; j < len(vb); j++ {
		p.outLabel("add", "output added")
		p.outView(b, vb[j])
	}
	p.s("</div>\n")
}

func (p *page) outLabel(class, what string) {
	p.s(`<div class="nb-outlabel nb-` + class + `">`)
	p.text(what)
	p.s("</div>")
}

// outView writes one output as the notebook page does.
func (p *page) outView(m *dialog.Message, v outView) {
	if v.m == nil {
		if v.typ == "stream" {
			p.stream(v.mime, v.text)
		} else {
			p.s(`<div class="nb-output nb-missing">`)
			p.text(v.text)
			p.s("</div>")
		}
		return
	}
	p.output(m, v.typ, v.m)
}

// outPair writes an output before and after.
func (p *page) outPair(a, b *dialog.Message, va, vb outView) {
	if va.same(vb) {
		p.outLabel("same", "output unchanged")
		p.outView(b, vb)
		return
	}
	p.outLabel("chg", "output changed: "+strings.TrimPrefix(vb.key, "data "))
	switch {
	case strings.HasPrefix(va.mime, "image/") && va.mime == vb.mime:
		p.imagePair(va, vb)
	case va.mime == "text/html" && vb.mime == "text/html":
		p.s(`<div class="nb-pair"><div class="nb-before"><div class="nb-side">before</div>`)
		p.htmlFrame(va.raw)
		p.s(`</div><div class="nb-after"><div class="nb-side">after</div>`)
		p.htmlFrame(vb.raw)
		p.s(`</div></div><details class="nb-srcdiff"><summary>HTML source changes</summary>`)
		p.textDiff(va.raw, vb.raw)
		p.s("</details>")
	default:
		p.textDiff(va.text, vb.text)
	}
}

// imagePair writes two versions of an image: side by side, and, when
// they are of one size, stacked with a swipe and a difference view.
func (p *page) imagePair(va, vb outView) {
	srcA, srcB := imageURL(va.mime, va.raw), imageURL(vb.mime, vb.raw)
	p.s(`<div class="nb-pair nb-imgpair"><figure class="nb-before"><figcaption>before · `)
	p.text(imageInfo(va.mime, va.raw))
	p.s(`</figcaption><img class="nb-img" alt="before" src="` + srcA + `"></figure><figure class="nb-after"><figcaption>after · `)
	p.text(imageInfo(vb.mime, vb.raw))
	p.s(`</figcaption><img class="nb-img" alt="after" src="` + srcB + `"></figure></div>`)
	wa, ha := imageSize(va.mime, va.raw)
	wb, hb := imageSize(vb.mime, vb.raw)
	if wa > 0 && wa == wb && ha == hb {
		p.s(`<div class="nb-swipe"><div class="nb-swipe-tools">swipe <input type="range" class="nb-swipe-range" min="0" max="100" value="50" aria-label="swipe between before and after">` +
			` <label><input type="checkbox" class="nb-swipe-diff"> difference</label></div>` +
			`<div class="nb-swipe-stack"><img class="nb-swipe-a" alt="before" src="` + srcA + `"><div class="nb-swipe-top"><img class="nb-swipe-b" alt="after" src="` + srcB + `"></div></div></div>`)
	}
}

// imageURL is a data URL of image output data.
func imageURL(mime, raw string) string {
	if mime == "image/svg+xml" {
		return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(raw))
	}
	s, ok := cleanBase64(raw)
	if !ok {
		return ""
	}
	return "data:" + mime + ";base64," + s
}
