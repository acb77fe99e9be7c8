package main

// What ipynb diff and the textconv say about an image output: its type,
// its size in pixels as its header says (PNG, JPEG and GIF headers read
// with image.DecodeConfig, only as far as the header goes; SVG's width
// and height, else its viewBox, as written on its root element) and its
// size in bytes (decoded), without decoding its pixels.

import (
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig knows GIF, JPEG and PNG headers
	_ "image/jpeg"
	_ "image/png"
	"io"
	"strings"
)

// imageInfo describes image output data v of type mime: "640×480 px,
// 12.3 kB"; the pixel size is left out when the header cannot be read.
func imageInfo(mime string, v any) string {
	text := textOf(v)
	if mime == "image/svg+xml" {
		s := sizeText(len(text))
		if dims := svgSize(text); dims != "" {
			s = dims + ", " + s
		}
		return s
	}
	s := sizeText(base64Len(text))
	if cfg, _, err := image.DecodeConfig(base64.NewDecoder(base64.StdEncoding, &spaceless{s: text})); err == nil {
		s = fmt.Sprintf("%d×%d px, %s", cfg.Width, cfg.Height, s)
	}
	return s
}

// base64Len is the length of the bytes base64 text s decodes to, white
// space ignored (an estimate for text that is not base64).
func base64Len(s string) int {
	n, pad := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		case c == '=':
			pad++
			n++
		default:
			n++
		}
	}
	return max(n/4*3+(n%4)*3/4-pad, 0)
}

// spaceless reads s without its ASCII white space (notebooks split
// base64 in lines; some writers indent them).
type spaceless struct {
	s string
	i int
}

func (r *spaceless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.i < len(r.s) {
		if c := r.s[r.i]; c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			p[n] = c
			n++
		}
		r.i++
	}
	if n == 0 && r.i == len(r.s) {
		return 0, io.EOF
	}
	return n, nil
}

// svgSize is the size an SVG image's root element gives: "W×H" from its
// width and height, else "viewBox X Y W H", or "" (each value cut to 24
// characters; only the first 64 kB and 200 tokens are read for the root).
func svgSize(s string) string {
	dec := xml.NewDecoder(io.LimitReader(strings.NewReader(s), 64<<10))
	dec.Strict = false
	for range 200 {
		tok, err := dec.RawToken()
		if err != nil {
			return ""
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local != "svg" {
			return ""
		}
		var w, h, box string
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "width":
				w = cutValue(a.Value)
			case "height":
				h = cutValue(a.Value)
			case "viewBox":
				box = cutValue(strings.Join(strings.Fields(a.Value), " "))
			}
		}
		switch {
		case w != "" && h != "":
			return w + "×" + h
		case box != "":
			return "viewBox " + box
		}
		return ""
	}
	return ""
}

func cutValue(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 24 {
		return string(r[:23]) + "…"
	}
	return s
}
