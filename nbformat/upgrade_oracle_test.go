package nbformat

// The map-based upgrade of version 2 and 3 worksheets: the oracle of the
// one upgrade, internal/nbv3's.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbv3"
)

// oracleV3Cells returns the compact JSON of the version 4 cells of a
// version 2 or 3 notebook's worksheets, made by upgradeCellV3 from their
// generic JSON: the upgrade of Python nbformat written over maps, the
// oracle of internal/nbv3's upgrade over the tape.
func oracleV3Cells(nb *Notebook) ([]byte, error) {
	extra := nb.AdditionalProperties
	var cells []any
	// Worksheets read from the file are decoded here, into values no one
	// else has: their cells are upgraded in place. Others are copied first.
	_, fresh := extra["worksheets"].(json.RawMessage)
	if ws, ok := decodeRaw(extra["worksheets"]).([]any); ok {
		for i, w := range ws {
			wm, ok := w.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("nbformat: upgrade: /worksheets/%d is not an object", i)
			}
			cs, _ := wm["cells"].([]any) // a worksheet without cells has none
			for j, c := range cs {
				cm, ok := c.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("nbformat: upgrade: /worksheets/%d/cells/%d is not an object", i, j)
				}
				join := joinV3Value
				if nb.Nbformat == 2 {
					join = joinV2Value
				}
				if !fresh {
					cm = jsonvalue.Clone(cm).(map[string]any)
				}
				cells = append(cells, upgradeCellV3(cm, join))
			}
		}
	}
	// Cells go through JSON into the typed layer.
	raw, err := encodeCompact(cells)
	if err != nil {
		return nil, fmt.Errorf("nbformat: upgrade: %w", err)
	}
	return raw, nil
}

var v3MimeAliases = []struct{ alias, mime string }{
	{"text", "text/plain"},
	{"html", "text/html"},
	{"svg", "image/svg+xml"},
	{"png", "image/png"},
	{"jpeg", "image/jpeg"},
	{"latex", "text/latex"},
	{"json", "application/json"},
	{"javascript", "application/javascript"},
}

// joinV3Value is the v3 reader's rejoin of a list of lines.
func joinV3Value(v any) any { return joinLines(v, lines.JoinV3) }

// joinV2Value is the v2 reader's rejoin of a list of lines (stored
// without their newlines).
func joinV2Value(v any) any {
	return joinLines(v, func(ls []string) string { return strings.Join(ls, "\n") })
}

// joinLines applies join to a list of strings; other values, and lists
// holding anything else, are returned as they are.
func joinLines(v any, join func([]string) string) any {
	if list, ok := v.([]any); ok {
		if ls, ok := lines.Strings(list); ok {
			return join(ls)
		}
	}
	return v
}

func upgradeCellV3(cell map[string]any, join func(any) any) map[string]any {
	// The reader: rejoin_lines and strip_transient.
	if cell["cell_type"] == "code" {
		if in, ok := cell["input"]; ok {
			cell["input"] = join(in)
		}
		if outs, ok := cell["outputs"].([]any); ok {
			for _, out := range outs {
				if om, ok := out.(map[string]any); ok {
					for _, k := range nbv3.Texts {
						if x, ok := om[k]; ok {
							om[k] = join(x)
						}
					}
				}
			}
		}
	} else {
		for _, k := range []string{"source", "rendered"} {
			if x, ok := cell[k]; ok {
				cell[k] = join(x)
			}
		}
	}
	delete(cell, "trusted")
	md, ok := cell["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
	}
	delete(md, "trusted")
	cell["metadata"] = md
	cell["id"] = ""
	switch cell["cell_type"] {
	case "code":
		delete(cell, "language")
		if c, ok := cell["collapsed"]; ok {
			md["collapsed"] = c
			delete(cell, "collapsed")
		}
		cell["source"] = popOr(cell, "input", "")
		cell["execution_count"] = popOr(cell, "prompt_number", nil)
		if outs, ok := cell["outputs"].([]any); ok {
			for i, out := range outs {
				if om, ok := out.(map[string]any); ok {
					outs[i] = upgradeOutputV3(om)
				}
			}
		}
	case "heading":
		cell["cell_type"] = "markdown"
		level := 1
		if l, ok := popOr(cell, "level", 1).(int); ok {
			level = min(max(l, 0), 1<<10) // Python: "#" * -1 == ""; nbv3's cap
		}
		src, _ := cell["source"].(string)
		var words []string
		for _, l := range lines.Split(src) {
			words = append(words, strings.TrimRight(l, "\r\n\v\f\x1c\x1d\x1e\u0085\u2028\u2029"))
		}
		cell["source"] = strings.Repeat("#", level) + " " + strings.Join(words, " ")
	case "html":
		cell["cell_type"] = "markdown"
	}
	return cell
}

func popOr(m map[string]any, key string, def any) any {
	if v, ok := m[key]; ok {
		delete(m, key)
		return v
	}
	return def
}

func toMimeKeys(d map[string]any) {
	for _, a := range v3MimeAliases {
		if v, ok := d[a.alias]; ok {
			delete(d, a.alias)
			d[a.mime] = v
		}
	}
}

func upgradeOutputV3(out map[string]any) map[string]any {
	switch out["output_type"] {
	case "pyout", "display_data":
		if _, ok := out["metadata"]; !ok {
			out["metadata"] = map[string]any{}
		}
		if out["output_type"] == "pyout" {
			out["output_type"] = "execute_result"
			out["execution_count"] = popOr(out, "prompt_number", nil)
		}
		data := map[string]any{}
		for k, v := range out {
			switch k {
			case "output_type", "execution_count", "metadata":
			default:
				data[k] = v
				delete(out, k)
			}
		}
		toMimeKeys(data)
		out["data"] = data
		if md, ok := out["metadata"].(map[string]any); ok {
			toMimeKeys(md)
		}
		if s, ok := data["application/json"].(string); ok {
			if v, err := Decode([]byte(s)); err == nil {
				data["application/json"] = v
			}
		}
	case "pyerr":
		out["output_type"] = "error"
	case "stream":
		out["name"] = popOr(out, "stream", "stdout")
	}
	return out
}

// decodeRaw returns x decoded when it is a json.RawMessage (nil when that
// does not parse), else x itself.
func decodeRaw(x any) any {
	if r, ok := x.(json.RawMessage); ok {
		g, err := Decode(r)
		if err != nil {
			return nil
		}
		return g
	}
	return x
}
