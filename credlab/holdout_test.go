package credlab

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"
)

func TestHoldoutSplit(t *testing.T) {
	cases := []struct {
		n      int
		frac   float64
		seed   uint64
		wantNv int
	}{
		{100, 0, 1, 20}, // default 20%
		{101, 0, 2, 20},
		{10, 0, 3, 2},
		{5, 0, 4, 1},
		{2, 0, 5, 1},   // at least one validation row
		{2, 0.9, 6, 1}, // at least one training row
		{50, 0.5, 7, 25},
		{40, 0.1, 8, 4},
		{7, 0.99, 9, 6},
		{13, 0, 10, 3}, // 2.6 rounds to 3
		{33, 0.1, 11, 3},
	}
	for _, c := range cases {
		h := Holdout{Fraction: c.frac, Seed: c.seed}
		tr, va, err := h.Split(c.n)
		if err != nil {
			t.Fatalf("n %d frac %g: %v", c.n, c.frac, err)
		}
		if len(va) != c.wantNv || len(tr) != c.n-c.wantNv {
			t.Errorf("n %d frac %g: %d train / %d validation, want %d validation", c.n, c.frac, len(tr), len(va), c.wantNv)
		}
		all := append(append([]int(nil), tr...), va...)
		sort.Ints(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("n %d: train and validation rows are not a disjoint cover of 0..n-1: %v %v", c.n, tr, va)
			}
		}
		tr2, va2, _ := h.Split(c.n)
		if !slices.Equal(tr, tr2) || !slices.Equal(va, va2) {
			t.Errorf("n %d seed %d: split not deterministic", c.n, c.seed)
		}
	}
	a, _, _ := Holdout{Seed: 1}.Split(100)
	b, _, _ := Holdout{Seed: 2}.Split(100)
	if slices.Equal(a, b) {
		t.Error("seeds 1 and 2 give the same split")
	}
	// None: all rows train, in order.
	tr, va, err := Holdout{None: true}.Split(7)
	if err != nil || len(va) != 0 || !slices.Equal(tr, []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Errorf("None: %v %v %v", tr, va, err)
	}
}

func TestHoldoutSplitErrors(t *testing.T) {
	for _, f := range []float64{1, 1.5, -0.1, math.NaN(), math.Inf(1)} {
		_, _, err := (Holdout{Fraction: f}).Split(10)
		wantErrKind(t, fmt.Sprintf("fraction %v", f), err, paramErr("Holdout.Fraction", f))
	}
	_, _, err := (Holdout{}).Split(1)
	wantErrKind(t, "n = 1", err, isErr(ErrEmpty))
	// Through the estimators.
	rng := newRNG(70)
	x := randData(rng, 10, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	_, err = KRLS(context.Background(), x, y, KRLSConfig{Kernel: LinearKernel{}, Holdout: Holdout{Fraction: 2}})
	wantErrKind(t, "KRLS fraction 2", err, paramErr("Holdout.Fraction", 2.0))
}

// TestEarlyStoppingThresholdRule checks that a hold-out run stops exactly at
// the first iteration whose validation RMSE exceeds (1 + threshold) times
// the best so far, and returns the argmin iterate.
func TestEarlyStoppingThresholdRule(t *testing.T) {
	rng := newRNG(71)
	x := randData(rng, 80, 2, 1.5)
	y := smoothTargets(rng, x, 0.8)
	k := GaussianKernel{Sigma: 0.5}
	const maxIter = 400
	type runner func(IterConfig) (*Fit, error)
	methods := map[string]runner{
		"EarlyStopping": func(c IterConfig) (*Fit, error) {
			return EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: k, IterConfig: c})
		},
		"NYTRO": func(c IterConfig) (*Fit, error) {
			return NYTRO(context.Background(), x, y, NYTROConfig{Kernel: k, Nystrom: NystromConfig{M: 30, Seed: 1}, IterConfig: c})
		},
	}
	for name, run := range methods {
		for _, thr := range []float64{0, 0.01, 0.05, 0.2, 10} {
			h := Holdout{Seed: 4}
			fit, err := run(IterConfig{MaxIter: maxIter, Threshold: thr, Holdout: h})
			if err != nil {
				t.Fatal(err)
			}
			eff := thr
			if thr == 0 {
				eff = 0.05 // documented default
			}
			// Full path for reference.
			full, err := run(IterConfig{MaxIter: maxIter, Threshold: -1, Holdout: h})
			if err != nil {
				t.Fatal(err)
			}
			stop := maxIter
			best := math.Inf(1)
			for i, p := range full.Path {
				if p.ValRMSE > (1+eff)*best {
					stop = i + 1
					break
				}
				best = math.Min(best, p.ValRMSE)
			}
			if len(fit.Path) != stop {
				t.Errorf("%s thr %g: stopped after %d iterations, first exceedance at %d", name, thr, len(fit.Path), stop)
			}
			for i := range fit.Path {
				if fit.Path[i] != full.Path[i] {
					t.Fatalf("%s thr %g: path point %d differs from the full run", name, thr, i+1)
				}
			}
			arg := 0
			for i, p := range fit.Path {
				if p.ValRMSE < fit.Path[arg].ValRMSE {
					arg = i
				}
			}
			if fit.Iter != arg+1 || fit.ValRMSE != fit.Path[arg].ValRMSE {
				t.Errorf("%s thr %g: fit.Iter %d, argmin %d", name, thr, fit.Iter, arg+1)
			}
			if !slices.Equal(fit.Model.Coef, coefAt(t, run, h, maxIter, fit.Iter)) {
				t.Errorf("%s thr %g: model is not iterate %d", name, thr, fit.Iter)
			}
			if thr == 0.01 && stop == maxIter {
				t.Errorf("%s: the rule never triggered on the test problem", name)
			}
		}
	}
}

