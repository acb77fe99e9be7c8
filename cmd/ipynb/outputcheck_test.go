package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// This file is the tests' own answer to "does any output remain?", built
// on a small JSON reader of its own (not on the code under test). It
// keeps every member of an object, duplicates included, because a
// duplicated "outputs" that a parser ignores is still in the file's bytes.

// jv is a JSON value: kind is one of "null", "bool", "number", "string",
// "array", "object".
type jv struct {
	kind  string
	str   string // string: decoded; number, bool: as written
	keys  []string
	vals  []*jv // object members (in order, duplicates kept) or array elements
	start int   // byte offset
}

// get returns the last member k of an object (the one Python sees).
func (v *jv) get(k string) *jv {
	if v == nil || v.kind != "object" {
		return nil
	}
	var found *jv
	for i, key := range v.keys {
		if key == k {
			found = v.vals[i]
		}
	}
	return found
}

// all returns every member k of an object.
func (v *jv) all(k string) []*jv {
	if v == nil || v.kind != "object" {
		return nil
	}
	var out []*jv
	for i, key := range v.keys {
		if key == k {
			out = append(out, v.vals[i])
		}
	}
	return out
}

type jreader struct {
	s   string
	pos int
}

// parseJSON reads one JSON document in Python's grammar (NaN, Infinity
// and -Infinity allowed).
func parseJSON(data []byte) (*jv, error) {
	r := &jreader{s: string(data)}
	r.s = strings.TrimPrefix(r.s, "\ufeff")
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	r.space()
	if r.pos != len(r.s) {
		return nil, fmt.Errorf("offset %d: trailing data", r.pos)
	}
	return v, nil
}

func (r *jreader) space() {
	for r.pos < len(r.s) && strings.IndexByte(" \t\r\n", r.s[r.pos]) >= 0 {
		r.pos++
	}
}

func (r *jreader) value(depth int) (*jv, error) {
	if depth > 20000 {
		return nil, fmt.Errorf("too deep")
	}
	r.space()
	if r.pos >= len(r.s) {
		return nil, fmt.Errorf("unexpected end")
	}
	v := &jv{start: r.pos}
	switch c := r.s[r.pos]; {
	case c == '{':
		v.kind = "object"
		r.pos++
		r.space()
		if r.pos < len(r.s) && r.s[r.pos] == '}' {
			r.pos++
			return v, nil
		}
		for {
			r.space()
			k, err := r.string()
			if err != nil {
				return nil, err
			}
			r.space()
			if r.pos >= len(r.s) || r.s[r.pos] != ':' {
				return nil, fmt.Errorf("offset %d: want ':'", r.pos)
			}
			r.pos++
			m, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.keys, v.vals = append(v.keys, k), append(v.vals, m)
			r.space()
			if r.pos < len(r.s) && r.s[r.pos] == ',' {
				r.pos++
				continue
			}
			if r.pos < len(r.s) && r.s[r.pos] == '}' {
				r.pos++
				return v, nil
			}
			return nil, fmt.Errorf("offset %d: want ',' or '}'", r.pos)
		}
	case c == '[':
		v.kind = "array"
		r.pos++
		r.space()
		if r.pos < len(r.s) && r.s[r.pos] == ']' {
			r.pos++
			return v, nil
		}
		for {
			e, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, e)
			r.space()
			if r.pos < len(r.s) && r.s[r.pos] == ',' {
				r.pos++
				continue
			}
			if r.pos < len(r.s) && r.s[r.pos] == ']' {
				r.pos++
				return v, nil
			}
			return nil, fmt.Errorf("offset %d: want ',' or ']'", r.pos)
		}
	case c == '"':
		s, err := r.string()
		v.kind, v.str = "string", s
		return v, err
	default:
		for _, lit := range []struct{ word, kind string }{{"null", "null"}, {"true", "bool"}, {"false", "bool"}, {"NaN", "number"}, {"Infinity", "number"}, {"-Infinity", "number"}} {
			if strings.HasPrefix(r.s[r.pos:], lit.word) {
				r.pos += len(lit.word)
				v.kind, v.str = lit.kind, lit.word
				return v, nil
			}
		}
		end := r.pos
		for end < len(r.s) && strings.IndexByte("+-0123456789.eE", r.s[end]) >= 0 {
			end++
		}
		if _, err := strconv.ParseFloat(r.s[r.pos:end], 64); end == r.pos || (err != nil && !strings.Contains(err.Error(), "range")) {
			return nil, fmt.Errorf("offset %d: not a JSON value", r.pos)
		}
		v.kind, v.str = "number", r.s[r.pos:end]
		r.pos = end
		return v, nil
	}
}

