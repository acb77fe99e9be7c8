package convert

import (
	"github.com/nbdialog/ipynb/internal/jsonsize"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/nbformat"
)

// Size returns the size encoding/json gives the output's generic form
// (Decode's) without decoding it: the dialog.OutputSource.Size of the outputs
// read, which dialog.Message.Preview and the ipynb command's show use.
// ok is false where the size is not sure (see outputSize): callers then
// decode the output.
func (r *readOutput) Size() (n int, ok bool) { return outputSize(r.out) }

// outputSize is the size encoding/json writes the generic form of out in
// (nbmap.OutputToMap, then rejoin), computed from its typed value:
// every typed member is written (output members are all required), a
// value AdditionalProperties keeps for a member's key replaces the
// member's zero value, text stored as lines is joined, JSON data arrays
// and objects are kept as their bytes. Texts and JSON data are sized
// from the bytes read, never copied (MultilineString.RawJSON,
// MimeBundle.RawJSON). It
// is not sure, and reports ok false, for values AdditionalProperties
// holds that rejoin might change (an output_type, lists and objects for
// text or data), MIME types given twice, text held for a JSON MIME type,
// outputs of an unknown type that spell an object's key twice or escape
// one, and values encoding/json refuses.
func outputSize(out nbformat.Output) (int, bool) {
	switch x := out.(type) {
	case *nbformat.Stream:
		return membersSize(x.AdditionalProperties, []member{
			typeMember(x.OutputType, x),
			{"name", x.Name == "", func() (int, bool) { return jsonsize.String(x.Name), true }},
			{"text", x.Text.IsZero(), func() (int, bool) { return textSize(x.Text), true }},
		})
	case *nbformat.DisplayData:
		return membersSize(x.AdditionalProperties, []member{
			typeMember(x.OutputType, x),
			{"data", x.Data == (nbformat.MimeBundle{}), func() (int, bool) { return bundleSize(x.Data) }},
			{"metadata", x.Metadata == nil, func() (int, bool) { return jsonsize.Value(nonNil(x.Metadata)) }},
		})
	case *nbformat.ExecuteResult:
		return membersSize(x.AdditionalProperties, []member{
			typeMember(x.OutputType, x),
			{"data", x.Data == (nbformat.MimeBundle{}), func() (int, bool) { return bundleSize(x.Data) }},
			{"metadata", x.Metadata == nil, func() (int, bool) { return jsonsize.Value(nonNil(x.Metadata)) }},
			{"execution_count", x.ExecutionCount == nil, func() (int, bool) {
				if x.ExecutionCount == nil {
					return len("null"), true
				}
				return jsonsize.Int(*x.ExecutionCount), true
			}},
		})
	case *nbformat.ErrorOutput:
		return membersSize(x.AdditionalProperties, []member{
			typeMember(x.OutputType, x),
			{"ename", x.Ename == "", func() (int, bool) { return jsonsize.String(x.Ename), true }},
			{"evalue", x.Evalue == "", func() (int, bool) { return jsonsize.String(x.Evalue), true }},
			{"traceback", x.Traceback == nil, func() (int, bool) {
				n := 2 + max(0, len(x.Traceback)-1)
				for _, s := range x.Traceback {
					n += jsonsize.String(s)
				}
				return n, true
			}},
		})
	case *nbformat.UnknownOutput:
		switch nbformat.OutputType(x.Type()) {
		case nbformat.OutputTypeStream, nbformat.OutputTypeDisplayData, nbformat.OutputTypeExecuteResult, nbformat.OutputTypeError:
			return 0, false // rejoin may join its text
		}
		if i := firstByte(x.Raw); i < 0 || x.Raw[i] != '{' {
			return 0, false // not an object: not an output to decode
		}
		return jsonsize.Decoded(x.Raw)
	}
	return 0, false
}

// A member is a typed member of an output: its key, whether its value is
// the zero value (which a value AdditionalProperties keeps for the key
// replaces), and its size.
type member struct {
	key  string
	zero bool
	size func() (int, bool)
}

// typeMember is the output_type member: the type's own when not set.
func typeMember(t nbformat.OutputType, out nbformat.Output) member {
	return member{"output_type", t == "", func() (int, bool) {
		if t == "" {
			return jsonsize.String(string(out.Type())), true
		}
		return jsonsize.String(string(t)), true
	}}
}

// membersSize is the size of an output object holding the typed members
// and the values extra keeps (see outputSize).
func membersSize(extra map[string]any, members []member) (int, bool) {
	n, count := 1, 0 // "{"
	for _, m := range members {
		var size int
		var ok bool
		if v, has := extra[m.key]; has && m.zero {
			switch v.(type) {
			case []any, map[string]any:
				return 0, false // rejoin may change it
			}
			if m.key == "output_type" {
				return 0, false // rejoin follows it
			}
			size, ok = jsonsize.Value(v)
		} else {
			size, ok = m.size()
		}
		if !ok {
			return 0, false
		}
		n += len(m.key) + 2 + 1 + size // keys of typed members need no escapes
		count++
	}
	for k, v := range extra {
		if typed(members, k) {
			continue
		}
		size, ok := jsonsize.Value(v)
		if !ok {
			return 0, false
		}
		n += jsonsize.String(k) + 1 + size
		count++
	}
	return n + max(0, count-1) + 1, true // commas, "}"
}

func typed(members []member, k string) bool {
	for _, m := range members {
		if m.key == k {
			return true
		}
	}
	return false
}

// bundleSize is the size of output data's generic form: text entries
// joined into one string, JSON entries as jsonEntry gives them (arrays
// and objects as their bytes, scalars decoded).
func bundleSize(b nbformat.MimeBundle) (int, bool) {
	keys := b.Keys()
	n := 2 + max(0, len(keys)-1)
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			return 0, false // a type given twice: unsure which entry decodes
		}
		seen[k] = true
		n += jsonsize.String(k) + 1
		raw, ok := b.RawJSON(k) // (not copied)
		i := firstByte(raw)
		if !ok || i < 0 {
			return 0, false
		}
		if !mimetype.IsJSON(k) && textJSON(raw[i:]) {
			n += jsonsize.Text(raw[i:])
			continue
		}
		var size int
		switch raw[i] {
		case '[', '{':
			size, ok = jsonsize.Raw(raw)
		default:
			size, ok = jsonsize.Decoded(raw)
		}
		if !ok {
			return 0, false
		}
		n += size
	}
	return n, true
}

// textSize is the size encoding/json writes the text of m in (its lines
// joined into one string): from the JSON read, without decoding it; for a
// text built in memory, from its text.
func textSize(m nbformat.MultilineString) int {
	if raw, ok := m.RawJSON(); ok {
		return jsonsize.Text(raw)
	}
	return jsonsize.String(m.String())
}

// textJSON reports whether raw (a validated JSON value without leading
// white space) is a string or an array of strings only: the JSON of a text
// entry (MimeBundle holds any other value of a type that is not JSON as
// JSON). Outside its strings, such an array holds one opening bracket.
func textJSON(raw []byte) bool {
	switch raw[0] {
	case '"':
		return true
	case '[':
	default:
		return false
	}
	for i := 1; i < len(raw); i++ {
		switch raw[i] {
		case ' ', '\t', '\n', '\r', ',', ']':
		case '"':
			for i++; raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		default:
			return false
		}
	}
	return true
}

// firstByte is the index of the first byte of raw that is not JSON
// white space, or -1.
func firstByte(raw []byte) int {
	for i, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return -1
}
