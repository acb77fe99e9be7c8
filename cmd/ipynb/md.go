package main

// ipynb md: a notebook as Markdown, its images and attachments written as files
// and linked as nbconvert links them.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	nblines "github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/termtext"
	"github.com/nbdialog/ipynb/internal/truthy"
)

var mdCmd = &command{
	name:    "md",
	summary: "print a notebook as Markdown",
	doc: `Prints the dialog as Markdown: notes as they are, prompts as a quoted
question followed by the reply, code in blocks fenced with its language
(a cell's magics_language, else the kernel's; for a version 3 notebook
the one its code cells name), followed by its outputs: text with
terminal colour codes removed, an error as its traceback, HTML and
Markdown as they are (as nbconvert's Markdown export writes them). Raw
cells as they are.

The output is a Markdown file, not a page: like nbconvert, md keeps what
the notebook holds — HTML outputs and the raw HTML of notes included —
and whatever renders the file (GitHub, a static site generator, an
editor's preview) applies its own rules to it. For a page that is safe
to open whatever the notebook holds, use ipynb html.

Images (PNG, JPEG, GIF, SVG) in outputs and files attached to notes and
prompts are written as files into --images DIR and linked from the
Markdown, as nbconvert does; with -o FILE and no --images they go into
FILE's name with _files (notes.md: notes_files/), and linked
percent-encoded, as nbconvert links them. Files are written only inside
that folder, never through a symbolic link found there (it is replaced),
never over the notebook being read. Without either, they are referenced
by type and size. -o - is standard output. On a terminal, control
characters are shown, not obeyed (as show does); to a file or pipe the
text is as it is.`,
	usage: "[-o FILE] [--images DIR] FILE",
}

func init() { mdCmd.run = runMD }

func runMD(e *env, args []string) int {
	fs := mdCmd.flags(e)
	out := fs.String("o", "", "write the Markdown to this file (atomically) instead of standard output (- for standard output)")
	images := fs.String("images", "", "write images and attachments into this folder and link them")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if *out == "-" {
		*out = ""
	}
	d, nb, data, st := readDialog(e, "md", fs.Args())
	if st >= 0 {
		return st
	}
	in := fs.Arg(0)
	// The notebook is never overwritten by what md writes.
	var notebook os.FileInfo
	if in != "-" {
		notebook, _ = os.Stat(in)
	}
	// -o is checked before anything is written: a folder, or the
	// notebook itself, is refused with no image written.
	if *out != "" {
		if fi, err := os.Stat(*out); err == nil && fi.IsDir() {
			fmt.Fprintf(e.stderr, "ipynb md: -o %s: is a folder\n", quoteName(*out))
			return exitError
		} else if err == nil && notebook != nil && os.SameFile(fi, notebook) {
			fmt.Fprintf(e.stderr, "ipynb md: -o %s: %v\n", quoteName(*out), errNotebookTarget)
			return exitError
		}
	}
	r := &mdRenderer{lang: notebookLanguage(d.Meta, nb, data), stem: "output"}
	if in != "-" {
		r.stem = cutName(strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)))
	}
	derived := false
	if *images == "" && *out != "" {
		*images = strings.TrimSuffix(*out, filepath.Ext(*out)) + "_files"
		derived = true
	}
	if *images != "" {
		r.dir = *images
		r.link = filepath.ToSlash(*images)
		if *out != "" {
			if rel, err := filepath.Rel(filepath.Dir(*out), *images); err == nil {
				r.link = filepath.ToSlash(rel)
			}
		}
	}
	text := r.markdown(d)
	if len(r.files) > 0 {
		folder, err := openImageFolder(r.dir, derived, notebook)
		if err == nil {
			err = folder.writeAll(r.files)
			folder.close()
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb md: %v\n", err)
			return exitError
		}
	}
	if *out != "" {
		// As standard output shows it (codeunits.go).
		if _, err := atomicfile.Replace(*out, []byte(unitText(text)), atomicfile.Options{}); err != nil {
			fmt.Fprintln(e.stderr, describe(*out, err))
			return exitError
		}
		return exitOK
	}
	fmt.Fprint(e.stdout, e.forTerminal(text))
	return exitOK
}

// mdRenderer turns a dialog into Markdown, collecting the image files to
// write when dir is set.
type mdRenderer struct {
	lang  string
	stem  string // names image files as nbconvert does: STEM_CELL_OUTPUT.EXT
	dir   string // where images go ("": referenced, not written)
	link  string // dir as the Markdown links it
	files []mdFile
	used  map[string]bool
	next  map[string]int // by name asked for: the next number to try
}

