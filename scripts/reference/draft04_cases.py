#!/usr/bin/python3
"""Expected verdicts for internal/draft04's unit tests, from fastjsonschema (the validator Debian's
python3-nbformat 5.5 uses), on draft-04 schemas exercising each keyword the package supports with
Python's value semantics (1 == 1.0 == True in enum and uniqueItems, "integer" excludes 1.0, lengths
in code points, patterns searched with fastjsonschema's rewrite of "$").

Usage: draft04_cases.py > internal/draft04/testdata/cases.json
Each case is {"name", "schema", "instance", "valid"} (instance as JSON text, so that 1.0 stays 1.0)."""
import json, sys, warnings
warnings.filterwarnings('ignore')
import fastjsonschema

D4 = "http://json-schema.org/draft-04/schema#"
cases = []
def case(name, schema, *instances):
    for i, inst in enumerate(instances):
        cases.append((f"{name}/{i}", schema, inst))

case("TypeInteger", {"type": "integer"}, "1", "1.0", "-5", "1e2", "true", '"1"', "null")
case("TypeNumber", {"type": "number"}, "1", "1.5", "true", '"1"')
case("TypeBoolean", {"type": "boolean"}, "true", "false", "0", "null")
case("TypeNull", {"type": "null"}, "null", "false", "0", '""')
case("TypeList", {"type": ["string", "null"]}, '"x"', "null", "1", "[]")
case("TypeObjectArray", {"type": "object"}, "{}", "[]", '{"a": 1}')
case("EnumPythonEquality", {"enum": [1, "a", None]}, "1", "1.0", "true", "false", '"a"', "null", "0", "2")
case("EnumFalse", {"enum": [False]}, "false", "0", "0.0", "null", '""')
case("EnumNested", {"enum": [[1, {"a": True}]]}, '[1, {"a": true}]', '[true, {"a": 1}]', '[1.0, {"a": 1.0}]', '[1]', '[1, {"a": false}]')
case("Properties", {"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}, '{}', '{"a": "x", "b": 2}', '{"a": 1}', '{"b": "x"}', '{"c": 1}', '[]', '"a"')
case("Required", {"required": ["a", "b"]}, '{"a": 1, "b": null}', '{"a": 1}', '{}', '[]', '"s"')
case("AdditionalFalse", {"properties": {"a": {}}, "patternProperties": {"^x": {}}, "additionalProperties": False}, '{"a": 1}', '{"x1": 1}', '{"b": 1}', '{"a": 1, "y": 2}')
case("AdditionalSchema", {"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}, '{"a": "s", "b": 1}', '{"b": "s"}', '{"b": 1.0}')
case("PatternPropertiesDollar", {"patternProperties": {"^.*$": {"type": "string"}}}, '{"a": "s"}', '{"a": 1}', '{"a\\n": 1}', '{"a\\nb": 1}', '{"\\n": 1}', '{"a\\n\\n": 1}', '{"a\\r\\n": 1}')
case("PatternPropertiesJSON", {"patternProperties": {"^application/(.*\\+)?json$": {}}, "additionalProperties": {"type": "string"}},
     '{"application/json": 1}', '{"application/json\\n": 1}', '{"application/json\\n\\n": 1}', '{"application/vnd.a+json": []}', '{"application/a\\n+json": 1}', '{"text/plain": 1}')
case("PatternCellID", {"type": "string", "pattern": "^[a-zA-Z0-9-_]+$", "minLength": 1, "maxLength": 64},
     '"abc"', '"abc\\n"', '"abc\\r\\n"', '"a\\nb"', '"a-b_C9"', '"a.b"', '""', '"' + "a" * 64 + '"', '"' + "a" * 65 + '"', "5")
case("PatternNonEmpty", {"pattern": "^.+$"}, '"a"', '"a\\n"', '"\\n"', '"a\\nb"', '""', '"\\r"', '"a\\r\\n"', "1", "null")
case("PatternNoComma", {"pattern": "^[^,]+$"}, '"a"', '"a\\n"', '"a,b"', '"\\n"', '""')
case("PatternSearch", {"pattern": "b"}, '"abc"', '"ac"')
case("PatternEscapedBackslashDollar", {"pattern": "a\\\\$"}, '"a\\\\"', '"a\\\\\\n"', '"a"')
case("PatternLiteralDollar", {"pattern": "\\$"}, '"$"', '"a$b"', '"a"')
case("PatternDigits", {"pattern": "^\\d+$"}, '"123"', '"\u0661\u0662"', '"12a"', '"12\\n"')
case("PatternOpenRepeat", {"pattern": "^x{,2}y"}, '"xxy"', '"y"', '"xxxy"', '"x{,2}y"')
case("MinMaxLengthCodePoints", {"minLength": 2, "maxLength": 3}, '"é"', '"éé"', '"ééé"', '"éééé"', '"😀😀"', "5")
case("Minimum", {"minimum": 1}, "1", "0.5", "0", '"x"')
case("ExclusiveMinimum", {"minimum": 1, "exclusiveMinimum": True}, "1", "1.5", "1.0")
case("Maximum", {"maximum": 3}, "3", "3.5", "-1")
case("ExclusiveMaximum", {"maximum": 3, "exclusiveMaximum": True}, "3", "2.9", "3.0")
case("MinimumInteger", {"type": "integer", "minimum": 0}, "0", "-1", "0.0")
case("ItemsSchema", {"items": {"type": "string"}}, '[]', '["a", "b"]', '["a", 1]', '{"0": 1}')
case("ItemsList", {"items": [{"type": "string"}, {"type": "integer"}]}, '["a", 1]', '["a"]', '[1, "a"]', '["a", 1, null]')
case("UniqueItems", {"uniqueItems": True}, '[1, 2]', '[1, 1]', '[1, 1.0]', '[1, true]', '[0, false]', '["a", "a"]', '[[1], [1]]', '[{"a": 1}, {"a": 1}]', '[{"a": 1}, {"a": 2}]', '[]',
     '[true, "True"]', '[false, "False"]', '[true, true]', '[[true], [1]]', '[[1.0], [1]]', '[null, null]', '[null, "None"]', '["1", 1]',
     '[0, -0.0]', '[1e2, 100]', '[100000000000000000000, 1e20]', '[123456789012345678901, 1.2345678901234568e20]', '[0.1, 0.10]',
     '[NaN, NaN]', '[Infinity, 1e400]', '[-Infinity, Infinity]', '[{"a": 1, "b": 2}, {"b": 2, "a": 1.0}]', '[{"a": 1, "a": 2}, {"a": 2}]',
     '[{"a": [1]}, {"a": [true]}]', '[[], {}]', '[[["a", 1]], {"a": 1}]')
case("OneOf", {"oneOf": [{"type": "integer"}, {"minimum": 2}]}, "1", "3", "1.5", "2.5", '"x"')
case("AnyOf", {"anyOf": [{"type": "integer"}, {"type": "string"}]}, "1", '"x"', "1.5", "null")
case("AllOf", {"allOf": [{"type": "integer"}, {"minimum": 2}]}, "3", "1", "2.5")
case("Not", {"not": {"type": "string"}}, "1", '"x"', "null")
case("Ref", {"definitions": {"pos": {"type": "integer", "minimum": 1}}, "properties": {"a": {"$ref": "#/definitions/pos"}}}, '{"a": 1}', '{"a": 0}', '{"a": "x"}')
case("RefNested", {"definitions": {"misc": {"s": {"type": "string"}}}, "items": {"$ref": "#/definitions/misc/s"}}, '["a"]', '[1]')
case("RefReplacesSiblings", {"definitions": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/s", "type": "integer"}}}, '{"a": "x"}', '{"a": 1}')
case("Empty", {}, "1", '"x"', "null", "[]", "{}")

out = []
for name, schema, inst in cases:
    s = dict(schema); s["$schema"] = D4
    v = fastjsonschema.compile(s)
    try:
        v(json.loads(inst)); ok = True
    except fastjsonschema.JsonSchemaException:
        ok = False
    out.append({"name": name, "schema": schema, "instance": inst, "valid": ok})
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
print()
