package nbformat

// Tests that CellType and OutputType have one constant per value of the
// official schema's enums.

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// CellType and OutputType have one constant per value of the official
// schema's cell_type and output_type enums (the reference:
// schema/nbformat.v4.5.schema.json), and the generated structs use them.
func TestTypeEnumsMatchSchema(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../schema/nbformat.v4.5.schema.json")
	if err != nil {
		t.Skipf("no official schema: %v", err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	enums := map[string][]string{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for _, name := range []string{"cell_type", "output_type"} {
					if p, ok := props[name].(map[string]any); ok {
						values, _ := p["enum"].([]any) // none in unrecognized_*: "not"
						for _, e := range values {
							enums[name] = append(enums[name], e.(string))
						}
					}
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(root)
	for name := range enums {
		slices.Sort(enums[name])
	}
	got := map[string][]string{
		"cell_type":   {string(CellTypeCode), string(CellTypeMarkdown), string(CellTypeRaw)},
		"output_type": {string(OutputTypeDisplayData), string(OutputTypeError), string(OutputTypeExecuteResult), string(OutputTypeStream)},
	}
	if diff := cmp.Diff(enums, got); diff != "" {
		t.Errorf("constants (-schema enums +constants):\n%s", diff)
	}
	cells := []Cell{&CodeCell{}, &MarkdownCell{}, &RawCell{}}
	outputs := []Output{&ExecuteResult{}, &DisplayData{}, &Stream{}, &ErrorOutput{}}
	for _, c := range cells {
		if f, _ := reflect.TypeOf(c).Elem().FieldByName("CellType"); f.Type != reflect.TypeFor[CellType]() {
			t.Errorf("%T.CellType is a %v", c, f.Type)
		}
	}
	for _, o := range outputs {
		if f, _ := reflect.TypeOf(o).Elem().FieldByName("OutputType"); f.Type != reflect.TypeFor[OutputType]() {
			t.Errorf("%T.OutputType is a %v", o, f.Type)
		}
	}
}
