package jsontree

import (
	"fmt"
	"strings"
	"testing"
)

// A member's shape is looked up only when its value is a container: a
// scalar's shape is never used (it gets a node or not by its parent's
// shape alone). Other is called once per container member it decides, and
// never for scalars; the tape is the one a full parse gives, less the
// interiors left lazy. (Before, every member of a recorded object was
// looked up, scalars included: a sixth of the parse of a notebook.)
func TestShapeLookedUpForContainersOnly(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 7, 40} {
		var b strings.Builder
		b.WriteString(`{"o": {`)
		for i := range n {
			fmt.Fprintf(&b, `"s%d": "x", "n%d": %d, "t%d": true, "z%d": null, "e\u0073%d": 1.5, `, i, i, i, i, i, i)
		}
		b.WriteString(`"arr": [1, {"a": 2}], "obj": {"b": [3]}, "\u006fbj2": {}}}`)
		data := []byte(b.String())
		var asked []string
		inner := &Shape{Other: func(k string) *Shape {
			asked = append(asked, k)
			if k == "obj" {
				return All
			}
			return nil
		}}
		shape := &Shape{Members: map[string]*Shape{"o": inner}}
		tp, err := ParseShaped(data, Limits{}, shape)
		if err != nil {
			t.Fatal(err)
		}
		// (obj2's key is escaped: Other is given its decoding.)
		if got, want := strings.Join(asked, ","), "arr,obj,obj2"; got != want {
			t.Errorf("n=%d: Other asked for %q, want %q (the containers only)", n, got, want)
		}
		full, err := Parse(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		// The tape: every member of "o" recorded; "arr" lazy, "obj"
		// recorded whole.
		o := tp.Lookup(Root, "o")
		fo := full.Lookup(Root, "o")
		if tp.Nodes[o].Len != full.Nodes[fo].Len {
			t.Fatalf("n=%d: o has %d members, want %d", n, tp.Nodes[o].Len, full.Nodes[fo].Len)
		}
		for _, k := range []string{"s0", "n0", "t0", "z0", "es0"} {
			j, fj := tp.Lookup(o, k), full.Lookup(fo, k)
			if j < 0 || tp.Nodes[j].Kind != full.Nodes[fj].Kind || string(tp.Raw(j)) != string(full.Raw(fj)) || tp.Nodes[j].Flags != full.Nodes[fj].Flags {
				t.Errorf("n=%d: member %s: %+v, want %+v", n, k, tp.Nodes[j], full.Nodes[fj])
			}
		}
		if j := tp.Lookup(o, "arr"); !tp.Lazy(j) {
			t.Errorf("n=%d: arr not lazy", n)
		}
		if j := tp.Lookup(o, "obj"); tp.Lazy(j) || tp.Nodes[j].Len != 1 {
			t.Errorf("n=%d: obj: %+v, want recorded with its member", n, tp.Nodes[j])
		}
	}
}
