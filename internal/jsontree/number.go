package jsontree

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// AppendPythonFloat appends f as Python's repr(float) spells it, which is
// what json.dumps writes: the shortest digits that round-trip, "1.0" for
// integral values, exponent form ("1e+16", "2.5e-07") when the decimal
// exponent is below -4 or above 15, and NaN, Infinity, -Infinity.
func AppendPythonFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // -d.ddde±dd
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	mant, exp, _ := strings.Cut(string(e), "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	decpt := x + 1 // position of the decimal point relative to digits
	if decpt <= -4 || decpt > 16 {
		dst = append(dst, digits[0])
		if len(digits) > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if x < 0 {
			dst = append(dst, '-')
			x = -x
		} else {
			dst = append(dst, '+')
		}
		if x < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(x), 10)
	}
	switch {
	case decpt <= 0:
		dst = append(dst, "0."...)
		for i := 0; i < -decpt; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	case decpt >= len(digits):
		dst = append(dst, digits...)
		for i := len(digits); i < decpt; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, ".0"...)
	default:
		dst = append(dst, digits[:decpt]...)
		dst = append(dst, '.')
		dst = append(dst, digits[decpt:]...)
	}
	return dst
}

// AppendPythonNumber appends the number token raw (with flags from its node)
// as Python's json.dumps(json.loads(raw)) writes it: integers keep their
// digits ("-0" becomes "0"), everything else goes through float.
func AppendPythonNumber(dst, raw []byte, flags uint8) []byte {
	if flags&FlagInt != 0 {
		if string(raw) == "-0" {
			return append(dst, '0')
		}
		return append(dst, raw...)
	}
	switch string(raw) {
	case "NaN":
		return append(dst, "NaN"...)
	case "Infinity":
		return append(dst, "Infinity"...)
	case "-Infinity":
		return append(dst, "-Infinity"...)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !math.IsInf(f, 0) {
		return append(dst, raw...)
	}
	return AppendPythonFloat(dst, f)
}

// NumberValue is the Go value of a JSON number: int when it is an integer
// that fits, json.Number for larger integers, float64 otherwise.
func NumberValue(raw []byte, flags uint8) any {
	if flags&FlagInt != 0 {
		if i, err := strconv.ParseInt(string(raw), 10, 0); err == nil {
			return int(i)
		}
		return json.Number(raw)
	}
	switch string(raw) {
	case "NaN":
		return math.NaN()
	case "Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return f
}
