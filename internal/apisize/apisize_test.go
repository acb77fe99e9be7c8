// Package apisize bounds the public surface of the library: the exported
// identifiers of nbformat, dialog, convert and schema together (issue 22).
package apisize

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxExported is the most exported identifiers the four packages have
// together: package-level funcs, types, vars and consts, and the methods
// of exported types, in non-test files (fields and interface methods are
// not counted). Issue 22 sets 220; the bound only goes down.
const maxExported = 220

var packages = []string{"nbformat", "dialog", "convert", "schema"}

// exported returns the exported identifiers of the package in dir, as
// "func F", "type T", "var V", "const C" and "method T.M".
func exported(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var names []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, "func "+d.Name.Name)
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				switch r := recv.(type) {
				case *ast.IndexExpr:
					recv = r.X
				case *ast.IndexListExpr:
					recv = r.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
					names = append(names, "method "+id.Name+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, "type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// TestSize: at most maxExported identifiers in all; set IPYNB_API_LIST=1
// to log them.
func TestSize(t *testing.T) {
	total := 0
	for _, p := range packages {
		names := exported(t, filepath.Join("..", "..", p))
		methods := 0
		for _, n := range names {
			if strings.HasPrefix(n, "method ") {
				methods++
			}
		}
		t.Logf("%s: %d (%d package-level, %d methods)", p, len(names), len(names)-methods, methods)
		if os.Getenv("IPYNB_API_LIST") != "" {
			t.Logf("%s:\n\t%s", p, strings.Join(names, "\n\t"))
		}
		total += len(names)
	}
	t.Logf("total: %d (at most %d)", total, maxExported)
	if total > maxExported {
		t.Errorf("%d exported identifiers in %s, want at most %d", total, strings.Join(packages, ", "), maxExported)
	}
}
