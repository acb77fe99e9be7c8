package nbhtml

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

// What a notebook may point at. A page never loads anything from
// outside itself, so that opening it makes no request: images are shown
// only when the notebook holds them (attachments, data URLs), and links
// are followed only when a person clicks them, and only to the web or
// mail (http, https, mailto) or within the page (#fragment). Every
// other link — javascript:, data:, vbscript:, file:, relative paths to
// other files, unknown schemes — is written without its target (class
// nb-inert, the target in its title).

// linkHref returns the URL to write for a link to dest and true, or
// false when the link is not followed. dest is the URL as HTML decodes
// it (character references resolved).
func linkHref(dest string) (string, bool) {
	d := strings.TrimFunc(dest, func(r rune) bool { return r <= ' ' })
	// Browsers drop tabs and line ends anywhere in a URL ("java\tscript:").
	d = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, d)
	if d == "" {
		return "", false
	}
	if d[0] == '#' {
		return d, true
	}
	u, err := url.Parse(d)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "", false
		}
		return d, true
	case "mailto":
		return d, true
	}
	return "", false
}

// dataImage matches a data URL of an image type a browser shows in an
// <img> (where SVG runs no script).
var dataImage = regexp.MustCompile(`^(?i)data:image/(png|jpeg|jpg|gif|webp|bmp|avif|svg\+xml)[;,]`)

// imageTypes are the MIME types shown as images, in Jupyter's order of
// preference.
var imageTypes = []string{"image/svg+xml", "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"}

func isImageType(mime string) bool {
	for _, t := range imageTypes {
		if strings.EqualFold(mime, t) {
			return true
		}
	}
	return false
}

// imageSrc returns the URL to write for an image at src in a message
// with attachments atts: a data URL of an image as it is, an attachment
// (attachment:NAME, NAME percent-encoded or not) as a data URL of its
// bytes; "" for anything else (not shown).
func imageSrc(src string, atts []dialog.Attachment) string {
	src = strings.TrimSpace(src)
	if name, ok := strings.CutPrefix(src, "attachment:"); ok {
		a := findAttachment(atts, name)
		if a == nil {
			if dec, err := url.PathUnescape(name); err == nil {
				a = findAttachment(atts, dec)
			}
		}
		if a == nil || !isImageType(a.MIME) {
			return ""
		}
		return dataURL(a.MIME, a.Data)
	}
	if dataImage.MatchString(src) {
		return strings.Join(strings.Fields(src), "")
	}
	return ""
}

func findAttachment(atts []dialog.Attachment, name string) *dialog.Attachment {
	for i := range atts {
		if atts[i].ID == name {
			return &atts[i]
		}
	}
	return nil
}

// dataURL is a data URL of bytes of type mime.
func dataURL(mime string, data []byte) string {
	return "data:" + strings.ToLower(mime) + ";base64," + base64.StdEncoding.EncodeToString(data)
}
