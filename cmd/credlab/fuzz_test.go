package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
)

// pathFlags take file names: the fuzzer never sets them, so that it
// writes only into its temporary directory and reads only its own files.
var pathFlags = []string{"out", "svg", "model", "data", "pool", "in", "from", "labels", "memory-limit"}

// fuzzArgs turns the fuzzer's text into arguments: space-separated tokens,
// without the path flags.
func fuzzArgs(s string) []string {
	var out []string
	for _, tok := range strings.Fields(s) {
		name := strings.TrimLeft(tok, "-")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		skip := false
		for _, p := range pathFlags {
			if strings.HasPrefix(tok, "-") && name == p {
				skip = true
			}
		}
		if !skip {
			out = append(out, tok)
		}
	}
	return out
}

// FuzzCLI runs the data commands in process on a fuzzed data file and
// fuzzed flags: no input may panic, and a failure must leave no output.
func FuzzCLI(f *testing.F) {
	for _, c := range []struct {
		cmd   uint8
		flags string
		data  string
	}{
		{0, "-target y -lambda 1e-3 -validation 0", "a,b,y\n1,2,3\n4,5,6\n7,8,9\n"},
		{0, "-target y", "a,b,y\n1,2,3\n4,abc,6\n7,8,9\n"},
		{0, "-target y -bad-as-missing -dropna", "a,b,y\n1,2,3\n4,1e999,6\n7,8,9\n1,1,1\n"},
		{0, "-target y -onehot", "a,c,y\n1,x,3\n4,y,6\n7,x,9\n"},
		{0, "-target y -method nkrls -m 60000", "a,y\n1,2\n3,4\n5,6\n"},
		{0, "-target y -lambda -1", "a,y\n1,2\n3,4\n"},
		{1, "-budget 2 -sigma 0.5", "\ufeffa,b\n1,2\n3,4\n5,6\n"},
		{1, "-budget 10 -features nystrom -m 3", "a,a\n1,2\n"},
		{1, "-budget 2 -target y", "a\x00\x00,y\n1,2\n3,4\n"},
		{2, "", "x1,x2\n1,2\n"},
		{3, "-target y -method nytro -m 1,2,400", "a,y\n1,2\n3,4\n5,6\n7,8\n9,1\n"},
		{4, "-target y", "a,y,row,prob,weight\n1,,0,0.5,1\n"},
		{0, "-target y -format arff", "@relation r\n@attribute a numeric\n@attribute y numeric\n@data\n1,2\n3,4\n5,?\n"},
		{0, "-target y -format libsvm", "1 1:2\n2 1:3 2:1\n"},
		{0 + 8, "-target y", "a\ty\n1\t2\n3\t4\n5\t6\n"},
		{0 + 16, "-target y", "@relation r\n@attribute a numeric\n@attribute y numeric\n@data\n1,2\n3,4\n5,6\n"},
		{1 + 24, "-budget 2", "1 1:2\n2 1:3 2:1\n3 100000000:1\n"},
		{5, "", `{"version":"1.0","spec":{"target":"y","method":"krls"},"features":["x1","x2"]}`},
	} {
		f.Add(c.cmd, c.flags, []byte(c.data))
	}
	model := filepath.Join(f.TempDir(), "m.json")
	if err := run(context.Background(), []string{"fit", "-data", "testdata/train.csv", "-target", "y", "-out", model, "-quiet"}, io.Discard, io.Discard); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd uint8, flags string, data []byte) {
		defer func(v int64) { credlab.MemoryLimit = v }(credlab.MemoryLimit)
		credlab.MemoryLimit = 64 << 20
		dir := t.TempDir()
		// Bits 3-4 of cmd choose the file's format by its name.
		file := filepath.Join(dir, "data"+[]string{".csv", ".tsv", ".arff", ".libsvm"}[cmd/8%4])
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out.csv")
		var args []string
		switch cmd % 8 % 6 {
		case 0:
			args = []string{"fit", "-data", file}
		case 1:
			args = []string{"select", "-pool", file}
		case 2:
			args = []string{"predict", "-model", model, "-data", file}
		case 3:
			args = []string{"sweep", "-data", file}
		case 4:
			args = []string{"label", "-in", file, "-from", file}
		case 5:
			// The fuzzed bytes are a model file.
			args = []string{"predict", "-model", file, "-data", "testdata/train.csv"}
		}
		args = append(append(args, "-out", out), fuzzArgs(flags)...)
		// Bound the work a fuzzed flag can ask for (-max-iter 1e9).
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var stdout, stderr bytes.Buffer
		err := run(ctx, args, &stdout, &stderr)
		msg, code := explain(err)
		if err != nil && (code == exitOK || msg == "") {
			t.Fatalf("error %v explained as exit %d %q", err, code, msg)
		}
		if _, serr := os.Stat(out); err != nil && serr == nil {
			t.Fatalf("failed (%v) but wrote %s", err, out)
		}
	})
}
