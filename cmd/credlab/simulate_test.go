package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// simulate end to end on a small labeled table: the table of ratios, the
// files, and bad flags.
func TestSimulateCLI(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	var b strings.Builder
	b.WriteString("x1,x2,y\n")
	for i := 0; i < 300; i++ {
		x1, x2 := math.Sin(float64(i)*0.37)*2, math.Cos(float64(i)*1.3)
		fmt.Fprintf(&b, "%.6f,%.6f,%.6f\n", x1, x2, math.Sin(x1)+0.1*math.Cos(float64(i)*7.1))
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sim")
	stdout := mustRun(t, "simulate", "-data", data, "-target", "y", "-methods", "uniform,lcmd,cred", "-budgets", "20,40", "-m", "40", "-seeds", "2", "-quiet", "-out", out)
	for _, want := range []string{"uniform      1.000   1.000", "lcmd ", "cred ", "test RMSE / uniform", "90% intervals of the ratios over the repetitions", "\ncred        20: ", "interval for its RMSE held its RMSE on the pool rows not labeled: uniform ", "; the test RMSE: uniform ",
		"the fit's learning curve at b labels projected the test RMSE at 2b (projected / measured): uniform median "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	head, recs := readCSV(t, filepath.Join(out, "curves.csv"))
	if strings.Join(head, ",") != "seed,method,labels,rmse,kernel,sigma,lambda,seconds,est_rmse,est_lo,est_hi,proj_1.5x,proj_2x,pool_rmse" || len(recs) != 12 {
		t.Errorf("curves.csv: %v, %d rows", head, len(recs))
	}
	if head, _ := readCSV(t, filepath.Join(out, "ratios.csv")); strings.Join(head, ",") != "method,labels,rmse,ratio,ratio_lo,ratio_hi" {
		t.Errorf("ratios.csv: %v", head)
	}
	for _, f := range []string{"ratios.csv", "curves.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// A spent budget stops the loop after the first batch, and says so under -quiet.
	_, errs, code := runBin(t, "simulate", "-data", data, "-target", "y", "-methods", "uniform,lcmd", "-budgets", "20,40", "-m", "40", "-quiet", "-time", "1ns", "-out", filepath.Join(dir, "short"))
	if code != 0 || !strings.Contains(errs, "credlab: warning: the time budget (1ns) stopped the simulation at 20 labels") {
		t.Errorf("-time 1ns: exit %d, %s", code, errs)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-methods", "best", "-budgets", "20,40"}, 2, `flag -methods "best"`},
		{[]string{"-budgets", "20,400"}, 2, "flag -budgets 400"},
		{[]string{"-test", "1.5"}, 2, "-test"},
	} {
		bad := filepath.Join(dir, "bad")
		args := append([]string{"simulate", "-data", data, "-target", "y", "-quiet", "-out", bad}, c.args...)
		_, errs, code := runBin(t, args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, errs)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%v: output written on failure", c.args)
		}
	}
}

// The batch loop from the shell: a uniform first batch, labeled, then the
// default method continues it with LCMD on the kernel tuned on the labels.
func TestSelectBatchLoopCLI(t *testing.T) {
	dir := t.TempDir()
	pool := filepath.Join(dir, "pool.csv")
	var b strings.Builder
	b.WriteString("x1,x2,y\n")
	for i := 0; i < 300; i++ {
		x1, x2 := math.Sin(float64(i)*0.37)*2, math.Cos(float64(i)*1.3)
		fmt.Fprintf(&b, "%.6f,%.6f,%.6f\n", x1, x2, math.Sin(x1)+0.1*math.Cos(float64(i)*7.1))
	}
	if err := os.WriteFile(pool, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	first, labeled, next := filepath.Join(dir, "first.csv"), filepath.Join(dir, "labeled.csv"), filepath.Join(dir, "next.csv")
	mustRun(t, "select", "-pool", pool, "-target", "y", "-budget", "40", "-method", "uniform", "-design", "without", "-quiet", "-out", first)
	mustRun(t, "label", "-in", first, "-from", pool, "-target", "y", "-quiet", "-out", labeled)
	_, errs, code := runBin(t, "select", "-pool", pool, "-target", "y", "-budget", "20", "-design", "without", "-labeled", labeled, "-out", next)
	if code != 0 || !strings.Contains(errs, "select: lcmd on gaussian(sigma=") || !strings.Contains(errs, "tuned on the 40 labeled rows") || strings.Contains(errs, "flat") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	head, recs := readCSV(t, next)
	a := slices.Index(head, "audit")
	if len(recs) != 60 || a < 0 || recs[58][a] != "130" || recs[57][a] != "0" || !slices.Contains(head, "pool_weight") {
		t.Errorf("%d rows, want 60 with the last 2 audit rows of weight 260/2, and pool weights: %v ... %v", len(recs), head, recs[57:])
	}
	// fit on the labeled batches estimates the pool RMSE from the audit rows.
	all := filepath.Join(dir, "all.csv")
	mustRun(t, "label", "-in", next, "-from", pool, "-target", "y", "-quiet", "-out", all)
	outs, errs, code := runBin(t, "fit", "-data", all, "-target", "y", "-out", filepath.Join(dir, "m.json"))
	if code != 0 || !strings.Contains(errs, "estimated from its 2 audit rows") || !strings.Contains(outs+errs, "estimated RMSE on the pool") {
		t.Errorf("fit: exit %d, stdout:\n%s\nstderr:\n%s", code, outs, errs)
	}
}
