package nbformat_test

// Tests of values that contain themselves stored in a notebook: every writer
// refuses them as encoding/json does, naming the place.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// selfMap returns a map that contains itself under key.
func selfMap(key string) map[string]any {
	m := map[string]any{"a": 1.0}
	m[key] = m
	return m
}

// node is another package's type whose pointer can point back at itself:
// encoding/json refuses such a value too.
type node struct {
	Next *node `json:"next"`
	V    int   `json:"v"`
}

// A cyclicCase stores, in a notebook read from attackNB, a value that
// contains itself; ptr is where writing meets it again (RFC 6901, written
// by hand from where the case stores it: the first repetition along the
// path, whatever the depth at which the writer noticed), typ the Go type
// named.
type cyclicCase struct {
	name  string
	store func(nb *nbformat.Notebook) any // returns the value stored
	ptr   string
	typ   string
}

func cyclicCases() []cyclicCase {
	const mapType, sliceType = "map[string]interface {}", "[]interface {}"
	code := func(nb *nbformat.Notebook, i int) *nbformat.CodeCell { return nb.Cells[i].(*nbformat.CodeCell) }
	extra := func(m *map[string]any, k string, v any) any {
		if *m == nil {
			*m = map[string]any{}
		}
		(*m)[k] = v
		return v
	}
	return []cyclicCase{
		{"notebook metadata", func(nb *nbformat.Notebook) any {
			return extra(&nb.Metadata.AdditionalProperties, "cyc", selfMap("self"))
		}, "/metadata/cyc/self", mapType},
		{"code cell metadata", func(nb *nbformat.Notebook) any {
			return extra(&code(nb, 0).Metadata.AdditionalProperties, "c", selfMap("self"))
		}, "/cells/0/metadata/c/self", mapType},
		{"markdown cell metadata", func(nb *nbformat.Notebook) any {
			return extra(&nb.Cells[1].(*nbformat.MarkdownCell).Metadata.AdditionalProperties, "c", selfMap("again"))
		}, "/cells/1/metadata/c/again", mapType},
		{"output metadata", func(nb *nbformat.Notebook) any {
			return extra(&code(nb, 0).Outputs[1].(*nbformat.ExecuteResult).Metadata, "m", selfMap("self"))
		}, "/cells/0/outputs/1/metadata/m/self", mapType},
		{"output member", func(nb *nbformat.Notebook) any {
			return extra(&code(nb, 0).Outputs[0].(*nbformat.Stream).AdditionalProperties, "x", selfMap("self"))
		}, "/cells/0/outputs/0/x/self", mapType},
		{"nested slices", func(nb *nbformat.Notebook) any {
			inner := []any{2.0, nil}
			s := []any{1.0, inner}
			inner[1] = s
			return extra(&nb.Metadata.AdditionalProperties, "s", s)
		}, "/metadata/s/1/1", sliceType},
		{"slice in a map in a slice", func(nb *nbformat.Notebook) any {
			m := map[string]any{"k": nil}
			a := []any{"x", m}
			m["k"] = a
			return extra(&code(nb, 2).Metadata.AdditionalProperties, "a", a)
		}, "/cells/2/metadata/a/1/k", sliceType},
		{"keys to escape", func(nb *nbformat.Notebook) any {
			return extra(&nb.Metadata.AdditionalProperties, "x/y", selfMap("~self"))
		}, "/metadata/x~1y/~0self", mapType},
		{"another package's type", func(nb *nbformat.Notebook) any {
			return extra(&nb.Metadata.AdditionalProperties, "f", []map[string]any{{"b": true}, selfMap("self")})
		}, "/metadata/f/1/self", mapType},
		{"a pointer", func(nb *nbformat.Notebook) any {
			n := &node{V: 1}
			n.Next = &node{V: 2, Next: n}
			return extra(&nb.Metadata.AdditionalProperties, "p", n)
		}, "/metadata/p/next/next", "*nbformat_test.node"},
		{"a cycle 1500 maps long", func(nb *nbformat.Notebook) any {
			head := map[string]any{}
			m := head
			for range 1499 {
				next := map[string]any{}
				m["next"] = next
				m = next
			}
			m["next"] = head
			return extra(&nb.Metadata.AdditionalProperties, "long", head)
		}, "/metadata/long" + strings.Repeat("/next", 1500), mapType},
	}
}

