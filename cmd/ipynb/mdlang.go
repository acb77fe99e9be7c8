package main

import (
	"encoding/json"
	"unicode"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// The language ipynb md names on code fences: a cell's own
// (metadata.magics_language, as nbconvert's Markdown template takes it:
// a %%R cell of a Python notebook), else the notebook's — the kernel's,
// else language_info's, else for a version 2 or 3 notebook the language
// its code cells name (their "language" member, which the upgrade to
// version 4 drops: nbconvert writes such notebooks' fences without one);
// Solveit dialogs run Python. A name that could not be a fence's info
// string (a backtick, a control character, a space: anything but one
// plain word) is left out, so that the notebook cannot end the fence or
// add lines through it.

// notebookLanguage is the notebook's code language ("" for none); nb is
// the notebook read, from data (for version 3's cells).
func notebookLanguage(meta map[string]any, nb *nbformat.Notebook, data []byte) string {
	if l := language(meta); l != "" {
		return l
	}
	if nb != nil && nb.Nbformat < 4 {
		return v3Language(data)
	}
	return ""
}

// language is the language the notebook's metadata names.
func language(meta map[string]any) string {
	if ks, ok := metaObject(meta["kernelspec"]); ok {
		if l, ok := ks["language"].(string); ok && infoWord(l) {
			return l
		}
	}
	if li, ok := metaObject(meta["language_info"]); ok {
		if l, ok := li["name"].(string); ok && infoWord(l) {
			return l
		}
	}
	for _, k := range []string{"solveit_ver", "solveit_dialog_mode", "ipyai_version"} {
		if _, ok := meta[k]; ok {
			return "python"
		}
	}
	return ""
}

// metaObject is a metadata value as an object (raw JSON decoded).
func metaObject(v any) (map[string]any, bool) {
	if raw, ok := v.(json.RawMessage); ok {
		var m map[string]any
		return m, json.Unmarshal(raw, &m) == nil && m != nil
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// v3Language is the language the first code cell of a version 2 or 3
// notebook names, read from the notebook's bytes.
func v3Language(data []byte) string {
	var v3 struct {
		Worksheets []struct {
			Cells []struct {
				CellType string `json:"cell_type"`
				Language any    `json:"language"`
			} `json:"cells"`
		} `json:"worksheets"`
	}
	if data == nil || json.Unmarshal(data, &v3) != nil {
		return ""
	}
	for _, ws := range v3.Worksheets {
		for _, c := range ws.Cells {
			if l, ok := c.Language.(string); ok && c.CellType == "code" && infoWord(l) {
				return l
			}
		}
	}
	return ""
}

// cellLanguage is a code cell's language: its magics_language, else the
// notebook's.
func cellLanguage(m *dialog.Message, notebook string) string {
	if v, ok := m.Meta["magics_language"]; ok {
		var l string
		if raw, isRaw := v.(json.RawMessage); isRaw {
			json.Unmarshal(raw, &l)
		} else {
			l, _ = v.(string)
		}
		if infoWord(l) {
			return l
		}
	}
	return notebook
}

// infoWord reports whether s can stand as a fenced block's language: one
// word of printable characters, no backtick or tilde.
func infoWord(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f || r == '`' || r == '~' || needsPicture(r) || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
