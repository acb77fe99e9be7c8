package main

import (
	"errors"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

// What ipynb diff shows: --show and --hide take lists of the parts of
// cells (nbdime's -s -o -a -m), and a change is listed only for what is
// shown. A cell added, removed or moved is always listed (its body shows
// the parts shown); a cell changed only in hidden parts is not, nor the
// notebook's metadata when metadata is hidden; the exit status counts
// only what is listed. A cell's id is always compared.

// shownParts is a set of the parts --show and --hide name.
type shownParts uint

const (
	showSources     shownParts = 1 << iota // the cell's text: source, a prompt's reply, its kind
	showOutputs                            // outputs and execution counts
	showMetadata                           // cell and notebook metadata, host attributes
	showAttachments                        // files attached to notes and prompts
	showAll         = showSources | showOutputs | showMetadata | showAttachments
)

var shownNames = []string{"sources", "outputs", "metadata", "attachments"}

// has reports whether all of q are shown.
func (p shownParts) has(q shownParts) bool { return p&q == q }

// mask is the message parts shown (the id always).
func (p shownParts) mask() dialog.Part {
	m := dialog.PartID
	if p.has(showSources) {
		m |= dialog.PartKind | dialog.PartContent | dialog.PartReply
	}
	if p.has(showOutputs) {
		m |= dialog.PartOutputs | dialog.PartCount
	}
	if p.has(showMetadata) {
		m |= dialog.PartMeta | dialog.PartAttrs
	}
	if p.has(showAttachments) {
		m |= dialog.PartAttachments
	}
	return m
}

// partsFlag is the value of --show or --hide: part names separated by
// commas.
type partsFlag struct {
	parts shownParts
	set   bool
}

func (f *partsFlag) String() string {
	var names []string
	for i, n := range shownNames {
		if f.parts&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

func (f *partsFlag) Set(s string) error {
	f.set = true
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		found := false
		for i, n := range shownNames {
			if w == n {
				f.parts |= 1 << i
				found = true
			}
		}
		if !found {
			msg := "want a list of " + strings.Join(shownNames, ", ")
			if c := closest(w, shownNames); c != "" {
				msg = "did you mean " + c + "? " + msg
			}
			return errors.New(msg)
		}
	}
	return nil
}

// shown is what --show and --hide leave shown.
func shown(show, hide *partsFlag) shownParts {
	p := showAll
	if show.set {
		p = show.parts
	}
	return p &^ hide.parts
}

// refine keeps of changes what differs as JSON values and is shown:
// metadata keys whose values are equal as JSON values (spacing, key
// order, the spelling of numbers: diffmeta.go) and outputs equal as JSON
// values are not changes; parts not shown are dropped (see above). A
// change left with nothing is dropped.
func (d *differ) refine(changes []dialog.Change) []dialog.Change {
	shown := showAll &^ d.hide
	mask := shown.mask()
	out := changes[:0:0]
	for _, c := range changes {
		if c.A == nil && c.B == nil {
			if !shown.has(showMetadata) {
				continue
			}
			c.Keys = changedMetaKeys(c.Keys, func(k string) (ma, mb map[string]any, name string) { return d.metaOf(k, nil, nil) })
			if len(c.Keys) > 0 {
				out = append(out, c)
			}
			continue
		}
		if c.A != nil && c.B != nil {
			if c.Parts&dialog.PartOutputs != 0 && sameOutputs(c.A, c.B) {
				c.Parts &^= dialog.PartOutputs
			}
			if c.Parts&(dialog.PartMeta|dialog.PartAttrs) != 0 {
				a, b := c.A, c.B
				c.Keys = changedMetaKeys(c.Keys, func(k string) (ma, mb map[string]any, name string) { return d.metaOf(k, a, b) })
				c.Parts &^= dialog.PartMeta | dialog.PartAttrs
				for _, k := range c.Keys {
					if strings.HasPrefix(k, "attr:") {
						c.Parts |= dialog.PartAttrs
					} else {
						c.Parts |= dialog.PartMeta
					}
				}
			}
			c.Parts &= mask
			if c.Parts&(dialog.PartMeta|dialog.PartAttrs) == 0 {
				c.Keys = nil
			}
			if c.Kind == dialog.Changed && c.Parts == 0 {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}
