package convert

import (
	"reflect"

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
	if !directNotebookMeta || md.Authors != nil || !keptValues(md.AdditionalProperties) {
		return nil, nil, false
	}
	var ks, li map[string]any
	if k := md.Kernelspec; k != nil {
		if !keptValues(k.AdditionalProperties) {
			return nil, nil, false
		}
		ks = extraCopy(k.AdditionalProperties, 2)
		setRequired(ks, "display_name", k.DisplayName)
		setRequired(ks, "name", k.Name)
	}
	if l := md.LanguageInfo; l != nil {
		if !keptValues(l.AdditionalProperties) || l.CodemirrorMode != nil && !keptValue(l.CodemirrorMode) {
			return nil, nil, false
		}
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
