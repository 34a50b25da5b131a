package credlab

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sort"
	"testing"
)

// BLESS scores agree with the exact LeverageScores on small data: a
// correlation above 0.8 (constant scores would give 0), the total within
// 15%, and 99% of the rows within a factor 2 (the BLESS guarantee is a
// constant factor).
func TestApproxLeverageScores(t *testing.T) {
	ctx := context.Background()
	x := randData(crRNG(41), 600, 3, 1)
	k := GaussianKernel{Sigma: 0.7}
	for _, lambda := range []float64{1e-2, 1e-3} {
		exact, err := LeverageScores(ctx, k, x, lambda)
		if err != nil {
			t.Fatal(err)
		}
		var a, b []float64
		withProcs(1, func() { a, err = ApproxLeverageScores(ctx, k, x, lambda, BLESSConfig{Dict: 300, Seed: 3, Block: 100}) })
		if err != nil {
			t.Fatal(err)
		}
		withProcs(3, func() { b, err = ApproxLeverageScores(ctx, k, x, lambda, BLESSConfig{Dict: 300, Seed: 3, Block: 100}) })
		if err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("lambda %g: GOMAXPROCS changed the scores (%v)", lambda, err)
		}
		c := corr(exact, a)
		ratio := sum(a) / sum(exact)
		within := 0
		for i := range a {
			if r := a[i] / exact[i]; r > 0.5 && r < 2 {
				within++
			}
		}
		t.Logf("lambda %g: d_eff exact %.1f, corr %.3f, total ratio %.3f, %d/600 within 2x", lambda, sum(exact)/600, c, ratio, within)
		if c < 0.8 || math.Abs(ratio-1) > 0.15 || within < 594 {
			t.Errorf("lambda %g: corr %.3f, total ratio %.3f, %d of 600 rows within a factor 2", lambda, c, ratio, within)
		}
	}
}

func corr(a, b []float64) float64 {
	ma, mb := sum(a)/float64(len(a)), sum(b)/float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}

// Leverage centers: m distinct rows, deterministic, and on a pool with a
// dense cluster and sparse outskirts they land in the outskirts more often
// than uniform centers.
func TestLeverageCenters(t *testing.T) {
	x := randData(crRNG(42), 500, 2, 1)
	raw := x.RawMatrix()
	for i := 0; i < 450; i++ { // 90% of rows in a tight cluster
		raw.Data[i*raw.Stride] *= 0.05
		raw.Data[i*raw.Stride+1] *= 0.05
	}
	s := LeverageCenters{Kernel: GaussianKernel{Sigma: 0.3}, Lambda: 1e-3}
	a, err := NystromCenters(x, 40, s, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NystromCenters(x, 40, s, 7)
	if !reflect.DeepEqual(a, b) || len(a) != 40 {
		t.Fatalf("centers %v then %v", a, b)
	}
	sorted := append([]int(nil), a...)
	sort.Ints(sorted)
	out := 0
	for i, j := range sorted {
		if i > 0 && sorted[i-1] == j {
			t.Fatalf("center %d twice", j)
		}
		if j >= 450 {
			out++
		}
	}
	if out < 12 { // uniform centers put 4 of 40 there on average
		t.Errorf("%d of 40 leverage centers in the sparse 10%% of the pool, want at least 12", out)
	}
	if _, err := NystromCenters(x, 500, s, 7); err != nil {
		t.Errorf("m = n: %v", err)
	}
	if _, err := (LeverageCenters{}).SampleCenters(x, 5, 1); err == nil {
		t.Error("no kernel accepted")
	}
}

// TestLeverageCentersCancel checks that the leverage-score sampler stops
// with the context's error when its context is done, through the path
// NKRLS, NYTRO and Tune take (nystromCenters).
func TestLeverageCentersCancel(t *testing.T) {
	x, _, _ := SmoothRegression(2000, 3, 0.1, 1)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := nystromCenters(ctx, x, 100, LeverageCenters{Kernel: GaussianKernel{Sigma: 1}}, 1)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}
