package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
)

// Two batches without replacement from the command line: the second run
// keeps the first run's rows and adds distinct new ones; a next batch with
// another seed, and a labeled file naming a row outside the pool, are
// errors naming the flag.
func TestSelectBatchesCLI(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one.csv"), filepath.Join(dir, "two.csv")
	for _, method := range []string{"cred", "greedy"} {
		mustRun(t, "select", "-pool", "testdata/pool.csv", "-budget", "8", "-method", method, "-design", "without",
			"-exclude", "id", "-lambda", "0.01", "-quiet", "-out", one)
		mustRun(t, "select", "-pool", "testdata/pool.csv", "-budget", "5", "-method", method, "-design", "without",
			"-exclude", "id", "-lambda", "0.01", "-quiet", "-labeled", one, "-out", two)
		head, recs := readCSV(t, two)
		want := "id,x1,x2,row,prob,weight,batch"
		if method == "greedy" {
			want += ",pool_weight"
		}
		if strings.Join(head, ",") != want {
			t.Fatalf("%s: header %v, want %s", method, head, want)
		}
		_, first := readCSV(t, one)
		rows, batch := column(t, head, recs, "row"), column(t, head, recs, "batch")
		seen := map[float64]bool{}
		for i, r := range rows {
			if seen[r] || (i < 8 && recs[i][3] != first[i][3]) || batch[i] != float64(min(i/8, 1)) {
				t.Fatalf("%s: row %d = %v (batch %v)", method, i, r, batch[i])
			}
			seen[r] = true
		}
		if len(rows) != 13 {
			t.Errorf("%s: %d rows, want 13", method, len(rows))
		}
	}
	mustRun(t, "select", "-pool", "testdata/pool.csv", "-budget", "8", "-design", "without",
		"-exclude", "id", "-lambda", "0.01", "-quiet", "-out", one)
	_, errs, code := runBin(t, "select", "-pool", "testdata/pool.csv", "-budget", "5", "-design", "without",
		"-exclude", "id", "-lambda", "0.01", "-quiet", "-labeled", one, "-seed", "2", "-out", two)
	if code != 2 || !strings.Contains(errs, "flag -labeled") || !strings.Contains(errs, "seed of its first batch") {
		t.Errorf("a next batch with another seed: exit %d, %s", code, errs)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("row,prob,weight\n3,0.1,1\n99,0.1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runBin(t, "select", "-pool", "testdata/pool.csv", "-budget", "2", "-design", "without",
		"-exclude", "id", "-quiet", "-labeled", bad, "-out", two)
	if code != 2 || !strings.Contains(errs, "flag -labeled 99: want a row of the pool's 20") {
		t.Errorf("labeled row outside the pool: exit %d, %s", code, errs)
	}
	_, errs, code = runBin(t, "select", "-pool", "testdata/pool.csv", "-budget", "21",
		"-exclude", "id", "-quiet", "-out", two)
	if code != 2 || !strings.Contains(errs, "flag -budget 21: want at most the 20 rows") {
		t.Errorf("budget above the pool: exit %d, %s", code, errs)
	}
	other := filepath.Join(dir, "other.csv") // rows of another table: its columns, not the pool's
	if err := os.WriteFile(other, []byte("a,b,c,row,prob,weight\n1,2,3,3,0.1,1\n4,5,6,7,0.1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	three := filepath.Join(dir, "three.csv")
	_, errs, code = runBin(t, "select", "-pool", "testdata/pool.csv", "-budget", "2", "-method", "uniform",
		"-exclude", "id", "-quiet", "-labeled", other, "-out", three)
	if _, err := os.Stat(three); code != 1 || !strings.Contains(errs, "-labeled "+other+" (rows of -pool testdata/pool.csv): none of the pool's feature columns") || err == nil {
		t.Errorf("labeled rows of another table: exit %d, %s", code, errs)
	}
}

// TestSelectBLESSFlag checks that -features bless draws from the CRED
// distribution of credlab.ApproxLeverageScores with -m as the dictionary.
func TestSelectBLESSFlag(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sel.csv")
	mustRun(t, "select", "-pool", "testdata/pool.csv", "-budget", "30", "-design", "replacement", "-features", "bless", "-m", "8", "-sigma", "3", "-standardize=false",
		"-lambda", "0.01", "-seed", "2", "-exclude", "id", "-quiet", "-out", out)
	pool, err := frames.LoadCSV("testdata/pool.csv")
	if err != nil {
		t.Fatal(err)
	}
	x, err := frames.ToMatrix(pool, "x1", "x2")
	if err != nil {
		t.Fatal(err)
	}
	s, err := credlab.ApproxLeverageScores(context.Background(), credlab.GaussianKernel{Sigma: 3}, x, 0.01, credlab.BLESSConfig{Dict: 8, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	q, err := credlab.CREDDistribution(s)
	if err != nil {
		t.Fatal(err)
	}
	head, recs := readCSV(t, out)
	rows, p := column(t, head, recs, "row"), column(t, head, recs, "prob")
	for i, r := range rows {
		if math.Abs(p[i]-q[int(r)]) > 1e-9*q[int(r)] {
			t.Fatalf("row %v: prob %v, BLESS CRED distribution %v", r, p[i], q[int(r)])
		}
	}
}

// Beyond frames.ExactScoreRows pool rows, select and budget with -features
// auto score on Nyström features: frames.LargePoolM of them, or -m when
// given, and say so.
func TestLargePoolFeatures(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := 0; i <= frames.ExactScoreRows; i++ {
		b.WriteString(strings.Join([]string{ftoa(math.Sin(float64(i) * 0.37)), ftoa(math.Cos(float64(i) * 1.3))}, ",") + "\n")
	}
	pool := filepath.Join(dir, "pool.csv")
	if err := os.WriteFile(pool, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"select", "-budget", "10", "-out", filepath.Join(dir, "s.csv")}, "on 2000 Nyström features"},
		{[]string{"select", "-budget", "10", "-m", "30", "-out", filepath.Join(dir, "s.csv")}, "on 30 Nyström features"},
		{[]string{"budget", "-m", "40", "-out", filepath.Join(dir, "b")}, "on 40 Nyström features"},
	} {
		stdout, errs, code := runBin(t, append(c.args, "-pool", pool)...)
		if code != 0 || !strings.Contains(stdout+errs, c.want) {
			t.Errorf("%v: exit %d, output lacks %q:\n%s%s", c.args, code, c.want, stdout, errs)
		}
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