type mdFile struct {
	name string
	data []byte
}

// markdown renders a dialog (in time linear in its size, whatever the
// number of messages or outputs).
func (r *mdRenderer) markdown(d *dialog.Dialog) string {
	var b strings.Builder
	sep := func() {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
	}
	for i, m := range d.Messages {
		sep()
		switch m.Kind {
		case dialog.Prompt:
			b.WriteString(quote(r.attachments(i, m, m.Content)))
			if rep := m.Reply(); rep != "" {
				b.WriteString("\n\n")
				b.WriteString(strings.TrimRight(rep, "\n"))
			}
		case dialog.Code:
			b.WriteString(fence(m.Content, cellLanguage(m, r.lang)))
			for j, o := range m.Outputs {
				if s := r.output(i, j, o); s != "" {
					b.WriteString("\n\n")
					b.WriteString(s)
				}
			}
		case dialog.Note:
			b.WriteString(strings.TrimRight(r.attachments(i, m, m.Content), "\n"))
		default: // raw cells, cells of future kinds
			b.WriteString(strings.TrimRight(m.Content, "\n"))
		}
	}
	b.WriteString("\n")
	return b.String()
}

func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = ">"
		} else {
			lines[i] = "> " + l
		}
	}
	return strings.Join(lines, "\n")
}

var backticks = regexp.MustCompile("`{3,}")

// fence puts s in a fenced block longer than any backtick run inside.
func fence(s, info string) string {
	n := 3
	for _, run := range backticks.FindAllString(s, -1) {
		n = max(n, len(run)+1)
	}
	f := strings.Repeat("`", n)
	return f + info + "\n" + strings.TrimRight(s, "\n") + "\n" + f
}

// plainText is output text as a terminal would leave it on screen
// (internal/termtext, which the HTML pages and ipynb diff share).
func plainText(s string) string { return termtext.Plain(s) }

// imageTypes are the output types written as files, with their
// extension and the alternative text of their link (nbconvert's, where it
// has one: ![jpeg](….jpg)).
var imageTypes = []struct{ mime, ext, alt string }{
	{"image/png", "png", "png"}, {"image/jpeg", "jpg", "jpeg"}, {"image/gif", "gif", "gif"}, {"image/svg+xml", "svg", "svg"},
}

// output renders output j of message i: text in a fenced block, markdown
// as it is, an error as its traceback, an image as a file link (or a
// reference by type and size).
func (r *mdRenderer) output(i, j int, out dialog.Output) string {
	o, err := out.Map()
	if err != nil {
		return fence("("+out.Type()+" output unreadable: "+err.Error()+")", "text")
	}
	switch out.Type() {
	case "stream":
		return fence(plainText(nblines.Text(o["text"])), "text")
	case "error":
		// The traceback ends with "ename: evalue" already; show it once.
		if tb, ok := o["traceback"].([]any); ok && len(tb) > 0 {
			lines := make([]string, len(tb))
			for k, l := range tb {
				lines[k] = strings.TrimRight(plainText(nblines.Text(l)), "\n")
			}
			return fence(strings.Join(lines, "\n"), "text")
		}
		return fence(plainText(nblines.Text(o["ename"])+": "+nblines.Text(o["evalue"])), "text")
	case "execute_result", "display_data":
		data, _ := o["data"].(map[string]any)
		if _, ok := data["text/markdown"]; ok {
			if meta, _ := o["metadata"].(map[string]any); truthy.Of(meta["is_ai_res"]) { // out.IsReply, decoded once
				return "" // shown after the prompt
			}
		}
		// nbconvert's Markdown export: HTML, then Markdown, as they are.
		for _, t := range []string{"text/html", "text/markdown"} {
			if v, ok := data[t]; ok {
				return strings.TrimRight(nblines.Text(v), "\n")
			}
		}
		if r.dir != "" {
			for _, it := range imageTypes {
				v, ok := data[it.mime]
				if !ok {
					continue
				}
				b, ok := imageBytes(it.mime, v)
				if !ok {
					continue
				}
				name := r.file(fmt.Sprintf("%s_%d_%d.%s", r.stem, i, j, it.ext), b)
				return fmt.Sprintf("![%s](%s)", it.alt, r.url(name))
			}
		}
		var refs []string
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k != "text/plain" {
				refs = append(refs, fmt.Sprintf("[%s output, %d bytes]", k, dataSize(k, data[k])))
			}
		}
		if plain, ok := data["text/plain"]; ok {
			s := fence(plainText(nblines.Text(plain)), "text")
			if len(refs) > 0 {
				s = strings.Join(refs, " ") + "\n\n" + s
			}
			return s
		}
		return strings.Join(refs, " ")
	}
	return ""
}

