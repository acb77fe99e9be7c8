package dialog_test

// Tests of a dialog's basics: message ids (seeded, unique, UUIDs for
// attachments), insertion and lookup, replies, summary and validation.

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/nbdialog/ipynb/dialog"
)

var hexID = regexp.MustCompile(`^[0-9a-f]{8}$`)

func ids(d *dialog.Dialog) []string {
	var out []string
	for _, m := range d.Messages {
		out = append(out, m.ID)
	}
	return out
}

func TestIDs(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	seen := map[string]bool{}
	for i := 0; i < 2000; i++ {
		m := d.Add(dialog.Note, "x")
		if !hexID.MatchString(m.ID) {
			t.Fatalf("id %q is not 8 hex digits", m.ID)
		}
		if seen[m.ID] {
			t.Fatalf("id %q repeated", m.ID)
		}
		seen[m.ID] = true
	}
}

// A seeded source gives the same ids every time, and a source that keeps
// repeating itself still never gives an id already in use.
func TestSeededIDs(t *testing.T) {
	t.Parallel()
	make := func() []string {
		d := &dialog.Dialog{Name: "d"}
		d.Random = rand.NewChaCha8([32]byte{7})
		for i := 0; i < 5; i++ {
			d.Add(dialog.Code, "")
		}
		return ids(d)
	}
	if diff := cmp.Diff(make(), make()); diff != "" {
		t.Errorf("seeded ids differ:\n%s", diff)
	}
	d := &dialog.Dialog{Name: "d"}
	d.Random = strings.NewReader(strings.Repeat("\x01\x02\x03\x04", 3) + "\x05\x06\x07\x08")
	a := d.Add(dialog.Note, "a")
	b := d.Add(dialog.Note, "b")
	if a.ID != "01020304" || b.ID != "05060708" {
		t.Errorf("ids %s %s: a repeated candidate must be skipped", a.ID, b.ID)
	}
}

func TestAttachmentIDsAreUUID4(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	d.Random = rand.NewChaCha8([32]byte{1})
	m := d.Add(dialog.Note, "see attachment")
	for i := 0; i < 100; i++ {
		a := d.Attach(m, []byte("data"), "image/png")
		u, err := uuid.Parse(a.ID)
		if err != nil {
			t.Fatalf("%q: %v", a.ID, err)
		}
		if u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != a.ID {
			t.Fatalf("%q: version %d variant %v", a.ID, u.Version(), u.Variant())
		}
	}
	d2 := &dialog.Dialog{Name: "d"}
	d2.Random = rand.NewChaCha8([32]byte{1})
	d2.Add(dialog.Note, "see attachment")
	if got := d2.Attach(d2.Messages[0], nil, "image/png").ID; got != m.Attachments[0].ID {
		t.Errorf("seeded attachment ids differ: %s %s", got, m.Attachments[0].ID)
	}
}

