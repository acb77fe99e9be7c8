package nbgeneric_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/nbformat"
)

// Importing nbformat sets every function (they are nbformat's own).
func TestSetByNbformat(t *testing.T) {
	if nbgeneric.ToMap == nil ||
		nbgeneric.FromMap == nil || nbgeneric.OutputToMap == nil || nbgeneric.OutputFromMap == nil {
		t.Fatal("a function is not set")
	}
}

// Generic values have the documented Go types, and encode back to the
// same compact JSON (NaN as Python writes it).
func TestDecodeEncode(t *testing.T) {
	in := `{"i":1,"big":123456789012345678901234567890,"f":1.5,"nan":NaN,"s":"é","b":true,"n":null,"a":[1,"x"],"o":{"k":{}}}`
	g, err := nbformat.Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	m := g.(map[string]any)
	want := map[string]any{"i": 1, "big": json.Number("123456789012345678901234567890"), "f": 1.5, "s": "é", "b": true, "n": nil,
		"a": []any{1, "x"}, "o": map[string]any{"k": map[string]any{}}}
	nan := m["nan"]
	delete(m, "nan")
	if f, ok := nan.(float64); !ok || !math.IsNaN(f) {
		t.Errorf("NaN decoded as %#v", nan)
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	m["nan"] = nan
	out, err := nbjson.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := nbformat.Decode(out)
	if err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if f, _ := back.(map[string]any)["nan"].(float64); !math.IsNaN(f) {
		t.Errorf("NaN lost: %s", out)
	}
	if _, err := nbformat.Decode([]byte(`{"a":`)); err == nil {
		t.Error("bad JSON: no error")
	}
}

// Metadata and outputs convert to generic objects and back, unknown keys
// included; a value of the wrong type is an error, not a panic.
func TestMapsAndOutputs(t *testing.T) {
	var md nbformat.CodeCellMetadata
	if err := nbgeneric.FromMap(map[string]any{"tags": []any{"x"}, "custom": map[string]any{"k": 1}}, &md); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal([]string(md.Tags), []string{"x"}) || md.AdditionalProperties["custom"] == nil {
		t.Errorf("FromMap gave %#v", md)
	}
	m, err := nbgeneric.ToMap(&md)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(m["tags"], []any{"x"}) || m["custom"] == nil {
		t.Errorf("ToMap gave %#v", m)
	}
	if _, err := nbgeneric.ToMap(42); err == nil {
		t.Error("ToMap(42): no error")
	}
	if err := nbgeneric.FromMap(map[string]any{}, md); err == nil {
		t.Error("FromMap into a non-pointer: no error")
	}
	o, err := nbgeneric.OutputFromMap(map[string]any{"output_type": "stream", "name": "stdout", "text": "hi\n"})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := o.(*nbformat.Stream)
	if !ok || s.Text.String() != "hi\n" || s.Name != "stdout" {
		t.Fatalf("OutputFromMap gave %#v", o)
	}
	back, err := nbgeneric.OutputToMap(s)
	if err != nil {
		t.Fatal(err)
	}
	if back["output_type"] != "stream" || back["name"] != "stdout" {
		t.Errorf("OutputToMap gave %#v", back)
	}
	if u, _ := nbgeneric.OutputFromMap(map[string]any{"output_type": "future"}); reflect.TypeOf(u) != reflect.TypeFor[*nbformat.UnknownOutput]() {
		t.Errorf("unknown output type gave %T", u)
	}
	if _, err := nbgeneric.OutputToMap("not an output"); err == nil {
		t.Error("OutputToMap of a string: no error")
	}
}
