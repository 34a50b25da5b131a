// Package apicheck guards the rules the notebook kernel (gophernotes'
// gomacro interpreter) imposes on the packages notebooks import: no type
// parameters in the exported API, and no math/rand types in exported
// signatures (the interpreter's type converter fails on the generic
// functions of math/rand/v2 as soon as such a type is reachable).
package apicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotebookSafeAPI(t *testing.T) {
	for _, dir := range []string{"credlab", "credlab/baselines", "credlab/distreg", "frames", "viz",
		"papers", "papers/cred", "papers/distreg", "papers/nytro", "papers/sgm", "fastblas"} {
		path := filepath.Join("..", "..", dir)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, path, func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for name, f := range p.Files {
				checkFile(t, fset, name, f)
			}
		}
	}
}

func checkFile(t *testing.T, fset *token.FileSet, name string, f *ast.File) {
	randName := ""
	for _, im := range f.Imports {
		if p := strings.Trim(im.Path.Value, `"`); p == "math/rand" || p == "math/rand/v2" {
			randName = "rand"
			if im.Name != nil {
				randName = im.Name.Name
			}
		}
	}
	bad := func(n ast.Node, what string) {
		t.Errorf("%s: %s", fset.Position(n.Pos()), what)
	}
	usesRand := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			if s, ok := m.(*ast.SelectorExpr); ok {
				if id, ok := s.X.(*ast.Ident); ok && randName != "" && id.Name == randName {
					found = true
				}
			}
			return !found
		})
		return found
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			if d.Type.TypeParams != nil {
				bad(d, d.Name.Name+" has type parameters")
			}
			if usesRand(d.Type) {
				bad(d, d.Name.Name+" has a math/rand type in its signature")
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				if ts.TypeParams != nil {
					bad(ts, ts.Name.Name+" has type parameters")
				}
				if usesRand(exportedPart(ts.Type)) {
					bad(ts, ts.Name.Name+" exposes a math/rand type")
				}
			}
		}
	}
}

func exportedRecv(r *ast.FieldList) bool {
	e := r.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedPart drops unexported struct fields, which the interpreter does
// not see.
func exportedPart(e ast.Expr) ast.Node {
	st, ok := e.(*ast.StructType)
	if !ok {
		return e
	}
	out := &ast.FieldList{}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.IsExported() {
				out.List = append(out.List, f)
				break
			}
		}
		if len(f.Names) == 0 {
			out.List = append(out.List, f)
		}
	}
	return out
}
