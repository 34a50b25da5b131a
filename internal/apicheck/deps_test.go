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
	pkgs := []string{"credlab", "credlab/baselines", "credlab/distreg", "frames", "viz", "papers"}
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