// dataSize is the size of an output's value in bytes: decoded for base64
// images, the text for text types, the JSON for JSON values.
func dataSize(mime string, v any) int {
	if b, ok := imageBytes(mime, v); ok && strings.HasPrefix(mime, "image/") {
		return len(b)
	}
	if _, isText := v.(string); !isText {
		if b, err := json.Marshal(v); err == nil {
			return len(b)
		}
	}
	return len(nblines.Text(v))
}

// imageBytes decodes an output's image: base64 for binary types, the text
// itself for SVG.
func imageBytes(mime string, v any) ([]byte, bool) {
	s := nblines.Text(v)
	if mime == "image/svg+xml" {
		return []byte(s), true
	}
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	return b, err == nil
}

var attachmentLink = regexp.MustCompile(`attachment:([^)\s"'>]+)`)

// attachments writes the attachments of message i as files and links
// content's attachment:NAME references to them. NAME may be written
// percent-encoded, as Jupyter writes names with spaces.
func (r *mdRenderer) attachments(i int, m *dialog.Message, content string) string {
	if r.dir == "" || len(m.Attachments) == 0 {
		return content
	}
	names := map[string]string{}
	for _, a := range m.Attachments {
		names[a.ID] = r.file(fmt.Sprintf("attachment_%d_%s", i, safeName(a.ID)), a.Data)
	}
	return attachmentLink.ReplaceAllStringFunc(content, func(ref string) string {
		id := strings.TrimPrefix(ref, "attachment:")
		name, ok := names[id]
		if !ok {
			if dec, err := url.PathUnescape(id); err == nil {
				name, ok = names[dec]
			}
		}
		if ok {
			return r.url(name)
		}
		return ref
	})
}

// url is the link to the written file name: the folder's path and the
// name, each part percent-encoded as nbconvert's path2url encodes it
// (Python's urllib.parse.quote: all but letters, digits and _.-~), so
// that spaces, parentheses and the like do not break the link.
func (r *mdRenderer) url(name string) string {
	parts := strings.Split(path.Join(r.link, name), "/")
	for k, p := range parts {
		parts[k] = pyQuote(p)
	}
	return strings.Join(parts, "/")
}

// pyQuote is Python's urllib.parse.quote(s, safe="") on UTF-8 bytes.
func pyQuote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-', c == '~':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// file records a file to write under a unique name and returns the name:
// name, else NAME_2.EXT, NAME_3.EXT … (each name remembers the last
// number it tried, so n files of one name take linear time).
func (r *mdRenderer) file(name string, data []byte) string {
	if r.used == nil {
		r.used, r.next = map[string]bool{}, map[string]int{}
	}
	want := name
	if r.used[name] {
		base, ext := strings.TrimSuffix(name, path.Ext(name)), path.Ext(name)
		k := max(r.next[want], 2)
		for name = fmt.Sprintf("%s_%d%s", base, k, ext); r.used[name]; name = fmt.Sprintf("%s_%d%s", base, k, ext) {
			k++
		}
		r.next[want] = k + 1
	}
	r.used[name] = true
	r.files = append(r.files, mdFile{name, data})
	return name
}

// safeName keeps an attachment's name usable as one file name in the
// images folder: no folders, no leading dots, no control characters.
func safeName(s string) string {
	s = path.Base(strings.ReplaceAll(s, "\\", "/"))
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\' || r < 0x20 || r == 0x7f:
			return '_'
		}
		return r
	}, s)
	s = strings.TrimLeft(s, ".")
	if s == "" {
		s = "file"
	}
	return cutName(s)
}

// cutName shortens a name md puts in a file name to maxNameBytes, so
// that with the prefix md adds and the temporary name it writes first it
// fits any file system (255 bytes a name); the extension is kept.
func cutName(s string) string {
	if len(s) <= maxNameBytes {
		return s
	}
	ext := path.Ext(s)
	if len(ext) > 16 {
		ext = ""
	}
	base := s[:maxNameBytes-len(ext)]
	for len(base) > 0 && !utf8.ValidString(base) {
		base = base[:len(base)-1]
	}
	return base + ext
}

// maxNameBytes is the longest attachment name or notebook name kept in
// a file name.
const maxNameBytes = 150
