package convert

import (
	"maps"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// transientOutMeta are output metadata keys that hosts keep in memory only
// (the seed's _out_meta_skip): they are left out of the outputs of cells
// written from new or changed messages.
var transientOutMeta = []string{"__type"}

// cleanOutMeta returns out without transient output metadata, and whether
// there was any; out itself is not changed.
func cleanOutMeta(out dialog.Output) (map[string]any, bool) {
	md, _ := out["metadata"].(map[string]any)
	found := false
	for _, k := range transientOutMeta {
		if _, ok := md[k]; ok {
			found = true
		}
	}
	if !found {
		return out, false
	}
	clean := maps.Clone(map[string]any(out))
	md = maps.Clone(md)
	for _, k := range transientOutMeta {
		delete(md, k)
	}
	clean["metadata"] = md
	return clean, true
}

// rejoin presents an output's text as Python nbformat holds it in memory:
// stream text and the non-JSON data of display_data and execute_result
// stored as lists of lines are joined into strings.
func rejoin(o map[string]any) dialog.Output {
	join := func(v any) any {
		if list, ok := v.([]any); ok {
			if text, ok := lines.Join(list); ok {
				return text
			}
		}
		return v
	}
	switch o["output_type"] {
	case "execute_result", "display_data":
		if data, ok := o["data"].(map[string]any); ok {
			for k, v := range data {
				if !mimetype.IsJSON(k) {
					data[k] = join(v)
				}
			}
		}
	case "stream":
		if t, ok := o["text"]; ok {
			o["text"] = join(t)
		}
	}
	return o
}
