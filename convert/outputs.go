package convert

// Outputs of notebooks read (readOutput, the OutputSource of this package):
// decoded when asked, compared undecoded, and the output written for each.

import (
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbdefer"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Outputs are kept as the nbformat outputs read (which hold their bytes as
// read) and decoded to generic JSON only when a caller looks inside: a
// dialog's outputs are dialog.SourcedOutput values over readOutput.

// readOutput is an output of a notebook read: the dialog.OutputSource of
// the outputs of the dialogs this package reads.
type readOutput struct {
	out nbformat.Output
	nb  *nbformat.Notebook // the notebook out belongs to; nil if unknown
}

// Type returns the output_type.
func (r *readOutput) Type() string { return string(r.out.Type()) }

// Decode returns the output as generic JSON, as Python nbformat holds it
// in memory (see rejoin).
func (r *readOutput) Decode() (map[string]any, error) {
	g, err := nbmap.OutputToMap(r.out)
	if err != nil {
		return nil, err
	}
	return rejoin(g), nil
}

// transientOutMeta are output metadata keys that hosts keep in memory only
// (the seed's _out_meta_skip): they are left out of the outputs of cells
// written from new or changed messages.
var transientOutMeta = []string{"__type"}

// hasTransientMeta reports whether an nbformat output's metadata holds a
// transient key.
func hasTransientMeta(out nbformat.Output) bool {
	var md map[string]any
	switch x := out.(type) {
	case *nbformat.DisplayData:
		md = x.Metadata
	case *nbformat.ExecuteResult:
		md = x.Metadata
	case *nbformat.Stream, *nbformat.ErrorOutput:
		return false // no metadata object: members of other types are kept as json.RawMessage
	default:
		g, err := nbmap.OutputToMap(out)
		if err != nil {
			return true // the caller fails decoding it
		}
		md, _ = g["metadata"].(map[string]any)
	}
	for _, k := range transientOutMeta {
		if _, ok := md[k]; ok {
			return true
		}
	}
	return false
}

// cleanOutMeta removes transient output metadata from a generic output
// (its own copy, from Output.Map).
func cleanOutMeta(out map[string]any) {
	md, ok := out["metadata"].(map[string]any)
	if !ok {
		return
	}
	for _, k := range transientOutMeta {
		delete(md, k)
	}
}

// outputFor returns the nbformat output to write for a message's output in
// notebook nb: the output read itself when it was read from nb and holds
// no transient metadata (written back as its bytes where it is unedited),
// else one made from its generic JSON without transient metadata, its
// text in nb's style (with o.deferOutputs, an output read is made so only
// when the writer reaches it: see internal/nbdefer).
func (o options) outputFor(out dialog.Output, nb *nbformat.Notebook) (nbformat.Output, error) {
	r, ok := out.Source().(*readOutput)
	if ok && r.nb != nil && r.nb == nb && !hasTransientMeta(r.out) {
		return r.out, nil
	}
	if ok && o.deferOutputs {
		return nbdefer.Output(string(r.out.Type()), func() (any, error) { return outputAnew(out) }).(nbformat.Output), nil
	}
	return outputAnew(out)
}

// outputAnew is the nbformat output made from an output's generic JSON
// without transient metadata (see outputFor).
func outputAnew(out dialog.Output) (nbformat.Output, error) {
	g, err := out.Map()
	if err != nil {
		return nil, err
	}
	cleanOutMeta(g)
	return nbmap.OutputFromMap(g)
}

// rejoin presents an output's text as Python nbformat holds it in memory:
// stream text and the non-JSON data of display_data and execute_result
// stored as lists of lines are joined into strings.
func rejoin(o map[string]any) map[string]any {
	join := func(v any) any {
		if list, ok := v.([]any); ok {
			if text, ok := lines.Join(list); ok {
				return text
			}
		}
		return v
	}
	switch o["output_type"] {
	case "execute_result", "display_data":
		if data, ok := o["data"].(map[string]any); ok {
			for k, v := range data {
				if !mimetype.IsJSON(k) {
					data[k] = join(v)
				}
			}
		}
	case "stream":
		if t, ok := o["text"]; ok {
			o["text"] = join(t)
		}
	}
	return o
}
