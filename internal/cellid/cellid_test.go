package cellid

// Tests of Valid against the 4.5 schema's pattern, of Derive against the
// standard library's CRC-32C, and of Written against the schemas.

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// Valid agrees with the nbformat 4.5 schema's pattern and length limits.
func TestValid(t *testing.T) {
	pattern := regexp.MustCompile(`^[a-zA-Z0-9-_]+$`) // schema/nbformat.v4.5.schema.json
	for _, id := range []string{"", "a", "abc-DEF_09", strings.Repeat("x", 64), strings.Repeat("x", 65), "a b", "é", "a\n", "a.b", "-", "_"} {
		want := pattern.MatchString(id) && len(id) <= 64
		if got := Valid(id); got != want {
			t.Errorf("Valid(%q) = %v, want %v", id, got, want)
		}
	}
}

// crc32c is the checksum Derive's rule names, from the standard library:
// the reference the tests compare with.
func crc32c(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

func hex8(sum uint32) string { return fmt.Sprintf("%08x", sum) }

// Derive is the CRC-32C of position, kind and content, and then of the
// same bytes followed by a counter while the id is taken.
func TestDerive(t *testing.T) {
	input := []byte("3\x00code\x00print(1)")
	want := hex8(crc32c(input))
	none := func(string) bool { return false }
	if got := Derive(3, "code", "print(1)", none); got != want {
		t.Errorf("Derive = %s, want %s", got, want)
	}
	second := hex8(crc32c(append(slices.Clone(input), 1, 0, 0, 0)))
	if got := Derive(3, "code", "print(1)", func(id string) bool { return id == want }); got != second {
		t.Errorf("Derive with the first id taken = %s, want %s", got, second)
	}
	third := hex8(crc32c(append(slices.Clone(input), 2, 0, 0, 0)))
	if got := Derive(3, "code", "print(1)", func(id string) bool { return id == want || id == second }); got != third {
		t.Errorf("Derive with two ids taken = %s, want %s", got, third)
	}
	if Derive(4, "code", "print(1)", none) == want || Derive(3, "markdown", "print(1)", none) == want {
		t.Error("position and kind do not change the id")
	}
	if !Valid(want) {
		t.Errorf("derived id %q is not valid", want)
	}
}

// The candidates Derive tries never repeat, so that it ends whatever ids
// are taken: with every candidate taken, 300,000 of them are distinct (a
// rehash of the last candidate, as SHA-256's rule was, is a walk that can
// close on itself; a counter under a CRC cannot before 2^32).
func TestDeriveCandidatesNeverRepeat(t *testing.T) {
	if testing.Short() {
		t.Skip("300,000 candidates")
	}
	seen := make(map[string]bool, 300_000)
	const limit = 300_000
	Derive(5, "markdown", "# Title", func(id string) bool {
		if seen[id] {
			t.Fatalf("candidate %s tried twice, after %d", id, len(seen))
		}
		seen[id] = true
		return len(seen) < limit
	})
	if len(seen) != limit {
		t.Fatalf("%d candidates, want %d", len(seen), limit)
	}
}

// Written agrees with the official schemas: cells require an id member
// exactly in the versions whose schema says so (schema/nbformat.v4.N).
func TestWrittenMatchesSchemas(t *testing.T) {
	files, _ := filepath.Glob("../../schema/nbformat.v4.*.schema.json")
	if len(files) == 0 {
		t.Skip("no official schemas")
	}
	for _, f := range files {
		var minor int
		if _, err := fmt.Sscanf(filepath.Base(f), "nbformat.v4.%d.schema.json", &minor); err != nil {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Definitions map[string]struct {
				Required []string `json:"required"`
			} `json:"definitions"`
		}
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		want := slices.Contains(s.Definitions["code_cell"].Required, "id")
		if got := Written(4, minor); got != want {
			t.Errorf("Written(4, %d) = %v; %s requires an id: %v", minor, got, filepath.Base(f), want)
		}
	}
	if Written(3, 5) || !Written(5, 0) {
		t.Error("Written wrong across major versions")
	}
}

// Derive checksums the same bytes however long the content and kind, and
// allocates only the id it returns.
func TestDeriveLengthsAndAllocs(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	none := func(string) bool { return false }
	for _, n := range []int{0, 1, 490, 499, 500, 501, 502, 503, 504, 510, 511, 512, 513, 1023, 1024, 1025, 5000} {
		content := strings.Repeat("é", n/2) + strings.Repeat("x", n%2)
		for _, kind := range []string{"code", "", strings.Repeat("k", 600)} {
			for _, i := range []int{0, 7, 12345} {
				whole := crc32c([]byte(strconv.Itoa(i) + "\x00" + kind + "\x00" + content))
				if got, want := Derive(i, kind, content, none), hex8(whole); got != want {
					t.Fatalf("Derive(%d, %d-byte kind, %d-byte content) = %s, want %s", i, len(kind), len(content), got, want)
				}
			}
		}
	}
	src := strings.Repeat("print(1)\n", 40) // 360 bytes
	if a := testing.AllocsPerRun(10, func() { Derive(12, "code", src, none) }); a > 1 {
		t.Errorf("Derive of a %d-byte cell: %.0f allocations, want 1 (the id)", len(src), a)
	}
}

// Problem tells the problems about a cell's id, and its index.
func TestProblem(t *testing.T) {
	for _, c := range []struct {
		pointer, keyword, member string
		cell                     int
		ok                       bool
	}{
		{"/cells/3", "required", "id", 3, true},
		{"/cells/0/id", "pattern", "", 0, true},
		{"/cells/12/id", "unique", "", 12, true},
		{"/cells/3", "required", "source", 0, false},
		{"/cells/3", "additionalProperties", "id", 0, false},
		{"/cells/3/source", "type", "", 0, false},
		{"/cells/3/id/x", "type", "", 0, false},
		{"/cells/x/id", "type", "", 0, false},
		{"/cells/-1/id", "type", "", 0, false},
		{"/cells/03/id", "type", "", 0, false},
		{"/cells", "type", "", 0, false},
		{"/metadata/id", "type", "", 0, false},
		{"", "required", "id", 0, false},
	} {
		cell, ok := Problem(c.pointer, c.keyword, c.member)
		if cell != c.cell || ok != c.ok {
			t.Errorf("Problem(%q, %q, %q) = %d, %v, want %d, %v", c.pointer, c.keyword, c.member, cell, ok, c.cell, c.ok)
		}
	}
}
