package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// testShape keeps "keep" (and its elements' members named "keep") and the
// elements of arrays under it; everything else is lazy.
func testShape() *Shape {
	s := &Shape{}
	s.Members = map[string]*Shape{"keep": s}
	s.Elem = &Shape{Members: map[string]*Shape{"keep": s}}
	return s
}

// subtree returns the nodes of the subtree rooted at i, offsets kept.
func subtree(t *Tape, i int) []Node {
	return t.Nodes[i:t.Nodes[i].Skip]
}

// A shaped parse records the nodes the shape asks for, each exactly as a
// full parse does, and one lazy node per other container, whose Expand is
// the full parse of its subtree.
func TestParseShapedLazyNodes(t *testing.T) {
	t.Parallel()
	data := []byte(` {"keep": [1, [2, {"a": 3}], {"keep": {"x": [4]}, "y": [5, 6]}], "skip": {"a": [1, 2, 3], "b": "é"}, "n": 1} `)
	full, err := Parse(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := ParseShaped(data, Limits{}, testShape())
	if err != nil {
		t.Fatal(err)
	}
	if !lazy.HasLazy() || full.HasLazy() {
		t.Fatalf("HasLazy: shaped %v, full %v", lazy.HasLazy(), full.HasLazy())
	}
	// Every recorded node is the full parse's node of the same bytes; a lazy
	// node differs only by its flag and by having no children.
	byStart := map[[2]int32]int{}
	for i, n := range full.Nodes {
		byStart[[2]int32{n.Start, n.End}] = i
	}
	var lazyKeys []string
	for i, n := range lazy.Nodes {
		j, ok := byStart[[2]int32{n.Start, n.End}]
		if !ok {
			t.Fatalf("node %d (%s) has no counterpart", i, lazy.Raw(i))
		}
		m := full.Nodes[j]
		if n.Kind != m.Kind || n.Len != m.Len || n.Key != m.Key || n.Flags&^FlagLazy != m.Flags {
			t.Errorf("node %d %s: %+v, full parse %+v", i, lazy.Raw(i), n, m)
		}
		if lazy.Lazy(i) {
			if n.Skip != int32(i)+1 {
				t.Errorf("lazy node %d skips to %d", i, n.Skip)
			}
			k := ""
			if n.Key >= 0 {
				k = lazy.KeyString(i)
			}
			lazyKeys = append(lazyKeys, k+"="+string(lazy.Raw(i)))
			sub, err := lazy.Expand(i)
			if err != nil {
				t.Fatal(err)
			}
			want := subtree(full, j)
			if len(sub.Nodes) != len(want) {
				t.Fatalf("Expand(%d): %d nodes, want %d", i, len(sub.Nodes), len(want))
			}
			for k := range want {
				g, w := sub.Nodes[k], want[k]
				w.Skip -= int32(j)
				if k == 0 {
					w.Key, w.KeyEnd, w.Flags = -1, -1, w.Flags&^FlagKeyEscaped
				}
				if g != w {
					t.Errorf("Expand(%d) node %d = %+v, want %+v", i, k, g, w)
				}
			}
		}
	}
	got := strings.Join(lazyKeys, " ")
	if got != `={"a": 3} x=[4] y=[5, 6] skip={"a": [1, 2, 3], "b": "é"}` {
		t.Errorf("lazy nodes: %s", got)
	}
	func() {
		defer func() {
			var le *LazyError
			r := recover()
			if err, ok := r.(error); !ok || !errors.As(err, &le) {
				t.Errorf("Children of a lazy node: recovered %v, want a *LazyError", r)
			}
		}()
		lazy.Children(lazy.Lookup(Root, "skip"), func(int) bool { return true })
	}()
	if f, err := lazy.Full(); err != nil || f.HasLazy() || len(f.Nodes) != len(full.Nodes) {
		t.Errorf("Full: %v, %d nodes, want %d", err, len(f.Nodes), len(full.Nodes))
	}
}

// Lazy or not, the input is checked the same: every syntax error and limit
// is reported at the same offset with the same message.
func TestParseShapedErrorsAsParse(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`{"a": [1, 2,]}`, `{"a": {"b" 1}}`, `{"a": [1, 2}`, `{"a": {"b": [tru]}}`, `{"a": "\x01"}`,
		`{"a": ["\ud800 \q"]}`, `{"a": [01]}`, `{"a": [1.]}`, `{"a": [-]}`, `{"a": {"b": 1,}}`, `{"a": [1] ]`,
		`{"a": [[[[[[1]]]]]]}`, `{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}`, `{"a": ["` + strings.Repeat("x", 40) + `"]}`,
		`{"a": {"k\u00e9": [NaN, -Infinity, 1e5]}}`, "{\"a\": [\"\xff\"]}", `{"a": [1, 2`, `[{"a": 1}, "x"] x`,
	}
	lim := Limits{MaxDepth: 4, MaxNodes: 9, MaxString: 30}
	for _, in := range inputs {
		for _, shape := range []*Shape{nil, {}, testShape()} {
			_, err1 := Parse([]byte(in), lim)
			tp, err2 := ParseShaped([]byte(in), lim, shape)
			var e1, e2 *SyntaxError
			errors.As(err1, &e1)
			errors.As(err2, &e2)
			if (e1 == nil) != (e2 == nil) || e1 != nil && *e1 != *e2 {
				t.Errorf("%s (shape %v): Parse %v, ParseShaped %v", in, shape, err1, err2)
			}
			if err2 == nil && shape == nil && !tp.Lazy(Root) && tp.Nodes[Root].Kind >= Array {
				t.Errorf("%s: a nil shape keeps the root", in)
			}
		}
	}
}

