package nbformat

// MimeBundle: output data keyed by MIME type, text or JSON per entry, as
// read until changed.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// MimeBundle is the schema's mimebundle: output data (or an attachment)
// keyed by MIME type, in file order. Values of JSON MIME types
// ("application/json", "application/…+json") are arbitrary JSON; all others
// are multiline strings (base64 for binary data such as image/png).
//
// Like a map, a MimeBundle refers to shared storage: copies of it see each
// other's changes; use Clone for an independent copy. The zero value is an
// empty bundle ready to use. Values read from a file stay undecoded until
// asked for, and unedited entries are written back byte for byte.
type MimeBundle struct{ b *bundle }

type bundle struct {
	raw     []byte // the object as read; nil when built in memory
	entries []mimeEntry
	dirty   bool           // changed since read
	index   map[string]int // mime → entry, kept by the mutators for large bundles
}

// indexAbove is the size from which a bundle keeps an index (real bundles
// hold a few types; hostile ones may hold thousands).
const indexAbove = 16

// reindex rebuilds the index after entries changed.
func (b *bundle) reindex() {
	if len(b.entries) <= indexAbove {
		b.index = nil
		return
	}
	b.index = make(map[string]int, len(b.entries))
	for i, e := range b.entries {
		b.index[e.mime] = i
	}
}

type mimeEntry struct {
	mime   string
	text   MultilineString // the value, unless isJSON
	json   []byte          // JSON MIME types (and non-string values): the JSON value
	isJSON bool
}

// Keys returns the MIME types in order.
func (m MimeBundle) Keys() []string {
	if m.b == nil {
		return nil
	}
	keys := make([]string, len(m.b.entries))
	for i, e := range m.b.entries {
		keys[i] = e.mime
	}
	return keys
}

func (m MimeBundle) find(mime string) int {
	if m.b == nil {
		return -1
	}
	if m.b.index != nil {
		if i, ok := m.b.index[mime]; ok {
			return i
		}
		return -1
	}
	for i := range m.b.entries {
		if m.b.entries[i].mime == mime {
			return i
		}
	}
	return -1
}

// Text returns the text of a non-JSON entry (the joined lines; base64 for
// binary types). It reports false if the entry is missing or holds JSON.
func (m MimeBundle) Text(mime string) (string, bool) {
	i := m.find(mime)
	if i < 0 || m.b.entries[i].isJSON {
		return "", false
	}
	return m.b.entries[i].text.String(), true
}

// RawJSON returns the entry's value as JSON text: for a text entry, the
// string or the array of lines as stored (see [MultilineString.RawJSON]).
// The bytes are the bundle's own, not a copy: they must not be changed
// (append to them does not change them). To decode them, use [Decode]; to
// ask whether the bundle holds a type, use the ok result (or
// [MimeBundle.Keys]).
func (m MimeBundle) RawJSON(mime string) (json.RawMessage, bool) {
	i := m.find(mime)
	if i < 0 {
		return nil, false
	}
	e := m.b.entries[i]
	if e.isJSON {
		return e.json[:len(e.json):len(e.json)], true
	}
	if e.text.raw != nil {
		return e.text.raw[:len(e.text.raw):len(e.text.raw)], true
	}
	b, err := encodeCompact(e.text)
	if err != nil {
		return nil, false
	}
	return b, true
}

func (m *MimeBundle) mutable() *bundle {
	if m.b == nil {
		m.b = &bundle{}
	}
	return m.b
}

// SetText sets mime to the text s. For a JSON MIME type the value is the
// JSON string s. Setting the text an entry already has changes nothing.
func (m *MimeBundle) SetText(mime, s string) {
	if mimetype.IsJSON(mime) {
		b, _ := json.Marshal(s)
		m.setJSON(mime, b)
		return
	}
	b := m.mutable()
	if i := m.find(mime); i >= 0 && !b.entries[i].isJSON {
		if b.entries[i].text.String() == s {
			return
		}
		b.entries[i].text.Set(s)
		b.dirty = true
		return
	}
	m.put(mimeEntry{mime: mime, text: Text(s)})
}

// setMultiline sets mime to v exactly (keeping its form).
func (m *MimeBundle) setMultiline(mime string, v MultilineString) {
	m.put(mimeEntry{mime: mime, text: v})
}

// SetJSON sets mime to the JSON encoding of v (encoding/json rules for Go
// values; json.RawMessage is used as is). As when reading a file, the
// value of a type that is not a JSON MIME type is text when it is a
// string or an array of strings: [MimeBundle.Text] then returns its text,
// and it is written in exactly that form (one string, or these lines),
// whatever the notebook's style. Setting the value an entry already has
// changes nothing.
func (m *MimeBundle) SetJSON(mime string, v any) error {
	var raw []byte
	if r, ok := v.(json.RawMessage); ok {
		if !json.Valid(r) {
			return fmt.Errorf("nbformat: SetJSON(%q): invalid JSON", mime)
		}
		raw = r
	} else {
		var err error
		if raw, err = encodeCompact(v); err != nil {
			return fmt.Errorf("nbformat: SetJSON(%q): %w", mime, err)
		}
	}
	if !mimetype.IsJSON(mime) {
		if text, ok := multilineOfJSON(raw); ok {
			if i := m.find(mime); i >= 0 && !m.b.entries[i].isJSON && bytes.Equal(m.b.entries[i].text.raw, text.raw) {
				return nil
			}
			m.setMultiline(mime, text)
			return nil
		}
	}
	m.setJSON(mime, raw)
	return nil
}

// multilineOfJSON returns the JSON text raw as a MultilineString of its
// form, if it is a string or an array of strings.
func multilineOfJSON(raw []byte) (MultilineString, bool) {
	raw = bytes.TrimSpace(raw)
	t, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: 2})
	if err != nil || !t.IsMultiline(jsontree.Root) {
		return MultilineString{}, false
	}
	return multilineFromRaw(append([]byte(nil), raw...)), true
}

func (m *MimeBundle) setJSON(mime string, raw []byte) {
	if i := m.find(mime); i >= 0 && m.b.entries[i].isJSON && bytes.Equal(m.b.entries[i].json, raw) {
		return
	}
	m.put(mimeEntry{mime: mime, json: append([]byte{}, raw...), isJSON: true})
}

func (m *MimeBundle) put(e mimeEntry) {
	b := m.mutable()
	b.dirty = true
	if i := m.find(e.mime); i >= 0 {
		b.entries[i] = e
		return
	}
	b.entries = append(b.entries, e)
	if b.index != nil {
		b.index[e.mime] = len(b.entries) - 1
	} else if len(b.entries) > indexAbove {
		b.reindex()
	}
}

// Delete removes mime from the bundle.
func (m *MimeBundle) Delete(mime string) {
	i := m.find(mime)
	if i < 0 {
		return
	}
	m.b.entries = append(m.b.entries[:i:i], m.b.entries[i+1:]...)
	m.b.dirty = true
	m.b.reindex()
}

// Clone returns an independent copy (which still writes unedited entries
// byte for byte).
func (m MimeBundle) Clone() MimeBundle {
	if m.b == nil {
		return MimeBundle{}
	}
	c := *m.b
	c.entries = append([]mimeEntry{}, m.b.entries...)
	c.reindex()
	return MimeBundle{b: &c}
}

// newMimeBundle returns a bundle holding the given MIME type → text pairs,
// in argument order: newMimeBundle("text/plain", "2").
func newMimeBundle(pairs ...string) MimeBundle {
	var m MimeBundle
	for i := 0; i+1 < len(pairs); i += 2 {
		m.SetText(pairs[i], pairs[i+1])
	}
	return m
}
