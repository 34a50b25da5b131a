package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestLIBSVMTestWidth checks that a LIBSVM test or prediction file that
// lacks features of the training file (zeros, which LIBSVM leaves out) or
// has more is read against the model's features, by fit -test and
// predict, and that a test file need not hold a column the fit leaves out
// as constant.
func TestLIBSVMTestWidth(t *testing.T) {
	dir := t.TempDir()
	var train, test strings.Builder
	for i := 0; i < 60; i++ {
		a, b := float64(i%7)/7, float64(i%5)/5
		fmt.Fprintf(&train, "%g 1:%g 2:%g", a+b, a, b)
		if i%3 == 0 {
			fmt.Fprintf(&train, " 3:1")
		}
		train.WriteString(" 4:1\n") // a constant last feature
		if i < 20 {
			fmt.Fprintf(&test, "%g 1:%g 2:%g 5:0.5\n", b+a, b, a) // no 3 or 4, and a 5
		}
	}
	tr := writeFile(t, dir, "train.svm", train.String())
	te := writeFile(t, dir, "test.svm", test.String())
	model := filepath.Join(dir, "m.json")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"fit", "-data", tr, "-target", "y", "-out", model, "-method", "krls", "-test", te, "-quiet"}, &out, &errb); err != nil {
		t.Fatalf("fit -test: %v", err)
	}
	if !strings.Contains(out.String(), "test "+te+": RMSE") {
		t.Errorf("fit -test printed no test scores: %q", out.String())
	}
	for _, data := range []string{te, tr} {
		if err := run(context.Background(), []string{"predict", "-model", model, "-data", data, "-out", filepath.Join(dir, "p.csv")}, &out, &errb); err != nil {
			t.Fatalf("predict %s: %v", data, err)
		}
	}
	// CSV: a test file without a feature column fails before the fit; one
	// without a constant column, which the fit leaves out, is scored.
	csvTrain := writeFile(t, dir, "d.csv", csvTable(40, "a,b,y,c", func(int) string { return "7" }))
	for _, c := range []struct {
		test, want string
	}{{"a,y,c\n0.1,0.2,7\n0.3,0.4,7\n", `has no column "b", a feature of the fit`}, {"a,b,y\n0.1,0.2,0.3\n0.3,0.4,0.5\n", ""}} {
		csvTest := writeFile(t, dir, "t.csv", c.test)
		errb.Reset()
		err := run(context.Background(), []string{"fit", "-data", csvTrain, "-target", "y", "-method", "krls", "-out", filepath.Join(dir, "m2.json"), "-test", csvTest, "-quiet"}, &out, &errb)
		msg, code := explain(err)
		if c.want == "" && err != nil || c.want != "" && (code != exitFailure || !strings.Contains(msg, c.want)) {
			t.Errorf("test file %q: exit %d %q, want %q", c.test, code, msg, c.want)
		}
	}
}

// TestLIBSVMLabelNotFeature checks that select and budget leave a LIBSVM
// pool's label out of the features without -target, and say so.
func TestLIBSVMLabelNotFeature(t *testing.T) {
	dir := t.TempDir()
	var pool strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&pool, "%d 1:%g 2:%g\n", i%2, float64(i%7)/7, float64(i%5)/5)
	}
	p := writeFile(t, dir, "pool.svm", pool.String())
	for _, args := range [][]string{
		{"select", "-pool", p, "-budget", "5", "-out", filepath.Join(dir, "s.csv")},
		{"budget", "-pool", p, "-out", filepath.Join(dir, "b")},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Fatalf("%s: %v", args[0], err)
		}
		if !strings.Contains(errb.String(), "credlab: "+args[0]+": the LIBSVM file's label column y is not a feature") || strings.Contains(errb.String(), "scored as a feature") {
			t.Errorf("%s: stderr %q", args[0], errb.String())
		}
	}
}
