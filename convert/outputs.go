package convert

// Outputs of notebooks read (readOutput, the OutputSource of this package):
// decoded when asked, compared undecoded, and the output written for each.

import (
	"bytes"
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
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

// Same reports whether other is an output read that is sure to decode to
// the same generic JSON (see sameOutput).
func (r *readOutput) Same(other dialog.OutputSource) bool {
	s, ok := other.(*readOutput)
	return ok && (r.out == s.out || sameOutput(r.out, s.out))
}

// Differs reports whether the output is sure to differ from other
// without decoding either (dialog.Output.Equal asks it when Same is
// not sure): streams of other names, of other texts compared a string at
// a time, or other extra members. A merge compares a re-run's outputs so
// without building their texts.
func (r *readOutput) Differs(other dialog.OutputSource) bool {
	s, ok := other.(*readOutput)
	if !ok {
		return false
	}
	x, ok1 := r.out.(*nbformat.Stream)
	y, ok2 := s.out.(*nbformat.Stream)
	if !ok1 || !ok2 {
		return false
	}
	if x.Name != y.Name || !jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties) {
		return true
	}
	ra, ok1 := x.Text.RawJSON()
	rb, ok2 := y.Text.RawJSON()
	return ok1 && ok2 && !bytes.Equal(ra, rb) && !jsontree.EqualJoinedRaw(ra, rb)
}

// sameOutput reports whether two nbformat outputs are sure to decode to
// equal generic JSON: their members equal one by one, texts by their
// bytes as read (else by their text), JSON data by its bytes. It is false
// when unsure (JSON data spelled differently, MIME types in another
// order, outputs of different Go types): callers then compare the decoded
// outputs. The generic form of an output is a function of its typed value
// alone (nbmap.OutputToMap, rejoin), so members equal one by one give
// equal generic forms.
func sameOutput(a, b nbformat.Output) bool {
	switch x := a.(type) {
	case *nbformat.Stream:
		y, ok := b.(*nbformat.Stream)
		return ok && x.Name == y.Name && x.OutputType == y.OutputType && sameText(x.Text, y.Text) &&
			jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.DisplayData:
		y, ok := b.(*nbformat.DisplayData)
		return ok && x.OutputType == y.OutputType && sameBundle(x.Data, y.Data) &&
			jsonvalue.EqualObjects(x.Metadata, y.Metadata) && jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.ExecuteResult:
		y, ok := b.(*nbformat.ExecuteResult)
		return ok && x.OutputType == y.OutputType && sameCount(x.ExecutionCount, y.ExecutionCount) && sameBundle(x.Data, y.Data) &&
			jsonvalue.EqualObjects(x.Metadata, y.Metadata) && jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.ErrorOutput:
		y, ok := b.(*nbformat.ErrorOutput)
		return ok && x.OutputType == y.OutputType && x.Ename == y.Ename && x.Evalue == y.Evalue &&
			slices.Equal(x.Traceback, y.Traceback) && (x.Traceback == nil) == (y.Traceback == nil) &&
			jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.UnknownOutput:
		y, ok := b.(*nbformat.UnknownOutput)
		return ok && string(x.Raw) == string(y.Raw)
	}
	return false
}

// sameBundle reports whether two MIME bundles are sure to decode equal:
// the same MIME types in the same order, each once, each value of the
// same JSON text as stored (a text's string or lines, JSON data). The
// values are compared one at a time, as RawJSON gives them.
func sameBundle(a, b nbformat.MimeBundle) bool {
	ka, kb := a.Keys(), b.Keys()
	if !slices.Equal(ka, kb) {
		return false
	}
	for i, k := range ka {
		if i > 0 && slices.Contains(ka[:i], k) {
			return false // a type given twice: unsure which entry decodes
		}
		// (Compared as read, without copies: a notebook's largest values
		// are often such data. Of a MIME type, the same JSON text is
		// always the same kind of entry: text or JSON data.)
		ra, okA := a.RawJSON(k)
		rb, okB := b.RawJSON(k)
		if !okA || !okB || string(ra) != string(rb) {
			return false
		}
	}
	return true
}

func sameCount(a, b *int) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
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

// sameText reports whether two texts are equal: by their bytes as read
// when both were read, else by their text.
func sameText(a, b nbformat.MultilineString) bool {
	if ra, ok := a.RawJSON(); ok {
		if rb, ok := b.RawJSON(); ok {
			// Compared a string at a time: never the whole text built.
			return bytes.Equal(ra, rb) || jsontree.EqualJoinedRaw(ra, rb)
		}
	}
	return a.String() == b.String()
}
