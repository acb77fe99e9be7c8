package convert

import (
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/nbformat"
)

// Pairing a version 3 heading: its upgrade (what the merge works on) is
// one markdown line, the level's hashes and the heading's lines joined by
// spaces, so a heading of several lines compares to another version by
// one line, while its file holds several: an edit of one of its lines,
// which leaves the others whole as in any cell, reads as a line replaced
// whole, too unlike base's to be the heading edited, and the edit is taken
// for a deletion and an insertion. The merge compares a heading by the
// lines its file holds as well (see dialog.MergeOptions.PairText: the more
// alike of the two counts), as it compares any other cell; what it merges
// is still the upgrade.

// v3HeadingLines returns the texts, as their files hold them, of the
// messages of dialogs (a merge's base, ours and theirs, or a diff's two,
// read into orgs) that are
// version 3 headings; nil when there are none. files caches the version 3
// files' cells.
func v3HeadingLines(dialogs []*dialog.Dialog, orgs []*origin, files *sideFiles) map[*dialog.Message]string {
	var out map[*dialog.Message]string
	for k, d := range dialogs {
		org := orgs[k]
		if org.nb.Nbformat != 3 {
			continue
		}
		for i, m := range d.Messages {
			if m.Kind != dialog.Note {
				continue
			}
			s := org.snapAt(i, m)
			if s == nil {
				continue
			}
			src, ok := files.v3HeadingSource(org, s.cell)
			if !ok {
				continue
			}
			if out == nil {
				out = map[*dialog.Message]string{}
			}
			out[m] = src
		}
	}
	return out
}

// v3HeadingSource returns the source, as nbformat 3's reader joins it, of
// the version 3 heading that c, a cell of the upgrade of org's version 3
// file, was upgraded from; ok is false when that cell is not a heading
// (or is not found).
func (f *sideFiles) v3HeadingSource(org *origin, c nbformat.Cell) (string, bool) {
	raw, ok := f.v3Raw(org, c)
	if !ok {
		return "", false
	}
	if t, ok := jsonvalue.MemberString(raw, "cell_type"); !ok || t != "heading" {
		return "", false
	}
	sr, ok := jsonvalue.MemberRaw(raw, "source")
	if !ok {
		return "", false
	}
	v, err := jsonvalue.Decode(sr)
	if err != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case []any:
		if ls, ok := lines.Strings(v); ok {
			return lines.JoinV3(ls), true
		}
	}
	return "", false
}
