package frames

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func TestSelect(t *testing.T) {
	pool := regFrame(t, 150, 4).Select([]string{"a", "b"})
	for _, c := range []struct {
		name string
		spec SelectSpec
	}{
		{"cred exact", SelectSpec{Sigma: 0.5, Seed: 1}},
		{"cred with replacement", SelectSpec{Sigma: 0.5, Seed: 1, Design: "replacement"}},
		{"cred default sigma", SelectSpec{Method: "CRED"}},
		{"cred fourier", SelectSpec{FeatureMap: "fourier", M: 50, Sigma: 0.5}},
		{"cred raw", SelectSpec{FeatureMap: "raw", LambdaQ: 1e-3}},
		{"cred nystrom", SelectSpec{FeatureMap: "nystrom", M: 30}},
		{"cred bless", SelectSpec{FeatureMap: "bless", M: 40}},
		{"uniform", SelectSpec{Method: "uniform"}},
		{"uniform with replacement", SelectSpec{Method: "uniform", Design: "replacement"}},
		{"custom", SelectSpec{Selector: credlab.UniformSelector{}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(pool)
			sel, err := Select(pool, 40, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if snapshot(pool) != before {
				t.Fatal("Select modified the pool")
			}
			wantNames(t, sel, "a", "b", "row", "prob", "weight")
			if sel.Nrow() != 40 {
				t.Fatalf("%d rows", sel.Nrow())
			}
			rows, err := sel.Col("row").Int()
			if err != nil {
				t.Fatal(err)
			}
			a, pa := col(t, sel, "a"), col(t, pool, "a")
			prob, w := col(t, sel, "prob"), col(t, sel, "weight")
			without := c.spec.Design == "" && c.spec.Selector == nil // the default design
			seen, draws := map[int]bool{}, 1.0                       // weight = 1/(N q) per draw, n/(N pi) without
			if without {
				draws = 40
			}
			for i, r := range rows {
				if r < 0 || r >= 150 || a[i] != pa[r] {
					t.Fatalf("row %d: index %d, a %v", i, r, a[i])
				}
				if math.Abs(w[i]*150*prob[i]/draws-1) > 1e-9 && c.spec.Method != "uniform" && c.spec.Selector == nil {
					t.Errorf("weight %v for probability %v (without replacement %v)", w[i], prob[i], without)
				}
				if without && seen[r] {
					t.Errorf("row %d drawn twice without replacement", r)
				}
				seen[r] = true
			}
		})
	}
}

func TestSelectErrors(t *testing.T) {
	pool := regFrame(t, 50, 4).Select([]string{"a", "b"})
	withRow := pool.Mutate(series.New(make([]int, 50), series.Int, "row"))
	outside := dataframe.New(series.New([]int{3, 77}, series.Int, "row"), series.New([]float64{0.1, 0.1}, series.Float, "prob"), series.New([]float64{1, 1}, series.Float, "weight"))
	noProb := outside.Select([]string{"row", "weight"})
	for _, c := range []struct {
		name   string
		pool   dataframe.DataFrame
		budget int
		spec   SelectSpec
		want   errCheck
	}{
		{"budget beyond pool", pool, 51, SelectSpec{Method: "uniform"}, wantParam("budget")},
		{"zero budget", pool, 0, SelectSpec{}, wantParam("budget")},
		{"row column", withRow, 5, SelectSpec{}, wantProblem("row", "")},
		{"unknown method", pool, 5, SelectSpec{Method: "bogus"}, wantParam("SelectSpec.Method")},
		{"unknown design", pool, 5, SelectSpec{Design: "bogus"}, wantParam("SelectSpec.Design")},
		{"cred, budget beyond pool", pool, 51, SelectSpec{Sigma: 1}, wantParam("budget")},
		{"labeled row outside pool", pool, 5, SelectSpec{Labeled: &outside}, wantParam("labeled row")},
		{"labeled without prob", pool, 5, SelectSpec{Labeled: &noProb}, wantColumn("prob", "labeled")},
		{"missing feature", pool, 5, SelectSpec{Features: []string{"c"}}, wantColumn("c", "feature")},
		{"empty pool", dataframe.New(series.New([]float64{}, series.Float, "a")), 5, SelectSpec{}, wantIs(credlab.ErrEmpty)},
		{"bad lambda_q", pool, 5, SelectSpec{LambdaQ: -1}, wantParam("lambda_q")},
		{"bad feature map", pool, 5, SelectSpec{FeatureMap: "x"}, wantParam("SelectSpec.FeatureMap")},
		{"kernel with a batch method", pool, 5, SelectSpec{Method: "lcmd", Kernel: "manhattan"}, wantParam("SelectSpec.Kernel")},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Select(c.pool, c.budget, c.spec)
			c.want(t, err)
		})
	}
	houses, err := LoadCSV("testdata/houses.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Select(houses, 3, SelectSpec{Exclude: []string{"city"}})
	wantMissing(1, 4)(t, err)
	sel, err := Select(houses, 60, SelectSpec{DropNA: true, OneHot: true, Sigma: 1, Design: "replacement"}) // 60 draws: row 4 never among them
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := sel.Col("row").Int()
	for _, r := range rows {
		if r == 4 {
			t.Fatal("row 4, with a missing age, was chosen")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = SelectContext(ctx, regFrame(t, 300, 1), 5, SelectSpec{})
	wantIs(context.Canceled)(t, err)
}

// TestSelectLabelFit is the labeling workflow: select from an unlabeled
// pool, label the chosen rows, join and fit with the weights.
func TestSelectLabelFit(t *testing.T) {
	x, y, f := credlab.SmoothRegression(400, 2, 0.05, 7)
	pool, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	sel, err := Select(pool, 120, SelectSpec{Sigma: 0.5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := sel.Col("row").Int()
	labels := make([]float64, len(rows))
	for i, r := range rows {
		labels[i] = y[r] // "ask the oracle"
	}
	labeled := sel.Mutate(series.New(labels, series.Float, "y"))
	m, err := Fit(labeled, Spec{Target: "y", Weight: "weight", Method: "krls", Sigma: 0.5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Features, ",") != "a,b" {
		t.Errorf("features %v: the bookkeeping columns must be left out", m.Features)
	}
	p, err := m.PredictValues(pool)
	if err != nil {
		t.Fatal(err)
	}
	if r := credlab.RMSE(p, f); r > 0.2 {
		t.Errorf("RMSE to the true function %.3f", r)
	}
}

// Batches through frames: label 30 without replacement, then 20 more; the
// union has 50 distinct rows, the first batch's rows first, and a batch
// column. The distinct design adds a count column; greedy is deterministic.
func TestSelectBatches(t *testing.T) {
	pool := regFrame(t, 120, 4).Select([]string{"a", "b"})
	for _, method := range []string{"cred", "uniform", "greedy"} {
		spec := SelectSpec{Method: method, Design: "without", Sigma: 0.5, Seed: 3}
		first, err := Select(pool, 30, spec)
		if err != nil {
			t.Fatal(err)
		}
		spec.Labeled = &first
		both, err := Select(pool, 20, spec)
		if err != nil {
			t.Fatal(err)
		}
		if method == "greedy" { // not a probability sample: pool weights
			wantNames(t, both, "a", "b", "row", "prob", "weight", "batch", "pool_weight")
		} else {
			wantNames(t, both, "a", "b", "row", "prob", "weight", "batch")
		}
		r1, _ := first.Col("row").Int()
		r2, _ := both.Col("row").Int()
		b, _ := both.Col("batch").Int()
		seen := map[int]bool{}
		for i, r := range r2 {
			if seen[r] || (i < 30 && r != r1[i]) || b[i] != min(i/30, 1) {
				t.Fatalf("%s: union row %d = %d (batch %d), first batch %v", method, i, r, b[i], r1)
			}
			seen[r] = true
		}
		if len(r2) != 50 {
			t.Errorf("%s: %d rows, want 50", method, len(r2))
		}
	}
	d, err := Select(pool, 60, SelectSpec{Design: "distinct", Sigma: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, d, "a", "b", "row", "prob", "weight", "count")
	total := 0.0
	for _, c := range col(t, d, "count") {
		total += c
	}
	if total != 60 || d.Nrow() > 60 {
		t.Errorf("distinct: %d rows with %v draws, want 60 draws", d.Nrow(), total)
	}
}

// TestSelectBLESS checks that FeatureMap "bless" draws from the CRED
// distribution of BLESS scores of the kernel, not of the exact scores.
func TestSelectBLESS(t *testing.T) {
	pool := regFrame(t, 150, 4).Select([]string{"a", "b"})
	x, err := ToMatrix(pool)
	if err != nil {
		t.Fatal(err)
	}
	k := credlab.GaussianKernel{Sigma: 0.5}
	q := map[string][]float64{}
	for name, score := range map[string]func() ([]float64, error){
		"bless": func() ([]float64, error) {
			return credlab.ApproxLeverageScores(context.Background(), k, x, 1e-3, credlab.BLESSConfig{Dict: 20, Seed: 3})
		},
		"exact": func() ([]float64, error) { return credlab.LeverageScores(context.Background(), k, x, 1e-3) },
	} {
		s, err := score()
		if err != nil {
			t.Fatal(err)
		}
		if q[name], err = credlab.CREDDistribution(s); err != nil {
			t.Fatal(err)
		}
	}
	sel, err := Select(pool, 30, SelectSpec{FeatureMap: "bless", M: 20, Sigma: 0.5, LambdaQ: 1e-3, Seed: 3, Scale: ScaleNone, Design: "replacement"})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := sel.Col("row").Int()
	prob := col(t, sel, "prob")
	differs := false
	for i, r := range rows {
		if math.Abs(prob[i]-q["bless"][r]) > 1e-12*q["bless"][r] {
			t.Errorf("row %d: prob %v, BLESS q %v", r, prob[i], q["bless"][r])
		}
		differs = differs || math.Abs(prob[i]-q["exact"][r]) > 1e-6*q["exact"][r]
	}
	if !differs {
		t.Error("the BLESS probabilities equal the exact ones: the approximation was not used")
	}
}

// TestSelectContinueReplacement: rows drawn with replacement (they repeat a
// row) do not continue under the default design without replacement, and
// the error names the design to continue them with.
func TestSelectContinueReplacement(t *testing.T) {
	pool := regFrame(t, 50, 4).Select([]string{"a", "b"})
	for _, method := range []string{"cred", "uniform"} {
		first, err := Select(pool, 40, SelectSpec{Method: method, Design: "replacement", Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := first.Col(RowColumn).Int()
		seen, repeats := map[int]bool{}, false
		for _, r := range rows {
			repeats = repeats || seen[r]
			seen[r] = true
		}
		if !repeats {
			t.Fatalf("%s: 40 draws of 50 rows repeat none: the test needs a repeat", method)
		}
		_, err = Select(pool, 5, SelectSpec{Method: method, Seed: 1, Labeled: &first})
		wantParam("SelectSpec.Design")(t, err)
		if err != nil && !strings.Contains(err.Error(), "want replacement") {
			t.Errorf("%s: %v", method, err)
		}
		if _, err := Select(pool, 5, SelectSpec{Method: method, Design: "replacement", Seed: 1, Labeled: &first}); err != nil {
			t.Errorf("%s: continuing with replacement: %v", method, err)
		}
	}
}
