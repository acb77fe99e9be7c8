package convert

// Comparing outputs read without decoding them: as JSON values, by their
// texts as read a string at a time and their JSON data value by value.

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/nbformat"
)

// Same reports whether other is an output read that is sure to decode to
// the same generic JSON (see sameOutput).
func (r *readOutput) Same(other dialog.OutputSource) bool {
	s, ok := other.(*readOutput)
	return ok && (r.out == s.out || sameOutput(r.out, s.out))
}

// Differs reports whether the output is sure to differ from other
// without decoding either (dialog.Output.Equal asks it when Same is
// not sure): streams of other names or texts, display data and results
// of other data, metadata, counts or extra members. Texts are compared a
// string at a time and JSON data a value at a time (see compareBundles):
// a merge compares a re-run's outputs without building their texts or
// decoding their images.
func (r *readOutput) Differs(other dialog.OutputSource) bool {
	if l, ok := other.(*lazyOutput); ok {
		return r.differsFromLook(l.p.look)
	}
	s, ok := other.(*readOutput)
	if !ok {
		return false
	}
	switch x := r.out.(type) {
	case *nbformat.Stream:
		y, ok := s.out.(*nbformat.Stream)
		if !ok {
			return false
		}
		if x.Name != y.Name || !jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties) {
			return true
		}
		ra, ok1 := x.Text.RawJSON()
		rb, ok2 := y.Text.RawJSON()
		return ok1 && ok2 && !bytes.Equal(ra, rb) && !equalJoined(ra, rb)
	case *nbformat.DisplayData:
		y, ok := s.out.(*nbformat.DisplayData)
		return ok && (!jsonvalue.EqualObjects(x.Metadata, y.Metadata) || !jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties) ||
			compareBundles(x.Data, y.Data) == differentValues)
	case *nbformat.ExecuteResult:
		y, ok := s.out.(*nbformat.ExecuteResult)
		return ok && (!sameCount(x.ExecutionCount, y.ExecutionCount) || !jsonvalue.EqualObjects(x.Metadata, y.Metadata) ||
			!jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties) || compareBundles(x.Data, y.Data) == differentValues)
	}
	return false
}

// sameOutput reports whether two nbformat outputs are sure to decode to
// equal generic JSON: their members equal one by one, texts by their
// strings joined as read (else by their text), data by compareBundles. It
// is false when unsure (outputs of different Go types, a MIME type given
// twice): callers then compare the decoded outputs. The generic form of
// an output is a function of its typed value alone (nbmap.OutputToMap,
// rejoin), so members equal one by one give equal generic forms.
func sameOutput(a, b nbformat.Output) bool {
	switch x := a.(type) {
	case *nbformat.Stream:
		y, ok := b.(*nbformat.Stream)
		return ok && x.Name == y.Name && x.OutputType == y.OutputType && sameText(x.Text, y.Text) &&
			jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.DisplayData:
		y, ok := b.(*nbformat.DisplayData)
		return ok && x.OutputType == y.OutputType && compareBundles(x.Data, y.Data) == equalValues &&
			jsonvalue.EqualObjects(x.Metadata, y.Metadata) && jsonvalue.EqualObjects(x.AdditionalProperties, y.AdditionalProperties)
	case *nbformat.ExecuteResult:
		y, ok := b.(*nbformat.ExecuteResult)
		return ok && x.OutputType == y.OutputType && sameCount(x.ExecutionCount, y.ExecutionCount) && compareBundles(x.Data, y.Data) == equalValues &&
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

// A likeness is what comparing two values without decoding them tells.
type likeness int8

const (
	unsure likeness = iota
	equalValues
	differentValues
)

// compareBundles compares two MIME bundles as the generic JSON they
// decode to (see nbmap: an entry of a MIME type that is not JSON holding
// a string or an array of strings is its text joined, any other entry
// its JSON value), an entry at a time, as RawJSON gives them (without
// copies: a notebook's largest values are often such data): other MIME
// types differ; texts are compared a string at a time (however each side
// splits its lines, escapes decoded), and only when no text differs is
// JSON data compared, by its tokens and else as decoded JSON values
// (however spaced, keys in any order). It is unsure of bundles giving a
// MIME type twice and of entries it cannot read as stored.
func compareBundles(a, b nbformat.MimeBundle) likeness {
	ka, kb := a.Keys(), b.Keys()
	slices.Sort(ka)
	slices.Sort(kb)
	for _, keys := range [][]string{ka, kb} {
		for i := 1; i < len(keys); i++ {
			if keys[i] == keys[i-1] {
				return unsure // a type given twice: unsure which entry decodes
			}
		}
	}
	if !slices.Equal(ka, kb) {
		return differentValues
	}
	v := equalValues
	var data []string // the entries compared as JSON values, last
	for _, k := range ka {
		ra, okA := a.RawJSON(k)
		rb, okB := b.RawJSON(k)
		switch {
		case !okA || !okB:
			v = unsure
		case bytes.Equal(ra, rb):
		case mimetype.IsJSON(k):
			data = append(data, k)
		case jsontree.IsStrings(ra) && jsontree.IsStrings(rb):
			if !equalJoined(ra, rb) {
				return differentValues
			}
		case !jsontree.IsStrings(ra) && !jsontree.IsStrings(rb):
			data = append(data, k) // JSON values both
		default:
			v = unsure // a text and a value (one side holds no valid text)
		}
	}
	for _, k := range data {
		ra, _ := a.RawJSON(k)
		rb, _ := b.RawJSON(k)
		if !jsontree.EqualIgnoringSpace(ra, rb) && !jsonvalue.Equal(json.RawMessage(ra), json.RawMessage(rb)) {
			return differentValues
		}
	}
	return v
}

func sameCount(a, b *int) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// sameText reports whether two texts are equal: by their bytes as read
// when both were read, else by their text.
func sameText(a, b nbformat.MultilineString) bool {
	if ra, ok := a.RawJSON(); ok {
		if rb, ok := b.RawJSON(); ok {
			// Compared a string at a time: never the whole text built.
			return bytes.Equal(ra, rb) || equalJoined(ra, rb)
		}
	}
	return a.String() == b.String()
}
