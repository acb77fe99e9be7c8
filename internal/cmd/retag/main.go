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
// Usage: retag -keep json -hidden AdditionalProperties -in FILE.go -out FILE.go
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
	"strconv"
	"strings"
)

func main() {
	in := flag.String("in", "", "generated Go file to read")
	out := flag.String("out", "", "Go file to write (may be -in)")
	keep := flag.String("keep", "json", "comma-separated tag keys to keep")
	hidden := flag.String("hidden", "AdditionalProperties", "comma-separated field names tagged `json:\"-\"` when no tag is left")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: retag [-keep KEYS] [-hidden FIELDS] -in FILE.go -out FILE.go")
		os.Exit(2)
	}
	if err := run(*in, *out, split(*keep), split(*hidden)); err != nil {
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

func run(in, out string, keep, hidden []string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	res, err := retag(in, src, keep, hidden)
	if err != nil {
		return err
	}
	return genfile.Write(out, res)
}

// retag returns src (read from the file name) with its struct tags
// rewritten.
func retag(name string, src []byte, keep, hidden []string) ([]byte, error) {
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
