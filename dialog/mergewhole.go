package dialog

import "strings"

// A side that turned a note (or a raw or code message) into a prompt
// whose question, a separator and its reply are the message's text as
// base had it changed the kind alone: its text is base's, as one text
// (a notebook's cell holds a prompt's question and reply in one source,
// and a line merge of the file, such as git's, reads it so). Merged as a
// question and a reply apart, the other side's edit of that text (its
// reply's lines deleted, say) would be undone by the reply the prompt
// holds, which base had not.

// wholeTexts returns the versions of a message both sides changed to
// merge the texts of: a side that only made base's message a prompt (see
// above) as base's text without a reply, and the separator between its
// question and reply ("" where neither side did).
func wholeTexts(b, o, t *Message) (mo, mt *Message, sep string) {
	mo, mt = o, t
	for i, s := range [2]*Message{o, t} {
		other := [2]*Message{t, o}[i]
		if s.Kind != Prompt || b.Kind == Prompt || other.Kind == Prompt {
			continue
		}
		r := s.Reply()
		if r == "" || len(b.Content) <= len(s.Content)+len(r) || !strings.HasPrefix(b.Content, s.Content) || !strings.HasSuffix(b.Content, r) {
			continue
		}
		sep = b.Content[len(s.Content) : len(b.Content)-len(r)]
		w := cloneMessage(s)
		w.Content = b.Content
		w.SetReply("")
		if i == 0 {
			mo = w
		} else {
			mt = w
		}
		return mo, mt, sep
	}
	return o, t, ""
}

// splitWhole sets a prompt m's question and reply from its merged whole
// text, split at the first sep (all of it the question where sep is not
// in it).
func splitWhole(m *Message, sep string) {
	q, r, ok := strings.Cut(m.Content, sep)
	if !ok {
		return
	}
	m.Content = q
	m.SetReply(r)
}
