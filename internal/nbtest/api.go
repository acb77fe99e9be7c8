package nbtest

// CheckAPI: a package's exported API is the list in a golden file.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CheckAPI checks that the exported API of the package in dir (its
// non-test files) is exactly the list in the file golden, one identifier a
// line ("func F", "type T", "const C", "var V", "method T.M"; blank lines
// and lines starting with # are ignored): a change to a public surface is
// a deliberate edit of that file, reviewed with the code.
func CheckAPI(t *testing.T, dir, golden string) {
	t.Helper()
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := exportedAPI(t, dir)
	var wantList []string
	for _, line := range strings.Split(string(want), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			wantList = append(wantList, line)
		}
	}
	for _, g := range got {
		if !slices.Contains(wantList, g) {
			t.Errorf("exported but not in %s: %s", golden, g)
		}
	}
	for _, w := range wantList {
		if !slices.Contains(got, w) {
			t.Errorf("in %s but not exported: %s", golden, w)
		}
	}
}

func exportedAPI(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	var names []string
	for _, f := range files {
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
	}
	slices.Sort(names)
	return names
}
