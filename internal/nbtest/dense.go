package nbtest

import (
	"fmt"
	"strings"
)

// Dense returns an nbformat 4.5 notebook of one code cell whose bulk is one
// value made of n small values, the worst case for memory per byte of
// file: the value {"x":[0,0,…]} in the notebook metadata ("meta"), in the
// cell's metadata ("cell") or as application/json output data
// ("output"); {"x":[{"a":0},…]} ("objects") or an object of n keys
// {"x":{"k0":0,…}} ("wide") or n nested arrays ({"x":[[…]]}, "deep") in
// the notebook metadata; or n one-character lines ["a","a",…] as the
// cell's source ("source") or as text/plain output data ("text"). Any
// other kind is "meta". internal/cmd/benchgen -dense writes them.
func Dense(kind string, n int) []byte {
	var b strings.Builder
	switch kind {
	case "objects":
		b.WriteString(`{"x":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"a":0}`)
		}
		b.WriteString("]}")
	case "wide":
		b.WriteString(`{"x":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":0`, i)
		}
		b.WriteString("}}")
	case "deep":
		b.WriteString(`{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	case "source", "text":
		b.WriteString(`[` + strings.TrimSuffix(strings.Repeat(`"a",`, n), ",") + `]`)
	default:
		b.WriteString(`{"x":[`)
		b.WriteString(strings.TrimSuffix(strings.Repeat("0,", n), ","))
		b.WriteString("]}")
	}
	value := b.String()
	nbMeta, cellMeta, data, source := "{}", "{}", `{"text/plain":"0"}`, `"x"`
	switch kind {
	case "cell":
		cellMeta = value
	case "output":
		data = `{"application/json":` + value + `,"text/plain":"0"}`
	case "source":
		source = value
	case "text":
		data = `{"text/plain":` + value + `}`
	default:
		nbMeta = value
	}
	return []byte(`{"cells":[{"cell_type":"code","execution_count":1,"id":"c1","metadata":` + cellMeta +
		`,"outputs":[{"data":` + data + `,"execution_count":1,"metadata":{},"output_type":"execute_result"}],"source":` + source + `}],` +
		`"metadata":` + nbMeta + `,"nbformat":4,"nbformat_minor":5}` + "\n")
}