func TestInsertAndLookup(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	a := &dialog.Message{ID: "aaaa0001", Kind: dialog.Note}
	b := &dialog.Message{ID: "aaaa0002", Kind: dialog.Note}
	c := &dialog.Message{ID: "bbbb0003", Kind: dialog.Code}
	d.Messages = append(d.Messages, a, c)
	d.Messages = slices.Insert(d.Messages, d.Index("bbbb0003"), b)
	e, err := d.Make(dialog.Raw, "", dialog.MakeOptions{After: "aaaa0001"})
	if err != nil || e.ID == "" {
		t.Fatalf("Make: %v %v", e, err)
	}
	d.Messages = slices.Insert(d.Messages, 0, &dialog.Message{ID: "first", Kind: dialog.Note})
	d.Messages = append(d.Messages, &dialog.Message{ID: "last", Kind: dialog.Note})
	if diff := cmp.Diff([]string{"first", "aaaa0001", e.ID, "aaaa0002", "bbbb0003", "last"}, ids(d)); diff != "" {
		t.Error(diff)
	}
	if m, err := d.Get("bbbb"); err != nil || m != c {
		t.Errorf("Get by unique prefix: %v %v", m, err)
	}
	if m, err := d.Get("aaaa0002"); err != nil || m != b {
		t.Errorf("Get by id: %v %v", m, err)
	}
	if _, err := d.Get("aaaa"); !errors.Is(err, dialog.ErrAmbiguous) || !strings.Contains(err.Error(), "aaaa0001, aaaa0002") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := d.Get("zz"); !errors.Is(err, dialog.ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
	if _, err := d.Make(dialog.Note, "x", dialog.MakeOptions{After: "nope"}); !errors.Is(err, dialog.ErrNotFound) {
		t.Errorf("Make after a missing id: %v", err)
	}
	removed, err := d.Remove("first", "bbbb")
	if err != nil || len(removed) != 2 || len(d.Messages) != 4 {
		t.Errorf("Remove: %v %v, %d left", removed, err, len(d.Messages))
	}
	if _, err := d.Remove("nope"); err == nil || len(d.Messages) != 4 {
		t.Error("Remove of a missing id must fail and remove nothing")
	}
}

func TestReply(t *testing.T) {
	t.Parallel()
	m := &dialog.Message{ID: "p", Kind: dialog.Prompt, Content: "Q?"}
	if m.Reply() != "" {
		t.Error("reply before SetReply")
	}
	m.SetReply("A!")
	if m.Reply() != "A!" || len(m.Outputs) != 1 || m.Outputs[0].Type() != "display_data" {
		t.Errorf("reply %q outputs %v", m.Reply(), m.Outputs)
	}
	m.SetReply("B")
	if m.Reply() != "B" || len(m.Outputs) != 1 {
		t.Errorf("replacing the reply: %q %v", m.Reply(), m.Outputs)
	}
	m.SetReply("")
	if m.Reply() != "" || m.Outputs != nil {
		t.Errorf("removing the reply: %v", m.Outputs)
	}
	// A reply stored as lines.
	m.Outputs = []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "display_data", "metadata": map[string]any{"is_ai_res": true},
		"data": map[string]any{"text/markdown": []any{"a\n", "b"}}})}
	if m.Reply() != "a\nb" {
		t.Errorf("lines reply %q", m.Reply())
	}
	code := &dialog.Message{Kind: dialog.Code, Outputs: m.Outputs}
	if code.Reply() != "" {
		t.Error("a code message has no reply")
	}
}

func TestSummary(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "demo"}
	d.Random = rand.NewChaCha8([32]byte{3})
	d.Add(dialog.Note, "# Title\nsecond line")
	c := d.Add(dialog.Code, "1+1")
	c.Outputs = codeOutput("2")
	p := d.Add(dialog.Prompt, "Why?")
	p.SetReply("Because\nit is.")
	for i := 0; i < 3; i++ {
		d.Add(dialog.Raw, strings.Repeat("long ", 40))
	}
	got := d.Summary(40, 5)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	want := []string{
		"demo",
		d.Messages[0].ID + `:n:# Title\nsecond line`,
		// out(N B): N bytes of the outputs as compact JSON:
		// [{"data":{"text/plain":"2"},"execution_count":1,"metadata":{},"output_type":"execute_result"}]
		d.Messages[1].ID + ":c:1+1 ⇒ out(94 B)",
		d.Messages[2].ID + ":p:Why? ⇒ reply(14)",
		`> Because\nit is.`,
		d.Messages[3].ID + ":r:long long long long long lon…",
		d.Messages[4].ID + ":r:long long long long long lon…",
		"…(1 more)",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("line longer than 40: %q", l)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	d := &dialog.Dialog{Name: "d"}
	d.Add(dialog.Note, "ok")
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	d.Messages = append(d.Messages, &dialog.Message{ID: d.Messages[0].ID, Kind: "chart"},
		&dialog.Message{ID: "x", Kind: dialog.Note, Outputs: codeOutput("1")},
		&dialog.Message{ID: "y", Kind: dialog.Code, Outputs: []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "weird"})}},
		&dialog.Message{Kind: dialog.Code},
		&dialog.Message{ID: "z", Kind: dialog.Code, Meta: map[string]any{"f": func() {}}})
	err := d.Validate()
	for _, want := range []string{"duplicate message id", `unknown kind "chart"`, "a note message carries no outputs", `output_type "weird"`, "has no id", "metadata is not JSON"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error %v lacks %q", err, want)
		}
	}
}
