// Member and SetMember: the JSON view of the AdditionalProperties maps of
// the generated structs.

package nbformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Member returns the member key of props, the AdditionalProperties map of
// a generated struct (unknown metadata keys, members that do not fit the
// schema), as JSON text, and whether it is there. Whatever form the value
// is held in (a Go scalar, a json.RawMessage, generic JSON) the result is
// its JSON; a json.RawMessage is returned as it is, sharing the memory of
// the notebook it was read from: do not modify it. NaN and infinities,
// which notebooks written by Python may hold and JSON lacks, are returned
// as Python writes them (NaN, Infinity, -Infinity). A value encoding/json
// cannot write is not there.
//
//	raw, ok := nbformat.Member(c.Metadata.AdditionalProperties, "colab")
func Member(props map[string]any, key string) (json.RawMessage, bool) {
	v, ok := props[key]
	if !ok {
		return nil, false
	}
	switch v := v.(type) {
	case json.RawMessage:
		return v, true
	case float64:
		switch {
		case math.IsNaN(v):
			return json.RawMessage("NaN"), true
		case math.IsInf(v, 1):
			return json.RawMessage("Infinity"), true
		case math.IsInf(v, -1):
			return json.RawMessage("-Infinity"), true
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	return b, true
}

// SetMember sets the member key of *props (an AdditionalProperties map,
// made if nil) to the JSON value v, which it copies: a number, string,
// boolean or null is held as its Go value (as [Decode] gives it), an
// array or object as a json.RawMessage. It fails, changing nothing, on v
// that is not one JSON value. A member the struct has a field for (the
// "tags" of cell metadata, say) belongs in that field, not here.
//
//	err := nbformat.SetMember(&c.Metadata.AdditionalProperties, "my_app", json.RawMessage(`{"run": 3}`))
func SetMember(props *map[string]any, key string, v json.RawMessage) error {
	v = bytes.TrimSpace(v)
	if !json.Valid(v) {
		return fmt.Errorf("nbformat: member %s: not one JSON value: %.40q", strconv.Quote(key), v)
	}
	var value any
	switch v[0] {
	case '[', '{':
		value = append(json.RawMessage(nil), v...)
	default:
		x, err := Decode(v)
		if err != nil {
			return fmt.Errorf("nbformat: member %s: %w", strconv.Quote(key), err)
		}
		value = x
	}
	if *props == nil {
		*props = map[string]any{}
	}
	(*props)[key] = value
	return nil
}
