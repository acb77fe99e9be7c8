// Command retag rewrites the struct tags of generated Go code, the last
// step of generating nbformat/schema_gen.go (see generate.go).
//
// go-jsonschema gives the AdditionalProperties field of every struct a
// `mapstructure:",remain"` tag, whatever its --tags flag says, for a
// decoding library this module does not use. retag keeps, on every struct
// field, only the tag keys named by -keep, and tags a field left with none
// `json:"-"` when it is named by -hidden (the generated field that keeps
// unnamed members: package nbformat reads and writes it by its name, and
// encoding/json must not write it as a member of its own). Anything else
// in the file, comments included, is printed unchanged (gofmt layout).
//
// With -state NAME:TYPE, retag also gives every struct that has a
// member named in -state-members (cell_type, output_type: the variants of
// cells and outputs) an unexported last field NAME of type TYPE, declared
// by package nbformat: where the value was read from (its provenance).
//
// Usage: retag -keep json -hidden AdditionalProperties [-state src:nodeRef -state-members cell_type,output_type] -in FILE.go -out FILE.go
//
// -in and -out may be the same file; the output is replaced atomically.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/nbdialog/ipynb/internal/genfile"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
)

func main() {
	in := flag.String("in", "", "generated Go file to read")
	out := flag.String("out", "", "Go file to write (may be -in)")
	keep := flag.String("keep", "json", "comma-separated tag keys to keep")
	hidden := flag.String("hidden", "AdditionalProperties", "comma-separated field names tagged `json:\"-\"` when no tag is left")
	state := flag.String("state", "", `unexported field NAME:TYPE added to the structs with a member of -state-members`)
	stateMembers := flag.String("state-members", "", "comma-separated JSON member names marking the structs that get -state")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: retag [-keep KEYS] [-hidden FIELDS] -in FILE.go -out FILE.go")
		os.Exit(2)
	}
	st, err := parseState(*state, split(*stateMembers))
	if err != nil {
		fmt.Fprintln(os.Stderr, "retag:", err)
		os.Exit(2)
	}
	if err := run(*in, *out, split(*keep), split(*hidden), st); err != nil {
		fmt.Fprintln(os.Stderr, "retag:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// stateField is the provenance field retag adds (name "" for none).
type stateField struct {
	name, typ string
	members   []string
}

func parseState(s string, members []string) (stateField, error) {
	if s == "" {
		return stateField{}, nil
	}
	f := strings.Split(s, ":")
	if len(f) != 2 || token.IsExported(f[0]) || !token.IsIdentifier(f[0]) || !token.IsIdentifier(f[1]) || len(members) == 0 {
		return stateField{}, fmt.Errorf(`-state wants name:Type (an unexported name) and -state-members`)
	}
	return stateField{name: f[0], typ: f[1], members: members}, nil
}

func run(in, out string, keep, hidden []string, st stateField) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	res, err := retag(in, src, keep, hidden, st)
	if err != nil {
		return err
	}
	return genfile.Write(out, res)
}

// retag returns src (read from the file name) with its struct tags
// rewritten.
func retag(name string, src []byte, keep, hidden []string, state stateField) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var bad error
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || bad != nil {
			return bad == nil
		}
		for _, field := range st.Fields.List {
			tag, err := newTag(field, keep, hidden)
			if err != nil {
				bad = fmt.Errorf("%s: %w", fset.Position(field.Pos()), err)
				return false
			}
			switch {
			case tag == "" && field.Tag != nil:
				field.Tag = nil
			case tag != "":
				if field.Tag == nil {
					field.Tag = &ast.BasicLit{ValuePos: field.Type.End(), Kind: token.STRING}
				}
				field.Tag.Value = "`" + tag + "`"
			}
		}
		if state.name != "" && hasMember(st, state.members) && !hasField(st, state.name) {
			st.Fields.List = append(st.Fields.List, &ast.Field{
				Names: []*ast.Ident{ast.NewIdent(state.name)},
				Type:  ast.NewIdent(state.typ),
			})
		}
		return true
	})
	if bad != nil {
		return nil, bad
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// hasMember reports whether st has a field whose json name is one of
// names.
func hasMember(st *ast.StructType, names []string) bool {
	for _, f := range st.Fields.List {
		if f.Tag == nil {
			continue
		}
		s, err := strconv.Unquote(f.Tag.Value)
		if err != nil {
			continue
		}
		key, _, _ := strings.Cut(reflect.StructTag(s).Get("json"), ",")
		for _, n := range names {
			if key == n {
				return true
			}
		}
	}
	return false
}

func hasField(st *ast.StructType, name string) bool {
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// newTag returns the tag field should have: its keys in keep, in their
// order, or json:"-" for a hidden field left with none.
func newTag(field *ast.Field, keep, hidden []string) (string, error) {
	var pairs [][2]string
	if field.Tag != nil {
		s, err := strconv.Unquote(field.Tag.Value)
		if err == nil {
			pairs, err = parseTag(s)
		}
		if err != nil {
			return "", fmt.Errorf("struct tag %s: %w", field.Tag.Value, err)
		}
	}
	var parts []string
	for _, k := range keep {
		for _, p := range pairs {
			if p[0] == k {
				parts = append(parts, k+":"+strconv.Quote(p[1]))
				break
			}
		}
	}
	if len(parts) == 0 {
		for _, n := range field.Names {
			for _, h := range hidden {
				if n.Name == h {
					return `json:"-"`, nil
				}
			}
		}
	}
	return strings.Join(parts, " "), nil
}

// parseTag splits a struct tag into its key:"value" pairs, in the
// conventional syntax reflect.StructTag reads; unlike Lookup, which skips
// what it cannot read, it reports a malformed tag.
func parseTag(tag string) ([][2]string, error) {
	var pairs [][2]string
	for {
		tag = strings.TrimLeft(tag, " ")
		if tag == "" {
			return pairs, nil
		}
		i := 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return nil, fmt.Errorf("malformed at %q", tag)
		}
		key := tag[:i]
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return nil, fmt.Errorf("unterminated value of %s", key)
		}
		value, err := strconv.Unquote(tag[:i+1])
		if err != nil {
			return nil, fmt.Errorf("value of %s: %w", key, err)
		}
		pairs = append(pairs, [2]string{key, value})
		tag = tag[i+1:]
	}
}
