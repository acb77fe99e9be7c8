package jsontree

import "unicode/utf8"

// ParseFlat is ParseShaped for writers that read every value but need no
// node per element of a long flat array: a container the shape leaves out
// is recorded all the same (and so are its children, by the same rule),
// except an array whose elements are all numbers, strings, booleans or
// nulls, which becomes one lazy node; [Tape.Scalars] reads its elements.
func ParseFlat(data []byte, lim Limits, shape *Shape) (*Tape, error) {
	return parseWith(parser{lim: lim, shape: shape, flat: true}, data)
}

// flatRest is the shape of what ParseFlat records outside the given shape:
// its children get no shape, so the same rule applies to them.
var flatRest = &Shape{}

// flatArray reports whether the array whose '[' was just scanned holds only
// scalars, and whether they are all strings (by a quick look that checks
// nothing: the parse that follows does).
func (p *parser) flatArray() (flat, strs bool) {
	d := p.data
	i := p.pos
	strs = true
	for {
		for i < len(d) && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t') {
			i++
		}
		if i >= len(d) {
			return false, false
		}
		switch d[i] {
		case ']':
			return true, strs
		case '[', '{':
			return false, false
		case '"':
			i = stringEnd(d, i)
		default:
			strs = false
			for i < len(d) && d[i] != ',' && d[i] != ']' && d[i] != ' ' && d[i] != '\n' && d[i] != '\r' && d[i] != '\t' {
				i++
			}
		}
		for i < len(d) && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t') {
			i++
		}
		if i >= len(d) || d[i] != ',' && d[i] != ']' {
			return false, false
		}
		if d[i] == ']' {
			return true, strs
		}
		i++
	}
}

// Scalars calls f, in order, with a node for each element of lazy array i
// made by ParseFlat (elements only numbers, strings, booleans and nulls),
// with Start, End, Kind and Flags set, until f returns false. It reports
// false if the array holds a container (then it was not made by
// ParseFlat).
func (t *Tape) Scalars(i int, f func(n Node) bool) bool {
	d := t.Data[:t.Nodes[i].End]
	pos := int(t.Nodes[i].Start) + 1
	for {
		pos = skipWS(d, pos)
		if pos >= len(d) || d[pos] == ']' {
			return true
		}
		n := Node{Start: int32(pos), Key: -1, KeyEnd: -1}
		switch c := d[pos]; {
		case c == '[' || c == '{':
			return false
		case c == '"':
			end := stringEnd(d, pos)
			n.Kind, n.Flags = String, stringFlags(d[pos+1:end-1])
			pos = end
		default:
			end := pos
			for end < len(d) && d[end] != ',' && d[end] != ']' && d[end] != ' ' && d[end] != '\n' && d[end] != '\r' && d[end] != '\t' {
				end++
			}
			n.Kind, n.Flags = scalarKind(d[pos:end])
			pos = end
		}
		n.End = int32(pos)
		n.Skip = -1
		if !f(n) {
			return true
		}
		pos = skipWS(d, pos)
		if pos < len(d) && d[pos] == ',' {
			pos++
		}
	}
}

// stringFlags returns FlagEscaped and FlagASCII for valid string contents.
func stringFlags(s []byte) uint8 {
	flags := FlagASCII
	for _, c := range s {
		if c == '\\' {
			flags |= FlagEscaped
		} else if c >= utf8.RuneSelf {
			flags &^= FlagASCII
		}
	}
	return flags
}

// scalarKind classifies a valid number or literal token.
func scalarKind(tok []byte) (Kind, uint8) {
	switch string(tok) {
	case "null":
		return Null, 0
	case "true":
		return True, 0
	case "false":
		return False, 0
	case "NaN", "Infinity", "-Infinity":
		return Number, FlagNonFinite
	}
	for _, c := range tok {
		if c == '.' || c == 'e' || c == 'E' {
			return Number, 0
		}
	}
	return Number, FlagInt
}
