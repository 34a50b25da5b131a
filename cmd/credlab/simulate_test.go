package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
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
	stdout := mustRun(t, "simulate", "-data", data, "-target", "y", "-methods", "uniform,lcmd,cred", "-budgets", "20,40", "-m", "40", "-quiet", "-out", out)
	for _, want := range []string{"uniform      1.000   1.000", "lcmd ", "cred ", "test RMSE / uniform"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	head, recs := readCSV(t, filepath.Join(out, "curves.csv"))
	if strings.Join(head, ",") != "seed,method,labels,rmse,sigma,lambda,seconds" || len(recs) != 6 {
		t.Errorf("curves.csv: %v, %d rows", head, len(recs))
	}
	for _, f := range []string{"ratios.csv", "curves.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-methods", "best", "-budgets", "20,40"}, 1, "SimulateSpec.Methods"},
		{[]string{"-budgets", "20,400"}, 1, "SimulateSpec.Budgets[1]"},
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
