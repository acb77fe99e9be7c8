package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

var mdCmd = &command{
	name:    "md",
	summary: "print a notebook as Markdown",
	doc: `Prints the dialog as Markdown: notes as they are, prompts as a quoted
question followed by the reply, code in fenced blocks followed by its
text outputs (other outputs, such as images, referenced by type and size,
not inlined), raw cells as they are.`,
	usage: "FILE",
}

func init() { mdCmd.run = runMD }

func runMD(e *env, args []string) int {
	fs := mdCmd.flags(e)
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	d, _, st := readDialog(e, fs.Args())
	if st >= 0 {
		return st
	}
	fmt.Fprint(e.stdout, markdown(d))
	return exitOK
}

// markdown renders a dialog.
func markdown(d *dialog.Dialog) string {
	lang := language(d.Meta)
	var parts []string
	for _, m := range d.Messages {
		switch m.Kind {
		case dialog.Prompt:
			p := quote(m.Content)
			if r := m.Reply(); r != "" {
				p += "\n\n" + strings.TrimRight(r, "\n")
			}
			parts = append(parts, p)
		case dialog.Code:
			p := fence(m.Content, lang)
			for _, o := range m.Outputs {
				if s := renderOutput(o); s != "" {
					p += "\n\n" + s
				}
			}
			parts = append(parts, p)
		default: // notes, raw cells, cells of future kinds
			parts = append(parts, strings.TrimRight(m.Content, "\n"))
		}
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// language is the notebook's code language, for fenced blocks.
func language(meta map[string]any) string {
	if ks, ok := meta["kernelspec"].(map[string]any); ok {
		if l, ok := ks["language"].(string); ok && l != "" {
			return l
		}
	}
	if li, ok := meta["language_info"].(map[string]any); ok {
		if l, ok := li["name"].(string); ok && l != "" {
			return l
		}
	}
	return ""
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

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")

// renderOutput renders one output: text in a fenced block, markdown as
// it is, anything else referenced by its type and size.
func renderOutput(o dialog.Output) string {
	switch o.Type() {
	case "stream":
		return fence(ansi.ReplaceAllString(dialog.Text(o["text"]), ""), "text")
	case "error":
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s", dialog.Text(o["ename"]), dialog.Text(o["evalue"]))
		if tb, ok := o["traceback"].([]any); ok {
			for _, l := range tb {
				b.WriteString("\n" + ansi.ReplaceAllString(dialog.Text(l), ""))
			}
		}
		return fence(b.String(), "text")
	case "execute_result", "display_data":
		data, _ := o["data"].(map[string]any)
		if md, ok := data["text/markdown"]; ok {
			if md, _ := o["metadata"].(map[string]any); md["is_ai_res"] == true {
				return ""
			}
			return strings.TrimRight(dialog.Text(md), "\n")
		}
		var refs []string
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k != "text/plain" {
				size := len(dialog.Text(data[k]))
				if _, isText := data[k].(string); !isText {
					if b, err := json.Marshal(data[k]); err == nil {
						size = len(b)
					}
				}
				refs = append(refs, fmt.Sprintf("[%s output, %d bytes]", k, size))
			}
		}
		if plain, ok := data["text/plain"]; ok {
			s := fence(ansi.ReplaceAllString(dialog.Text(plain), ""), "text")
			if len(refs) > 0 {
				s = strings.Join(refs, " ") + "\n\n" + s
			}
			return s
		}
		return strings.Join(refs, " ")
	}
	return ""
}