// string reads a JSON string token, decoding it with encoding/json.
func (r *jreader) string() (string, error) {
	if r.pos >= len(r.s) || r.s[r.pos] != '"' {
		return "", fmt.Errorf("offset %d: want a string", r.pos)
	}
	end := r.pos + 1
	for end < len(r.s) && r.s[end] != '"' {
		if r.s[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(r.s) {
		return "", fmt.Errorf("offset %d: unterminated string", r.pos)
	}
	var s string
	if err := json.Unmarshal([]byte(r.s[r.pos:end+1]), &s); err != nil {
		return "", fmt.Errorf("offset %d: %v", r.pos, err)
	}
	r.pos = end + 1
	return s, nil
}

// checkRules are the options a stripped notebook is checked against.
type checkRules struct {
	keepOutput, keepCount, stripInitCells bool
}

// pyTruth is Python's bool() of a JSON value.
func pyTruth(v *jv) bool {
	switch v.kind {
	case "bool":
		return v.str == "true"
	case "number":
		if v.str == "NaN" || strings.HasSuffix(v.str, "Infinity") {
			return true
		}
		f, _ := strconv.ParseFloat(v.str, 64) // out of range: ±Inf or 0, as Python's float()
		return f != 0
	case "string":
		return v.str != ""
	case "array", "object":
		return len(v.vals) > 0
	}
	return false
}

// keeps is nbstripout's determine_keep_output (FACTS e.4; contradictory
// cells never reach the checker: strip refuses them).
func (r checkRules) keeps(nb, cell *jv) bool {
	def := r.keepOutput
	if k := nb.get("metadata").get("keep_output"); !def && k != nil {
		def = pyTruth(k)
	}
	md := cell.get("metadata")
	if md == nil || md.kind != "object" {
		return def
	}
	if ic := md.get("init_cell"); ic != nil {
		return pyTruth(ic) && !r.stripInitCells
	}
	tagged := false
	if tags := md.get("tags"); tags != nil {
		switch tags.kind {
		case "array":
			for _, t := range tags.vals {
				tagged = tagged || (t.kind == "string" && t.str == "keep_output")
			}
		case "string":
			tagged = strings.Contains(tags.str, "keep_output")
		case "object":
			tagged = tags.get("keep_output") != nil
		}
	}
	if ko := md.get("keep_output"); ko != nil {
		return pyTruth(ko) || tagged
	}
	return tagged || def
}

// leftovers lists what strip should have removed but remains in a
// notebook: outputs of cells that do not keep them (any value but an
// empty list), counts that are not null, wherever cells are (/cells,
// /worksheets/N/cells, every duplicate of each), and cell lists or cells
// whose shape could hide outputs.
func leftovers(data []byte, r checkRules) ([]string, error) {
	nb, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	var found []string
	cellList := func(cells *jv, ptr string) {
		switch cells.kind {
		case "object":
			found = append(found, ptr+": a cell list that is an object")
			return
		case "array":
		default:
			return
		}
		for i, c := range cells.vals {
			p := fmt.Sprintf("%s/%d", ptr, i)
			if c.kind == "array" {
				found = append(found, p+": a cell that is a list")
			}
			if c.kind != "object" {
				continue
			}
			keep := r.keeps(nb, c)
			for _, outs := range c.all("outputs") {
				if !keep && !(outs.kind == "array" && len(outs.vals) == 0) {
					found = append(found, fmt.Sprintf("%s/outputs: %s at offset %d", p, outs.kind, outs.start))
				}
				if keep && !r.keepCount && outs.kind == "array" {
					for j, o := range outs.vals {
						for _, n := range o.all("execution_count") {
							if n.kind != "null" {
								found = append(found, fmt.Sprintf("%s/outputs/%d/execution_count: %s", p, j, n.str))
							}
						}
					}
				}
			}
			if !r.keepCount {
				for _, k := range []string{"execution_count", "prompt_number"} {
					for _, n := range c.all(k) {
						if n.kind != "null" {
							found = append(found, fmt.Sprintf("%s/%s: %s %q", p, k, n.kind, n.str))
						}
					}
				}
			}
		}
	}
	for _, cells := range nb.all("cells") {
		cellList(cells, "/cells")
	}
	for _, wss := range nb.all("worksheets") {
		if wss.kind == "object" {
			found = append(found, "/worksheets: an object")
		}
		if wss.kind != "array" {
			continue
		}
		for i, ws := range wss.vals {
			if ws.kind == "array" {
				found = append(found, fmt.Sprintf("/worksheets/%d: a list", i))
			}
			for _, cells := range ws.all("cells") {
				cellList(cells, fmt.Sprintf("/worksheets/%d/cells", i))
			}
		}
	}
	return found, nil
}
