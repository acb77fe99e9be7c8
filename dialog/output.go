package dialog

// Output, a code message's output as an immutable value: made in memory or kept
// in a reader's form, compared, and read and written as JSON.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/truthy"
)

// Output is one output of a code message: a standard Jupyter output, a
// JSON object such as {"output_type": "stream", "name": "stdout",
// "text": "…"}. An Output is a value that never changes: copying one is
// cheap, and to change an output, make a new one ([NewOutput]) from the
// map [Output.Map] returns.
//
// An output made in memory ([NewOutput], [Output.UnmarshalJSON])
// holds its generic JSON. An output read from a file ([SourcedOutput];
// package convert makes them) holds the reader's own form, the bytes as
// read, and is decoded only when a caller looks inside ([Output.Map]):
// reading, comparing and writing back an unedited dialog never decodes
// its outputs. [Output.Type] never decodes.
//
// Generic JSON here is what nbformat.Decode gives: string, int, float64,
// json.Number (integers too large for an int), bool, nil, []any and
// map[string]any, except that arrays and objects inside output metadata
// and JSON output data (application/json and the like) of outputs read
// from a file are json.RawMessage, their bytes as read (see
// [Dialog.Meta]); text stored as a list of lines is joined into one string.
//
// The zero Output is an empty object.
type Output struct {
	m   map[string]any // the generic form, for outputs made in memory
	src OutputSource   // the reader's form, for outputs read
}

// An OutputSource is an output kept in a reader's own form, decoded only
// when asked. Package convert makes the outputs it reads from the
// nbformat outputs of the notebook; other readers may implement it too.
// Its methods must be safe to call from several goroutines at once.
type OutputSource interface {
	// Type returns the output_type ("" when it is missing or not a
	// string), without decoding the output.
	Type() string
	// Decode returns the output as generic JSON (see Output): a new value
	// at each call, which the caller may change.
	Decode() (map[string]any, error)
	// Same reports whether the output is known, without decoding either,
	// to be equal to other (as Output.Equal compares them): true only when
	// it is sure. Outputs read unedited from two files compare so by their
	// bytes as read.
	Same(other OutputSource) bool
	// Size returns the number of bytes json.Marshal writes the map Decode
	// returns in, when it can tell it exactly without decoding; ok is
	// false otherwise (the caller then decodes), and where json.Marshal
	// would fail. [Message.Preview] sizes outputs with it.
	Size() (n int, ok bool)
}

// differ is a source that can also tell, without decoding either, that
// it is sure to differ from other (as Output.Equal compares them):
// Output.Equal then decodes neither. A source need not have the method.
type differ interface {
	Differs(other OutputSource) bool
}

// NewOutput returns an output holding a deep copy of m: later changes to
// m do not reach it.
func NewOutput(m map[string]any) Output {
	return Output{m: jsonvalue.CloneObject(nonNilMap(m))}
}

// newOutput returns an output holding m itself, for maps made here that
// nothing else holds.
func newOutput(m map[string]any) Output { return Output{m: m} }

// SourcedOutput returns an output kept in a reader's form, decoded only
// when a caller looks inside (see OutputSource). It allocates nothing:
// the output holds src itself.
func SourcedOutput(src OutputSource) Output { return Output{src: src} }

// Source returns the reader's form of an output read from a file (see
// SourcedOutput), or nil for an output made in memory.
func (o Output) Source() OutputSource { return o.src }

// Type returns the output_type ("" when it is missing or not a string).
func (o Output) Type() string {
	if o.src != nil {
		return o.src.Type()
	}
	s, _ := o.m["output_type"].(string)
	return s
}

// Map returns the output as generic JSON (see Output): a new map, which
// the caller may change without changing o. An output read from a file is
// decoded anew at each call; keep the map to look at it more than once.
// The error is the reader's, for an output it cannot decode.
func (o Output) Map() (map[string]any, error) {
	switch {
	case o.src != nil:
		return o.src.Decode()
	case o.m == nil:
		return map[string]any{}, nil
	}
	return jsonvalue.CloneObject(o.m), nil
}

