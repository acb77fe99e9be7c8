// Command flatten derives the schema that go-jsonschema generates the typed
// notebook layer from.
//
// The official nbformat schema is the reference for validation and is kept
// verbatim; go-jsonschema cannot use it directly (it does not resolve nested
// refs such as #/definitions/misc/source, and it turns the oneOf unions into
// map[string]interface{}). This program rewrites a copy, for generation only:
//
//  1. definitions/misc/* move up to definitions/*, and refs follow them;
//  2. the unions and the string-or-lines values become handwritten types of
//     package nbformat (goJSONSchema "type"): cell → Cell, output → Output,
//     multiline_string and source → MultilineString, mimebundle → MimeBundle;
//     their definitions and the unrecognized_* ones (UnknownCell and
//     UnknownOutput are handwritten) are removed;
//  3. the top level becomes the "document" definition (type Document, which
//     nbformat.Notebook embeds) and the root schema loses its type, so
//     go-jsonschema generates no root type of its own; notebook metadata,
//     kernelspec, language_info and an author get definitions of their own,
//     so their Go names are short;
//  4. the definition "error" becomes "error_output" (type ErrorOutput, not
//     a type named Error in a package that also has error values);
//  5. two upstream quirks are corrected for generation: metadata.authors uses
//     "item" where "items" is meant, and jupyter.source_hidden/outputs_hidden
//     stand beside "properties" instead of inside it;
//  6. values with several JSON types (codemirror_mode, scrolled) lose their
//     oneOf/enum so they are generated as interface{};
//  7. every object that has properties gets "additionalProperties":
//     {"type": "object"}, which go-jsonschema renders as an
//     AdditionalProperties map[string]interface{} field: the place where
//     unknown metadata keys, and members the schema does not allow, are kept
//     so that nothing read is ever lost;
//  8. type hints name what go-jsonschema would otherwise name after the
//     path to it: every cell_type member is the handwritten CellType and
//     every output_type member the handwritten OutputType (instead of one
//     generated one-value enum per variant, CodeCellCellType,
//     StreamOutputType, …), and every execution_count is a plain *int
//     (instead of CodeCellExecutionCount and ExecuteResultExecutionCount);
//     the definitions metadata_name, metadata_tags, output_metadata and
//     attachments become string, []string, map[string]any and
//     map[string]MimeBundle (through customTypes, as in step 2), not named
//     types of their own.
//
// Usage: flatten -in nbformat.v4.5.schema.json -out notebook.schema.json
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/nbdialog/ipynb/internal/genfile"
	"os"
	"sort"
	"strings"
)

type obj = map[string]any

// customTypes maps a definition name of the official schema to the
// handwritten Go type of package nbformat that replaces it.
var customTypes = map[string]string{
	"cell":             "Cell",
	"output":           "Output",
	"multiline_string": "MultilineString",
	"source":           "MultilineString",
	"mimebundle":       "MimeBundle",
	// Plain Go types where a named one adds nothing (step 8).
	"attachments":     "map[string]MimeBundle",
	"metadata_name":   "string",
	"metadata_tags":   "[]string",
	"output_metadata": "map[string]any",
}

// typeHints maps a property name to the Go type every property of that
// name is generated as (step 8). CellType and OutputType are handwritten
// in package nbformat, with a constant per value of the schema's enums.
var typeHints = map[string]string{
	"cell_type":       "CellType",
	"output_type":     "OutputType",
	"execution_count": "*int",
}

// dropped definitions have a handwritten counterpart or no use in Go.
var dropped = []string{"unrecognized_cell", "unrecognized_output", "execution_count"}

func main() {
	in := flag.String("in", "", "official nbformat schema (JSON)")
	out := flag.String("out", "", "generation schema to write")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: flatten -in SCHEMA -out GENERATION_SCHEMA")
		os.Exit(2)
	}
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "flatten:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var root obj
	if err := json.Unmarshal(data, &root); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := reshape(root); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return err
	}
	return genfile.Write(out, buf.Bytes())
}

// reshape applies the steps of the package documentation to root, in
// the order they depend on each other.
func reshape(root obj) error {
	defs, ok := root["definitions"].(obj)
	if !ok {
		return errors.New("no definitions")
	}
	if err := flattenMisc(root, defs); err != nil {
		return err
	}
	topLevelDocument(root, defs)
	renameError(root, defs)
	replaceCustomTypes(root, defs)
	fixQuirks(root, defs)
	addTypeHints(root, defs)
	keepUnnamed(root, defs)
	root["description"] = "Generation-only derivative of the official nbformat schema; see internal/cmd/flatten. Not for validation."
	return nil
}

// flattenMisc moves definitions/misc/* up to definitions/* (step 1).
func flattenMisc(root, defs obj) error {
	// 1. flatten misc.
	if misc, ok := defs["misc"].(obj); ok {
		delete(defs, "misc")
		for k, v := range misc {
			if _, clash := defs[k]; clash {
				return fmt.Errorf("definitions/misc/%s clashes with definitions/%s", k, k)
			}
			defs[k] = v
		}
	}
	walk(root, func(o obj) {
		if ref, ok := o["$ref"].(string); ok {
			o["$ref"] = strings.Replace(ref, "#/definitions/misc/", "#/definitions/", 1)
		}
	})
	return nil
}

