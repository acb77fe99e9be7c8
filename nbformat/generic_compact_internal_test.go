package nbformat

// Tests of writing generic JSON without reflection: the encoder's bytes and
// errors, and few allocations.

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// reflectCompact is compact JSON through the encoder (reflection), the
// way encodeCompact wrote every value before jsonvalue.AppendCompact.
func reflectCompact(v any) ([]byte, error) {
	e := encoder{st: &nbstyle.Style{Colon: ":"}}
	x := reflect.ValueOf(&v).Elem()
	e.value(x, infoOf(anyType), -1, "")
	if e.err != nil {
		return nil, e.err
	}
	return e.buf, nil
}

// checkGenericCompact checks that encodeCompact writes v as the encoder
// does (the same bytes, or the same error), as JSON that reads back.
func checkGenericCompact(t *testing.T, where string, v any) {
	t.Helper()
	got, err := encodeCompact(v)
	want, werr := reflectCompact(v)
	if (err != nil) != (werr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("%s: encodeCompact %q (%v), the encoder %q (%v)", where, got, err, want, werr)
	}
	if err != nil {
		return
	}
	if _, err := Decode(got); err != nil { // (NaN and Infinity as Python writes them)
		t.Fatalf("%s: %q does not read back: %v", where, got, err)
	}
}

// Generic values (what Decode returns) are written without reflection,
// byte for byte as the encoder writes them: every corpus notebook decoded
// whole, and values at the edges (numbers, escapes, invalid UTF-8, types
// that are not generic JSON).
func TestEncodeCompactGeneric(t *testing.T) {
	t.Parallel()
	edge := []any{
		nil, true, false, "", "a\"b\\c\n\t\x00\x1f<>&\u2028é😀", "\xff",
		0, -1, math.MaxInt64, math.MinInt64, 0.0, math.Copysign(0, -1), 1.5, 1e300, 1e-7, 123456789012345678.0,
		math.NaN(), math.Inf(1), math.Inf(-1),
		json.Number("12345678901234567890123"), json.Number("1e5"), json.Number("bad"), json.Number("NaN"),
		[]any{}, map[string]any{}, []any{nil, []any{}, map[string]any{}},
		map[string]any{"b": 1, "a": []any{"x", 2.5}, "": nil, "é": "\u00e9", "A": map[string]any{"z": true}},
		map[string]any{"\xff": 1},
		json.RawMessage(`{"x": [1, 2]}`), int64(3), []string{"a"}, map[string]string{"k": "v"},
		map[string]any{"typed": []string{"a", "b"}},
	}
	for i, v := range edge {
		checkGenericCompact(t, "edge value "+string(rune('A'+i)), v)
	}
	n := 0
	for e, data := range corpus.Sample(t) {
		v, err := Decode(data)
		if err != nil {
			continue
		}
		checkGenericCompact(t, e.Path, v)
		n++
	}
	t.Logf("%d corpus notebooks written both ways", n)
}

// Writing generic JSON allocates its output and one key list per object,
// not a reflect.Value per member: at most objects + 2·log2(size) + 4
// allocations, on every small corpus notebook decoded whole.
func TestEncodeCompactGenericAllocs(t *testing.T) {
	checked := 0
	for e, data := range corpus.Files(t) {
		if len(data) > 64<<10 {
			continue
		}
		v, err := Decode(data)
		if err != nil {
			continue
		}
		out, err := encodeCompact(v)
		if err != nil {
			continue
		}
		objects := 0
		var count func(any)
		count = func(v any) {
			switch x := v.(type) {
			case []any:
				for _, el := range x {
					count(el)
				}
			case map[string]any:
				if len(x) > 0 {
					objects++
				}
				for _, el := range x {
					count(el)
				}
			}
		}
		count(v)
		limit := float64(objects + 2*bitsLen(len(out)) + 4) // the buffer grows by less than doubling past 256 bytes
		if got := testing.AllocsPerRun(2, func() { _, _ = encodeCompact(v) }); got > limit {
			t.Errorf("%s: %.0f allocations writing %d bytes of %d objects, want at most %.0f", e.Path, got, len(out), objects, limit)
		}
		checked++
		if checked == 60 {
			break
		}
	}
	if checked == 0 {
		t.Skip("no corpus notebook")
	}
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}
