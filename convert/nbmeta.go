package convert

import (
	"reflect"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// A notebook's metadata read without reflection: NotebookMetadata and the
// Kernelspec and LanguageInfo it points to, field by field; what
// fastStruct gives by their plans, cheaper (every dialog read reads one).

// nbMetaFields is the number of fields of NotebookMetadata, Kernelspec
// and LanguageInfo that notebookMeta knows: a field added to one of them
// makes directNotebookMeta false, and the metadata is then read by the
// plans (TestNotebookMetaKnowsEveryField fails until notebookMeta learns
// it).
var nbMetaFields = [3]int{6, 3, 6}

var (
	kernelspecType   = reflect.TypeFor[nbformat.Kernelspec]()
	languageInfoType = reflect.TypeFor[nbformat.LanguageInfo]()
	// directNotebookMeta: notebookMeta knows every field of the types.
	directNotebookMeta = notebookMetaType.NumField() == nbMetaFields[0] &&
		kernelspecType.NumField() == nbMetaFields[1] && languageInfoType.NumField() == nbMetaFields[2]
)

// notebookMeta is fastMeta of a notebook's metadata: ok is false when
// directNotebookMeta is, when authors are set (ToMap converts them), or
// when a value is not one ToMap keeps as it is (keptValue).
func notebookMeta(md *nbformat.NotebookMetadata) (meta, same map[string]any, ok bool) {
	if !notebookMetaReads(md) {
		return nil, nil, false
	}
	var ks, li map[string]any
	if k := md.Kernelspec; k != nil {
		ks = extraCopy(k.AdditionalProperties, 2)
		setRequired(ks, "display_name", k.DisplayName)
		setRequired(ks, "name", k.Name)
	}
	if l := md.LanguageInfo; l != nil {
		li = extraCopy(l.AdditionalProperties, 5)
		if l.CodemirrorMode != nil {
			li["codemirror_mode"] = l.CodemirrorMode
		}
		setString(li, "file_extension", l.FileExtension)
		setString(li, "mimetype", l.Mimetype)
		setRequired(li, "name", l.Name)
		setString(li, "pygments_lexer", l.PygmentsLexer)
	}
	extra := md.AdditionalProperties
	if ks == nil && li == nil && md.OrigNbformat == nil && md.Title == nil {
		// No typed member: the extra keys alone, shared as fastStruct
		// shares them (see metaMap).
		return extraCopy(extra, 0), extra, true
	}
	meta = extraCopy(extra, 4)
	if ks != nil {
		meta["kernelspec"] = ks
	}
	if li != nil {
		meta["language_info"] = li
	}
	if md.OrigNbformat != nil {
		meta["orig_nbformat"] = *md.OrigNbformat
	}
	setString(meta, "title", md.Title)
	return meta, nil, true
}

// notebookMetaReads reports whether notebookMeta reads md: it knows
// every field (directNotebookMeta), no authors are set, and every value
// is one ToMap keeps as it is.
func notebookMetaReads(md *nbformat.NotebookMetadata) bool {
	if !directNotebookMeta || md.Authors != nil || !keptValues(md.AdditionalProperties) {
		return false
	}
	if k := md.Kernelspec; k != nil && !keptValues(k.AdditionalProperties) {
		return false
	}
	l := md.LanguageInfo
	return l == nil || keptValues(l.AdditionalProperties) && (l.CodemirrorMode == nil || keptValue(l.CodemirrorMode))
}

// keptValues reports whether ToMap keeps every value of extra as it is.
func keptValues(extra map[string]any) bool {
	for _, x := range extra {
		if !keptValue(x) {
			return false
		}
	}
	return true
}

// extraCopy returns a copy of extra with room for more keys.
func extraCopy(extra map[string]any, more int) map[string]any {
	m := make(map[string]any, len(extra)+more)
	for k, x := range extra {
		m[k] = x
	}
	return m
}

// setRequired sets a required string member as fastStruct does: always,
// but an empty one does not shadow an extra key of its name.
func setRequired(m map[string]any, key, s string) {
	if s != "" {
		m[key] = s
	} else if _, ok := m[key]; !ok {
		m[key] = ""
	}
}

// setString sets an optional string member when it is set.
func setString(m map[string]any, key string, s *string) {
	if s != nil {
		m[key] = *s
	}
}

// sameNotebookMeta is planEqual of a notebook's metadata md (which
// notebookMeta reads: directNotebookMeta, no authors, values kept), field
// by field: whether m equals notebookMeta's object of md, as
// jsonvalue.Equal compares them.
func sameNotebookMeta(m map[string]any, md *nbformat.NotebookMetadata) bool {
	extra := md.AdditionalProperties
	n := len(extra) // the keys of notebookMeta's object
	typed := func(key string, eq bool) bool {
		if _, inExtra := extra[key]; !inExtra {
			n++
		}
		return eq
	}
	if k := md.Kernelspec; k != nil {
		ks, ok := jsonvalue.Object(m["kernelspec"])
		if !typed("kernelspec", ok && sameInner(ks, k.AdditionalProperties, [][2]string{{"display_name", k.DisplayName}, {"name", k.Name}}, nil)) {
			return false
		}
	}
	if l := md.LanguageInfo; l != nil {
		li, ok := jsonvalue.Object(m["language_info"])
		opt := [...]optMember{{key: "codemirror_mode", v: l.CodemirrorMode}, {key: "file_extension", s: l.FileExtension},
			{key: "mimetype", s: l.Mimetype}, {key: "pygments_lexer", s: l.PygmentsLexer}}
		if !typed("language_info", ok && sameInner(li, l.AdditionalProperties, [][2]string{{"name", l.Name}}, opt[:])) {
			return false
		}
	}
	if md.OrigNbformat != nil {
		v, has := m["orig_nbformat"]
		if !typed("orig_nbformat", has && sameInt(v, *md.OrigNbformat)) {
			return false
		}
	}
	if md.Title != nil {
		v, has := m["title"]
		if !typed("title", has && sameString(v, *md.Title)) {
			return false
		}
	}
	if len(m) != n {
		return false
	}
	for k, x := range extra {
		switch {
		case k == "kernelspec" && md.Kernelspec != nil, k == "language_info" && md.LanguageInfo != nil,
			k == "orig_nbformat" && md.OrigNbformat != nil, k == "title" && md.Title != nil:
			continue // shadowed by the typed member
		}
		if v, has := m[k]; !has || !sameValue(v, x) {
			return false
		}
	}
	return true
}

// optMember is an optional member of a Kernelspec or LanguageInfo: a
// string (s) or a kept value (v), not set while nil.
type optMember struct {
	key string
	s   *string
	v   any
}

// set reports whether the member is set.
func (o *optMember) set() bool { return o.s != nil || o.v != nil }

// equal reports whether got equals the member's value, as
// jsonvalue.Equal(got, value) does.
func (o *optMember) equal(got any) bool {
	if o.s != nil {
		return sameString(got, *o.s)
	}
	return sameValue(got, o.v)
}

// sameInner reports whether m equals the object notebookMeta makes of a
// Kernelspec or LanguageInfo: its extra keys, its required strings (req:
// key and value; an empty one does not shadow an extra key of its name)
// and its optional members set (opt).
func sameInner(m, extra map[string]any, req [][2]string, opt []optMember) bool {
	n := len(extra)
	shadows := func(key string) bool {
		for _, r := range req {
			if r[0] == key {
				return r[1] != ""
			}
		}
		for i := range opt {
			if opt[i].key == key {
				return opt[i].set()
			}
		}
		return false
	}
	for _, r := range req {
		_, inExtra := extra[r[0]]
		if r[1] == "" && inExtra {
			continue // the extra key's value stands
		}
		if !inExtra {
			n++
		}
		if v, has := m[r[0]]; !has || !sameString(v, r[1]) {
			return false
		}
	}
	for i := range opt {
		o := &opt[i]
		if !o.set() {
			continue
		}
		if _, inExtra := extra[o.key]; !inExtra {
			n++
		}
		if v, has := m[o.key]; !has || !o.equal(v) {
			return false
		}
	}
	if len(m) != n {
		return false
	}
	for k, x := range extra {
		if shadows(k) {
			continue
		}
		if v, has := m[k]; !has || !sameValue(v, x) {
			return false
		}
	}
	return true
}

// sameString is jsonvalue.Equal(v, s), without making s a value when v
// is a string.
func sameString(v any, s string) bool {
	if y, ok := v.(string); ok {
		return y == s
	}
	return jsonvalue.Equal(v, s)
}

// sameInt is jsonvalue.Equal(v, n), without making n a value when v is
// an int.
func sameInt(v any, n int) bool {
	if y, ok := v.(int); ok {
		return y == n
	}
	return jsonvalue.Equal(v, n)
}
