package jsonvalue

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// memberByJSON is the reference: encoding/json decoding the object (the
// last of repeated keys wins, as in Python), and only a JSON string counts.
func memberByJSON(raw []byte, key string) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return "", false
	}
	var s string
	if v := m[key]; len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", false // only a JSON string is a string (null decodes to "")
	}
	return s, true
}

var memberCases = []string{
	`{"output_type": "stream", "name": "stdout", "text": ["a"]}`,
	`{"text": "{\"output_type\": \"x\"}", "output_type" : "execute_result"}`,
	`{"data": {"output_type": "inner"}, "output_type": "display_data"}`,
	`{"a": [1, {"b": "]}"}], "output_type": "e\u0078ecute_result"}`,
	`{"output_\u0074ype": "error"}`,
	`{"output_type": 3}`,
	`{"output_type": null}`,
	`{"output_type": "a", "output_type": "b"}`,
	`{}`, ` { } `, `[]`, `"output_type"`, `{"output_type": "unterminated}`,
	`{"output_type" "x"}`, `{"output_type": "x",}`, `{"x": tru, "output_type": "y"}`,
	"{\"output_type\":\t\"tab\"\r\n}", `{"k": "\\", "output_type": "after backslash"}`,
	`{"output_type": "x"`, `{"output_type": "x"}}`, ``, `{`,
}

func TestMemberStringMatchesEncodingJSON(t *testing.T) {
	for _, c := range memberCases {
		got, gotOK := MemberString([]byte(c), "output_type")
		want, wantOK := memberByJSON([]byte(c), "output_type")
		if wantOK && (got != want || !gotOK) {
			t.Errorf("MemberString(%s) = %q, %v; encoding/json: %q", c, got, gotOK, want)
		}
		if !wantOK && gotOK && json.Valid([]byte(c)) {
			t.Errorf("MemberString(%s) = %q, true; encoding/json finds no single string member", c, got)
		}
	}
}

// Every output and cell of the shared corpus: the same type as
// encoding/json finds.
func TestMemberStringCorpus(t *testing.T) {
	n := 0
	for e, data := range corpus.Sample(t) {
		var nb struct {
			Cells []json.RawMessage `json:"cells"`
		}
		if json.Unmarshal(data, &nb) != nil {
			continue
		}
		check := func(raw json.RawMessage, key string) {
			n++
			got, gotOK := MemberString(raw, key)
			want, wantOK := memberByJSON(raw, key)
			if got != want || gotOK != wantOK {
				t.Errorf("%s: %s: got %q %v, encoding/json %q %v", e.Path, key, got, gotOK, want, wantOK)
			}
		}
		for _, c := range nb.Cells {
			check(c, "cell_type")
			check(c, "id")
			var cell struct {
				Outputs []json.RawMessage `json:"outputs"`
			}
			if json.Unmarshal(c, &cell) == nil {
				for _, o := range cell.Outputs {
					check(o, "output_type")
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d values checked", n)
	}
}

func FuzzMemberString(f *testing.F) {
	for _, c := range memberCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, c string) {
		got, gotOK := MemberString([]byte(c), "output_type")
		if !json.Valid([]byte(c)) {
			return // anything but a panic or a hang is fine
		}
		want, wantOK := memberByJSON([]byte(c), "output_type")
		if got != want || gotOK != wantOK {
			t.Errorf("MemberString(%q) = %q, %v; encoding/json: %q, %v", c, got, gotOK, want, wantOK)
		}
	})
}

// An output of a megabyte whose type is asked: MemberString beside what
// nbformat did before (decoding the object's members with encoding/json).
func BenchmarkMemberString(b *testing.B) {
	raw := []byte(`{"data": {"text/plain": ["` + strings.Repeat(`0123456789 \"quoted\" `, 1<<16) + `"]}, "output_type": "display_data", "metadata": {}}`)
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if s, ok := MemberString(raw, "output_type"); !ok || s != "display_data" {
				b.Fatal(s, ok)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if s, ok := memberByJSON(raw, "output_type"); !ok || s != "display_data" {
				b.Fatal(s, ok)
			}
		}
	})
}
