package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credlab/credlab/frames"
)

// TestJSONSummaries checks -json of fit, predict, select and budget
// against the files the commands write, -quiet's silence, and version.
func TestJSONSummaries(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	jsonOf := func(args ...string) (map[string]any, string) {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, errb.String())
		}
		var j map[string]any
		if err := json.Unmarshal(out.Bytes(), &j); err != nil {
			t.Fatalf("%q: stdout is not JSON: %v\n%s", args, err, out.String())
		}
		return j, errb.String()
	}
	j, stderr := jsonOf("fit", "-data", "testdata/train.csv", "-target", "y", "-method", "krls", "-test", "testdata/test.csv", "-json", "-quiet", "-out", model)
	if stderr != "" {
		t.Errorf("fit -quiet wrote %q on stderr", stderr)
	}
	m, err := frames.LoadModelFile(model)
	if err != nil {
		t.Fatal(err)
	}
	test, _ := frames.LoadCSV("testdata/test.csv")
	sc, _ := m.Scores(test)
	if j["method"] != "krls" || j["rows"] != float64(m.Rows) || j["lambda"] != m.Lambda ||
		j["test"].(map[string]any)["scores"].(map[string]any)["rmse"] != sc.RMSE {
		t.Errorf("fit -json %v, model %s, test %+v", j, m, sc)
	}
	j, _ = jsonOf("predict", "-model", model, "-data", "testdata/test.csv", "-json", "-out", filepath.Join(dir, "p.parquet"))
	if j["rows"] != float64(test.Nrow()) || j["scores"].(map[string]any)["r2"] != sc.R2 || len(j["skipped"].([]any)) != 0 {
		t.Errorf("predict -json %v, want scores %+v", j, sc)
	}
	j, _ = jsonOf("select", "-pool", "testdata/pool.csv", "-budget", "7", "-exclude", "id", "-json", "-out", filepath.Join(dir, "c.csv"))
	if j["rows"] != 7.0 || j["method"] != "cred" || j["pool_rows"] != 20.0 {
		t.Errorf("select -json %v", j)
	}
	j, _ = jsonOf("budget", "-pool", "testdata/pool.csv", "-exclude", "id", "-json", "-quiet", "-out", filepath.Join(dir, "b"))
	sum, err := frames.LoadCSV(filepath.Join(dir, "b", "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	deff, _ := frames.Column(sum, "d_eff")
	if s, ok := j["summary"].(map[string]any); !ok || s["d_eff"] != deff[0] {
		t.Errorf("budget -json %v, summary.csv d_eff %v", j, deff)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err != nil || !strings.HasPrefix(out.String(), "credlab ") || !strings.Contains(out.String(), "model format "+frames.FormatVersion) {
			t.Errorf("%q: %v %q", args, err, out.String())
		}
	}
}
