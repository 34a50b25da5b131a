package papers

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestMeasureFig3Budgets runs the CRED Fig. 3 engine in its quick size on
// USPS and Fashion-MNIST with the paper's CRED (with replacement), CRED
// with distinct labels, GSx and KRR, and logs the median test RMSE per
// cell. It runs only with CREDLAB_DATA=/path/to/shared/data and
// CREDLAB_FIG3=quick or full (CREDLAB_FIG3_SETS=usps or fashion: one set;
// CREDLAB_FIG3_METHODS: a comma-separated list of methods;
// CREDLAB_FIG3_NS: the budgets, comma-separated; CREDLAB_FIG3_SEED: the
// seed, default the reproduction's).
func TestMeasureFig3Budgets(t *testing.T) {
	dir, size := os.Getenv("CREDLAB_DATA"), os.Getenv("CREDLAB_FIG3")
	if dir == "" || size == "" {
		t.Skip("set CREDLAB_DATA and CREDLAB_FIG3=quick|full")
	}
	c := credDefaults(size == "quick").Fig3
	c.Methods = []string{BenchCRED, BenchCREDDraws, BenchCREDDistinct, BenchGSx, BenchKRR}
	if m := os.Getenv("CREDLAB_FIG3_METHODS"); m != "" {
		c.Methods = strings.Split(m, ",")
	}
	if ns := os.Getenv("CREDLAB_FIG3_NS"); ns != "" {
		c.Ns = nil
		for _, f := range strings.Split(ns, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("CREDLAB_FIG3_NS: %v", err)
			}
			c.Ns = append(c.Ns, n)
		}
	}
	if s := os.Getenv("CREDLAB_FIG3_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("CREDLAB_FIG3_SEED: %v", err)
		}
		c.Seed = seed
	}
	var sets []*credImageSet
	if os.Getenv("CREDLAB_FIG3_SETS") != "fashion" {
		us, err := credLoadUSPS(dir)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, us)
	}
	if os.Getenv("CREDLAB_FIG3_SETS") != "usps" {
		fm, err := credLoadFashionMNIST(dir)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, fm)
	}
	rows, _, err := credRunFig3(context.Background(), sets, c, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	med := credMedianRMSE(rows)
	var keys []string
	for k := range med {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %.4g\n", k, med[k])
	}
	t.Log("\n" + b.String())
}
