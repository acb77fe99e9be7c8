package draft04

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// pyNumber reads short integers itself: it gives what ParseFloat gives,
// for every length up to and past maxExactDigits, signs, zeros and
// leading digits.
func TestPyNumberIntegersExact(t *testing.T) {
	ints := []string{"0", "-0", "1", "-1", "9", "10", "999999999999999", "-99999999999999", "100000000000000",
		"9007199254740993", "-9007199254740993", "123456789012345678901234567890"}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 20; n++ {
		for range 50 {
			b := []byte{byte('1' + rng.IntN(9))}
			for len(b) < n {
				b = append(b, byte('0'+rng.IntN(10)))
			}
			ints = append(ints, string(b), "-"+string(b))
		}
	}
	for _, s := range ints {
		tape, err := jsontree.Parse([]byte(s), jsontree.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := strconv.ParseFloat(s, 64)
		if got := pyNumber(tape, jsontree.Root); got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("%s: %v, ParseFloat says %v", s, got, want)
		}
	}
}

// minLength and maxLength count characters: a string with escapes or
// non-ASCII bytes is not counted by its bytes.
func TestStringLengthCountsCharacters(t *testing.T) {
	s, err := Compile([]byte(`{"minLength": 2, "maxLength": 2}`), false)
	if err != nil {
		t.Fatal(err)
	}
	for doc, valid := range map[string]bool{
		`"ab"`: true, `"a"`: false, `"abc"`: false, `"é"`: false, `"éé"`: true, `"\u00e9"`: false,
		`"\u00e9\u00e9"`: true, `"\n"`: false, `"a\n"`: true, `"\ud83d\ude00"`: false, `"😀😀"`: true,
	} {
		tape, err := jsontree.Parse([]byte(doc), jsontree.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Valid(tape, jsontree.Root); got != valid {
			t.Errorf("%s: valid=%v, want %v", doc, got, valid)
		}
	}
}