// coefAt returns iterate t of an Iter = t run on the same training rows:
// Keep on a hold-out run.
// coefAt returns iterate it of a run of maxIter steps (the same MaxIter as
// the run compared: NYTRO picks the Gram or direct form by MaxIter, which
// round differently).
func coefAt(t *testing.T, run func(IterConfig) (*Fit, error), h Holdout, maxIter, it int) []float64 {
	t.Helper()
	f, err := run(IterConfig{MaxIter: maxIter, Threshold: -1, Holdout: h, Keep: []int{it}})
	if err != nil {
		t.Fatal(err)
	}
	return f.Iterates[it]
}

func TestLogGrid(t *testing.T) {
	g := LogGrid(1e-15, 1, 100)
	if len(g) != 100 || g[0] != 1e-15 || g[99] != 1 {
		t.Fatalf("LogGrid(1e-15, 1, 100): len %d, ends %g %g", len(g), g[0], g[len(g)-1])
	}
	ratio := math.Pow(1e15, 1.0/99)
	for i := 1; i < 100; i++ {
		if !(g[i] > g[i-1]) || !relClose(g[i]/g[i-1], ratio, 1e-9) {
			t.Fatalf("LogGrid step %d: %g / %g, want ratio %g", i, g[i], g[i-1], ratio)
		}
	}
	if g := LogGrid(0.5, 2, 1); len(g) != 1 || g[0] != 0.5 {
		t.Errorf("LogGrid n = 1: %v", g)
	}
	if g := LogGrid(1e-3, 1e3, 3); len(g) != 3 || !relClose(g[1], 1, 1e-12) {
		t.Errorf("LogGrid(1e-3, 1e3, 3) = %v", g)
	}
	// n = 0 must not panic: zero values.
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("LogGrid(1e-3, 1, n <= 0) panicked: %v", r)
			}
		}()
		for _, n := range []int{0, -2} {
			if g := LogGrid(1e-3, 1, n); len(g) != 0 {
				t.Errorf("LogGrid n = %d: %v", n, g)
			}
		}
	}()
}

func TestLambdaGrid(t *testing.T) {
	h := Holdout{Seed: 3}
	got, grid, err := LambdaGrid("M", 0.5, nil, h)
	if err != nil || !got.None || !slices.Equal(grid, []float64{0.5}) {
		t.Fatalf("fixed lambda: %v %v %v", got, grid, err)
	}
	got, grid, err = LambdaGrid("M", 0, nil, h)
	if err != nil || got != h || !slices.Equal(grid, LogGrid(1e-15, 1, 100)) {
		t.Fatalf("default grid: %v %d values %v", got, len(grid), err)
	}
	for _, c := range []struct {
		lambda  float64
		lambdas []float64
		h       Holdout
		want    errKind
	}{
		{-1, nil, h, paramErr("lambda", -1.0)},
		{math.NaN(), nil, h, paramErr("lambda", math.NaN())},
		{0, nil, Holdout{None: true}, paramErr("lambda", 0.0)},
		{0, []float64{}, h, paramErr("Lambdas")},
		{0, []float64{1, 0}, h, paramErr("lambda[1]", 0.0)},
	} {
		_, _, err := LambdaGrid("M", c.lambda, c.lambdas, c.h)
		wantErrKind(t, fmt.Sprint(c.lambda, c.lambdas, c.h), err, c.want)
	}
}