// The style of lazy interiors is summarized: unsorted keys, raw and
// escaped non-ASCII, what \u escapes show.
func TestParseShapedLazyStyle(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]LazyStyle{
		`{"x": {"a": 1, "b": {"c": 1, "d": 2}}}`:     {},
		`{"x": {"b": 1, "a": 2}}`:                    {Unsorted: true},
		`{"x": [{"a": 1}, {"z": {"d": 1, "c": 2}}]}`: {Unsorted: true},
		`{"x": ["é"]}`:                               {RawNonASCII: true},
		`{"x": ["\u00E9"]}`:                          {EscapedNonASCII: true, Escaping: Escaping{Upper: true}},
		`{"x": ["\u003c", "\u2028"]}`:                {EscapedNonASCII: true, Escaping: Escaping{HTML: true, LineSep: true}},
		`{"x": {"\u00e9": 1, "a": 2}}`:               {Unsorted: true},
		`{"b": 1, "a": ["é"]}`:                       {RawNonASCII: true}, // the root is recorded: its order is not summarized
	} {
		tp, err := ParseShaped([]byte(in), Limits{}, &Shape{})
		if err != nil {
			t.Fatal(err)
		}
		if tp.LazyStyle != want {
			t.Errorf("%s: %+v, want %+v", in, tp.LazyStyle, want)
		}
	}
}

// Parsing with a shape that keeps little records a number of nodes that
// does not grow with the values inside lazy containers.
func TestParseShapedNodesBounded(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1000, 100000} {
		data := []byte(`{"keep": [1, 2], "x": [` + strings.TrimSuffix(strings.Repeat("0,", n), ",") + `]}`)
		tp, err := ParseShaped(data, Limits{}, testShape())
		if err != nil {
			t.Fatal(err)
		}
		if len(tp.Nodes) != 5 || tp.Nodes[4].Len != int32(n) {
			t.Errorf("%d values: %d nodes, lazy Len %d", n, len(tp.Nodes), tp.Nodes[4].Len)
		}
	}
}

