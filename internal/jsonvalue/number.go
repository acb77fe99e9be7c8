package jsonvalue

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Numbers are equal as Python compares the values its json module reads:
// a number written without a fraction or exponent is an exact integer
// (of any size), any other a float64 (rounded to the nearest, ±Inf past
// its range), and an integer equals a float64 exactly when they are the
// same number (1 == 1.0 == 1e0 == 10E-1, 0.1 == 0.10000000000000001,
// -0.0 == 0, but 10**30 != 1e30, whose float64 is not 10**30). Unlike
// Python, NaN equals NaN (a value left alone is not a change), and
// booleans are not numbers (Python's True == 1 is a property of its types,
// not of JSON). The Go types are those values and writers hold numbers
// in: int and the other integer types, float64, float32 (as encoding/json
// writes it) and json.Number (as its text reads).

// number is a JSON number: an exact integer or a float64.
type number struct {
	isFloat bool
	f       float64
	i       *big.Int
}

// asNumber returns v as a number, if it is one.
func asNumber(v any) (number, bool) {
	switch x := v.(type) {
	case int:
		return number{i: big.NewInt(int64(x))}, true
	case float64:
		return number{isFloat: true, f: x}, true
	case json.Number:
		return parseNumber(string(x))
	case int64:
		return number{i: big.NewInt(x)}, true
	case int32:
		return number{i: big.NewInt(int64(x))}, true
	case int16:
		return number{i: big.NewInt(int64(x))}, true
	case int8:
		return number{i: big.NewInt(int64(x))}, true
	case uint:
		return number{i: new(big.Int).SetUint64(uint64(x))}, true
	case uint64:
		return number{i: new(big.Int).SetUint64(x)}, true
	case uint32:
		return number{i: big.NewInt(int64(x))}, true
	case uint16:
		return number{i: big.NewInt(int64(x))}, true
	case uint8:
		return number{i: big.NewInt(int64(x))}, true
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return number{isFloat: true, f: f}, true
	}
	return number{}, false
}

// parseNumber reads a number's text as Python's json reads it.
func parseNumber(s string) (number, bool) {
	if s == "" {
		return number{}, false
	}
	if !strings.ContainsAny(s, ".eEnNiI") {
		i, ok := new(big.Int).SetString(s, 10)
		return number{i: i}, ok
	}
	switch s {
	case "NaN":
		return number{isFloat: true, f: math.NaN()}, true
	case "Infinity":
		return number{isFloat: true, f: math.Inf(1)}, true
	case "-Infinity":
		return number{isFloat: true, f: math.Inf(-1)}, true
	}
	if strings.ContainsAny(s, "nNiI") {
		return number{}, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRange(err) {
		return number{}, false
	}
	return number{isFloat: true, f: f}, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// equal reports whether two numbers are the same (see above).
func (x number) equal(y number) bool {
	switch {
	case x.isFloat && y.isFloat:
		return x.f == y.f || math.IsNaN(x.f) && math.IsNaN(y.f)
	case !x.isFloat && !y.isFloat:
		return x.i.Cmp(y.i) == 0
	case x.isFloat:
		return intIsFloat(y.i, x.f)
	}
	return intIsFloat(x.i, y.f)
}

// intIsFloat reports whether the integer i is exactly f.
func intIsFloat(i *big.Int, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return false
	}
	if i.IsInt64() && math.Abs(f) < 1<<53 {
		return i.Int64() == int64(f)
	}
	fi, _ := big.NewFloat(f).Int(nil)
	return fi.Cmp(i) == 0
}

// numbersEqual reports whether a and b are numbers, and whether they are
// equal: the common Go types without allocating.
func numbersEqual(a, b any) (eq, both bool) {
	switch x := a.(type) {
	case int:
		if y, ok := b.(int); ok {
			return x == y, true
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x == y || math.IsNaN(x) && math.IsNaN(y), true
		}
	case json.Number:
		if y, ok := b.(json.Number); ok && x == y {
			return true, true
		}
	}
	x, ok := asNumber(a)
	if !ok {
		return false, false
	}
	y, ok := asNumber(b)
	if !ok {
		return false, false
	}
	return x.equal(y), true
}