// checkCycleError fails t unless err is the cycle error at ptr naming typ.
func checkCycleError(t *testing.T, what string, err error, ptr, typ string) {
	t.Helper()
	var fe *nbformat.FormatError
	var ue *json.UnsupportedValueError
	switch {
	case err == nil:
		t.Errorf("%s: no error (encoding/json gives one)", what)
	case !errors.As(err, &fe) || !errors.As(err, &ue):
		t.Errorf("%s: %v, want a *FormatError caused by a *json.UnsupportedValueError", what, err)
	case ue.Value.Type().String() != typ || !strings.HasPrefix(ue.Str, "encountered a cycle via "):
		t.Errorf("%s: cause %v of a %s, want a cycle via a %s", what, ue, ue.Value.Type(), typ)
	case string(fe.Pointer) != ptr:
		t.Errorf("%s: pointer %.80q, want %.80q (%d and %d bytes)", what, fe.Pointer, ptr, len(fe.Pointer), len(ptr))
	case !strings.Contains(err.Error(), ptr+": cannot write a "+typ+" that contains itself"):
		t.Errorf("%s: %.200s", what, err)
	}
}

// TestAttackCyclicMetadata stores maps, slices and pointers that contain
// themselves, where a notebook keeps values of any type: encoding/json
// refuses each with an error (json.UnsupportedValueError), and so must
// Marshal, MarshalTo, canonical output, Validate, Heal and the conversions, with
// the JSON Pointer of the place where the value contains itself — never
// overflowing the stack (which is fatal: the checks run in a child
// process with a small stack).
func TestAttackCyclicMetadata(t *testing.T) {
	t.Parallel()
	if os.Getenv("ATTACK_CYCLE_CHILD") == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestAttackCyclicMetadata$", "-test.v")
		cmd.Env = append(os.Environ(), "ATTACK_CYCLE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			lines := strings.Split(string(out), "\n")
			if len(lines) > 40 {
				lines = lines[:40]
			}
			t.Errorf("child failed (%v):\n%s", err, strings.Join(lines, "\n"))
		}
		return
	}
	debug.SetMaxStack(64 << 20) // fail fast rather than eat the machine's memory
	for _, c := range cyclicCases() {
		t.Run(c.name, func(t *testing.T) {
			nb := mustRead(t, []byte(attackNB))
			v := c.store(nb)
			var ue *json.UnsupportedValueError
			if _, err := json.Marshal(v); !errors.As(err, &ue) {
				t.Fatalf("reference: encoding/json: %v", err)
			}
			if !nb.Edited() {
				t.Errorf("Edited() = false after storing a new member")
			}
			_, err := nbformat.Marshal(nb)
			checkCycleError(t, "Marshal", err, c.ptr, c.typ)
			checkCycleError(t, "MarshalTo", nbformat.MarshalOptions{}.MarshalTo(io.Discard, nb), c.ptr, c.typ)
			_, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
			checkCycleError(t, "canonical Marshal", err, c.ptr, c.typ)
			checkCycleError(t, "Validate", nbformat.Validate(nb), c.ptr, c.typ)
			_, err = nbformat.Heal(nb)
			checkCycleError(t, "Heal", err, c.ptr, c.typ)
			// The same value in a notebook built in memory.
			if strings.HasPrefix(c.ptr, "/metadata/") {
				mem := nbformat.New()
				mem.Metadata.AdditionalProperties = nb.Metadata.AdditionalProperties
				_, err := nbformat.Marshal(mem)
				checkCycleError(t, "Marshal of a new notebook", err, c.ptr, c.typ)
			}
		})
	}
	// Conversions name the place in the value converted.
	var b nbformat.MimeBundle
	checkCycleError(t, "SetJSON", b.SetJSON("application/json", map[string]any{"x": []any{selfMap("self")}}), "/x/0/self", "map[string]interface {}")
	var md nbformat.CodeCellMetadata
	checkCycleError(t, "FromMap", nbmap.FromMap(map[string]any{"tags": []any{"t"}, "c": selfMap("self")}, &md), "/c/self", "map[string]interface {}")
	md.AdditionalProperties = map[string]any{"c": selfMap("self")}
	_, err := nbmap.ToMap(&md)
	checkCycleError(t, "ToMap", err, "/c/self", "map[string]interface {}")
	// A value met twice but not inside itself is no cycle.
	nb := mustRead(t, []byte(attackNB))
	shared := map[string]any{"k": []any{1.0}}
	nb.Metadata.AdditionalProperties["one"] = shared
	nb.Metadata.AdditionalProperties["two"] = []any{shared, shared}
	if _, err := nbformat.Marshal(nb); err != nil {
		t.Errorf("a value stored twice: %v", err)
	}
}