func TestAppendCompactAndEqualIgnoringSpace(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{ "a" : [ 1 , 2 ] , "b\" c" : "x y" }`, "[\n 1,\n \"\\\\\" ,\r\n\t{}\n]", `"a b"`, ` 12 `, `[ NaN , -Infinity ]`,
	} {
		got := AppendCompact(nil, []byte(in))
		var want bytes.Buffer
		if json.Valid([]byte(in)) {
			if err := json.Compact(&want, []byte(in)); err != nil {
				t.Fatal(err)
			}
			if string(got) != want.String() {
				t.Errorf("AppendCompact(%q) = %q, want %q", in, got, want.String())
			}
		}
		if !EqualIgnoringSpace([]byte(in), got) || !EqualIgnoringSpace(got, []byte(in)) {
			t.Errorf("EqualIgnoringSpace(%q, %q) = false", in, got)
		}
	}
	for _, pair := range [][2]string{{`[1,2]`, `[1,3]`}, {`"a b"`, `"ab"`}, {`[1]`, `[1,2]`}, {`{"a":1}`, `{"a" :1 ,}`}} {
		if EqualIgnoringSpace([]byte(pair[0]), []byte(pair[1])) {
			t.Errorf("EqualIgnoringSpace(%q, %q) = true", pair[0], pair[1])
		}
	}
}

// FuzzParseShaped: a shaped parse accepts and refuses exactly what Parse
// does, and its lazy nodes expand to Parse's subtrees.
func FuzzParseShaped(f *testing.F) {
	for _, s := range []string{`{"keep": [1, {"keep": [2]}], "x": {"a": [1]}}`, `[[1], {"keep": 2}]`, `{"a": [1, 2,]}`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxDepth: 50, MaxNodes: 1000}
		full, err1 := Parse(data, lim)
		lazy, err2 := ParseShaped(data, lim, testShape())
		if fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("Parse: %v, ParseShaped: %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		j := 0
		for i, n := range lazy.Nodes {
			for full.Nodes[j].Start != n.Start || full.Nodes[j].End != n.End {
				j++
			}
			if lazy.Lazy(i) {
				sub, err := lazy.Expand(i)
				if err != nil || len(sub.Nodes) != int(full.Nodes[j].Skip)-j {
					t.Fatalf("Expand(%d): %v, %d nodes, want %d", i, err, len(sub.Nodes), int(full.Nodes[j].Skip)-j)
				}
			}
		}
	})
}

// checkFlat compares ParseShaped of a Flat shape with Parse on data: the
// same errors, and every lazy node an array of the full parse whose
// elements are all scalars.
func checkFlat(t *testing.T, data []byte, shape *Shape) {
	lim := Limits{MaxDepth: 50, MaxNodes: 1000}
	full, err1 := Parse(data, lim)
	flat, err2 := ParseShaped(data, lim, shape)
	if fmt.Sprint(err1) != fmt.Sprint(err2) {
		t.Fatalf("%q: Parse: %v, ParseShaped: %v", data, err1, err2)
	}
	if err1 != nil {
		return
	}
	j := 0
	for i, n := range flat.Nodes {
		for full.Nodes[j].Start != n.Start || full.Nodes[j].End != n.End || full.Nodes[j].Kind != n.Kind {
			j++
		}
		if !flat.Lazy(i) || !flatShaped(shape, flat, i) {
			continue
		}
		if n.Kind != Array {
			t.Fatalf("%q: lazy %s at %d", data, n.Kind, n.Start)
		}
		for _, c := range full.ChildList(j) {
			if k := full.Nodes[c].Kind; k == Array || k == Object {
				t.Fatalf("%q: flat array at %d holds a container", data, n.Start)
			}
		}
		if int(n.Len) != len(full.ChildList(j)) {
			t.Fatalf("%q: flat array at %d: Len %d, want %d", data, n.Start, n.Len, len(full.ChildList(j)))
		}
	}
}

// flatShaped reports whether lazy node i of tp is where shape asks for a
// flat array (the root, or a member of the root object, in these tests).
func flatShaped(shape *Shape, tp *Tape, i int) bool {
	if i == Root {
		return shape.Flat
	}
	if tp.Nodes[i].Key < 0 {
		return false
	}
	m := shape.Members[tp.KeyString(i)]
	return m != nil && m.Flat
}

func TestParseFlatShape(t *testing.T) {
	t.Parallel()
	members := &Shape{Members: map[string]*Shape{"keep": {Flat: true}, "x": {Flat: true}, "y": {Flat: true}, "z": {Flat: true}, "a": {Flat: true}}}
	for _, s := range []string{
		`{"keep": [1, 2], "x": [1, -0, 2.5e3, "a\"b", "é", true, false, null, NaN, -Infinity], "y": [[1], {"a": [2, 3]}], "z": []}`,
		`[ 1 , "x" , [ ] , { } ]`, `[1, "x", true]`, `{"a": [1, 2,]}`, `{"a": ["x" "y"]}`, `{"a": [1 2]}`, `{"a": [tru]}`, `{"a": ["\q"]}`,
	} {
		checkFlat(t, []byte(s), members)
		checkFlat(t, []byte(s), &Shape{Flat: true})
	}
}
