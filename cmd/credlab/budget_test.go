package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// budget end to end: a pool with a label column, a uniform pilot drawn by
// select, then the diagnostics with learning curves; a pilot too small is
// an error naming it.
func TestBudgetCLI(t *testing.T) {
	dir := t.TempDir()
	pool := filepath.Join(dir, "pool.csv")
	var b strings.Builder
	b.WriteString("x1,x2,y\n")
	for i := 0; i < 200; i++ {
		x1, x2 := math.Sin(float64(i)*0.37)*2, math.Cos(float64(i)*1.3)
		if i%40 == 0 {
			x1 += 6 // a few outlying rows
		}
		fmt.Fprintf(&b, "%.6f,%.6f,%.6f\n", x1, x2, math.Sin(x1)+0.1*math.Cos(float64(i)*7.1))
	}
	if err := os.WriteFile(pool, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pilot, out := filepath.Join(dir, "pilot.csv"), filepath.Join(dir, "budget")
	mustRun(t, "select", "-pool", pool, "-budget", "60", "-method", "uniform", "-design", "without", "-exclude", "y", "-quiet", "-out", pilot)
	stdout := mustRun(t, "budget", "-pool", pool, "-pilot", pilot, "-target", "y", "-lambda", "1e-4", "-quiet", "-out", out)
	for _, want := range []string{"d_eff", "CRED variance gain", "uniform", "cred", "labels"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"summary.csv", "deff.csv", "scores.csv", "curves.csv", "effective_dimension.svg", "score_concentration.svg", "learning_curves.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	head, recs := readCSV(t, filepath.Join(out, "scores.csv"))
	if strings.Join(head, ",") != "row,score,prob" || len(recs) != 200 {
		t.Errorf("scores.csv: %v, %d rows", head, len(recs))
	}
	small := filepath.Join(dir, "small.csv")
	mustRun(t, "select", "-pool", pool, "-budget", "12", "-method", "uniform", "-design", "without", "-exclude", "y", "-quiet", "-out", small)
	_, errs, code := runBin(t, "budget", "-pool", pool, "-pilot", small, "-target", "y", "-quiet", "-out", out)
	if code != 2 || !strings.Contains(errs, "flag -pilot 12: want at least 30 pilot labels") {
		t.Errorf("pilot of 12: exit %d, %s", code, errs)
	}
	_, errs, code = runBin(t, "budget", "-pool", pool, "-pilot", small, "-quiet", "-out", out)
	if code != 2 || !strings.Contains(errs, "-target") {
		t.Errorf("pilot without target: exit %d, %s", code, errs)
	}
	other := filepath.Join(dir, "other.csv") // a pilot of another table
	var ob strings.Builder
	ob.WriteString("a,b,c,d,y,row,prob,weight\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&ob, "%d,1,2,3,0.5,%d,0.005,1\n", i, i)
	}
	if err := os.WriteFile(other, []byte(ob.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runBin(t, "budget", "-pool", pool, "-pilot", other, "-target", "y", "-quiet", "-out", filepath.Join(dir, "none"))
	if _, err := os.Stat(filepath.Join(dir, "none")); code != 1 || !strings.Contains(errs, "-pilot "+other+" (rows of -pool "+pool+"): none of the pool's feature columns") || err == nil {
		t.Errorf("pilot of another table: exit %d, %s", code, errs)
	}
}
