package jsontree

// flatElems reads the elements of the array whose '[' was just read, n,
// in one pass when they are all numbers, strings, booleans or nulls: it
// leaves p.pos past the ']' and makes n the lazy node of a flat array
// (End, Len, FlagLazy, FlagStrings when all are strings). At the first
// element that is a container it reports false, with p.pos, the count of
// values and the style summary back as they were, for the array to be
// parsed as any other. The elements are checked and counted as the
// values of a lazy node are, so the errors are those of any parse.
func (p *parser) flatElems(n *Node) (bool, error) {
	// The offset read is held in i, stored to p.pos only for what reads
	// it there (errors, scalars, the style summary of escapes): a field
	// written through p was loaded and stored again around every call.
	d := p.data
	start, values, style := p.pos, p.values, p.style
	strs := true
	var count int32
	i := skipSpace(d, p.pos)
	if i < len(d) && d[i] == ']' {
		i++
	} else {
	elems:
		for {
			if i >= len(d) {
				p.pos = i
				return false, p.unexpected("a value")
			}
			c := d[i]
			if c == '[' || c == '{' {
				p.pos, p.values, p.style = start, values, style
				return false, nil
			}
			if p.over() {
				return false, p.tooMany(i)
			}
			if c == '"' {
				end, flags, bad := scanStr(d, i)
				if end < 0 || end-i-2 > p.maxString {
					p.pos = i
					return false, p.stringError(end, bad)
				}
				if flags&(FlagASCII|flagUEscape) != FlagASCII {
					p.pos = end
					p.noteString(i, flags)
				}
				i = end
			} else {
				strs = false
				p.pos = i
				if _, _, err := p.scalar(c); err != nil {
					return false, err
				}
				i = p.pos
			}
			count++
			i = skipSpace(d, i)
			if i >= len(d) {
				p.pos = i
				return false, p.unexpected("',' or a closing bracket")
			}
			switch d[i] {
			case ',':
				i = skipSpace(d, i+1)
			case ']':
				i++
				break elems
			default:
				p.pos = i
				return false, p.unexpected("',' or ']' after an array element")
			}
		}
	}
	p.pos = i
	n.End = int32(p.pos)
	n.Len = count
	n.Flags |= FlagLazy
	if strs {
		n.Flags |= FlagStrings
	}
	return true, nil
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
