package nbformat_test

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// healOnce reads in, heals it and checks that the result validates and
// that healing it again repairs nothing; it returns the healed notebook
// and the repairs.
func healOnce(t *testing.T, in string) (*nbformat.Notebook, []nbformat.Repair) {
	t.Helper()
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	repairs, err := nbformat.Heal(nb)
	if err != nil {
		t.Fatalf("Heal: %v", err)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Fatalf("healed notebook invalid: %v", err)
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	again, err := nbformat.Unmarshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := nbformat.Heal(again); err != nil || len(r) > 0 {
		t.Errorf("healing the healed notebook again: %v, %v", r, err)
	}
	return nb, repairs
}

// An output of a valid type carrying a member named execution_count that
// its type does not have (a stream's, an error's, a display_data's) is a
// stray member like any other: the output loses it, the code cell keeps
// its source and outputs. Before, the member was never removed, and after
// three passes the whole code cell became a raw cell holding its JSON.
func TestHealStrayOutputCountKeepsCell(t *testing.T) {
	t.Parallel()
	outs := map[string]string{
		"stream":       `{"output_type": "stream", "name": "stdout", "text": "hello\n"`,
		"error":        `{"output_type": "error", "ename": "ValueError", "evalue": "bad value", "traceback": ["line one"]`,
		"display_data": `{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "shown"}`,
	}
	texts := map[string][]string{"stream": {`"hello\n"`}, "error": {"ValueError", "bad value", "line one"}, "display_data": {"shown"}}
	for typ, o := range outs {
		for _, count := range []string{`7`, `"seven"`, `null`, `-1`} {
			for _, extra := range []string{``, `, "stray": "x"`} {
				name := typ + " " + count + extra
				t.Run(name, func(t *testing.T) {
					in := nb45(`{"cell_type": "code", "id": "c1", "metadata": {}, "source": "print(1)", "execution_count": 1, "outputs": [` +
						o + `, "execution_count": ` + count + extra + `}]}`)
					nb, repairs := healOnce(t, in)
					code, ok := nb.Cells[0].(*nbformat.CodeCell)
					if !ok {
						t.Fatalf("cell became %s; repairs: %v", nb.Cells[0].Type(), repairs)
					}
					if got := code.Source.String(); got != "print(1)" {
						t.Errorf("source %q", got)
					}
					if len(code.Outputs) != 1 {
						t.Fatalf("%d outputs", len(code.Outputs))
					}
					js, err := nbformat.Marshal(nb)
					if err != nil {
						t.Fatal(err)
					}
					for _, s := range texts[typ] {
						if !strings.Contains(string(js), s) {
							t.Errorf("healed notebook lost %q:\n%s", s, js)
						}
					}
					if typ == "display_data" && count == "7" {
						// data and an execution count: the shape of an
						// execute_result, which keeps the count.
						if r, ok := code.Outputs[0].(*nbformat.ExecuteResult); !ok || r.ExecutionCount == nil || *r.ExecutionCount != 7 {
							t.Errorf("display_data with count 7 became %#v", code.Outputs[0])
						}
					}
				})
			}
		}
	}
}

// An output whose type is a case variant of a valid one but whose members
// are another type's ("Stream" holding data and metadata, "Error" holding
// text) becomes the type its members fit, so that its content keeps its
// place. Before, "Stream" with data became a stream with empty text: its
// text/plain and its image were gone.
func TestHealCaseVariantTypeFollowsMembers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, out string
		typ       string
		want      []string
	}{
		{"Stream with data", `{"output_type": "Stream", "metadata": {"isolated": true}, "data": {"text/plain": ["<Figure size 640x480>"], "image/png": "iVBORw0KGgo=\n"}}`,
			"display_data", []string{"<Figure size 640x480>", "iVBORw0KGgo=", `"isolated": true`}},
		{"STREAM with data and count", `{"output_type": "STREAM", "execution_count": 3, "metadata": {}, "data": {"text/plain": "3"}}`,
			"execute_result", []string{`"text/plain": "3"`, `"execution_count": 3`}},
		{"Error with text", `{"output_type": "Error", "name": "stderr", "text": "warning: x\n"}`,
			"stream", []string{`"warning: x\n"`, `"name": "stderr"`}},
		{"Display_Data with traceback", `{"output_type": "Display_Data", "ename": "E", "evalue": "v", "traceback": ["tb"]}`,
			"error", []string{`"ename": "E"`, `"evalue": "v"`, `"tb"`}},
		{"stream with data and no text", `{"output_type": "stream", "name": "stdout", "metadata": {}, "data": {"text/plain": "p", "image/svg+xml": "<svg/>"}}`,
			"display_data", []string{`"text/plain": "p"`, `"<svg/>"`}},
		{"error with text only", `{"output_type": "error", "name": "stdout", "text": ["a\n", "b"]}`,
			"stream", []string{`"a\n"`, `"b"`}},
		{"display_data with traceback only", `{"output_type": "display_data", "metadata": {}, "traceback": ["tb1"], "ename": "E"}`,
			"error", []string{`"tb1"`, `"ename": "E"`}},
		{"Stream with text stays stream", `{"output_type": "Stream", "name": "stdout", "text": "t"}`,
			"stream", []string{`"text": "t"`}},
		{"Execute_Result with nothing", `{"output_type": "Execute_Result"}`,
			"execute_result", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			nb, repairs := healOnce(t, nb45(`{"cell_type": "code", "id": "c1", "metadata": {}, "source": "x", "execution_count": 3, "outputs": [`+c.out+`]}`))
			code, ok := nb.Cells[0].(*nbformat.CodeCell)
			if !ok {
				t.Fatalf("cell became %s; repairs: %v", nb.Cells[0].Type(), repairs)
			}
			if got := code.Outputs[0].Type(); string(got) != c.typ {
				t.Errorf("output type %s, want %s; repairs: %v", got, c.typ, repairs)
			}
			js, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.want {
				if !strings.Contains(string(js), s) {
					t.Errorf("healed notebook lost %s:\n%s", s, js)
				}
			}
		})
	}
}

