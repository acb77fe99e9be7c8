package main

import (
	"io"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// jsonChange is a change in --json output.
type jsonChange struct {
	Kind        string         `json:"kind"`
	ID          string         `json:"id,omitempty"`
	MessageKind string         `json:"message_kind,omitempty"`
	A           *int           `json:"a_cell,omitempty"` // 1-based
	B           *int           `json:"b_cell,omitempty"`
	Parts       []string       `json:"parts,omitempty"`
	Keys        []string       `json:"keys,omitempty"`
	Content     exactString    `json:"content_diff,omitempty"`
	Reply       exactString    `json:"reply_diff,omitempty"`
	IDs         []*string      `json:"ids,omitempty"`             // [a, b], null for none
	Count       []*int         `json:"execution_count,omitempty"` // [a, b]
	Outputs     [][]string     `json:"outputs,omitempty"`         // [a, b] summaries
	Meta        map[string]any `json:"metadata,omitempty"`        // key → [a, b]
}

// An exactString is a text of the notebooks written as JSON with its
// lone surrogates as their escapes (encoding/json writes U+FFFD for
// them: two texts that differ there would read the same).
type exactString string

func (s exactString) MarshalJSON() ([]byte, error) {
	return jsonvalue.AppendQuoted(nil, string(s)), nil
}

// writeJSON writes the changes as JSON, metadata values as the notebooks
// spell them (see jsonValues); it returns the error of encoding or
// writing them.
func (d *differ) writeJSON(w io.Writer, aName, bName string, changes []dialog.Change) error {
	var vals jsonValues
	out := struct {
		A       string       `json:"a"`
		B       string       `json:"b"`
		Same    bool         `json:"same"`
		Changes []jsonChange `json:"changes"`
	}{A: aName, B: bName, Same: len(changes) == 0, Changes: []jsonChange{}}
	for _, c := range changes {
		jc := jsonChange{Kind: c.Kind.String(), Keys: c.Keys}
		if d.ids[c.ID] {
			jc.ID = c.ID
		}
		if c.A != nil {
			i := c.AIndex + 1
			jc.A, jc.MessageKind = &i, string(c.A.Kind)
		}
		if c.B != nil {
			i := c.BIndex + 1
			jc.B, jc.MessageKind = &i, string(c.B.Kind)
		}
		if c.A == nil && c.B == nil {
			jc.Kind, jc.MessageKind = "notebook metadata", ""
		}
		if c.Parts != 0 {
			jc.Parts = strings.Split(c.Parts.String(), ", ")
		}
		if c.A != nil && c.B != nil {
			if c.Parts&dialog.PartContent != 0 {
				jc.Content = exactString(d.hunks(c.A.Content, c.B.Content))
			}
			if c.Parts&dialog.PartReply != 0 {
				jc.Reply = exactString(d.hunks(c.A.Reply(), c.B.Reply()))
			}
			if c.Parts&dialog.PartID != 0 {
				ia, ib := d.fileIDs(c)
				for _, id := range []nbformat.CellID{ia, ib} {
					var p *string
					if id != "" {
						s := string(id)
						p = &s
					}
					jc.IDs = append(jc.IDs, p)
				}
			}
			if c.Parts&dialog.PartCount != 0 {
				jc.Count = []*int{c.A.ExecutionCount, c.B.ExecutionCount}
			}
			if c.Parts&dialog.PartOutputs != 0 {
				jc.Outputs = [][]string{outputLines(c.A), outputLines(c.B)}
			}
			if c.Parts&(dialog.PartMeta|dialog.PartAttrs) != 0 {
				jc.Meta = map[string]any{}
				for _, k := range c.Keys {
					ma, mb, name := d.metaOf(k, c.A, c.B)
					jc.Meta[k] = []any{vals.add(ma[name]), vals.add(mb[name])}
				}
			}
		}
		if c.A == nil && c.B == nil {
			jc.Meta = map[string]any{}
			for _, k := range c.Keys {
				jc.Meta[k] = []any{vals.add(d.metaA[k]), vals.add(d.metaB[k])}
			}
		}
		out.Changes = append(out.Changes, jc)
	}
	b, err := vals.marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
