package dialog

// Message and its kinds: a prompt's reply, the one-line preview, and the checks
// that make a message writable.

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/jsonsize"
	"github.com/nbdialog/ipynb/internal/lines"
)

// Kind is the kind of a message.
type Kind string

// The kinds of messages. A message read from a notebook with a cell type
// of a future format version has that cell type as its kind.
const (
	Note   Kind = "note"
	Prompt Kind = "prompt"
	Code   Kind = "code"
	Raw    Kind = "raw"
)

// valid reports whether k is one of the four kinds.
func (k Kind) valid() bool { return k == Note || k == Prompt || k == Code || k == Raw }

// Message is one message of a dialog.
type Message struct {
	// ID is 8 hex digits for messages made here; messages read from a
	// notebook keep their cell's id.
	ID   string
	Kind Kind
	// Content is the message text: markdown, code, a prompt's question.
	Content string
	// Outputs are a code message's outputs; a prompt carries its reply as
	// an output (use Reply and SetReply).
	Outputs []Output
	// ExecutionCount is a code cell's execution count (nil: not run).
	ExecutionCount *int
	// Attachments are files embedded in a note or prompt.
	Attachments []Attachment
	// Meta is the cell metadata that no descriptor claims, carried
	// verbatim, with the types of Dialog.Meta (arrays and objects as
	// json.RawMessage). It is empty, not nil, on messages Dialog.Add and
	// Dialog.Make make.
	Meta map[string]any
	// Attrs holds host attributes: the cell metadata keys a host declared
	// (see package convert), under the host's attribute names (arrays and
	// objects as json.RawMessage, as in Meta, unless the descriptor
	// converts them).
	Attrs map[string]any
}

// Reply returns a prompt's reply: the text/markdown of its first output
// marked as a reply (see [Output.IsReply]); "" for other kinds or no reply.
func (m *Message) Reply() string {
	if m.Kind != Prompt {
		return ""
	}
	for _, o := range m.Outputs {
		if o.IsReply() {
			g, err := o.view()
			if err != nil {
				return ""
			}
			data, _ := g["data"].(map[string]any)
			return lines.Text(data["text/markdown"])
		}
	}
	return ""
}

// SetReply sets a prompt's reply, replacing every output marked as a
// reply; "" removes it.
func (m *Message) SetReply(reply string) {
	kept := m.Outputs[:0:0]
	for _, o := range m.Outputs {
		if !o.IsReply() {
			kept = append(kept, o)
		}
	}
	if reply != "" {
		kept = append([]Output{replyOutput(reply)}, kept...)
	}
	if len(kept) == 0 {
		kept = nil
	}
	m.Outputs = kept
}

// Preview is the one-line summary of the message, at most width
// characters (0: no limit): "id:k:content", with newlines shown as \n, then
// " ⇒ reply(N)" for a prompt's reply of N characters or " ⇒ out(N B)" for
// N bytes of outputs (as compact JSON). A row too long is cut in its
// content ("…"), keeping the mark of the reply or outputs (unless width
// leaves no room but for it).
func (m *Message) Preview(width int) string {
	var b strings.Builder
	var r row
	m.preview(&b, &r, width, m.Reply())
	return b.String()
}

// preview writes the Preview of m to b through r, reply being m.Reply().
// The content is looked at up to width characters only.
func (m *Message) preview(b *strings.Builder, r *row, width int, reply string) {
	k := "?"
	if m.Kind != "" {
		k = string(m.Kind[:1])
	}
	var mark string
	switch {
	case reply != "":
		mark = fmt.Sprintf(" ⇒ reply(%d)", utf8.RuneCountInString(reply))
	case len(m.Outputs) > 0:
		mark = fmt.Sprintf(" ⇒ out(%d B)", outputSize(m.Outputs))
	}
	markWidth := utf8.RuneCountInString(mark)
	if width > 0 && width < markWidth+2 {
		// No room for the mark and a character of the row: cut all.
		r.reset(b, width, true)
		r.add(m.ID)
		r.add(":" + k + ":")
		r.add(m.Content)
		r.add(mark)
		r.end()
		return
	}
	if width > 0 {
		width -= markWidth
	}
	r.reset(b, width, true)
	r.add(m.ID)
	r.add(":" + k + ":")
	r.add(m.Content)
	r.end()
	b.WriteString(mark)
}

// outputSize is the size of the outputs as encoding/json writes the list
// (0 when it cannot): the size an output read from a file tells
// (OutputSource.Size), else the output's decoded value measured without being
// written (internal/jsonsize).
func outputSize(outs []Output) int {
	if len(outs) == 0 {
		return len("[]")
	}
	total := 1 // "[", then each output and a comma or "]"
	for _, o := range outs {
		if s := o.Source(); s != nil {
			if n, ok := s.Size(); ok {
				total += n + 1
				continue
			}
		}
		m, err := o.view()
		if err != nil {
			return 0
		}
		n, ok := jsonsize.Value(m)
		if !ok {
			return 0
		}
		total += n + 1
	}
	return total
}

// truncate shortens s to width characters, ending in "…" when cut.
func truncate(s string, width int) string {
	if width <= 0 {
		return s
	}
	var b strings.Builder
	var r row
	r.reset(&b, width, false)
	r.add(s)
	r.end()
	return b.String()
}

// validate reports problems that would make the message unwritable or
// meaningless: an empty id, an unknown kind, outputs on a note or raw
// message, outputs that are not Jupyter outputs, metadata or attributes
// that are not JSON.
func (m *Message) validate() error {
	if m.ID == "" {
		return fmt.Errorf("dialog: message %q has no id", truncate(m.Content, 30))
	}
	if !m.Kind.valid() {
		return fmt.Errorf("dialog: message %s: unknown kind %q", m.ID, m.Kind)
	}
	if (m.Kind == Note || m.Kind == Raw) && len(m.Outputs) > 0 {
		return fmt.Errorf("dialog: message %s: a %s message carries no outputs", m.ID, m.Kind)
	}
	for i, o := range m.Outputs {
		switch o.Type() {
		case "execute_result", "display_data", "stream", "error":
		default:
			return fmt.Errorf("dialog: message %s: output %d has output_type %q", m.ID, i, o.Type())
		}
	}
	if _, err := json.Marshal(m.Meta); err != nil {
		return fmt.Errorf("dialog: message %s: metadata is not JSON: %w", m.ID, err)
	}
	if _, err := json.Marshal(m.Attrs); err != nil {
		return fmt.Errorf("dialog: message %s: attributes are not JSON: %w", m.ID, err)
	}
	return nil
}
