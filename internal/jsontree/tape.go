// Package jsontree is the lossless JSON layer under package nbformat: a fast
// validating scanner that records values' byte spans in a flat tape,
// string and number helpers, and the writer used for new content. A shaped
// parse (ParseShaped) records only the interiors its caller
// reads, one lazy node standing for each other container, so that memory
// follows the structure read rather than the number of values; the whole
// input is checked either way.
//
// The tape never copies the input: nodes are offsets into it, so the bytes of
// any unchanged value can be written back exactly as they were read. The
// grammar is Python's json module (what nbformat reads): RFC 8259 plus the
// literals NaN, Infinity and -Infinity; strings must be valid UTF-8 and must
// not contain raw control characters.
package jsontree

// Kind is the JSON type of a node.
type Kind uint8

// The kinds of JSON values.
const (
	Invalid Kind = iota
	Null
	False
	True
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid", "null", "boolean", "boolean", "number", "string", "array", "object"}

// String names the kind as JSON Schema does ("boolean" for both literals).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Node flags.
const (
	// FlagEscaped marks a string (or a member key, see FlagKeyEscaped) that
	// contains backslash escapes.
	FlagEscaped uint8 = 1 << iota
	// FlagKeyEscaped marks an object member whose key contains escapes.
	FlagKeyEscaped
	// FlagInt marks a number written without fraction or exponent.
	FlagInt
	// FlagNonFinite marks NaN, Infinity and -Infinity.
	FlagNonFinite
	// FlagASCII marks a string whose bytes are all ASCII.
	FlagASCII
	// FlagLazy marks an array or object whose children have no nodes
	// (see [Shape]); its Len still counts them.
	FlagLazy
	// FlagStrings marks a lazy array of a Flat shape
	// whose elements are all strings.
	FlagStrings
)

// A Node is one JSON value on the tape.
type Node struct {
	Start  int32 // offset of the value's first byte
	End    int32 // offset just past the value's last byte
	Key    int32 // object members: offset of the key's opening quote; -1 otherwise
	KeyEnd int32 // object members: offset just past the key's closing quote
	Skip   int32 // index of the first node after this node's subtree
	Len    int32 // arrays and objects: number of children
	Kind   Kind
	Flags  uint8
}

// A Tape is a parsed JSON document: its nodes in document order (a
// container is followed by its children) over the bytes they came from.
type Tape struct {
	Data  []byte
	Nodes []Node
	// BOM reports a UTF-8 byte-order mark before the root value. The root
	// node's Start and End delimit the value; Data[:Start] is the leading
	// whitespace (after the mark) and Data[End:] the trailing whitespace.
	BOM bool
	// LazyStyle summarizes the interiors of lazy nodes.
	LazyStyle LazyStyle
	lazy      int // number of lazy nodes
}

// Root is the index of the root node.
const Root = 0

// Raw returns the bytes of node i.
func (t *Tape) Raw(i int) []byte {
	n := &t.Nodes[i]
	return t.Data[n.Start:n.End]
}

// KeyRaw returns the key token (with quotes) of member node i.
func (t *Tape) KeyRaw(i int) []byte {
	n := &t.Nodes[i]
	return t.Data[n.Key:n.KeyEnd]
}

// KeyString returns the decoded key of member node i.
func (t *Tape) KeyString(i int) string {
	n := &t.Nodes[i]
	raw := t.Data[n.Key+1 : n.KeyEnd-1]
	if n.Flags&FlagKeyEscaped == 0 {
		return string(raw)
	}
	return string(AppendUnescaped(nil, raw))
}

// KeyIs reports whether member node i has the key k.
func (t *Tape) KeyIs(i int, k string) bool {
	n := &t.Nodes[i]
	raw := t.Data[n.Key+1 : n.KeyEnd-1]
	if n.Flags&FlagKeyEscaped == 0 {
		return string(raw) == k
	}
	return EqualUnescaped(raw, k)
}

// Children calls f with the index of each child of container i, in order,
// until f returns false. Like every accessor of children it panics with a
// [*LazyError] for a lazy node.
func (t *Tape) Children(i int, f func(j int) bool) {
	t.mustExpanded(i)
	n := t.Nodes[i]
	j := i + 1
	for c := int32(0); c < n.Len; c++ {
		if !f(j) {
			return
		}
		j = int(t.Nodes[j].Skip)
	}
}

// FirstChild returns the index of the first child of container i (which
// is meaningful only when its Len is not 0); [Tape.Next] steps to the
// following ones. It panics with a [*LazyError] for a lazy node.
func (t *Tape) FirstChild(i int) int {
	t.mustExpanded(i)
	return i + 1
}

// Next returns the index of the node after child j's subtree: the next
// child of j's parent, if j is not its last.
func (t *Tape) Next(j int) int { return int(t.Nodes[j].Skip) }

// ChildList returns the indices of the children of container i.
func (t *Tape) ChildList(i int) []int {
	t.mustExpanded(i)
	n := t.Nodes[i]
	out := make([]int, 0, n.Len)
	j := i + 1
	for c := int32(0); c < n.Len; c++ {
		out = append(out, j)
		j = int(t.Nodes[j].Skip)
	}
	return out
}

// Lookup returns the member of object i with key k, or -1. When a key occurs
// more than once the last occurrence wins, as in Python's json module.
func (t *Tape) Lookup(i int, k string) int {
	found := -1
	t.Children(i, func(j int) bool {
		if t.KeyIs(j, k) {
			found = j
		}
		return true
	})
	return found
}

// Str returns the decoded string of string node i.
func (t *Tape) Str(i int) string {
	n := &t.Nodes[i]
	raw := t.Data[n.Start+1 : n.End-1]
	if n.Flags&FlagEscaped == 0 {
		return string(raw)
	}
	return UnescapeString(raw)
}

// StrBytes returns the decoded string of string node i as bytes: its
// bytes in Data (not to be modified) when it has no escapes, else a
// decoded copy.
func (t *Tape) StrBytes(i int) []byte {
	n := &t.Nodes[i]
	raw := t.Data[n.Start+1 : n.End-1]
	if n.Flags&FlagEscaped == 0 {
		return raw
	}
	return AppendUnescaped(nil, raw)
}

// StrIs reports whether string node i decodes to s, without allocating.
func (t *Tape) StrIs(i int, s string) bool {
	n := &t.Nodes[i]
	if n.Kind != String {
		return false
	}
	raw := t.Data[n.Start+1 : n.End-1]
	if n.Flags&FlagEscaped == 0 {
		return string(raw) == s
	}
	return EqualUnescaped(raw, s)
}

// IsMultiline reports whether node j is a string or an array of strings
// (a lazy array is expanded when its flags do not tell).
func (t *Tape) IsMultiline(j int) bool {
	n := &t.Nodes[j]
	if n.Kind == String {
		return true
	}
	if n.Kind != Array {
		return false
	}
	if t.Lazy(j) {
		if n.Flags&FlagStrings != 0 {
			return true
		}
		sub, err := t.Expand(j) // not lines of text after all
		return err == nil && sub.IsMultiline(Root)
	}
	k := j + 1
	for range n.Len {
		if t.Nodes[k].Kind != String {
			return false
		}
		k = t.Next(k)
	}
	return true
}
