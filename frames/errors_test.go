package frames

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// errCheck checks an error by its type (errors.As) or the sentinel it
// wraps (errors.Is) and the fields that locate the problem, never by its
// message.
type errCheck func(t *testing.T, err error)

// asError returns err as a T (errors.As), failing the test when it is not.
func asError[T error](t *testing.T, err error) (T, bool) {
	t.Helper()
	var e T
	if err == nil {
		t.Fatalf("no error, want a %T", e)
	}
	if !errors.As(err, &e) {
		t.Errorf("error %q (%T) is not a %T", err, err, e)
		return e, false
	}
	return e, true
}

// wantParam wants a *credlab.ParamError naming the setting name.
func wantParam(name string) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*credlab.ParamError](t, err); ok && e.Name != name {
			t.Errorf("ParamError names %q, want %q (%v)", e.Name, name, err)
		}
	}
}

// wantColumn wants a *ColumnError for the column name in the role.
func wantColumn(name, role string) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*ColumnError](t, err); ok && (e.Name != name || e.Role != role) {
			t.Errorf("ColumnError for %s column %q, want %s column %q (%v)", e.Role, e.Name, role, name, err)
		}
	}
}

// wantSuggestion wants a *ColumnError for name suggesting suggestion.
func wantSuggestion(name, suggestion string) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*ColumnError](t, err); ok && (e.Name != name || e.Suggestion != suggestion) {
			t.Errorf("ColumnError for %q suggesting %q, want %q suggesting %q (%v)", e.Name, e.Suggestion, name, suggestion, err)
		}
	}
}

// wantProblem wants a *ColumnProblemError for the column name in the
// role.
func wantProblem(name, role string) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*ColumnProblemError](t, err); ok && (e.Name != name || e.Role != role) {
			t.Errorf("ColumnProblemError for %s column %q, want %s column %q (%v)", e.Role, e.Name, role, name, err)
		}
	}
}

// wantStrings wants a *StringColumnsError listing exactly cols.
func wantStrings(cols ...string) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*StringColumnsError](t, err); ok && !equalStrings(e.Columns, cols) {
			t.Errorf("StringColumnsError lists %q, want %q", e.Columns, cols)
		}
	}
}

// wantMissing wants a *MissingError with rows affected rows, the first
// being first.
func wantMissing(rows, first int) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*MissingError](t, err); ok && (e.Rows != rows || e.First != first) {
			t.Errorf("MissingError of %d rows from row %d, want %d from row %d (%v)", e.Rows, e.First, rows, first, err)
		}
	}
}

// wantNotFinite wants a *credlab.NotFiniteError for name at row.
func wantNotFinite(name string, row int) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if e, ok := asError[*credlab.NotFiniteError](t, err); ok && (e.Name != name || e.Row != row) {
			t.Errorf("NotFiniteError for %q row %d, want %q row %d", e.Name, e.Row, name, row)
		}
	}
}

// wantIs wants an error wrapping target (errors.Is).
func wantIs(target error) errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("no error, want one wrapping %v", target)
		}
		if !errors.Is(err, target) {
			t.Errorf("error %q (%T) does not wrap %v", err, err, target)
		}
	}
}

