package dialog

import (
	"errors"
	"fmt"
	"maps"
)

// MakeOptions are the parts of a message [Dialog.Make] makes besides its
// kind and content, and where it goes: the seed's mk_message arguments.
// The zero value appends a bare message with a fresh id.
type MakeOptions struct {
	// ID is the message's id; "" gives it a fresh one.
	ID string
	// At, After and Before place the message (at most one may be set;
	// none appends it). At is a position counting from 1 (1: first,
	// len(Messages)+1: last); After and Before name a message by id or
	// unique id prefix, the message going just after or before it.
	At            int
	After, Before string
	// Outputs are a code message's outputs (as [NewOutput] makes them,
	// or read from a notebook); OutputsJSON gives them as
	// a JSON array instead (the seed's output='[…]'), read as
	// [Output.UnmarshalJSON] reads each output, after Outputs.
	Outputs     []Output
	OutputsJSON string
	// Reply is a prompt's AI reply (see [Message.SetReply]).
	Reply string
	// Meta is cell metadata, carried verbatim, and Attrs host attributes
	// (see [Message.Attrs]); both are copied, not shared. Keys a host
	// declared as attributes may be given in Meta too: package convert
	// promotes them when writing.
	Meta, Attrs map[string]any
	// Attachments are attached to a note or prompt; one without an ID
	// gets a fresh one.
	Attachments []Attachment
	// ExecutionCount is a code message's execution count.
	ExecutionCount *int
}

// Make makes a message of the given kind and content, as opts fill and
// place it, and puts it into the dialog in one call: the seed's
// mk_message.
//
//	d.Make(dialog.Code, "1+1", dialog.MakeOptions{OutputsJSON: `[{"output_type": "stream", "name": "stdout", "text": "2\n"}]`})
//	d.Make(dialog.Prompt, "Add them.", dialog.MakeOptions{Reply: "The answer is **2**."})
//	d.Make(dialog.Note, "new note", dialog.MakeOptions{After: first.ID, ID: "deadbeef"})
//
// Nothing is added when Make fails: on an unknown kind; a reference that
// matches no message or several ([ErrNotFound], [ErrAmbiguous]; the seed
// puts the message first or last instead); a position out of range; more
// than one placement; an id that cannot be a notebook cell id, or one
// already used in d ([ErrDuplicateID]; the seed makes the duplicate);
// outputs on a message other than code, or outputs JSON that is not an
// array of objects; a reply on a message other than a prompt; an
// execution count outside code; attachments on code; metadata or
// attributes that are not JSON.
func (d *Dialog) Make(kind Kind, content string, opts MakeOptions) (*Message, error) {
	i, outs, err := opts.check(kind, d.Messages)
	if err != nil {
		return nil, fmt.Errorf("dialog: make %s message: %w", kind, err)
	}
	m := &Message{ID: opts.ID, Kind: kind, Content: content, Meta: maps.Clone(opts.Meta), Attrs: maps.Clone(opts.Attrs), ExecutionCount: opts.ExecutionCount}
	if m.Meta == nil {
		m.Meta = map[string]any{}
	}
	if kind == Code {
		m.Outputs = outs
	}
	if opts.Reply != "" {
		m.SetReply(opts.Reply)
	}
	for _, a := range opts.Attachments {
		if a.ID == "" {
			a.ID = d.newAttachmentID()
		}
		m.Attachments = append(m.Attachments, a)
	}
	if m.ID == "" {
		m.ID = d.newID()
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	d.insert(i, m)
	return m, nil
}

// check checks the options given for a message of this kind to go into
// ms and returns where it goes and its outputs.
func (s *MakeOptions) check(kind Kind, ms msgs) (int, []Output, error) {
	if !kind.valid() {
		return 0, nil, errors.New("unknown kind")
	}
	outs := append([]Output{}, s.Outputs...)
	if s.OutputsJSON != "" {
		more, err := parseOutputs(s.OutputsJSON)
		if err != nil {
			return 0, nil, err
		}
		outs = append(outs, more...)
	}
	placed := 0
	for _, set := range []bool{s.At != 0, s.After != "", s.Before != ""} {
		if set {
			placed++
		}
	}
	if placed > 1 {
		return 0, nil, fmt.Errorf("%d placements given (At, After, Before): give one", placed)
	}
	i, err := s.place(ms)
	if err != nil {
		return 0, nil, err
	}
	if s.ID != "" && !validID(s.ID) {
		return 0, nil, fmt.Errorf("id %q: an id is 1 to 64 letters, digits, - and _ (a notebook cell id)", s.ID)
	}
	if s.ID != "" && ms.index(s.ID) >= 0 {
		return 0, nil, fmt.Errorf("id %q: %w", s.ID, ErrDuplicateID)
	}
	return i, outs, s.checkParts(kind, len(outs) > 0 || s.OutputsJSON != "")
}

// place is the index in ms the message goes to.
func (s *MakeOptions) place(ms msgs) (int, error) {
	n := len(ms)
	switch {
	case s.After != "":
		i, err := ms.find(s.After)
		if err != nil {
			return 0, fmt.Errorf("after %w", err)
		}
		return i + 1, nil
	case s.Before != "":
		i, err := ms.find(s.Before)
		if err != nil {
			return 0, fmt.Errorf("before %w", err)
		}
		return i, nil
	case s.At == 0:
		return n, nil
	case s.At < 1 || s.At > n+1:
		return 0, fmt.Errorf("position %d: the dialog has %d messages", s.At, n)
	}
	return s.At - 1, nil
}

// checkParts checks that a message of this kind may have the parts given.
func (s *MakeOptions) checkParts(kind Kind, outputs bool) error {
	switch {
	case outputs && kind != Code:
		return errors.New("outputs given: only code messages have outputs (a prompt's reply: Reply)")
	case s.Reply != "" && kind != Prompt:
		return errors.New("a reply given: only prompts have replies")
	case s.ExecutionCount != nil && kind != Code:
		return errors.New("an execution count given: only code messages have one")
	case len(s.Attachments) > 0 && kind == Code:
		return errors.New("attachments given: code cells have none")
	}
	return nil
}

// validID reports whether id can be a notebook cell id.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// ErrDuplicateID is returned when a message with that id is already in the
// dialog.
var ErrDuplicateID = errors.New("a message with this id is already in the dialog")
