package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/frames/parquet"
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
		if err := parquet.Write(&buf, df); err != nil {
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
		b, err := parquet.Load(filepath.Join(dir, "parquet-"+name+".parquet"))
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

// TestPredictScoresAndMissing checks fit -test and predict's scores against
// frames.Score, and predict -missing.
func TestPredictScoresAndMissing(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"fit", "-data", "testdata/train.csv", "-target", "y", "-method", "krls", "-test", "testdata/test.csv", "-out", model}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	m, err := frames.LoadModelFile(model)
	if err != nil {
		t.Fatal(err)
	}
	test, err := frames.LoadCSV("testdata/test.csv")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := m.Scores(test)
	if err != nil {
		t.Fatal(err)
	}
	if want := "test testdata/test.csv: " + sc.String(); !strings.Contains(out.String(), want) {
		t.Errorf("fit -test prints\n%s\nwant a line %q", out.String(), want)
	}
	out.Reset()
	if err := run(context.Background(), []string{"predict", "-model", model, "-data", "testdata/test.csv", "-out", filepath.Join(dir, "p.csv"), "-quiet"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if want := "target y: " + sc.String(); !strings.Contains(out.String(), want) {
		t.Errorf("predict prints %q, want %q", out.String(), want)
	}
	// A missing feature value in data row 2.
	raw, _ := os.ReadFile("testdata/test.csv")
	lines := strings.Split(string(raw), "\n")
	lines[3] = "," + strings.SplitN(lines[3], ",", 2)[1]
	holed := filepath.Join(dir, "holed.csv")
	os.WriteFile(holed, []byte(strings.Join(lines, "\n")), 0o644)
	err = run(context.Background(), []string{"predict", "-model", model, "-data", holed, "-out", filepath.Join(dir, "p.csv")}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "data row 2") || !strings.Contains(err.Error(), "-missing skip") {
		t.Fatalf("missing value: %v", err)
	}
	errb.Reset()
	if err := run(context.Background(), []string{"predict", "-model", model, "-data", holed, "-missing", "skip", "-out", filepath.Join(dir, "p.csv")}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "1 row with a missing feature value not predicted (prediction NaN): data rows 2 (0-based)") {
		t.Errorf("stderr %q does not list the skipped row", errb.String())
	}
	p, err := frames.LoadCSV(filepath.Join(dir, "p.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := frames.Column(p, "prediction"); !math.IsNaN(v[2]) || math.IsNaN(v[1]) {
		t.Errorf("predictions %v: want NaN in row 2 only", v)
	}
}

// TestMissingValuePlace checks that a missing value is reported at its
// file, line and field, counting a quoted cell over two lines.
func TestMissingValuePlace(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "holes.csv")
	os.WriteFile(data, []byte("name,x1,x2,y\n\"two\nlines\",1,2,3\nb,2,4,5\nc,3,,7\nd,4,8,9\ne,5,1,2\n"), 0o644)
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"fit", "-data", data, "-target", "y", "-exclude", "name", "-method", "krls", "-out", filepath.Join(dir, "m.json")}, &out, &errb)
	msg, _ := explain(err)
	if want := data + `:5:3: column "x2", data row 2 (0-based): missing value`; !strings.Contains(msg, want) {
		t.Errorf("got %q, want it to contain %q", msg, want)
	}
}
