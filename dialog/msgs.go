package dialog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// msgs is an ordered list of messages, searched by id or unique id
// prefix.
type msgs []*Message

// ErrNotFound is returned when no message has that id (or id prefix).
var ErrNotFound = errors.New("no such message")

// ErrAmbiguous is returned when several messages have that id, or ids
// starting with that prefix.
var ErrAmbiguous = errors.New("ambiguous message id")

// Index returns the position in d.Messages of the first message with
// exactly this id, or -1.
func (d *Dialog) Index(id string) int { return msgs(d.Messages).index(id) }

// index returns the position of the first message with exactly this id,
// or -1.
func (ms msgs) index(id string) int {
	for i, m := range ms {
		if m != nil && m.ID == id {
			return i
		}
	}
	return -1
}

// Get returns the one message whose id is ref, or else the one message
// whose id starts with ref (the seed's find_id). It fails with
// ErrNotFound when none matches and with ErrAmbiguous when several do:
// two messages sharing the id ref (a dialog read from a file with
// repeated ids, or built so), or several ids starting with ref. Use
// errors.Is.
func (d *Dialog) Get(ref string) (*Message, error) {
	i, err := msgs(d.Messages).find(ref)
	if err != nil {
		return nil, fmt.Errorf("dialog: %w", err)
	}
	return d.Messages[i], nil
}

// find is Get's search, returning a position and an error without the
// package prefix.
func (ms msgs) find(ref string) (int, error) {
	found, n := -1, 0
	for i, m := range ms {
		if m != nil && m.ID == ref {
			if n == 0 {
				found = i
			}
			n++
		}
	}
	switch {
	case n == 1:
		return found, nil
	case n > 1:
		return -1, fmt.Errorf("%q is the id of %d messages (at %s): %w", ref, n, positions(ms, func(m *Message) bool { return m.ID == ref }), ErrAmbiguous)
	}
	var ids []string
	if ref != "" {
		for i, m := range ms {
			if m != nil && strings.HasPrefix(m.ID, ref) {
				found = i
				ids = append(ids, m.ID)
			}
		}
	}
	switch len(ids) {
	case 0:
		return -1, fmt.Errorf("%q: %w", ref, ErrNotFound)
	case 1:
		return found, nil
	}
	return -1, fmt.Errorf("%q matches %s: %w", ref, strings.Join(ids, ", "), ErrAmbiguous)
}

// positions lists the positions of the messages that match, for errors.
func positions(ms msgs, match func(*Message) bool) string {
	var ps []string
	for i, m := range ms {
		if m != nil && match(m) {
			ps = append(ps, strconv.Itoa(i))
		}
	}
	return strings.Join(ps, ", ")
}

// show writes to b the messages one Preview line each (width characters
// at most; 0: no limit), a prompt's reply on a following "> " line, and at
// most rows messages (0: all) followed by "…(N more)".
func (ms msgs) show(b *strings.Builder, width, rows int) {
	var r row
	for i, m := range ms {
		if rows > 0 && i == rows {
			fmt.Fprintf(b, "…(%d more)\n", len(ms)-rows)
			break
		}
		reply := m.Reply()
		m.preview(b, &r, width, reply)
		b.WriteByte('\n')
		if reply != "" {
			r.reset(b, width, true)
			r.add("> ")
			r.add(reply)
			r.end()
			b.WriteByte('\n')
		}
	}
}