// view returns the generic form without copying an output made in
// memory: for reading only.
func (o Output) view() (map[string]any, error) {
	switch {
	case o.src != nil:
		return o.src.Decode()
	case o.m == nil:
		return map[string]any{}, nil
	}
	return o.m, nil
}

// IsReply reports whether o carries a prompt's reply: its metadata marks
// it with a truthy is_ai_res (true, 1, …; see Python's truthiness). An output read
// from a file is decoded to tell.
func (o Output) IsReply() bool {
	m, err := o.view()
	if err != nil {
		return false
	}
	md, _ := m["metadata"].(map[string]any)
	return truthy.Of(md["is_ai_res"])
}

// Equal reports whether o and p are the same JSON value: members in any
// order, numbers within their Go type, json.RawMessage by its bytes (see
// Output). Outputs read from files and not edited compare without being
// decoded (see OutputSource.Same).
func (o Output) Equal(p Output) bool {
	if a, b := o.Source(), p.Source(); a != nil && b != nil {
		if a.Same(b) {
			return true // one source: one type too (an unknown type is not read again)
		}
		if d, ok := a.(differ); ok && d.Differs(b) {
			return false
		}
	}
	if o.Type() != p.Type() {
		return false
	}
	x, err := o.view()
	if err != nil {
		return false
	}
	y, err := p.view()
	if err != nil {
		return false
	}
	return jsonvalue.EqualObjects(x, y)
}

// MarshalJSON writes the output as encoding/json writes its Map (keys
// sorted; NaN and infinities are an error, as in encoding/json).
func (o Output) MarshalJSON() ([]byte, error) {
	m, err := o.view()
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// UnmarshalJSON sets o to the output the JSON object holds. Integers
// become ints (json.Number when too large for one), other numbers float64,
// as in outputs read from a file; encoding/json reads a JSON array of
// outputs into a []Output so.
func (o *Output) UnmarshalJSON(b []byte) error {
	v, err := decodeJSON(b)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("dialog: an output is a JSON object")
	}
	*o = newOutput(m)
	return nil
}

// parseOutputs parses a JSON array of outputs, as the seed's
// mk_message(…, output='[…]') takes them (see MakeOptions.OutputsJSON).
// Integers become ints (json.Number when too large for one), other
// numbers float64, as in outputs read from a file.
func parseOutputs(text string) ([]Output, error) {
	v, err := decodeJSON([]byte(text))
	if err == errTrailing {
		return nil, errors.New("outputs JSON: text after the array")
	}
	if err != nil {
		return nil, fmt.Errorf("outputs JSON: %w", err)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("outputs JSON: not an array")
	}
	outs := make([]Output, len(list))
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("outputs JSON: item %d is not an object", i)
		}
		outs[i] = newOutput(m)
	}
	return outs, nil
}

// errTrailing reports text after a JSON value.
var errTrailing = errors.New("text after the value")

// decodeJSON decodes one JSON value, numbers as numbers gives them.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailing
	}
	return numbers(v), nil
}

// numbers turns the json.Numbers of a decoded value into the types a
// notebook read gives (nbformat.Decode): ints for integers that fit,
// json.Number for larger integers (kept exactly), float64 for the rest.
func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			if i, err := strconv.Atoi(string(v)); err == nil {
				return i
			}
			return v
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v
	case map[string]any:
		for k, x := range v {
			v[k] = numbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = numbers(x)
		}
	}
	return v
}

// streamOutput returns a stream output: name "stdout" or "stderr", and
// its text.
func streamOutput(name, text string) Output {
	return newOutput(map[string]any{"output_type": "stream", "name": name, "text": text})
}

// replyOutput returns the output carrying a prompt's reply.
func replyOutput(reply string) Output {
	return newOutput(map[string]any{
		"output_type": "display_data",
		"metadata":    map[string]any{"is_ai_res": true},
		"data":        map[string]any{"text/markdown": reply},
	})
}
