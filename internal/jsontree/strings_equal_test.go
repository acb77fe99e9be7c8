package jsontree

// StrIs against encoding/json's decoding: equal strings and near misses.

import (
	"encoding/json"
	"testing"
)

func TestStrIsNearMisses(t *testing.T) {
	for _, tok := range []string{
		`""`, `"a"`, `"abc\n"`, `"\n"`, `"x\ty\"z\\"`, `"print(1)\n"`,
		`"caf\u00e9 \ud83d\ude00!"`, `"\u0041BC"`, `"tail after escape\nmore text"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(tok), &want); err != nil {
			t.Fatal(err)
		}
		tape, err := Parse([]byte(tok), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !tape.StrIs(0, want) {
			t.Errorf("StrIs(%s, %q) = false", tok, want)
		}
		misses := []string{want + "x", "x" + want}
		if len(want) > 0 {
			misses = append(misses, want[:len(want)-1], want[1:], "\x00"+want[1:], want[:len(want)-1]+"\x00")
		}
		for _, m := range misses {
			if tape.StrIs(0, m) {
				t.Errorf("StrIs(%s, %q) = true", tok, m)
			}
		}
	}
}