// topLevelDocument makes the top level the "document" definition, with definitions of their own for notebook metadata, kernelspec, language_info and an author (steps 3 and 5, authors).
func topLevelDocument(root, defs obj) {
	// 3. the top level becomes definitions/document.
	doc := obj{"type": "object"}
	for _, k := range []string{"description", "properties", "required", "additionalProperties"} {
		if v, ok := root[k]; ok {
			doc[k] = v
			delete(root, k)
		}
	}
	delete(root, "type")
	defs["document"] = doc
	if props, ok := doc["properties"].(obj); ok {
		if md, ok := props["metadata"].(obj); ok {
			defs["notebook_metadata"] = md
			props["metadata"] = obj{"$ref": "#/definitions/notebook_metadata"}
			if mprops, ok := md["properties"].(obj); ok {
				for _, name := range []string{"kernelspec", "language_info"} {
					if v, ok := mprops[name].(obj); ok {
						defs[name] = v
						mprops[name] = obj{"$ref": "#/definitions/" + name}
					}
				}
				if authors, ok := mprops["authors"].(obj); ok {
					// 5. "item" is a typo for "items" upstream.
					if item, ok := authors["item"]; ok {
						delete(authors, "item")
						authors["items"] = item
					}
					if item, ok := authors["items"].(obj); ok {
						defs["author"] = item
						authors["items"] = obj{"$ref": "#/definitions/author"}
					}
				}
			}
		}
	}
}

// renameError renames the definition "error" to "error_output" (step 4).
func renameError(root, defs obj) {
	// 4. error → error_output.
	if e, ok := defs["error"]; ok {
		delete(defs, "error")
		defs["error_output"] = e
		walk(root, func(o obj) {
			if o["$ref"] == "#/definitions/error" {
				o["$ref"] = "#/definitions/error_output"
			}
		})
	}
}

// replaceCustomTypes replaces the unions, the string-or-lines values and the plainly typed definitions by Go types (steps 2 and 8).
func replaceCustomTypes(root, defs obj) {
	// 2. handwritten types replace the unions and string-or-lines values.
	walk(root, func(o obj) {
		ref, ok := o["$ref"].(string)
		if !ok {
			return
		}
		name := strings.TrimPrefix(ref, "#/definitions/")
		goType, ok := customTypes[name]
		if !ok {
			return
		}
		delete(o, "$ref")
		if _, ok := o["description"]; !ok {
			if def, ok := defs[name].(obj); ok {
				if d, ok := def["description"]; ok {
					o["description"] = d
				}
			}
		}
		hint := obj{"type": goType}
		if strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "map[") {
			hint["nillable"] = true // nil is absent: no pointer to it
		}
		o["goJSONSchema"] = hint
	})
	for name := range customTypes {
		delete(defs, name)
	}
	for _, name := range dropped {
		delete(defs, name)
	}
}

// fixQuirks moves jupyter.source_hidden/outputs_hidden into properties (step 5) and drops the JSON types of values of several (step 6).
func fixQuirks(root, defs obj) {
	walk(root, func(o obj) {
		props, ok := o["properties"].(obj)
		if !ok {
			return
		}
		// 5. jupyter metadata keys standing beside "properties".
		if _, isJupyter := props["jupyter"]; isJupyter {
			if j, ok := props["jupyter"].(obj); ok {
				jp, _ := j["properties"].(obj)
				for _, k := range []string{"source_hidden", "outputs_hidden"} {
					if v, ok := j[k]; ok {
						if jp == nil {
							jp = obj{}
							j["properties"] = jp
						}
						jp[k] = v
						delete(j, k)
					}
				}
			}
		}
		// 6. values of several JSON types.
		for _, k := range sortedKeys(props) {
			p, ok := props[k].(obj)
			if !ok {
				continue
			}
			if _, ok := p["oneOf"]; ok {
				props[k] = obj{"description": p["description"]}
			} else if enum, ok := p["enum"].([]any); ok && mixedTypes(enum) {
				props[k] = obj{"description": p["description"]}
			}
		}
	})
}

// addTypeHints sets the type hints of step 8.
func addTypeHints(root, defs obj) {
	// 8. type hints.
	walk(root, func(o obj) {
		props, ok := o["properties"].(obj)
		if !ok {
			return
		}
		for name, goType := range typeHints {
			if p, ok := props[name].(obj); ok {
				// go-jsonschema reads a hint only on a value without an
				// enum; the schema in schema/ keeps validating the values.
				delete(p, "enum")
				p["goJSONSchema"] = obj{"type": goType}
			}
		}
	})
}

// keepUnnamed gives every object with properties an additionalProperties (step 7).
func keepUnnamed(root, defs obj) {
	// 7. every struct keeps what it does not name.
	walk(root, func(o obj) {
		if _, ok := o["properties"].(obj); ok {
			delete(o, "patternProperties")
			o["additionalProperties"] = obj{"type": "object"}
		}
	})
}

func mixedTypes(enum []any) bool {
	seen := map[string]bool{}
	for _, v := range enum {
		seen[fmt.Sprintf("%T", v)] = true
	}
	return len(seen) > 1
}

// walk calls f on every object in v, parents before children.
func walk(v any, f func(obj)) {
	switch v := v.(type) {
	case obj:
		f(v)
		for _, k := range sortedKeys(v) {
			walk(v[k], f)
		}
	case []any:
		for _, e := range v {
			walk(e, f)
		}
	}
}

func sortedKeys(o obj) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
