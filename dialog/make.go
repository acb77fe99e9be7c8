package dialog

import (
	"errors"
	"fmt"
	"maps"
)

// An Option sets one part of a message made by [Dialog.Make]: where it
// goes ([At], [After], [Before]) or what it holds besides its kind and
// content ([WithID], [WithOutputs], [WithOutputsJSON], [WithReply],
// [WithMeta], [WithAttr], [WithAttachment], [WithAttachments],
// [WithExecutionCount]). Options are made only by those functions; a nil
// Option is ignored.
type Option func(*spec)

// spec is what the options of one Make call ask for.
type spec struct {
	idx         int
	after       *string
	before      *string
	id          string
	outputs     []Output
	hasOutputs  bool
	reply       *string
	meta        map[string]any
	attrs       map[string]any
	attachments []Attachment
	newAtts     []Attachment // data and type only: ids made by Make
	count       *int
	placed      int // placement options given
	errs        []error
}

// At puts the message at position i (a negative i counts from the end: -1,
// the default, appends). Out-of-range positions are an error.
func At(i int) Option {
	return func(s *spec) {
		s.idx = i
		s.placed++
	}
}

// After puts the message just after the message ref (an id or unique id
// prefix).
func After(ref string) Option {
	return func(s *spec) {
		s.after = &ref
		s.placed++
	}
}

// Before puts the message just before the message ref (an id or unique id
// prefix).
func Before(ref string) Option {
	return func(s *spec) {
		s.before = &ref
		s.placed++
	}
}

// WithID gives the message this id instead of a fresh one.
func WithID(id string) Option { return func(s *spec) { s.id = id } }

// WithOutputs gives a code message its outputs (as [CodeOutput],
// [StreamOutput] or [NewOutput] make them).
func WithOutputs(outs []Output) Option {
	return func(s *spec) { s.outputs, s.hasOutputs = append(s.outputs, outs...), true }
}

// WithOutputsJSON gives a code message its outputs as a JSON array, the
// seed's mk_message(…, output='[…]'); "" means none. The text is read as
// ParseOutputs reads it; Make fails on text that is not a JSON array of
// objects.
func WithOutputsJSON(text string) Option {
	return func(s *spec) {
		s.hasOutputs = true
		if text == "" {
			return
		}
		outs, err := parseOutputs(text)
		if err != nil {
			s.errs = append(s.errs, err)
			return
		}
		s.outputs = append(s.outputs, outs...)
	}
}

// WithReply gives a prompt its AI reply ("" for none); see
// [Message.SetReply].
func WithReply(reply string) Option { return func(s *spec) { s.reply = &reply } }

// WithMeta gives the message cell metadata, carried verbatim (copied: the
// map is not shared). Keys a host declared as attributes may be given here
// too: package convert promotes them when writing.
func WithMeta(meta map[string]any) Option {
	return func(s *spec) {
		if s.meta == nil {
			s.meta = map[string]any{}
		}
		maps.Copy(s.meta, meta)
	}
}

// WithAttr sets a host attribute (see Message.Attrs), the seed's
// mk_message(…, skipped=1).
func WithAttr(name string, value any) Option {
	return func(s *spec) {
		if s.attrs == nil {
			s.attrs = map[string]any{}
		}
		s.attrs[name] = value
	}
}

// WithAttachment attaches data of the given MIME type to a note or prompt,
// under a fresh attachment id (use WithAttachments for given ids).
func WithAttachment(data []byte, mime string) Option {
	return func(s *spec) { s.newAtts = append(s.newAtts, Attachment{MIME: mime, Data: data}) }
}

// WithAttachments attaches the given attachments, ids included.
func WithAttachments(atts ...Attachment) Option {
	return func(s *spec) { s.attachments = append(s.attachments, atts...) }
}

// WithExecutionCount sets a code message's execution count.
func WithExecutionCount(n int) Option { return func(s *spec) { s.count = &n } }

// Make makes a message of the given kind and content and puts it into the
// dialog in one call: the seed's mk_message. By default it is appended and
// gets a fresh id; options place it (At, After, Before) and fill it
// (WithID, WithOutputs, WithOutputsJSON, WithReply, WithMeta, WithAttr,
// WithAttachment, WithAttachments, WithExecutionCount):
//
//	d.Make(dialog.Code, "1+1", dialog.WithOutputs(dialog.CodeOutput("2")))
//	d.Make(dialog.Prompt, "Add them.", dialog.WithReply("The answer is **2**."))
//	d.Make(dialog.Note, "new note", dialog.After(first.ID), dialog.WithID("deadbeef"))
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
func (d *Dialog) Make(kind Kind, content string, opts ...Option) (*Message, error) {
	s := spec{idx: -1}
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	i, err := s.check(kind, d.Messages)
	if err != nil {
		return nil, fmt.Errorf("dialog: make %s message: %w", kind, err)
	}
	m := &Message{ID: s.id, Kind: kind, Content: content, Meta: s.meta, Attrs: s.attrs, ExecutionCount: s.count}
	if kind == Code {
		m.Outputs = append([]Output{}, s.outputs...)
	}
	if s.reply != nil {
		m.SetReply(*s.reply)
	}
	m.Attachments = append(m.Attachments, s.attachments...)
	for _, a := range s.newAtts {
		a.ID = d.NewAttachmentID()
		m.Attachments = append(m.Attachments, a)
	}
	if m.ID == "" {
		m.ID = d.NewID()
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	d.Insert(i, m)
	return m, nil
}

// check checks the options given for a message of this kind to go into
// msgs and returns where it goes.
func (s *spec) check(kind Kind, msgs Msgs) (int, error) {
	if !kind.Valid() {
		return 0, errors.New("unknown kind")
	}
	if len(s.errs) > 0 {
		return 0, errors.Join(s.errs...)
	}
	if s.placed > 1 {
		return 0, fmt.Errorf("%d placements given (At, After, Before): give one", s.placed)
	}
	i, err := s.place(msgs)
	if err != nil {
		return 0, err
	}
	if s.id != "" && !validID(s.id) {
		return 0, fmt.Errorf("id %q: an id is 1 to 64 letters, digits, - and _ (a notebook cell id)", s.id)
	}
	if s.id != "" && msgs.Index(s.id) >= 0 {
		return 0, fmt.Errorf("id %q: %w", s.id, ErrDuplicateID)
	}
	return i, s.checkParts(kind)
}

// place is the index in msgs the message goes to.
func (s *spec) place(msgs Msgs) (int, error) {
	n, i := len(msgs), s.idx
	switch {
	case s.after != nil:
		i, err := msgs.find(*s.after)
		if err != nil {
			return 0, fmt.Errorf("after %w", err)
		}
		return i + 1, nil
	case s.before != nil:
		i, err := msgs.find(*s.before)
		if err != nil {
			return 0, fmt.Errorf("before %w", err)
		}
		return i, nil
	case i < 0 && i+n+1 >= 0:
		return i + n + 1, nil
	case i < 0 || i > n:
		return 0, fmt.Errorf("position %d: the dialog has %d messages", s.idx, n)
	}
	return i, nil
}

// checkParts checks that a message of this kind may have the parts given.
func (s *spec) checkParts(kind Kind) error {
	switch {
	case s.hasOutputs && kind != Code:
		return errors.New("outputs given: only code messages have outputs (a prompt's reply: WithReply)")
	case s.reply != nil && kind != Prompt:
		return errors.New("a reply given: only prompts have replies")
	case s.count != nil && kind != Code:
		return errors.New("an execution count given: only code messages have one")
	case len(s.attachments)+len(s.newAtts) > 0 && kind == Code:
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
