package credlab

import (
	"context"
	"errors"
	"math"
	"reflect"
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

// The pivotal method's inclusion frequencies over many seeds match pi: a
// chi-square statistic over the fractional rows stays below a conservative
// bound, and the same statistic against a wrong pi exceeds it.
func TestPivotalInclusionFrequencies(t *testing.T) {
	q := skewedQ(30)
	const n, reps = 8, 20000
	pi, err := InclusionProbabilities(q, n)
	if err != nil {
		t.Fatal(err)
	}
	count := make([]float64, len(q))
	for r := 0; r < reps; r++ {
		sel, err := SampleDesign(q, nil, n, WithoutReplacement, nil, uint64(r))
		if err != nil {
			t.Fatal(err)
		}
		if len(sel.Index) != n {
			t.Fatalf("seed %d: %d rows, want exactly %d", r, len(sel.Index), n)
		}
		for i, j := range sel.Index {
			if i > 0 && sel.Index[i-1] >= j {
				t.Fatalf("seed %d: rows %v not distinct and increasing", r, sel.Index)
			}
			count[j]++
		}
	}
	chi2 := func(pi []float64) (float64, int) {
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
	x, df := chi2(pi)
	bound := float64(df) + 6*math.Sqrt(2*float64(df))
	if x > bound {
		t.Errorf("chi-square %.1f over %d rows exceeds %.1f", x, df, bound)
	}
	wrong := append([]float64(nil), pi...)
	wrong[3], wrong[4] = wrong[3]*1.1, wrong[4]-wrong[3]*0.1
	if xw, _ := chi2(wrong); xw <= bound {
		t.Errorf("chi-square against a wrong pi %.1f does not exceed %.1f: the test has no power", xw, bound)
	}
}

// Every design, in one batch or two, gives a weighted mean of a fixed
// function that is unbiased for the pool mean, and never labels a row
// twice in the distinct designs.
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
				for b, size := range batches {
					var err error
					sel, err = SampleDesign(q, nil, size, d, sel, uint64(r*10+b))
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

func sumInts(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// With uniform q and two batches without replacement the union weights have
// the closed form 1 + n2/N (first batch) and (N - n1)/N (second).
func TestDesignBatchWeightsUniform(t *testing.T) {
	ctx := context.Background()
	pool := randData(crRNG(3), 50, 2, 1)
	first, err := UniformSelector{Design: WithoutReplacement}.Select(ctx, pool, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	both, err := UniformSelector{Design: WithoutReplacement, Previous: first}.Select(ctx, pool, 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(both.Index[:10], first.Index) || len(both.Index) != 15 {
		t.Fatalf("union %v does not start with the first batch %v", both.Index, first.Index)
	}
	for i, w := range both.Weight {
		want := 1 + 5.0/50
		if i >= 10 {
			want = 40.0 / 50
		}
		if math.Abs(w-want) > 1e-12 || both.Batch[i] != min(i/10, 1) {
			t.Errorf("row %d: weight %v batch %d, want %v, %d", i, w, both.Batch[i], want, min(i/10, 1))
		}
	}
	_, err = UniformSelector{Design: WithoutReplacement, Previous: both}.Select(ctx, pool, 36, 3)
	wantErrKind(t, "budget above the unlabeled rows", err, paramErr("budget", 36))
	bad := &Selection{Index: []int{3, 50}, Prob: []float64{0.1, 0.1}, Weight: []float64{1, 1}}
	_, err = CREDSelector{Kernel: GaussianKernel{Sigma: 1}, Design: WithoutReplacement, Previous: bad}.Select(ctx, pool, 5, 3)
	var be *ParamError
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
		next, err := c.Select(ctx, pool, 30, 5)
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