// One member of any output, of any JSON type, under any output type, is
// repaired in its place: no cell or output is ever replaced whole for it
// (the last resort of Heal, for places that still fail after a few
// passes), and the cell stays a code cell with its source.
func TestHealOneBadOutputMemberIsRepairedInPlace(t *testing.T) {
	t.Parallel()
	bases := map[string]string{
		"stream":         `"output_type": "stream", "name": "stdout", "text": "t"`,
		"display_data":   `"output_type": "display_data", "metadata": {}, "data": {"text/plain": "d"}`,
		"execute_result": `"output_type": "execute_result", "execution_count": 2, "metadata": {}, "data": {"text/plain": "r"}`,
		"error":          `"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["tb"]`,
	}
	members := []string{"name", "text", "data", "metadata", "execution_count", "ename", "evalue", "traceback", "prompt_number", "transient", "stray"}
	values := []string{`7`, `-3`, `"s"`, `null`, `true`, `[]`, `["a", 1]`, `{}`, `{"text/plain": 5, "x": "y"}`}
	n := 0
	for typ, base := range bases {
		for _, m := range members {
			for _, v := range values {
				in := nb45(`{"cell_type": "code", "id": "c1", "metadata": {}, "source": "src", "execution_count": 2, "outputs": [{` +
					dropMember(base, m) + `, "` + m + `": ` + v + `}]}`)
				nb, err := nbformat.Unmarshal([]byte(in))
				if err != nil {
					t.Fatal(err)
				}
				repairs, err := nbformat.Heal(nb)
				if err != nil {
					t.Fatal(err)
				}
				n++
				if err := nbformat.Validate(nb); err != nil {
					t.Errorf("%s with %s: %s: still invalid: %v", typ, m, v, err)
				}
				for _, r := range repairs {
					if strings.Contains(r.What, "could not be repaired") {
						t.Errorf("%s with %s: %s: %v", typ, m, v, r)
					}
				}
				if c, ok := nb.Cells[0].(*nbformat.CodeCell); !ok || c.Source.String() != "src" {
					t.Errorf("%s with %s: %s: cell became %s", typ, m, v, nb.Cells[0].Type())
				}
			}
		}
	}
	t.Logf("%d outputs healed", n)
}

// dropMember removes member m ("m": value, without nested commas) from a
// list of members.
func dropMember(members, m string) string {
	var keep []string
	for _, part := range splitMembers(members) {
		if !strings.HasPrefix(strings.TrimSpace(part), `"`+m+`"`) {
			keep = append(keep, part)
		}
	}
	return strings.Join(keep, ",")
}

// splitMembers splits a list of members at the commas outside brackets.
func splitMembers(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// Two members of an output at once, over valid and unrecognized types:
// the output is repaired in place (never the whole cell replaced), the
// result validates, and healing again changes nothing.
func TestHealTwoBadOutputMembersRepairedInPlace(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	bases := []string{
		`"output_type": "stream", "name": "stdout", "text": "t"`,
		`"output_type": "display_data", "metadata": {}, "data": {"text/plain": "d"}`,
		`"output_type": "execute_result", "execution_count": 2, "metadata": {}, "data": {"text/plain": "r"}`,
		`"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["tb"]`,
		`"output_type": "Weird"`,
		`"output_type": "Stream"`,
	}
	members := []string{"name", "text", "data", "metadata", "execution_count", "ename", "evalue", "traceback", "prompt_number", "output_type"}
	values := []string{`7`, `"s"`, `null`, `["a", 1]`, `{"text/plain": 5, "x": "y"}`}
	n := 0
	for _, base := range bases {
		for i, m1 := range members {
			for _, m2 := range members[i+1:] {
				for _, v1 := range values {
					for _, v2 := range values {
						rest := dropMember(dropMember(base, m1), m2)
						if strings.TrimSpace(rest) != "" {
							rest += ", "
						}
						in := nb45(`{"cell_type": "code", "id": "c1", "metadata": {}, "source": "src", "execution_count": 2, "outputs": [{` +
							rest + `"` + m1 + `": ` + v1 + `, "` + m2 + `": ` + v2 + `}]}`)
						nb, err := nbformat.Unmarshal([]byte(in))
						if err != nil {
							t.Fatal(err)
						}
						repairs, err := nbformat.Heal(nb)
						if err != nil {
							t.Fatal(err)
						}
						n++
						if err := nbformat.Validate(nb); err != nil {
							t.Fatalf("%s: still invalid: %v", in, err)
						}
						for _, r := range repairs {
							if strings.Contains(r.What, "could not be repaired") {
								t.Fatalf("%s: %v", in, r)
							}
						}
						out, err := nbformat.Marshal(nb)
						if err != nil {
							t.Fatal(err)
						}
						again, err := nbformat.Unmarshal(out)
						if err != nil {
							t.Fatal(err)
						}
						if r, _ := nbformat.Heal(again); len(r) > 0 {
							t.Fatalf("%s: healing again: %v", in, r)
						}
					}
				}
			}
		}
	}
	if n != 6750 {
		t.Errorf("%d notebooks, want 6750", n)
	}
}