// wantType wants an error of type T (errors.As).
func wantType[T error]() errCheck {
	return func(t *testing.T, err error) {
		t.Helper()
		asError[T](t, err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestErrorTypes calls the public entry points with bad settings and bad
// frames and checks the type of each error: a caller such as the command
// tells them apart with errors.As and errors.Is, never by the message.
func TestErrorTypes(t *testing.T) {
	df := regFrame(t, 30, 3)
	empty := dataframe.New(series.New([]float64{}, series.Float, "y"))
	bad := dataframe.DataFrame{Err: errTest}
	strs := df.Mutate(series.New(repeat("u", 30), series.String, "s"))
	nan := df.Mutate(series.New(append([]float64{1, 2, math.NaN()}, onesN(27)...), series.Float, "a"))
	inf := df.Mutate(series.New(append([]float64{1, math.Inf(-1)}, onesN(28)...), series.Float, "a"))
	neg := df.Mutate(series.New(append([]float64{1, 1, -1}, onesN(27)...), series.Float, "w"))
	pool := df.Select([]string{"a", "b"})
	model, err := Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3, Sigma: 1})
	if err != nil {
		t.Fatal(err)
	}
	bags, _ := bagFrame(6, 1)
	bagModel, err := FitBags(bags, BagSpec{Bag: "bag", Target: "label", Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	labeled, err := Select(pool, 3, SelectSpec{Method: "uniform"})
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	ctx := context.Background()
	fit := func(d dataframe.DataFrame, s Spec) func() error {
		return func() error { _, err := Fit(d, s); return err }
	}
	sweep := func(s Spec, g Grid) func() error {
		return func() error { s.Target = "y"; _, err := Sweep(df, s, g); return err }
	}
	sel := func(p dataframe.DataFrame, budget int, s SelectSpec) func() error {
		return func() error { _, err := Select(p, budget, s); return err }
	}
	budget := func(s BudgetSpec) func() error {
		return func() error { _, err := Budget(ctx, pool, s); return err }
	}
	fitBags := func(s BagSpec) func() error {
		return func() error { _, err := FitBags(bags, s); return err }
	}
	for _, c := range []struct {
		name string
		call func() error
		want errCheck
	}{
		// Fit: settings.
		{"Fit no target", fit(df, Spec{}), wantParam("Spec.Target")},
		{"Fit method", fit(df, Spec{Target: "y", Method: "svm"}), wantParam("Spec.Method")},
		{"Fit selection", fit(df, Spec{Target: "y", Selection: "aic"}), wantParam("Spec.Selection")},
		{"Fit selection of a named method", fit(df, Spec{Target: "y", Method: "krls", Selection: "loo"}), wantParam("Spec.Selection")},
		{"Fit scale", fit(df, Spec{Target: "y", Scale: "minmax"}), wantParam("Spec.Scale")},
		{"Fit auto kernel", fit(df, Spec{Target: "y", Kernel: "linear"}), wantParam("Spec.Kernel")},
		{"Fit auto feature map", fit(df, Spec{Target: "y", FeatureMap: "raw"}), wantParam("Spec.FeatureMap")},
		{"Fit auto iters", fit(df, Spec{Target: "y", Iters: 3}), wantParam("Spec.Iters")},
		{"Fit auto preset", fit(df, Spec{Target: "y", Preset: "simple"}), wantParam("Spec.Preset")},
		{"Fit auto sigma", fit(df, Spec{Target: "y", Sigma: math.Inf(1)}), wantParam("Spec.Sigma")},
		{"Fit auto m", fit(df, Spec{Target: "y", M: -1}), wantParam("Spec.M")},
		{"Fit sigma", fit(df, Spec{Target: "y", Method: "krls", Sigma: -1}), wantParam("Spec.Sigma")},
		{"Fit m", fit(df, Spec{Target: "y", Method: "nkrls", M: -5}), wantParam("Spec.M")},
		{"Fit kernel", fit(df, Spec{Target: "y", Method: "krls", Kernel: "cosine"}), wantParam("Spec.Kernel")},
		{"Fit feature map", fit(df, Spec{Target: "y", Method: "linear", FeatureMap: "wavelet"}), wantParam("Spec.FeatureMap")},
		{"Fit threshold", fit(df, Spec{Target: "y", Method: "gd", Threshold: math.NaN()}), wantParam("Spec.Threshold")},
		{"Fit preset", fit(df, Spec{Target: "y", Method: "sgm", Preset: "fast"}), wantParam("Spec.Preset")},
		{"Fit kols weights", fit(df.Mutate(series.New(onesN(30), series.Float, "w")), Spec{Target: "y", Weight: "w", Method: "kols"}), wantParam("Spec.Weight")},
		{"Fit sgm weights", fit(df.Mutate(series.New(onesN(30), series.Float, "w")), Spec{Target: "y", Weight: "w", Method: "sgm"}), wantParam("Spec.Weight")},
		{"Fit holdout", fit(df, Spec{Target: "y", Method: "krls", Validation: 2}), wantParam("Holdout.Fraction")},
		// Fit: frames.
		{"Fit empty frame", fit(empty, Spec{Target: "y"}), wantIs(credlab.ErrEmpty)},
		{"Fit frame error", fit(bad, Spec{Target: "y"}), wantIs(errTest)},
		{"Fit no such target", fit(df, Spec{Target: "z"}), wantColumn("z", "target")},
		{"Fit misspelt feature", fit(df, Spec{Target: "y", Features: []string{"A"}}), wantSuggestion("A", "a")},
		{"Fit no such weight", fit(df, Spec{Target: "y", Weight: "w"}), wantColumn("w", "weight")},
		{"Fit no such excluded", fit(df, Spec{Target: "y", Exclude: []string{"q"}}), wantColumn("q", "excluded")},
		{"Fit feature twice", fit(df, Spec{Target: "y", Features: []string{"a", "a"}}), wantProblem("a", "feature")},
		{"Fit target among features", fit(df, Spec{Target: "y", Features: []string{"a", "y"}}), wantProblem("y", "feature")},
		{"Fit weight among features", fit(neg, Spec{Target: "y", Weight: "w", Features: []string{"w"}}), wantProblem("w", "feature")},
		{"Fit weight is target", fit(df, Spec{Target: "y", Weight: "y"}), wantProblem("y", "weight")},
		{"Fit string target", fit(strs, Spec{Target: "s", Features: []string{"a"}}), wantProblem("s", "target")},
		{"Fit string weight", fit(strs, Spec{Target: "y", Weight: "s"}), wantProblem("s", "weight")},
		{"Fit string feature", fit(strs, Spec{Target: "y"}), wantStrings("s")},
		{"Fit missing values", fit(nan, Spec{Target: "y"}), wantMissing(1, 2)},
		{"Fit every row missing", fit(dataframe.New(series.New([]float64{math.NaN()}, series.Float, "a"), series.New([]float64{1}, series.Float, "y")), Spec{Target: "y", DropNA: true}), wantIs(credlab.ErrEmpty)},
		{"Fit infinite", fit(inf, Spec{Target: "y"}), wantNotFinite(`feature column "a"`, 1)},
		{"Fit negative weight", fit(neg, Spec{Target: "y", Weight: "w"}), wantProblem("w", "weight")},
		{"Fit unknown centers", fit(df, Spec{Target: "y", Method: "nkrls", M: 5, Centers: "kmeans"}), wantParam("Spec.Centers")},
		{"Fit centers without Nyström", fit(df, Spec{Target: "y", Method: "krls", Centers: "leverage"}), wantParam("Spec.Centers")},
		{"Fit centers with auto", fit(df, Spec{Target: "y", Centers: "leverage"}), wantParam("Spec.Centers")},
		{"Fit no features", fit(df.Select([]string{"y"}), Spec{Target: "y"}), wantIs(credlab.ErrEmpty)},
		{"Fit constant features", fit(df.Mutate(series.New(onesN(30), series.Float, "a")).Mutate(series.New(onesN(30), series.Float, "b")), Spec{Target: "y", Method: "krls"}), wantIs(credlab.ErrEmpty)},
		// Predict.
		{"Predict nil model", func() error { _, err := Predict(nil, df); return err }, wantIs(credlab.ErrEmpty)},
		{"Predict empty frame", func() error { _, err := Predict(model, empty); return err }, wantIs(credlab.ErrEmpty)},
		{"Predict frame error", func() error { _, err := Predict(model, bad); return err }, wantIs(errTest)},
		{"Predict no feature", func() error { _, err := Predict(model, df.Select([]string{"a"})); return err }, wantColumn("b", "feature")},
		{"Predict string feature", func() error {
			_, err := Predict(model, df.Mutate(series.New(repeat("u", 30), series.String, "b")))
			return err
		}, wantProblem("b", "feature")},
		{"Predict missing", func() error { _, err := Predict(model, nan); return err }, wantMissing(1, 2)},
		{"RMSE no target", func() error { _, err := model.RMSE(df.Select([]string{"a", "b"})); return err }, wantColumn("y", "")},
		{"RMSE no rows", func() error {
			_, err := model.RMSE(df.Mutate(series.New(nanN(30), series.Float, "y")))
			return err
		}, wantIs(credlab.ErrEmpty)},
		{"Save nil model", func() error { return (*Model)(nil).Save(&bytes.Buffer{}) }, wantIs(credlab.ErrEmpty)},
		// Select.
		{"Select budget", sel(pool, 0, SelectSpec{}), wantParam("budget")},
		{"Select method", sel(pool, 5, SelectSpec{Method: "bogus"}), wantParam("SelectSpec.Method")},
		{"Select design", sel(pool, 5, SelectSpec{Design: "bogus"}), wantParam("SelectSpec.Design")},
		{"Select kernel", sel(pool, 5, SelectSpec{Kernel: "cosine"}), wantParam("SelectSpec.Kernel")},
		{"Select sigma", sel(pool, 5, SelectSpec{Sigma: -1}), wantParam("SelectSpec.Sigma")},
		{"Select feature map", sel(pool, 5, SelectSpec{FeatureMap: "x"}), wantParam("SelectSpec.FeatureMap")},
		{"Select m", sel(pool, 5, SelectSpec{FeatureMap: "fourier", M: -1}), wantParam("SelectSpec.M")},
		{"Select labeled with selector", sel(pool, 5, SelectSpec{Selector: credlab.UniformSelector{}, Labeled: &labeled}), wantParam("SelectSpec.Labeled")},
		{"Select labeled without rows", sel(pool, 5, SelectSpec{Labeled: &pool}), wantColumn("row", "labeled")},
		{"Select bookkeeping column", sel(df.Mutate(series.New(onesN(30), series.Float, "prob")), 5, SelectSpec{}), wantProblem("prob", "")},
		{"Select empty pool", sel(empty, 5, SelectSpec{}), wantIs(credlab.ErrEmpty)},
		{"Select pool error", sel(bad, 5, SelectSpec{}), wantIs(errTest)},
		{"Select no feature", sel(pool, 5, SelectSpec{Features: []string{"c"}}), wantColumn("c", "feature")},
		{"Select string feature", sel(strs, 5, SelectSpec{}), wantStrings("s")},
		// Sweep.
		{"Sweep no target", func() error { _, err := Sweep(df, Spec{Method: "krls"}, Grid{}); return err }, wantParam("Spec.Target")},
		{"Sweep kols", sweep(Spec{Method: "kols"}, Grid{}), wantParam("Spec.Method")},
		{"Sweep lambda for gd", sweep(Spec{Method: "gd"}, Grid{Lambda: []float64{1}}), wantParam("Grid.Lambda")},
		{"Sweep sigma for linear kernel", sweep(Spec{Method: "krls", Kernel: "linear"}, Grid{Sigma: []float64{1}}), wantParam("Grid.Sigma")},
		{"Sweep m for krls", sweep(Spec{Method: "krls"}, Grid{M: []int{5}}), wantParam("Grid.M")},
		{"Sweep bad sigma", sweep(Spec{Method: "krls"}, Grid{Sigma: []float64{1, 0}}), wantParam("Grid.Sigma[1]")},
		{"Sweep bad m", sweep(Spec{Method: "nkrls", M: 5}, Grid{M: []int{-1}}), wantParam("Grid.M[0]")},
		{"Sweep bad lambda_q", sweep(Spec{Method: "krls"}, Grid{LambdaQ: []float64{math.NaN()}, Budget: 5}), wantParam("Grid.LambdaQ[0]")},
		{"Sweep no budget", sweep(Spec{Method: "krls"}, Grid{LambdaQ: []float64{1e-3}}), wantParam("Grid.Budget")},
		{"Sweep budget alone", sweep(Spec{Method: "krls"}, Grid{Budget: 5}), wantParam("Grid.Budget")},
		{"Sweep weight and lambda_q", sweep(Spec{Method: "krls", Weight: "a"}, Grid{LambdaQ: []float64{1e-3}, Budget: 5}), wantParam("Spec.Weight")},
		{"Sweep passes", sweep(Spec{Method: "nytro", M: 5}, Grid{Passes: []int{1}}), wantParam("Grid.Passes")},
		{"Sweep batch", sweep(Spec{Method: "krls"}, Grid{Batch: []int{1}}), wantParam("Grid.Batch")},
		{"Sweep bad passes", sweep(Spec{Method: "sgm"}, Grid{Passes: []int{0}}), wantParam("Grid.Passes[0]")},
		{"Sweep bad batch", sweep(Spec{Method: "sgm"}, Grid{Batch: []int{-2}}), wantParam("Grid.Batch[0]")},
		{"Sweep auto lambda_q", sweep(Spec{}, Grid{LambdaQ: []float64{1e-3}}), wantParam("Grid.LambdaQ")},
		{"Sweep auto budget", sweep(Spec{}, Grid{Budget: 3}), wantParam("Grid.Budget")},
		{"Sweep auto passes", sweep(Spec{}, Grid{Passes: []int{3}}), wantParam("Grid.Passes")},
		{"Sweep auto sigma", sweep(Spec{}, Grid{Sigma: []float64{-1}}), wantParam("Grid.Sigma[0]")},
		{"Sweep auto m", sweep(Spec{}, Grid{M: []int{0}}), wantParam("Grid.M[0]")},
		{"Sweep auto iters", sweep(Spec{Iters: 4}, Grid{}), wantParam("Spec.Iters")},
		{"Sweep no such target", func() error { _, err := Sweep(df, Spec{Target: "z", Method: "krls"}, Grid{}); return err }, wantColumn("z", "target")},
		// FitBags and PredictBags.
		{"FitBags no bag", fitBags(BagSpec{Target: "label"}), wantParam("BagSpec.Bag")},
		{"FitBags no target", fitBags(BagSpec{Bag: "bag"}), wantParam("BagSpec.Target")},
		{"FitBags method", fitBags(BagSpec{Bag: "bag", Target: "label", Method: "mmd"}), wantParam("BagSpec.Method")},
		{"FitBags sigma", fitBags(BagSpec{Bag: "bag", Target: "label", Sigma: -1}), wantParam("BagSpec.Sigma")},
		{"FitBags feature map", fitBags(BagSpec{Bag: "bag", Target: "label", FeatureMap: "relu"}), wantParam("BagSpec.FeatureMap")},
		{"FitBags outer", fitBags(BagSpec{Bag: "bag", Target: "label", Outer: "laplace"}), wantParam("BagSpec.Outer")},
		{"FitBags no such bag", fitBags(BagSpec{Bag: "group", Target: "label"}), wantColumn("group", "bag")},
		{"FitBags bag feature", fitBags(BagSpec{Bag: "bag", Target: "label", Features: []string{"bag"}}), wantProblem("bag", "feature")},
		{"FitBags empty", func() error { _, err := FitBags(empty, BagSpec{Bag: "bag", Target: "y"}); return err }, wantIs(credlab.ErrEmpty)},
		{"PredictBags nil model", func() error { _, err := PredictBags(nil, bags); return err }, wantIs(credlab.ErrEmpty)},
		{"PredictBags no bag", func() error { _, err := PredictBags(bagModel, bags.Select([]string{"x"})); return err }, wantColumn("bag", "bag")},
		{"PredictBags no feature", func() error { _, err := PredictBags(bagModel, bags.Select([]string{"bag"})); return err }, wantColumn("x", "feature")},
		{"PredictBags missing", func() error {
			_, err := PredictBags(bagModel, bags.Mutate(series.New(nanN(bags.Nrow()), series.Float, "x")))
			return err
		}, wantMissing(bags.Nrow(), 0)},
		// Budget.
		{"Budget empty pool", func() error { _, err := Budget(ctx, empty, BudgetSpec{}); return err }, wantIs(credlab.ErrEmpty)},
		{"Budget kernel", budget(BudgetSpec{Kernel: "cosine"}), wantParam("BudgetSpec.Kernel")},
		{"Budget sigma", budget(BudgetSpec{Sigma: -1}), wantParam("BudgetSpec.Sigma")},
		{"Budget feature map", budget(BudgetSpec{FeatureMap: "x"}), wantParam("BudgetSpec.FeatureMap")},
		{"Budget pilot without target", budget(BudgetSpec{Sigma: 1, Pilot: &pool}), wantParam("BudgetSpec.Target")},
		{"Budget pilot without rows", budget(BudgetSpec{Sigma: 1, Pilot: &df, Target: "y"}), wantColumn("row", "pilot")},
		{"Budget no such feature", budget(BudgetSpec{Features: []string{"c"}}), wantColumn("c", "feature")},
		// Conversions.
		{"FromMatrix nil", func() error { _, err := FromMatrix(nil); return err }, wantIs(credlab.ErrEmpty)},
		{"FromMatrix names", func() error { _, err := FromMatrix(x, "a"); return err }, wantIs(credlab.ErrShape)},
		{"FromMatrix twice", func() error { _, err := FromMatrix(x, "a", "a"); return err }, wantProblem("a", "")},
		{"FromMatrix empty name", func() error { _, err := FromMatrix(x, "a", ""); return err }, wantProblem("", "")},
		{"ToMatrix empty", func() error { _, err := ToMatrix(empty); return err }, wantIs(credlab.ErrEmpty)},
		{"ToMatrix frame error", func() error { _, err := ToMatrix(bad); return err }, wantIs(errTest)},
		{"ToMatrix no column", func() error { _, err := ToMatrix(df, "z"); return err }, wantColumn("z", "")},
		{"ToMatrix strings", func() error { _, err := ToMatrix(strs, "s"); return err }, wantProblem("s", "")},
		{"ToMatrix missing", func() error { _, err := ToMatrix(nan, "a"); return err }, wantMissing(1, 2)},
		{"ToMatrix infinite", func() error { _, err := ToMatrix(inf, "a"); return err }, wantNotFinite(`column "a"`, 1)},
		{"Column no column", func() error { _, err := Column(df, "Y"); return err }, wantSuggestion("Y", "y")},
		{"Column strings", func() error { _, err := Column(strs, "s"); return err }, wantProblem("s", "")},
		{"Column frame error", func() error { _, err := Column(bad, "s"); return err }, wantIs(errTest)},
		{"FindColumn", func() error { return FindColumn(df, "q", "target") }, wantColumn("q", "target")},
		// Tables.
		{"SplitRows share", func() error { _, _, err := SplitRows(df, 1, 1); return err }, wantParam("testShare")},
		{"SplitRows empty part", func() error { _, _, err := SplitRows(df, 0.001, 1); return err }, wantParam("testShare")},
		{"SplitRows empty", func() error { _, _, err := SplitRows(empty, 0.5, 1); return err }, wantIs(credlab.ErrEmpty)},
		{"Subsample n", func() error { _, err := Subsample(df, 0, 1); return err }, wantParam("n")},
		{"MinMaxScale range", func() error { _, _, err := MinMaxScale(df, df, 1, -1); return err }, wantParam("lo, hi")},
		{"MinMaxScale excluded", func() error { _, _, err := MinMaxScale(df, df, 0, 1, "q"); return err }, wantColumn("q", "excluded")},
		{"MinMaxScale test column", func() error { _, _, err := MinMaxScale(strs, df, 0, 1); return err }, wantColumn("s", "test")},
		{"MinMaxScale test strings", func() error {
			_, _, err := MinMaxScale(df, df.Mutate(series.New(repeat("u", 30), series.String, "a")), 0, 1)
			return err
		}, wantProblem("a", "")},
		{"Summarize no values", func() error { _, err := Summarize(df, nil); return err }, wantParam("values")},
		{"Summarize no group", func() error { _, err := Summarize(longFrame(), []string{"methd"}, "v"); return err }, wantSuggestion("methd", "method")},
		{"Summarize group named like a statistic", func() error { _, err := Summarize(longFrame().Rename("mean", "w"), []string{"mean"}, "v"); return err }, wantProblem("mean", "grouping")},
		{"Summarize string values", func() error { _, err := Summarize(longFrame(), nil, "method"); return err }, wantProblem("method", "")},
		{"Pivot stat", func() error { _, err := Pivot(longFrame(), []string{"n"}, "method", "v", "mode"); return err }, wantParam("stat")},
		{"Pivot index", func() error { _, err := Pivot(longFrame(), nil, "method", "v", "mean"); return err }, wantParam("index")},
		// Model files.
		{"Load version", func() error {
			_, err := LoadModel(bytes.NewReader([]byte(`{"format": "credlab-model", "version": "99.0"}`)))
			return err
		}, wantType[*ModelVersionError]()},
		{"Load corrupt", func() error { _, err := LoadModel(bytes.NewReader([]byte(`{`))); return err }, wantIs(ErrCorruptModel)},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.want(t, c.call())
		})
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func nanN(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}
