package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCREDDistribution(t *testing.T) {
	rng := crRNG(21)
	random := make([]float64, 57)
	for i := range random {
		random[i] = rng.ExpFloat64()
	}
	for _, tc := range []struct {
		name string
		s    []float64
	}{
		{"small", []float64{1, 2, 3, 4}},
		{"zeros", []float64{0, 0, 5}},
		{"one", []float64{0.3}},
		{"equal", []float64{2, 2, 2, 2, 2}},
		{"tiny and large", []float64{1e-300, 1, 1e10, 0}},
		{"random", random},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s0 := append([]float64(nil), tc.s...)
			q, err := CREDDistribution(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			n := float64(len(tc.s))
			sum := 0.0
			for i := len(tc.s) - 1; i >= 0; i-- { // reverse order: independent rounding
				sum += tc.s[i]
			}
			if total := crSum(q); math.Abs(total-1) > 1e-13 {
				t.Errorf("q sums to %v", total)
			}
			for j, v := range q {
				if v < 1/(2*n)*(1-1e-14) {
					t.Errorf("q[%d] = %v below 1/(2N) = %v", j, v, 1/(2*n))
				}
				if want := (tc.s[j] + sum/n) / (2 * sum); math.Abs(v-want) > 1e-14*want {
					t.Errorf("q[%d] = %v, want (s_j + mean s)/(2 sum s) = %v", j, v, want)
				}
			}
			if !reflect.DeepEqual(tc.s, s0) {
				t.Error("scores were modified")
			}
		})
	}
	// Equal scores give the uniform distribution.
	q, _ := CREDDistribution([]float64{3, 3, 3, 3})
	for _, v := range q {
		if v != 0.25 {
			t.Errorf("equal scores: q = %v, want all 1/4", q)
			break
		}
	}

	for _, tc := range []struct {
		name string
		s    []float64
		want errKind
	}{
		{"negative", []float64{1, -0.5, 2}, paramErr("score[1]", -0.5)},
		{"NaN", []float64{1, 2, math.NaN()}, notFiniteErr("score", 2, -1, math.NaN())},
		{"+Inf", []float64{math.Inf(1), 2}, notFiniteErr("score", 0, -1, math.Inf(1))},
		{"all zero", []float64{0, 0, 0}, paramErr("score", 0.0)},
		{"empty", nil, isErr(ErrEmpty)},
		{"overflowing sum", []float64{math.MaxFloat64, math.MaxFloat64}, paramErr("score", math.Inf(1))},
	} {
		_, err := CREDDistribution(tc.s)
		wantErrKind(t, tc.name, err, tc.want)
	}
}

// crSelectors are the selectors tested for determinism and consistency.
func crSelectors(t *testing.T, d int) []struct {
	name string
	sel  Selector
} {
	rf, err := NewRandomFourier(d, 40, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	net, err := NewReLUNetwork(d, []int{8, 6}, 4)
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		sel  Selector
	}{
		{"uniform", UniformSelector{}},
		{"uniform without replacement", UniformSelector{WithoutReplacement: true}},
		{"CRED exact gaussian", CREDSelector{Kernel: GaussianKernel{Sigma: 0.8}, LambdaQ: 1e-3}},
		{"CRED exact default lambda", CREDSelector{Kernel: GaussianKernel{Sigma: 0.8}}},
		{"CRED random features", CREDSelector{Features: rf, LambdaQ: 1e-4, Block: 16}},
		{"CRED raw features", CREDSelector{Features: RawFeatures{Bias: true}, LambdaQ: 1e-2}},
		{"CRED ReLU features", CREDSelector{Features: net, LambdaQ: 1e-2, Block: 7}},
		// Features win over Kernel when both are set.
		{"CRED both", CREDSelector{Kernel: LinearKernel{}, Features: rf, LambdaQ: 1e-4}},
	}
}

