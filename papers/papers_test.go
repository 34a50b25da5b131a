package papers

import (
	"compress/gzip"
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credlab/credlab/frames"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func TestCREDToyPool(t *testing.T) {
	pool, err := CREDToyPool(20000, 0.1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if pool.Nrow() != 20000 || strings.Join(pool.Names(), ",") != "x1,x2,y" {
		t.Fatalf("pool %d x %v", pool.Nrow(), pool.Names())
	}
	s, _ := frames.Summarize(pool, nil, "x1", "x2")
	sd := s.Col(frames.SummarySD).Float()
	if math.Abs(sd[0]-1) > 0.03 || math.Abs(sd[1]-0.1) > 0.003 {
		t.Errorf("standard deviations %v, want 1 and 0.1", sd)
	}
	again, _ := CREDToyPool(20000, 0.1, 1)
	if again.Col("y").Float()[7] != pool.Col("y").Float()[7] {
		t.Error("same seed, different pool")
	}
	if _, err := CREDToyPool(0, 0.1, 1); err == nil {
		t.Error("empty pool accepted")
	}
}

func TestCoefficientTrials(t *testing.T) {
	pool, _ := CREDToyPool(20000, 0.1, 3)
	cred := credlab.CREDSelector{Features: credlab.RawFeatures{}, LambdaQ: 1e-6}
	a, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 3, Trials: 300, Name: "CRED", Select: frames.SelectSpec{Selector: cred, Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 3, Trials: 300, Select: frames.SelectSpec{Method: "uniform", Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Nrow() != 300 || strings.Join(a.Names(), ",") != "labeling,trial,x1,x2" || u.Col("labeling").Records()[0] != "uniform" {
		t.Fatalf("trials frame %v %v", a.Names(), u.Col("labeling").Records()[0])
	}
	// CRED favours large |x2| and so estimates b2 more tightly (IQR).
	s, _ := frames.Summarize(a.RBind(u), []string{"labeling"}, "x2")
	q25, q75 := s.Col(frames.SummaryQ25).Float(), s.Col(frames.SummaryQ75).Float()
	if credIQR, uniIQR := q75[0]-q25[0], q75[1]-q25[1]; !(credIQR < uniIQR) {
		t.Errorf("IQR of b2: CRED %.3g, uniform %.3g", credIQR, uniIQR)
	}
	// The first trial equals a direct weighted least-squares fit.
	chosen, _ := frames.Select(pool, 900, frames.SelectSpec{Selector: cred, Seed: 4, Features: []string{"x1", "x2"}})
	x, _ := frames.ToMatrix(chosen.Subset([]int{0, 1, 2}), "x1", "x2")
	y, _ := frames.Column(chosen.Subset([]int{0, 1, 2}), "y")
	w, _ := frames.Column(chosen.Subset([]int{0, 1, 2}), frames.WeightColumn)
	fit, err := credlab.LinearRLS(context.Background(), x, y, credlab.LinearRLSConfig{Features: credlab.RawFeatures{}, Lambda: 1e-10, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Col("x1").Float()[0]; !near(got, fit.Model.Coef[0]) {
		t.Errorf("trial 0 b1 = %v, direct fit %v", got, fit.Model.Coef[0])
	}
	sp, out, err := SpreadOf(a.RBind(u), "uniform", "x1", "x2", 0, 0)
	if err != nil || len(sp.B1) != 300 || out != 0 {
		t.Errorf("SpreadOf: %d %d %v", len(sp.B1), out, err)
	}
	sp, out, _ = SpreadOf(a.RBind(u), "uniform", "x1", "x2", 0.9, 1.1)
	if len(sp.B1)+out != 300 || out == 0 {
		t.Errorf("SpreadOf in a window: %d kept, %d left out", len(sp.B1), out)
	}
	for i := range sp.B1 {
		if sp.B1[i] < 0.9 || sp.B2[i] > 1.1 {
			t.Fatalf("estimate (%v, %v) outside the window", sp.B1[i], sp.B2[i])
		}
	}
	if _, _, err := SpreadOf(a, "nothing", "x1", "x2", 0, 0); err == nil {
		t.Error("unknown labeling accepted")
	}
	if _, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 0, Trials: 3}); err == nil {
		t.Error("zero labels accepted")
	}
}

// benchPool returns a small pool and test set with a few correlated
// features of very different scales.
func benchPool(n, nt int) (dataframe.DataFrame, dataframe.DataFrame) {
	x, _, _ := credlab.SmoothRegression(n+nt, 4, 0, 5)
	raw := x.RawMatrix()
	for i := 0; i < n+nt; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+4]
		row[3] = 0.05*row[3] + 0.5*row[0]
	}
	df, _ := frames.FromMatrix(x, "a", "b", "c", "d")
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	tidx := make([]int, nt)
	for i := range tidx {
		tidx[i] = n + i
	}
	return df.Subset(idx), df.Subset(tidx)
}

func TestLabelingBenchmark(t *testing.T) {
	pool, test := benchPool(400, 100)
	for _, fm := range []string{"raw", "relu"} {
		df, err := LabelingBenchmark(pool, test, BenchmarkSpec{FeatureMap: fm, Widths: []int{30}, Ns: []int{40, 20}, NoiseVars: []float64{1e-4, 1},
			Reps: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if df.Nrow() != 4*2*2*2 {
			t.Fatalf("%s: %d rows, want 32", fm, df.Nrow())
		}
		for i, v := range df.Col("test_rmse").Float() {
			if math.IsNaN(v) || v < 0 {
				t.Fatalf("%s: row %d RMSE %v", fm, i, v)
			}
		}
		if fm != "raw" {
			continue
		}
		// More noise, more error, for every method on the linear task.
		p, _ := frames.Pivot(df, []string{"method", "n"}, "noise_var", "test_rmse", "median")
		lo, hi := p.Col("0.0001").Float(), p.Col("1").Float()
		for i := range lo {
			if !(lo[i] < hi[i]) {
				t.Errorf("%s: row %d: RMSE %v at noise 1e-4, %v at noise 1", fm, i, lo[i], hi[i])
			}
		}
	}
	if _, err := LabelingBenchmark(pool, test, BenchmarkSpec{Ns: []int{401}}); err == nil {
		t.Error("labeled size beyond the pool accepted")
	}
	if _, err := LabelingBenchmark(pool, test, BenchmarkSpec{Methods: []string{"KRR", "GP"}}); err == nil {
		t.Error("unknown method accepted")
	}
}

// The shared-Gram fast path of LabelingBenchmark equals the package's
// estimators on the same labeled rows.
func TestPassGrid(t *testing.T) {
	g := PassGrid(1000, 4)
	if len(g) != 4 || g[0] != 1 || g[1] != 10 || g[3] != 1000 {
		t.Errorf("PassGrid(1000, 4) = %v", g)
	}
	if g := PassGrid(3, 10); g[len(g)-1] != 3 || len(g) != 3 {
		t.Errorf("PassGrid(3, 10) = %v", g)
	}
}

func TestSGMErrorDecomposition(t *testing.T) {
	df, err := SGMErrorDecomposition(DecompositionSpec{M: 30, Population: 300, Trials: 2, Passes: []int{1, 5, 50}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 9 {
		t.Fatalf("%d rows, want 3 presets x 3 passes", df.Nrow())
	}
	d, err := DecompositionOf(df, "batch")
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.X {
		if d.ComputationalVariance[i] != 0 {
			t.Errorf("batch GD has computational variance %v", d.ComputationalVariance[i])
		}
	}
	if !(d.Bias[2] < d.Bias[0]) {
		t.Errorf("bias does not fall with the passes: %v", d.Bias)
	}
	mb, _ := DecompositionOf(df, "minibatch")
	if mb.X[1] != 5 || mb.ComputationalVariance[1] <= 0 {
		t.Errorf("minibatch passes %v, computational variance %v", mb.X, mb.ComputationalVariance)
	}
	if _, err := DecompositionOf(df, "adam"); err == nil {
		t.Error("unknown preset accepted")
	}
	if _, err := SGMErrorDecomposition(DecompositionSpec{Presets: []string{"adam"}, Trials: 1, M: 10, Population: 50}); err == nil {
		t.Error("unknown preset accepted")
	}
}

func TestSGMPassErrors(t *testing.T) {
	x, _, f := credlab.SmoothRegression(200, 2, 0, 6)
	df, _ := frames.FromMatrix(x, "a", "b")
	lab := make([]float64, len(f))
	for i, v := range f {
		if v > 0 {
			lab[i] = 1
		}
	}
	df = df.Mutate(series.New(lab, series.Float, "y"))
	out, err := SGMPassErrors(df, PassSpec{Target: "y", Passes: []int{1, 10, 100}, Splits: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if out.Nrow() != 3*3*2 {
		t.Fatalf("%d rows, want 18", out.Nrow())
	}
	s, _ := frames.Summarize(out, []string{"preset", "passes"}, "test_error")
	for _, v := range s.Col(frames.SummaryMean).Float() {
		if v < 0 || v > 1 {
			t.Fatalf("error rate %v", v)
		}
	}
	if last := s.Col(frames.SummaryMean).Float()[2]; last > 0.25 {
		t.Errorf("minibatch test error after 100 passes %v, want a learned classifier", last)
	}
	bad := df.Mutate(series.New(f, series.Float, "y"))
	if _, err := SGMPassErrors(bad, PassSpec{Target: "y"}); err == nil {
		t.Error("real-valued labels accepted")
	}
}

func TestEntropy(t *testing.T) {
	bags, err := EntropyBags(4, 30, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if bags.Nrow() != 120 || strings.Join(bags.Names(), ",") != "bag,x1,x2,y,angle" {
		t.Fatalf("bags %d x %v", bags.Nrow(), bags.Names())
	}
	p := newEntropyProblem(1)
	a, y := bags.Col("angle").Float(), bags.Col("y").Float()
	if !near(y[31], p.Entropy(a[31])) {
		t.Errorf("label %v, entropy %v", y[31], p.Entropy(a[31]))
	}
	m, err := frames.FitBags(bags, frames.BagSpec{Bag: "bag", Target: "y", Exclude: []string{"angle"}, Sigma: 0.5, Lambda: 1e-3})
	if err != nil || m.Bags != 4 {
		t.Fatalf("FitBags on EntropyBags: %v", err)
	}
	df, err := EntropyBenchmark(EntropySpec{Points: []int{5, 20}, Bags: []int{10}, Test: 20, MaxIter: 500, Checkpoints: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 4 {
		t.Fatalf("%d rows, want 2 methods x 2 bag sizes", df.Nrow())
	}
	for _, v := range df.Col("test_rmse").Float() {
		if !(v > 0 && v < 2) {
			t.Errorf("test RMSE %v", v)
		}
	}
	if _, err := EntropyBenchmark(EntropySpec{Methods: []string{"gp"}}); err == nil {
		t.Error("unknown method accepted")
	}
}

// TestNYTROBenchmark checks the frame against fits made here with
// credlab's estimators and the paper's settings, one row per method,
// number of centers and seed (KOLS once), and the errors.
func TestNYTROBenchmark(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 8)
	df, _ := frames.FromMatrix(x, "a", "b")
	df = df.Mutate(series.New(y, series.Float, "y"))
	train, test, _ := frames.SplitRows(df, 0.3, 1)
	spec := NYTROSpec{Target: "y", Methods: []string{"kols", "nkrls", "NYTRO"}, Sigma: 0.5, Ms: []int{20, 40}, Seeds: []uint64{1, 2}, Steps: 30}
	out, err := NYTROBenchmark(train, test, spec)
	if err != nil {
		t.Fatal(err)
	}
	if out.Nrow() != 9 {
		t.Fatalf("%d rows, want KOLS once, NKRLS and NYTRO for 2 m x 2 seeds", out.Nrow())
	}
	meth := out.Col("method").Records()
	if meth[0] != "KOLS" || meth[1] != "NKRLS" || meth[8] != "NYTRO" {
		t.Errorf("methods %v", meth)
	}
	if m := out.Col("m").Float(); m[0] != 0 || m[1] != 20 || m[3] != 40 || m[8] != 40 {
		t.Errorf("m column %v", m)
	}
	if e := out.Col("test_error").Float(); !math.IsNaN(e[0]) {
		t.Errorf("sign error on a real target: %v", e[0])
	}
	if it := out.Col("iter").Float(); it[5] != 30 || it[8] != 30 {
		t.Errorf("NYTRO iterations %v, want 30: Steps = 30 runs every step, and this problem still improves at the last", it)
	}
	// Row 4: NKRLS, m = 40, seed 2, refitted here.
	xtr, _ := frames.ToMatrix(train, "a", "b")
	ytr, _ := frames.Column(train, "y")
	xte, _ := frames.ToMatrix(test, "a", "b")
	yte, _ := frames.Column(test, "y")
	fit, err := credlab.NKRLS(t.Context(), xtr, ytr, credlab.NKRLSConfig{Kernel: credlab.GaussianKernel{Sigma: 0.5},
		Nystrom: credlab.NystromConfig{M: 40, Seed: 2}, Holdout: credlab.Holdout{Seed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := fit.Model.Predict(xte)
	if got, want := out.Col("test_rmse").Float()[4], credlab.RMSE(pred, yte); !near(got, want) {
		t.Errorf("NKRLS m = 40, seed 2: test RMSE %v, refitted %v", got, want)
	}
	if got := out.Col("lambda").Float()[4]; got != fit.Lambda {
		t.Errorf("NKRLS lambda %v, refitted %v", got, fit.Lambda)
	}
	pts, err := TimedOf(out)
	if err != nil || len(pts) != 3 || pts[0].Name != "KOLS" || pts[2].Name != "NYTRO" {
		t.Fatalf("TimedOf: %+v %v", pts, err)
	}
	r := out.Col("test_rmse").Float()
	if !near(pts[1].RMSE, (r[1]+r[2]+r[3]+r[4])/4) {
		t.Errorf("NKRLS mean RMSE %v, want %v", pts[1].RMSE, (r[1]+r[2]+r[3]+r[4])/4)
	}
	for _, bad := range []NYTROSpec{
		{Target: "y", Methods: []string{"magic"}, Sigma: 1},
		{Target: "y", Sigma: 0},
		{Target: "y", Sigma: 1, Ms: []int{0}},
		{Target: "y", Sigma: 1, Steps: -1},
		{Target: "z", Sigma: 1},
	} {
		if _, err := NYTROBenchmark(train, test, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestLoadStagedErrors(t *testing.T) {
	if _, _, err := LoadStaged(t.TempDir(), "usps"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "CREDLAB_DATA") {
		t.Errorf("missing data: %v", err)
	}
	if _, _, err := LoadStaged(t.TempDir(), "mnist"); err == nil || !strings.Contains(err.Error(), "usps") {
		t.Errorf("unknown set: %v", err)
	}
	if DescribeStaged("a9a") == "" || len(StagedNames()) != 5 {
		t.Error("descriptions")
	}
}

func TestLoadStagedFormats(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "breast_cancer_wisconsin"), 0o755)
	os.WriteFile(filepath.Join(dir, "breast_cancer_wisconsin", "breast_cancer.csv"),
		[]byte("3,2,malignant,benign\n1.5,2,0\n3,4.5,1\n5,6,1\n"), 0o644)
	tr, te, err := LoadStaged(dir, "breast_cancer_wisconsin")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Nrow() != 3 || te.Nrow() != 0 || strings.Join(tr.Names(), ",") != "x1,x2,y" {
		t.Fatalf("frame %v x %v, test %d", tr.Nrow(), tr.Names(), te.Nrow())
	}
	if y := tr.Col("y").Float(); y[0] != -1 || y[1] != 1 {
		t.Errorf("labels %v, want -1 (malignant) and +1", y)
	}
	os.MkdirAll(filepath.Join(dir, "usps"), 0o755)
	for _, name := range []string{"zip.train.gz", "zip.test.gz"} {
		f, _ := os.Create(filepath.Join(dir, "usps", name))
		z := gzip.NewWriter(f)
		z.Write([]byte("3.0000 -1 1 0 \n7.0000 1 -1 -0.5 \n"))
		z.Close()
		f.Close()
	}
	tr, te, err = LoadStaged(dir, "usps")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Ncol() != 4 || te.Nrow() != 2 {
		t.Fatalf("usps frame %d columns, test %d rows", tr.Ncol(), te.Nrow())
	}
	if x := tr.Col("x3").Float(); x[1] != 0.25 || tr.Col("y").Float()[1] != 7 {
		t.Errorf("pixels not mapped to [0, 1]: %v", x)
	}
}

// The staged copies, when present beside the repository.
func TestLoadStagedShared(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no staged data beside the repository")
	}
	want := map[string][4]int{"usps": {7291, 257, 2007, 257}, "breast_cancer_wisconsin": {569, 31, 0, 0},
		"coil2000": {5822, 86, 4000, 86}, "cpusmall": {8192, 13, 0, 0}}
	for name, w := range want {
		tr, te, err := LoadStaged(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := [4]int{tr.Nrow(), tr.Ncol(), te.Nrow(), te.Ncol()}; got != w {
			t.Errorf("%s: %v, want %v", name, got, w)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
