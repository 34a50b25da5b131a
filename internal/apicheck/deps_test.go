package apicheck

import (
	"os/exec"
	"strings"
	"testing"
)

// kernelForbidden are import-path prefixes the notebook packages must not
// link: Apache Arrow (Parquet, in package frames/parquet) and what it
// brings (gRPC, protobuf, golang.org/x/sync), and the golang.org/x
// modules the gophernotes kernel links at its own versions (a plugin and
// its host sharing a package at two versions fail at plugin.Open), besides
// keeping the kernel's imports light.
var kernelForbidden = []string{
	"github.com/apache/arrow-go/",
	"google.golang.org/",
	"golang.org/x/sync/",
	"golang.org/x/tools/",
	"golang.org/x/mod/",
}

// TestNotebookDeps lists the dependencies of the packages notebooks import
// with `go list -deps` and refuses the forbidden ones.
func TestNotebookDeps(t *testing.T) {
	goCmd, err := exec.LookPath("go") // go test puts its go command on PATH
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"credlab", "credlab/baselines", "credlab/distreg", "frames", "viz",
		"papers", "papers/cred", "papers/distreg", "papers/nytro", "papers/sgm"}
	args := []string{"list", "-deps"}
	for _, p := range pkgs {
		args = append(args, "github.com/credlab/credlab/"+p)
	}
	out, err := exec.Command(goCmd, args...).Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed %d packages: %q", len(deps), out)
	}
	for _, d := range deps {
		for _, f := range kernelForbidden {
			if strings.HasPrefix(d+"/", f) {
				t.Errorf("%s links %s: move the code that imports it into a package of its own (as frames/parquet)", strings.Join(pkgs, ", "), d)
			}
		}
	}
}

// module is the import path of this module.
const module = "github.com/credlab/credlab"

// layer returns the layer of a package of the module, given by its path
// inside the module: 0 for the commands (cmd, bench, examples), then
// papers (its registry of reproductions and the staged data sets), the
// papers' packages (papers/cred, papers/distreg, papers/nytro,
// papers/sgm), what they share (papers/internal/...), viz, frames (with
// frames/parquet), the sub-packages of credlab (credlab/baselines,
// credlab/distreg), credlab, and last fastblas and internal.
func layer(rel string) int {
	under := func(p string) bool { return rel == p || strings.HasPrefix(rel, p+"/") }
	switch {
	case under("cmd"), under("bench"), under("examples"):
		return 0
	case rel == "papers":
		return 1
	case under("papers/internal"):
		return 3
	case under("papers"):
		return 2
	case under("viz"):
		return 4
	case under("frames"):
		return 5
	case strings.HasPrefix(rel, "credlab/"):
		return 6
	case rel == "credlab":
		return 7
	case under("fastblas"), under("internal"):
		return 8
	}
	return -1
}

// TestLayering lists each package's imports with `go list` and refuses an
// import of a package of a higher layer (see layer): the library's code
// depends downwards only, cmd -> papers -> papers/* -> papers/internal/*
// -> viz -> frames -> credlab/* -> credlab -> fastblas and internal.
func TestLayering(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goCmd, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list printed %d packages", len(lines))
	}
	for _, line := range lines {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module+"/")
		lp := layer(pkg)
		if lp < 0 {
			t.Errorf("package %s has no layer: add it to layer", pkg)
			continue
		}
		for _, imp := range f[1:] {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if li := layer(rel); li < lp {
				t.Errorf("%s imports %s, a package of a higher layer", pkg, rel)
			}
		}
	}
}
