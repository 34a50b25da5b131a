package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/credlab/credlab/frames"
)

// TestParquetCommands runs select, fit and predict on Parquet copies of the
// CSV test files, with Parquet outputs, and checks they give what the CSV
// runs give.
func TestParquetCommands(t *testing.T) {
	dir := t.TempDir()
	toParquet := func(name string) string {
		df, err := frames.LoadCSV(filepath.Join("testdata", name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := frames.WriteParquet(&buf, df); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".parquet")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	exec := func(args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), append(args, "-quiet"), &out, &errb); err != nil {
			t.Fatalf("credlab %q: %v\n%s", args, err, errb.String())
		}
	}
	for _, format := range []string{"csv", "parquet"} {
		pool, train, test := "testdata/pool.csv", "testdata/train.csv", "testdata/test.csv"
		if format == "parquet" {
			pool, train, test = toParquet("pool"), toParquet("train"), toParquet("test")
		}
		out := func(name string) string { return filepath.Join(dir, format+"-"+name+"."+format) }
		exec("select", "-pool", pool, "-budget", "5", "-exclude", "id", "-out", out("chosen"))
		exec("fit", "-data", train, "-target", "y", "-method", "krls", "-out", filepath.Join(dir, format+".json"))
		exec("predict", "-model", filepath.Join(dir, format+".json"), "-data", test, "-out", out("pred"))
	}
	for _, name := range []string{"chosen", "pred"} {
		a, err := frames.LoadCSV(filepath.Join(dir, "csv-"+name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := frames.LoadParquet(filepath.Join(dir, "parquet-"+name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if a.Nrow() != b.Nrow() || a.Ncol() != b.Ncol() {
			t.Fatalf("%s: %d x %d from CSV, %d x %d from Parquet", name, a.Nrow(), a.Ncol(), b.Nrow(), b.Ncol())
		}
		for _, c := range a.Names() {
			x, y := a.Col(c).Float(), b.Col(c).Float()
			for i := range x {
				if x[i] != y[i] {
					t.Fatalf("%s column %s row %d: %v from CSV, %v from Parquet", name, c, i, x[i], y[i])
				}
			}
		}
	}
}
