// Package examples holds the README's Go examples as main packages: this
// test checks that each README block is its example's code, word for word,
// and runs the examples.
package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// block returns the lines of path between "// README: begin" and
// "// README: end", one tab of indentation removed.
func block(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, "// README: begin\n"), strings.Index(s, "\t// README: end")
	if i < 0 || j < i {
		t.Fatalf("%s has no README block", path)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s[i+len("// README: begin\n"):j], "\n"), "\n") {
		out = append(out, strings.TrimPrefix(l, "\t"))
	}
	return strings.Join(out, "\n")
}

var readmeBlock = regexp.MustCompile("(?s)<!-- example: (examples/[a-z]+) -->\n```go\n(.*?)\n```")

func TestREADMEExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	found := readmeBlock.FindAllStringSubmatch(string(readme), -1)
	if len(found) < 2 {
		t.Fatalf("README has %d example blocks, want 2", len(found))
	}
	if n := strings.Count(string(readme), "```go"); n != len(found) {
		t.Errorf("README has %d Go blocks but %d are marked as examples: every Go block must be a compiled example", n, len(found))
	}
	for _, m := range found {
		if want := block(t, filepath.Join("..", m[1], "main.go")); m[2] != want {
			t.Errorf("README block of %s differs from its code:\n--- README\n%s\n--- %s/main.go\n%s", m[1], m[2], m[1], want)
		}
		cmd := exec.Command("go", "run", "./"+m[1], t.TempDir())
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go run ./%s: %v\n%s", m[1], err, out)
		}
	}
}