// Same seed, same selection; GOMAXPROCS does not matter; a different seed
// gives a different selection.
func TestSelectionDeterministic(t *testing.T) {
	ctx := context.Background()
	pool := randData(crRNG(22), 150, 3, 1)
	pool0 := mat.DenseCopyOf(pool)
	for _, tc := range crSelectors(t, 3) {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.sel.Select(ctx, pool, 40, 9)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tc.sel.Select(ctx, pool, 40, 9)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Error("same seed gave different selections")
			}
			var p1, p2 *Selection
			withProcs(1, func() { p1, err = tc.sel.Select(ctx, pool, 40, 9) })
			if err != nil {
				t.Fatal(err)
			}
			withProcs(2, func() { p2, err = tc.sel.Select(ctx, pool, 40, 9) })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p1.Index, p2.Index) || !sameBits(p1.Q, p2.Q) || !sameBits(p1.Scores, p2.Scores) ||
				!sameBits(p1.Weight, p2.Weight) || !sameBits(p1.Prob, p2.Prob) {
				t.Error("GOMAXPROCS 1 and 2 gave different selections")
			}
			c, err := tc.sel.Select(ctx, pool, 40, 10)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(a.Index, c.Index) {
				t.Error("seeds 9 and 10 gave the same rows")
			}
			if !mat.Equal(pool, pool0) {
				t.Error("pool was modified")
			}
		})
	}
}

