package dialog_test

// Tests of Preview and Show rows: cut as converting the whole text to runes
// cuts them, at a cost of the width only.

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// cutAsRunes is a row as Preview and Show documented it before rows were
// built piece by piece: the whole text converted to runes and cut at width
// (ending in "…"), unchanged when it fits.
func cutAsRunes(s string, width int) string {
	if width <= 0 {
		return s
	}
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	return string(r[:width-1]) + "…"
}

// previewAsRunes is Preview as documented: "id:k:content", newlines
// shown as \n, cut at width in the content, keeping " ⇒ reply(N)" (N
// characters) or out (" ⇒ out(N B)") unless width has no room for it and
// a character more.
func previewAsRunes(m *dialog.Message, width int, out string) string {
	s := strings.ReplaceAll(m.ID+":"+string(m.Kind[:1])+":"+m.Content, "\n", `\n`)
	mark := out
	if r := m.Reply(); r != "" {
		mark = fmt.Sprintf(" ⇒ reply(%d)", len([]rune(r)))
	}
	if n := len([]rune(mark)); width > 0 && width >= n+2 {
		return cutAsRunes(s, width-n) + mark
	}
	return cutAsRunes(s+mark, width)
}

// randomText mixes ASCII, newlines, multibyte characters, invalid UTF-8
// bytes and a truncated sequence.
func randomText(rng *rand.Rand) string {
	pieces := []string{"a", "b", "\n", "é", "語", "🤖", "\xff", "\xe2\x82", "\\", "n", " ", "…"}
	var b strings.Builder
	for range rng.IntN(40) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// Rows are cut as converting the whole text to runes and back cuts them
// (invalid bytes written as U+FFFD in a row cut, kept in one that fits; a
// newline counting as the two characters \n, cut between them), at every
// width, for notes, prompts with replies and code messages with outputs.
func TestPreviewRowsAsRunes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		d := &dialog.Dialog{Name: "d"}
		var ms []*dialog.Message
		var outs []string
		for j := range 3 {
			var m *dialog.Message
			var err error
			out := ""
			switch (i + j) % 3 {
			case 0:
				m, err = d.Make(dialog.Note, randomText(rng), dialog.MakeOptions{})
			case 1:
				m, err = d.Make(dialog.Prompt, randomText(rng), dialog.MakeOptions{Reply: randomText(rng)})
			default:
				m, err = d.Make(dialog.Code, randomText(rng), dialog.MakeOptions{OutputsJSON: `[{"output_type":"stream","name":"stdout","text":"x"}]`})
				out = fmt.Sprintf(" ⇒ out(%d B)", len(`[{"name":"stdout","output_type":"stream","text":"x"}]`))
			}
			if err != nil {
				t.Fatal(err)
			}
			if j == 0 {
				m.ID = randomText(rng) // ids are cut and shown as content is
			}
			ms = append(ms, m)
			outs = append(outs, out)
		}
		for width := range 50 {
			var want strings.Builder
			want.WriteString("d\n")
			for j, m := range ms {
				if got, w := m.Preview(width), previewAsRunes(m, width, outs[j]); got != w {
					t.Fatalf("Preview(%d) of %q:\n got %q\nwant %q", width, m.Content, got, w)
				}
				want.WriteString(previewAsRunes(m, width, outs[j]) + "\n")
				if r := m.Reply(); r != "" {
					want.WriteString(cutAsRunes("> "+strings.ReplaceAll(r, "\n", `\n`), width) + "\n")
				}
			}
			if got := d.Summary(width, 0); got != want.String() {
				t.Fatalf("Summary(%d):\n got %q\nwant %q", width, got, want.String())
			}
		}
	}
}

// A row costs its width, not the message: Preview and Show of a message
// of 8 MB at width 120 allocate a few hundred bytes (converting the whole
// text to runes took 32 MB, and two copies of it 16 MB more).
func TestPreviewLooksAtTheRowOnly(t *testing.T) {
	d := &dialog.Dialog{Name: "d"}
	big := strings.Repeat("a\n", 4<<20)
	if _, err := d.Make(dialog.Code, big, dialog.MakeOptions{OutputsJSON: `[{"output_type":"stream","name":"stdout","text":"` + strings.Repeat("x", 1<<20) + `"}]`}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Make(dialog.Prompt, "q", dialog.MakeOptions{Reply: big}); err != nil {
		t.Fatal(err)
	}
	// (Bytes allocated are not judged under -race: its instrumentation
	// allocates; see testtier.Race. The rows are judged in both.)
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	p := d.Messages[0].Preview(120)
	runtime.ReadMemStats(&b)
	if n := b.TotalAlloc - a.TotalAlloc; n > 4096 && !testtier.Race {
		t.Errorf("Preview(120) of an 8 MB message allocated %d bytes", n)
	}
	out := fmt.Sprintf(" ⇒ out(%d B)", len(`[{"name":"stdout","output_type":"stream","text":""}]`)+1<<20)
	if want := previewAsRunes(d.Messages[0], 120, out); p != want {
		t.Errorf("Preview(120) = %q, want %q", p, want)
	}
	// Show: the reply (made in memory: not decoded) is cut as the
	// message.
	runtime.GC()
	runtime.ReadMemStats(&a)
	s := strings.TrimPrefix((&dialog.Dialog{Messages: d.Messages[1:]}).Summary(120, 0), "\n")
	runtime.ReadMemStats(&b)
	if n := b.TotalAlloc - a.TotalAlloc; n > 4096 && !testtier.Race {
		t.Errorf("Show(120) of a prompt with an 8 MB reply allocated %d bytes", n)
	}
	if want := previewAsRunes(d.Messages[1], 120, "") + "\n" + cutAsRunes("> "+strings.ReplaceAll(big, "\n", `\n`), 120) + "\n"; s != want {
		t.Errorf("Show(120) = %q, want %q", s, want)
	}
}

// FuzzPreviewRow: Preview and Show cut any text, id and width as
// converting the whole row to runes cuts it.
func FuzzPreviewRow(f *testing.F) {
	f.Add("a\nb", "id", uint8(3), "")
	f.Add("\xff\xe2\x82語\n", "\n", uint8(2), "r\n\xff")
	f.Add("🤖🤖🤖", "x", uint8(1), "é")
	f.Fuzz(func(t *testing.T, content, id string, width uint8, reply string) {
		d := &dialog.Dialog{Name: "d"}
		kind := dialog.Note
		var opts dialog.MakeOptions
		if reply != "" {
			kind, opts = dialog.Prompt, dialog.MakeOptions{Reply: reply}
		}
		m, err := d.Make(kind, content, opts)
		if err != nil {
			t.Skip()
		}
		m.ID = id
		w := int(width) % 64
		if got, want := m.Preview(w), previewAsRunes(m, w, ""); got != want {
			t.Fatalf("Preview(%d) = %q, want %q", w, got, want)
		}
		want := previewAsRunes(m, w, "") + "\n"
		if r := m.Reply(); r != "" {
			want += cutAsRunes("> "+strings.ReplaceAll(r, "\n", `\n`), w) + "\n"
		}
		if got := strings.TrimPrefix(d.Summary(w, 0), "d\n"); got != want {
			t.Fatalf("Show(%d) = %q, want %q", w, got, want)
		}
	})
}
