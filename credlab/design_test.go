package credlab

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// skewedQ is a sampling distribution over n rows with a heavy head (rows
// that get capped at pi = 1 for moderate budgets) and one zero.
func skewedQ(n int) []float64 {
	q := make([]float64, n)
	rng := crRNG(5)
	for j := range q {
		q[j] = 0.2 + rng.Float64()
	}
	q[0], q[1], q[2] = 15, 8, 3
	q[n-1] = 0
	s := sum(q)
	for j := range q {
		q[j] /= s
	}
	return q
}

func TestInclusionProbabilities(t *testing.T) {
	q := skewedQ(30)
	for _, n := range []int{1, 5, 8, 20, 29} {
		pi, err := InclusionProbabilities(q, n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(sum(pi)-float64(n)) > 1e-9 {
			t.Errorf("n = %d: pi sums to %v", n, sum(pi))
		}
		// Uncapped rows are proportional to q with one constant; capped
		// rows would exceed 1 at that constant.
		c := 0.0
		for j, p := range pi {
			if p > 0 && p < 1 {
				c = p / q[j]
			}
		}
		for j, p := range pi {
			switch {
			case q[j] == 0 && p != 0:
				t.Errorf("n = %d: row %d with q = 0 has pi = %v", n, j, p)
			case p == 1 && n < 29 && c*q[j] < 1-1e-12:
				t.Errorf("n = %d: row %d capped though c q = %v", n, j, c*q[j])
			case p > 0 && p < 1 && math.Abs(p-c*q[j]) > 1e-12:
				t.Errorf("n = %d: row %d: pi = %v, want %v", n, j, p, c*q[j])
			}
		}
	}
	pi, _ := InclusionProbabilities(q, 8)
	if pi[0] != 1 || pi[1] != 1 || pi[2] >= 1 {
		t.Errorf("n = 8: head rows %v, want the first two capped", pi[:3])
	}
	_, err := InclusionProbabilities(q, 30)
	var be *ParamError
	if !errors.As(err, &be) || be.Name != "budget" || be.Value != 30 {
		t.Errorf("budget above the 29 rows with positive probability: %v", err)
	}
}

// The ranking's prefixes of every size m are samples with inclusion
// probabilities pi(m): over many seeds a chi-square statistic of the
// inclusion frequencies over the fractional rows stays below a
// conservative bound at each m, and the same statistic against a wrong pi
// exceeds it.
func TestRankingInclusionFrequencies(t *testing.T) {
	q := skewedQ(30)
	const reps = 20000
	sizes := []int{1, 5, 8, 20, 28, 29}
	count := make([][]float64, len(sizes))
	for k := range count {
		count[k] = make([]float64, len(q))
	}
	for r := 0; r < reps; r++ {
		sel, err := SampleDesign(q, nil, 29, WithoutReplacement, nil, uint64(r))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, j := range sel.Index {
			if seen[j] || q[j] == 0 {
				t.Fatalf("seed %d: ranking %v repeats a row or has the row with q = 0", r, sel.Index)
			}
			seen[j] = true
		}
		for k, m := range sizes {
			for _, j := range sel.Index[:m] {
				count[k][j]++
			}
		}
	}
	chi2 := func(count, pi []float64) (float64, int) {
		x, df := 0.0, 0
		for j, p := range pi {
			if p <= 0 || p >= 1 {
				if count[j] != p*reps {
					x = math.Inf(1)
				}
				continue
			}
			e := reps * p
			x += (count[j] - e) * (count[j] - e) / (e * (1 - p))
			df++
		}
		return x, df
	}
	for k, m := range sizes {
		pi, err := InclusionProbabilities(q, m)
		if err != nil {
			t.Fatal(err)
		}
		x, df := chi2(count[k], pi)
		bound := float64(df) + 6*math.Sqrt(2*float64(df))
		if x > bound {
			t.Errorf("m = %d: chi-square %.1f over %d rows exceeds %.1f", m, x, df, bound)
		}
		if m == 8 {
			wrong := append([]float64(nil), pi...)
			wrong[3], wrong[4] = wrong[3]*1.1, wrong[4]-wrong[3]*0.1
			if xw, _ := chi2(count[k], wrong); xw <= bound {
				t.Errorf("chi-square against a wrong pi %.1f does not exceed %.1f: the test has no power", xw, bound)
			}
		}
	}
}

// Every design, in one to three batches of one seed, gives a weighted mean
// of a fixed function that is unbiased for the pool mean, and never labels
// a row twice in the distinct designs.
func TestDesignUnbiased(t *testing.T) {
	q := skewedQ(40)
	f := make([]float64, len(q))
	rng := crRNG(8)
	for j := range f {
		f[j] = math.Sin(float64(j)) + 2*rng.Float64()
	}
	f[1] = 10       // a large value on a heavy row
	f[len(f)-1] = 0 // no design draws the row with q = 0
	poolMean := sum(f) / float64(len(f))
	const reps = 4000
	for _, d := range []Design{WithReplacement, DistinctRows, WithoutReplacement} {
		for _, batches := range [][]int{{10}, {6, 4}, {3, 3, 5}} {
			var m, m2 float64
			for r := 0; r < reps; r++ {
				var sel *Selection
				for _, size := range batches {
					var err error
					sel, err = SampleDesign(q, nil, size, d, sel, uint64(r))
					if err != nil {
						t.Fatal(err)
					}
				}
				if d != WithReplacement {
					seen := map[int]bool{}
					for _, j := range sel.Index {
						if seen[j] {
							t.Fatalf("%v %v: row %d labeled twice", d, batches, j)
						}
						seen[j] = true
					}
				}
				if d == WithoutReplacement && len(sel.Index) != sumInts(batches) {
					t.Fatalf("%v %v: %d rows", d, batches, len(sel.Index))
				}
				est := 0.0
				for i, j := range sel.Index {
					est += sel.Weight[i] * f[j]
				}
				est /= float64(len(sel.Index))
				m += est
				m2 += est * est
			}
			m /= reps
			se := math.Sqrt((m2/reps - m*m) / reps)
			if math.Abs(m-poolMean) > 4.5*se {
				t.Errorf("%v, batches %v: mean estimate %.4f, pool mean %.4f (se %.4f)", d, batches, m, poolMean, se)
			}
		}
	}
}

// Batches of one seed add up to the one-shot selection of their total, in
// every design: the same rows in the same order, the same probabilities,
// weights and counts. A uniform design without replacement has weights 1.
// Without replacement, a previous selection that is not the ranking's
// prefix (another seed) is an error naming one of its rows.
func TestDesignBatchesOneShot(t *testing.T) {
	q := skewedQ(50)
	for _, d := range []Design{WithReplacement, DistinctRows, WithoutReplacement} {
		var sel *Selection
		for _, size := range []int{10, 5, 12} {
			var err error
			if sel, err = SampleDesign(q, nil, size, d, sel, 7); err != nil {
				t.Fatal(err)
			}
		}
		one, err := SampleDesign(q, nil, 27, d, nil, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sel.Index, one.Index) || !reflect.DeepEqual(sel.Prob, one.Prob) ||
			!reflect.DeepEqual(sel.Weight, one.Weight) || !reflect.DeepEqual(sel.Count, one.Count) {
			t.Errorf("%v: three batches %v %v differ from one draw %v %v", d, sel.Index, sel.Weight, one.Index, one.Weight)
		}
		if n := len(sel.Batch); n != len(sel.Index) || sel.Batch[0] != 0 || sel.Batch[n-1] != 2 {
			t.Errorf("%v: batch numbers %v", d, sel.Batch)
		}
	}
	ctx := context.Background()
	pool := randData(crRNG(3), 50, 2, 1)
	first, err := UniformSelector{Design: WithoutReplacement}.Select(ctx, pool, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	both, err := UniformSelector{Design: WithoutReplacement, Previous: first}.Select(ctx, pool, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(both.Index[:10], first.Index) || len(both.Index) != 15 {
		t.Fatalf("union %v does not start with the first batch %v", both.Index, first.Index)
	}
	for i, w := range both.Weight {
		if w != 1 || both.Prob[i] != 15.0/50 || both.Batch[i] != min(i/10, 1) {
			t.Errorf("row %d: weight %v, prob %v, batch %d; want 1, 0.3, %d", i, w, both.Prob[i], both.Batch[i], min(i/10, 1))
		}
	}
	_, err = UniformSelector{Design: WithoutReplacement, Previous: first}.Select(ctx, pool, 5, 2)
	var be *ParamError
	if !errors.As(err, &be) || be.Name != "previous row" || !strings.Contains(be.Want, "seed of its first batch") {
		t.Errorf("a previous selection of another seed: %v", err)
	}
	_, err = UniformSelector{Design: WithoutReplacement, Previous: both}.Select(ctx, pool, 36, 1)
	wantErrKind(t, "budget above the unlabeled rows", err, paramErr("budget", 36))
	bad := &Selection{Index: []int{3, 50}, Prob: []float64{0.1, 0.1}, Weight: []float64{1, 1}}
	_, err = CREDSelector{Kernel: GaussianKernel{Sigma: 1}, Design: WithoutReplacement, Previous: bad}.Select(ctx, pool, 5, 3)
	if !errors.As(err, &be) || be.Name != "previous row" || be.Value != 50 {
		t.Errorf("labeled row outside the pool: %v", err)
	}
	twice := &Selection{Index: []int{3, 3}, Prob: []float64{0.1, 0.1}, Weight: []float64{1, 1}}
	_, err = UniformSelector{Design: WithoutReplacement, Previous: twice}.Select(ctx, pool, 5, 3)
	wantErrKind(t, "row twice", err, paramErr("previous row", 3))
}

// CRED without replacement and with distinct rows: exact n distinct rows,
// the same on any GOMAXPROCS, and distinct-row weights that reproduce the
// with-replacement weighted sums.
func TestCREDDesigns(t *testing.T) {
	ctx := context.Background()
	pool := randData(crRNG(22), 200, 3, 1)
	rf, err := NewRandomFourier(3, 40, 0.8, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Design{DistinctRows, WithoutReplacement} {
		c := CREDSelector{Features: rf, LambdaQ: 1e-4, Design: d, Block: 33}
		var a, b *Selection
		withProcs(1, func() { a, err = c.Select(ctx, pool, 60, 4) })
		if err != nil {
			t.Fatal(err)
		}
		withProcs(4, func() { b, err = c.Select(ctx, pool, 60, 4) })
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%v: GOMAXPROCS changed the selection", d)
		}
		if d == WithoutReplacement && len(a.Index) != 60 {
			t.Errorf("%v: %d rows, want 60", d, len(a.Index))
		}
		c.Previous = a
		next, err := c.Select(ctx, pool, 30, 4)
		if err != nil {
			t.Fatal(err)
		}
		if d == WithoutReplacement && len(next.Index) != 90 {
			t.Errorf("%v: %d rows after a second batch, want 90", d, len(next.Index))
		}
	}
	// DistinctRows = WithReplacement with duplicates merged.
	c := CREDSelector{Features: rf, LambdaQ: 1e-4}
	all, err := c.Select(ctx, pool, 80, 6)
	if err != nil {
		t.Fatal(err)
	}
	c.Design = DistinctRows
	dist, err := c.Select(ctx, pool, 80, 6)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{}
	for i, j := range all.Index {
		want[j] += all.Weight[i] / 80
	}
	tot := 0
	for i, j := range dist.Index {
		tot += dist.Count[i]
		if got := dist.Weight[i] / float64(len(dist.Index)); math.Abs(got-want[j]) > 1e-12*want[j] {
			t.Errorf("row %d: distinct weight/n %v, with replacement %v", j, got, want[j])
		}
	}
	if tot != 80 || len(dist.Index) != len(want) {
		t.Errorf("distinct rows: %d draws over %d rows, want 80 over %d", tot, len(dist.Index), len(want))
	}
}
