package convert

import (
	"bytes"
	"encoding/base64"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// attachmentFrom reads one attachment. Jupyter (and the seed) store every
// attachment base64-encoded, whatever its type, so a text value is
// decoded; one that is not valid base64 (a writer that stored raw text)
// is kept as its text, and written back unchanged while the attachment is
// unchanged. A value that is not text (a JSON object under a JSON type)
// is kept as its JSON text.
func attachmentFrom(name, mime string, b nbformat.MimeBundle) dialog.Attachment {
	a := dialog.Attachment{ID: name, MIME: mime}
	text, ok := b.Text(mime)
	if !ok { // a JSON type: base64 text is a JSON string
		raw, _ := b.RawJSON(mime)
		v, _ := nbformat.Decode(raw)
		text, ok = v.(string)
	}
	if ok {
		if data, ok := decodeBase64(text); ok {
			a.Data = data
		} else {
			a.Data = []byte(text)
		}
		return a
	}
	raw, _ := b.RawJSON(mime)
	a.Data = bytes.Clone(raw) // (the dialog's own: RawJSON's are the bundle's)
	return a
}

// decodeBase64 decodes standard base64 with padding, ignoring the line
// breaks and spaces that encoders insert (as Python's b64decode does).
func decodeBase64(text string) ([]byte, bool) {
	// encoding/base64 skips line breaks itself, and fails on spaces and
	// tabs, which are never base64: text is decoded as it is first (most
	// is clean), and only a failure looks for what to clean.
	if data, err := base64.StdEncoding.DecodeString(text); err == nil {
		return data, true
	}
	if !strings.ContainsAny(text, " \t") {
		return nil, false
	}
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, text)
	data, err := base64.StdEncoding.DecodeString(clean)
	return data, err == nil
}

// attachments builds a cell's attachments, keeping original bundles whose
// attachments did not change, and in a bundle that changed the original
// value of each type whose data did not (a text that is not base64 stays
// as it was).
func (o options) attachments(m *dialog.Message, s *snapshot) map[string]nbformat.MimeBundle {
	var orig map[string]nbformat.MimeBundle
	var before []dialog.Attachment
	if s != nil {
		switch c := s.cell.(type) {
		case *nbformat.MarkdownCell:
			orig = c.Attachments
		case *nbformat.RawCell:
			orig = c.Attachments
		}
		before = s.msg.Attachments
	}
	if len(m.Attachments) == 0 {
		return nil
	}
	byID := map[string][]dialog.Attachment{}
	var order []string
	for _, a := range m.Attachments {
		if _, ok := byID[a.ID]; !ok {
			order = append(order, a.ID)
		}
		byID[a.ID] = append(byID[a.ID], a)
	}
	out := map[string]nbformat.MimeBundle{}
	for _, id := range order {
		now := byID[id]
		var was []dialog.Attachment
		for _, a := range before {
			if a.ID == id {
				was = append(was, a)
			}
		}
		if b, ok := orig[id]; ok && sameAttachments(now, was) {
			out[id] = b
			continue
		}
		var b nbformat.MimeBundle
		if ob, ok := orig[id]; ok {
			b = ob.Clone()
			for _, mime := range b.Keys() {
				if !hasMIME(now, mime) {
					b.Delete(mime)
				}
			}
		}
		for _, a := range now {
			if w := findMIME(was, a.MIME); w != nil && string(w.Data) == string(a.Data) && hasKey(b, a.MIME) {
				continue // as it was
			}
			b.SetText(a.MIME, base64.StdEncoding.EncodeToString(a.Data))
		}
		out[id] = b
	}
	return out
}

// hasMIME reports whether one of as is of type mime.
func hasMIME(as []dialog.Attachment, mime string) bool { return findMIME(as, mime) != nil }

// findMIME returns the attachment of as of type mime, or nil.
func findMIME(as []dialog.Attachment, mime string) *dialog.Attachment {
	for i := range as {
		if as[i].MIME == mime {
			return &as[i]
		}
	}
	return nil
}

// hasKey reports whether bundle b holds type mime.
func hasKey(b nbformat.MimeBundle, mime string) bool {
	_, ok := b.RawJSON(mime)
	return ok
}
