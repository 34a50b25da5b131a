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