// Prob = Q[Index], Weight = 1/(N Prob), Q a distribution, Index in range;
// CRED's Scores are the leverage scores and Q their CRED distribution.
func TestSelectionConsistent(t *testing.T) {
	ctx := context.Background()
	const n = 120
	pool := randData(crRNG(23), n, 3, 1)
	for _, tc := range crSelectors(t, 3) {
		for _, budget := range []int{1, 30, n, 3 * n} {
			t.Run(fmt.Sprintf("%s/budget=%d", tc.name, budget), func(t *testing.T) {
				sel, err := tc.sel.Select(ctx, pool, budget, 5)
				if u, ok := tc.sel.(UniformSelector); ok && u.WithoutReplacement && budget > n {
					wantErrKind(t, "without replacement, budget > pool", err, paramErr("budget", budget))
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(sel.Index) != budget || len(sel.Prob) != budget || len(sel.Weight) != budget || len(sel.Q) != n {
					t.Fatalf("lengths %d %d %d %d, want budget %d and N %d", len(sel.Index), len(sel.Prob), len(sel.Weight), len(sel.Q), budget, n)
				}
				if s := crSum(sel.Q); math.Abs(s-1) > 1e-13 {
					t.Errorf("Q sums to %v", s)
				}
				for i, j := range sel.Index {
					if j < 0 || j >= n {
						t.Fatalf("Index[%d] = %d out of range", i, j)
					}
					// Without replacement Prob is the inclusion probability
					// pi = budget q and the weight budget/(N pi).
					scale := 1.0
					if u, ok := tc.sel.(UniformSelector); ok && u.WithoutReplacement {
						scale = float64(budget)
					}
					if sel.Prob[i] != scale*sel.Q[j] && sel.Prob[i] != float64(budget)/float64(n) {
						t.Errorf("Prob[%d] = %v, Q[Index] = %v", i, sel.Prob[i], sel.Q[j])
					}
					if w := scale / (float64(n) * sel.Prob[i]); math.Abs(sel.Weight[i]-w) > 1e-15*w {
						t.Errorf("Weight[%d] = %v, want 1/(N Prob) = %v", i, sel.Weight[i], w)
					}
				}
				switch s := tc.sel.(type) {
				case UniformSelector:
					if sel.Scores != nil {
						t.Error("uniform selection has scores")
					}
					for i, w := range sel.Weight {
						if w != 1 {
							t.Fatalf("uniform Weight[%d] = %v, want exactly 1", i, w)
						}
					}
					for j, q := range sel.Q {
						if q != 1/float64(n) {
							t.Fatalf("uniform Q[%d] = %v", j, q)
						}
					}
					if s.WithoutReplacement {
						seen := map[int]bool{}
						for _, j := range sel.Index {
							if seen[j] {
								t.Fatalf("row %d drawn twice without replacement", j)
							}
							seen[j] = true
						}
					}
				case CREDSelector:
					lq := s.LambdaQ
					if lq == 0 {
						lq = 1e-6
					}
					var want []float64
					if s.Features != nil {
						want, err = FeatureLeverageScores(ctx, s.Features, pool, lq, s.Block)
					} else {
						want, err = LeverageScores(ctx, s.Kernel, pool, lq)
					}
					if err != nil {
						t.Fatal(err)
					}
					if !sameBits(sel.Scores, want) {
						t.Error("Scores differ from the leverage scores")
					}
					q, _ := CREDDistribution(want)
					if !sameBits(sel.Q, q) {
						t.Error("Q differs from CREDDistribution(Scores)")
					}
					// q >= 1/(2N) bounds the importance weights by 2.
					for i, w := range sel.Weight {
						if !(w > 0 && w <= 2*(1+1e-15)) {
							t.Fatalf("CRED Weight[%d] = %v outside (0, 2]", i, w)
						}
					}
				}
				if budget == 3*n {
					seen := map[int]bool{}
					for _, j := range sel.Index {
						seen[j] = true
					}
					if len(seen) == budget {
						t.Error("budget > pool with replacement but no row repeated")
					}
				}
			})
		}
	}
	// The default lambda_q is 1e-6.
	a, _ := CREDSelector{Kernel: GaussianKernel{Sigma: 0.8}}.Select(ctx, pool, 5, 1)
	b, _ := CREDSelector{Kernel: GaussianKernel{Sigma: 0.8}, LambdaQ: 1e-6}.Select(ctx, pool, 5, 1)
	if !reflect.DeepEqual(a, b) {
		t.Error("LambdaQ 0 is not the default 1e-6")
	}
}

// Uniform selection must give weights of exactly 1 for every pool size,
// so that a weighted fit on it is exactly the ordinary fit. (With
// Weight = 1/(N q), q = fl(1/N), N = 49 gave 1.0000000000000002.)
func TestUniformSelectionUnitWeights(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 3, 49, 98, 103, 107, 200} {
		pool := randData(crRNG(uint64(n)), n, 2, 1)
		for _, u := range []UniformSelector{{}, {WithoutReplacement: true}} {
			sel, err := u.Select(ctx, pool, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range sel.Weight {
				if w != 1 {
					t.Errorf("N = %d, %+v: Weight[%d] = %v, want exactly 1", n, u, i, w)
					break
				}
			}
		}
	}
}

// Over many draws the frequency of each row matches q: every count within 5
// binomial standard deviations and a chi-square statistic within its mean
// plus 5 standard deviations (fixed seeds, so deterministic).
func TestSelectionFrequencies(t *testing.T) {
	ctx := context.Background()
	const n, budget = 16, 400000
	pool := randData(crRNG(24), n, 2, 1)
	pool.Set(3, 0, 6) // an outlier with a large score
	for _, tc := range []struct {
		name string
		sel  Selector
	}{
		{"CRED", CREDSelector{Kernel: GaussianKernel{Sigma: 0.5}, LambdaQ: 1e-2}},
		{"uniform", UniformSelector{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := tc.sel.Select(ctx, pool, budget, 77)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "CRED" {
				// The test is only meaningful if q is far from uniform.
				lo, hi := math.Inf(1), 0.0
				for _, q := range sel.Q {
					lo, hi = math.Min(lo, q), math.Max(hi, q)
				}
				if hi < 1.5*lo {
					t.Fatalf("q too close to uniform: %v .. %v", lo, hi)
				}
			}
			counts := make([]float64, n)
			for _, j := range sel.Index {
				counts[j]++
			}
			chi2 := 0.0
			for j, q := range sel.Q {
				mean := budget * q
				sd := math.Sqrt(budget * q * (1 - q))
				if math.Abs(counts[j]-mean) > 5*sd {
					t.Errorf("row %d drawn %v times, expected %.0f +- %.0f", j, counts[j], mean, sd)
				}
				chi2 += (counts[j] - mean) * (counts[j] - mean) / mean
			}
			df := float64(n - 1)
			if chi2 > df+5*math.Sqrt(2*df) {
				t.Errorf("chi-square %.1f with %v degrees of freedom", chi2, df)
			}
		})
	}
}

func TestSelectionErrors(t *testing.T) {
	ctx := context.Background()
	pool := randData(crRNG(25), 20, 3, 1)
	nan := mat.DenseCopyOf(pool)
	nan.Set(6, 2, math.NaN())
	inf := mat.DenseCopyOf(pool)
	inf.Set(11, 1, math.Inf(1))
	rf, err := NewRandomFourier(3, 10, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	selectors := []struct {
		name string
		sel  Selector
	}{
		{"uniform", UniformSelector{}},
		{"uniform without replacement", UniformSelector{WithoutReplacement: true}},
		{"CRED kernel", CREDSelector{Kernel: GaussianKernel{Sigma: 1}}},
		{"CRED features", CREDSelector{Features: rf}},
	}
	for _, s := range selectors {
		for _, tc := range []struct {
			name   string
			pool   *mat.Dense
			budget int
			want   errKind
		}{
			{"budget 0", pool, 0, paramErr("budget", 0)},
			{"budget -3", pool, -3, paramErr("budget", -3)},
			{"nil pool", nil, 5, isErr(ErrEmpty)},
			{"empty pool", &mat.Dense{}, 5, isErr(ErrEmpty)},
			{"NaN", nan, 5, notFiniteErr("x", 6, 2, math.NaN())},
			{"Inf", inf, 5, notFiniteErr("x", 11, 1, math.Inf(1))},
		} {
			_, err := s.sel.Select(ctx, tc.pool, tc.budget, 1)
			wantErrKind(t, s.name+": "+tc.name, err, tc.want)
		}
	}
	for _, l := range []float64{-1e-3, math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := CREDSelector{Kernel: GaussianKernel{Sigma: 1}, LambdaQ: l}.Select(ctx, pool, 5, 1)
		wantErrKind(t, fmt.Sprintf("kernel lambda_q %v", l), err, paramErr("lambda_q", l))
		_, err = CREDSelector{Features: rf, LambdaQ: l}.Select(ctx, pool, 5, 1)
		wantErrKind(t, fmt.Sprintf("features lambda_q %v", l), err, paramErr("lambda_q", l))
	}
	_, err = CREDSelector{}.Select(ctx, pool, 5, 1)
	wantErrKind(t, "neither kernel nor features", err, paramErr("CREDSelector.Kernel"))
	_, err = CREDSelector{LambdaQ: 1}.Select(ctx, pool, 5, 1)
	wantErrKind(t, "lambda but neither kernel nor features", err, paramErr("CREDSelector.Kernel"))
	_, err = CREDSelector{Kernel: GaussianKernel{Sigma: -1}}.Select(ctx, pool, 5, 1)
	wantErrKind(t, "bad kernel", err, paramErr("Gaussian kernel sigma", -1.0))
	_, err = CREDSelector{Features: rf, Block: -2}.Select(ctx, pool, 5, 1)
	wantErrKind(t, "negative block", err, paramErr("Block", -2))
	rf4, _ := NewRandomFourier(4, 10, 1, 1)
	_, err = CREDSelector{Features: rf4}.Select(ctx, pool, 5, 1)
	wantErrKind(t, "feature map of another input dimension", err, isErr(ErrShape))
	_, err = UniformSelector{WithoutReplacement: true}.Select(ctx, pool, 21, 1)
	wantErrKind(t, "without replacement, budget > pool", err, paramErr("budget", 21))
	for _, D := range []int{0, -3} {
		_, err := NewRandomFourier(3, D, 1, 1)
		wantErrKind(t, fmt.Sprintf("random features m = %d", D), err, paramErr("random features D", D))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for _, s := range selectors[2:] {
		if _, err := s.sel.Select(cctx, pool, 5, 1); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", s.name, err)
		}
	}
}

func TestGatherRows(t *testing.T) {
	x := randData(crRNG(26), 9, 3, 1)
	x0 := mat.DenseCopyOf(x)
	idx := []int{4, 0, 4, 8}
	g, err := GatherRows(x, idx)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(g, rowsOf(x, idx)) {
		t.Error("GatherRows differs from the rows")
	}
	g.Set(0, 0, 99)
	if !mat.Equal(x, x0) {
		t.Error("GatherRows shares memory with x")
	}
	// A strided view.
	v := x.Slice(2, 8, 1, 3).(*mat.Dense)
	g, err = GatherRows(v, []int{5, 0})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(g, rowsOf(v, []int{5, 0})) {
		t.Error("GatherRows of a view differs")
	}
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		idx  []int
		want errKind
	}{
		{"out of range", x, []int{1, 9}, paramErr("idx[1]", 9)},
		{"negative", x, []int{-1}, paramErr("idx[0]", -1)},
		{"no indices", x, nil, isErr(ErrEmpty)},
		{"nil x", nil, []int{0}, isErr(ErrEmpty)},
		{"empty x", &mat.Dense{}, []int{0}, isErr(ErrEmpty)},
	} {
		_, err := GatherRows(tc.x, tc.idx)
		wantErrKind(t, tc.name, err, tc.want)
	}
}
