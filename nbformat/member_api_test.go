package nbformat_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/nbformat"
)

// Member gives the JSON of a member in every form it can be held in, and
// what SetMember stores reads back, in the forms the reader uses and
// written by Marshal as given.
func TestMember(t *testing.T) {
	t.Parallel()
	props := map[string]any{
		"int": 3, "float": 1.5, "str": "é", "bool": true, "null": nil,
		"raw": json.RawMessage(`{"a": [1, 2]}`), "generic": map[string]any{"b": []any{"x"}},
		"nan": math.NaN(), "inf": math.Inf(-1), "func": func() {},
	}
	for key, want := range map[string]string{
		"int": `3`, "float": `1.5`, "str": `"é"`, "bool": `true`, "null": `null`,
		"raw": `{"a": [1, 2]}`, "generic": `{"b":["x"]}`, "nan": `NaN`, "inf": `-Infinity`,
	} {
		got, ok := nbformat.Member(props, key)
		if !ok || string(got) != want {
			t.Errorf("Member %s = %s, %v; want %s", key, got, ok, want)
		}
	}
	for _, key := range []string{"func", "missing"} {
		if got, ok := nbformat.Member(props, key); ok {
			t.Errorf("Member %s = %s, want none", key, got)
		}
	}

	var md map[string]any // nil: SetMember makes it
	for key, v := range map[string]string{"n": " 12 ", "big": "123456789012345678901234567890", "s": `"x"`, "obj": `{"k": [true]}`, "list": `[]`} {
		if err := nbformat.SetMember(&md, key, json.RawMessage(v)); err != nil {
			t.Fatalf("SetMember %s: %v", key, err)
		}
	}
	want := map[string]any{"n": 12, "big": json.Number("123456789012345678901234567890"), "s": "x",
		"obj": json.RawMessage(`{"k": [true]}`), "list": json.RawMessage(`[]`)}
	if d := cmp.Diff(want, md); d != "" {
		t.Errorf("SetMember stored (-want +got):\n%s", d)
	}
	for _, bad := range []string{``, `{`, `1 2`, `nope`} {
		if err := nbformat.SetMember(&md, "bad", json.RawMessage(bad)); err == nil {
			t.Errorf("SetMember %q: no error", bad)
		}
	}
	if _, ok := md["bad"]; ok {
		t.Error("a refused SetMember stored a value")
	}

	// Written as given, read back as the reader holds them.
	nb := nbformat.New()
	nb.Metadata.AdditionalProperties = md
	data, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	back, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	for key := range want {
		a, _ := nbformat.Member(md, key)
		b, _ := nbformat.Member(back.Metadata.AdditionalProperties, key)
		var va, vb any
		if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil || !cmp.Equal(va, vb) {
			t.Errorf("member %s: set %s, read back %s", key, a, b)
		}
	}
}
