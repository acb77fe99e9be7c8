package jsontree

// AppendCompact appends the valid JSON text raw without the whitespace
// between its tokens (strings and numbers are kept as written).
func AppendCompact(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch c {
		case ' ', '\n', '\r', '\t':
			i++
		case '"':
			j := stringEnd(raw, i)
			dst = append(dst, raw[i:j]...)
			i = j
		default:
			j := i + 1
			for j < len(raw) {
				c := raw[j]
				if c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '"' {
					break
				}
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the offset just past the string token starting at i
// (an opening quote) in valid JSON text.
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(raw)
}

// EqualIgnoringSpace reports whether the valid JSON texts a and b are the
// same tokens (whitespace between tokens aside), without allocating. Texts
// that differ otherwise may still hold equal values (key order, escapes,
// number spellings).
func EqualIgnoringSpace(a, b []byte) bool {
	i, j := 0, 0
	for {
		i, j = skipWS(a, i), skipWS(b, j)
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		if a[i] == '"' {
			ei, ej := stringEnd(a, i), stringEnd(b, j)
			if string(a[i:ei]) != string(b[j:ej]) {
				return false
			}
			i, j = ei, ej
			continue
		}
		i++
		j++
	}
}

func skipWS(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}
