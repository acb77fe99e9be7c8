package dialog

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Dialog is a named, ordered list of messages.
type Dialog struct {
	// Name is the dialog's name, usually its file's stem.
	Name string
	// Messages are the messages in order.
	Messages []*Message
	// Meta is the notebook-level metadata, carried verbatim: numbers,
	// strings, booleans and null as Go values, arrays and objects as
	// json.RawMessage (their bytes as read, decoded only on demand, e.g.
	// by nbformat.Decode; never modify one, store a new value instead).
	Meta map[string]any
	// Random is the source of new ids; nil means crypto/rand. For
	// reproducible ids use a seeded generator of math/rand/v2, such as
	// rand.NewChaCha8([32]byte{1}). It must not run dry: making an id
	// panics if reading it fails.
	Random io.Reader
}

// rand returns the source of new ids.
func (d *Dialog) rand() io.Reader {
	if d.Random != nil {
		return d.Random
	}
	return rand.Reader
}

// newID returns a fresh message id: 8 lower-case hex digits (4 random
// bytes, as the seed's rtoken_hex(4)), used by no message of d.
func (d *Dialog) newID() string {
	for {
		var b [4]byte
		if _, err := io.ReadFull(d.rand(), b[:]); err != nil {
			panic("dialog: reading random bytes: " + err.Error())
		}
		if id := hex.EncodeToString(b[:]); d.Index(id) < 0 {
			return id
		}
	}
}

// newAttachmentID returns a fresh RFC 4122 version 4 UUID, made from
// Dialog.Random as github.com/google/uuid makes one (see newUUID4).
func (d *Dialog) newAttachmentID() string {
	u, err := newUUID4(d.rand())
	if err != nil {
		panic("dialog: reading random bytes: " + err.Error())
	}
	return u
}

// Add appends a new message of the given kind and content, with a fresh id
// and empty metadata, and returns it.
func (d *Dialog) Add(kind Kind, content string) *Message {
	m := &Message{Kind: kind, Content: content, Meta: map[string]any{}}
	d.insert(len(d.Messages), m)
	return m
}

// insert puts m at position i (clamped to the list; a negative i counts
// from the end, -1 appending), giving it a fresh id if it has none.
func (d *Dialog) insert(i int, m *Message) {
	if m.ID == "" {
		m.ID = d.newID()
	}
	n := len(d.Messages)
	if i < 0 {
		i = n + 1 + i
	}
	i = max(0, min(i, n))
	d.Messages = append(d.Messages, nil)
	copy(d.Messages[i+1:], d.Messages[i:])
	d.Messages[i] = m
}

// Remove removes the messages with the given ids (or unique id prefixes)
// and returns them; ids that match nothing are an error, and nothing is
// removed then.
func (d *Dialog) Remove(refs ...string) ([]*Message, error) {
	drop := map[*Message]bool{}
	for _, r := range refs {
		m, err := d.Get(r)
		if err != nil {
			return nil, err
		}
		drop[m] = true
	}
	var removed []*Message
	kept := d.Messages[:0:0]
	for _, m := range d.Messages {
		if drop[m] {
			removed = append(removed, m)
		} else {
			kept = append(kept, m)
		}
	}
	d.Messages = kept
	return removed, nil
}

// Attach adds an attachment of data to m, with a fresh id, and returns it.
func (d *Dialog) Attach(m *Message, data []byte, mime string) Attachment {
	a := Attachment{ID: d.newAttachmentID(), MIME: mime, Data: data}
	m.Attachments = append(m.Attachments, a)
	return a
}

// Validate reports what would make the dialog unwritable or meaningless:
// a nil message, a message without an id or of an unknown kind, outputs
// on a note or raw message, outputs that are not Jupyter outputs,
// metadata or attributes that are not JSON, and an id that several
// messages share.
func (d *Dialog) Validate() error {
	seen := map[string]bool{}
	var errs []error
	for _, m := range d.Messages {
		if m == nil {
			errs = append(errs, errors.New("dialog: nil message"))
			continue
		}
		if err := m.validate(); err != nil {
			errs = append(errs, err)
		}
		if m.ID != "" && seen[m.ID] {
			errs = append(errs, fmt.Errorf("dialog: duplicate message id %s", m.ID))
		}
		seen[m.ID] = true
	}
	return errors.Join(errs...)
}

// Summary shows the dialog: its name, then one Preview line per message
// (at most width characters; 0: no limit), a prompt's reply on its own
// line starting "> ", and at most rows messages (0: all) followed by a
// count of the rest.
func (d *Dialog) Summary(width, rows int) string {
	var b strings.Builder
	b.WriteString(d.Name)
	b.WriteString("\n")
	msgs(d.Messages).show(&b, width, rows)
	return b.String()
}
