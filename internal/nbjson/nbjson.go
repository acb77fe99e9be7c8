// Package nbjson writes generic JSON compactly for convert and v3write: jsonvalue.Compact, nbformat's encoder for the rest.
package nbjson

import (
	"errors"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// Encode writes generic values (and any value package nbformat's encoder
// writes: its types, and others through their encoding/json form) as
// compact JSON; unlike encoding/json it writes NaN and ±Inf as Python
// does, and json.Number as it is. Generic values are written by
// jsonvalue.Compact, without reflection; any other value goes whole to
// nbformat's encoder, reached through MimeBundle.SetJSON (whose error is
// the encoder's, wrapped once).
func Encode(v any) ([]byte, error) { return jsonvalue.Compact(v, encodeOther) }

// jsonMIME is a JSON MIME type: SetJSON keeps its value as the encoder
// wrote it.
const jsonMIME = "application/json"

func encodeOther(v any) ([]byte, error) {
	var b nbformat.MimeBundle
	if err := b.SetJSON(jsonMIME, v); err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			return nil, inner
		}
		return nil, err
	}
	raw, _ := b.RawJSON(jsonMIME)
	return raw, nil
}
