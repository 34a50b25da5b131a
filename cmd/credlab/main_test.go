package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
)

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"demo", "-n", "300", "-m", "30", "-pool", "200", "-labels", "20", "-reps", "1", "-out", dir}, &out, &errb); err != nil {
		t.Fatalf("demo: %v\n%s", err, errb.String())
	}
	for _, want := range []string{"KOLS", "KRLS (20 lambdas)", "EarlyStopping, nu-method", "NKRLS m=30", "NYTRO m=30", "test RMSE", "CRED test RMSE", "KRR test RMSE"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "<svg"); n != 4 || !strings.Contains(string(page), "<table>") {
		t.Errorf("report.html has %d figures, want 4, and a table", n)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"frobnicate"},
		{"demo", "-n", "x"},
		{"demo", "-n", "5"},
		{"demo", "extra"},
		{"reproduce"},
		{"reproduce", "nosuchpaper"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), args, &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got %v, want a usage error (exit 2)", args, err)
		}
	}
}

func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &out, &errb); err != nil || !strings.Contains(out.String(), "credlab demo") {
		t.Fatalf("help: %v %q", err, out.String())
	}
	if err := run(context.Background(), []string{"demo", "-h"}, &out, &errb); !errors.Is(err, flag.ErrHelp) || !strings.Contains(errb.String(), "-sigma") {
		t.Fatalf("demo -h: %v %q", err, errb.String())
	}
}

// TestExplainTypes checks the exit status and flag that explain gives by
// error type: settings a flag sets are usage errors naming the flag, a
// setting that comes from the data and a singular system are failures.
func TestExplainTypes(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		want string
	}{
		{&credlab.ParamError{Name: "Grid.Sigma[2]", Value: -1.0, Want: "a positive sigma"}, exitUsage, "flag -sigma -1"},
		{&credlab.ParamError{Name: "Spec.M", Value: -3, Want: "a positive m"}, exitUsage, "flag -m -3"},
		{&credlab.ParamError{Name: "score", Value: 0.0, Want: "scores with a positive sum"}, exitFailure, "score"},
		{&credlab.SingularError{System: "KRLS", Setting: "lambda", Value: "1e-300"}, exitFailure, "use a larger -lambda"},
	} {
		msg, code := explain(c.err)
		if code != c.code || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d %q, want exit %d and %q", c.err, code, msg, c.code, c.want)
		}
	}
}
