package frames

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// regFrame is a smooth regression problem with columns a, b and y.
func regFrame(t testing.TB, n int, seed uint64) dataframe.DataFrame {
	x, y, _ := credlab.SmoothRegression(n, 2, 0.1, seed)
	df, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	return df.Mutate(series.New(y, series.Float, "y"))
}

// snapshot records a frame's content to check it is not modified.
func snapshot(df dataframe.DataFrame) string {
	var b strings.Builder
	for _, r := range df.Records() {
		b.WriteString(strings.Join(r, "\x1f"))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestMatrixRoundTrip(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	df, err := FromMatrix(x)
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, df, "x1", "x2")
	back, err := ToMatrix(df, "x2", "x1")
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(back, mat.NewDense(3, 2, []float64{2, 1, 4, 3, 6, 5})) {
		t.Errorf("ToMatrix = %v", mat.Formatted(back))
	}
	all, err := ToMatrix(df)
	if err != nil || !mat.Equal(all, x) {
		t.Errorf("ToMatrix(all) = %v, %v", all, err)
	}
	houses, err := LoadCSV("testdata/houses.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cols []string
		want errCheck
	}{
		{[]string{"Rooms"}, wantSuggestion("Rooms", "rooms")},
		{[]string{"city"}, wantProblem("city", "")},
		{[]string{"age"}, wantMissing(1, 4)},
	} {
		_, err := ToMatrix(houses, c.cols...)
		c.want(t, err)
	}
	for _, c := range []struct {
		names []string
		want  errCheck
	}{
		{[]string{"a"}, wantIs(credlab.ErrShape)},
		{[]string{"a", "a"}, wantProblem("a", "")},
		{[]string{"a", ""}, wantProblem("", "")},
	} {
		_, err := FromMatrix(x, c.names...)
		c.want(t, err)
	}
	_, err = FromMatrix(nil)
	wantIs(credlab.ErrEmpty)(t, err)
	inf := dataframe.New(series.New([]float64{1, math.Inf(1)}, series.Float, "v"))
	_, err = ToMatrix(inf)
	wantNotFinite(`column "v"`, 1)(t, err)
}

func TestFitMethods(t *testing.T) {
	train, test := regFrame(t, 240, 1), regFrame(t, 200, 2)
	for _, c := range []struct {
		spec Spec
		max  float64 // test RMSE bound (noise 0.1, range about 1.5)
	}{
		{Spec{Method: "krls", Sigma: 0.4}, 0.15},
		{Spec{Method: "KRLS", Lambda: 1e-4, Sigma: 0.4}, 0.15},
		{Spec{Method: "kols", Sigma: 2}, 0.25}, // rank-truncated interpolation
		{Spec{Method: "gd", Sigma: 0.4}, 0.2},
		{Spec{Method: "earlystopping", Sigma: 0.4, Iters: 50}, 0.25},
		{Spec{Method: "nkrls", M: 60, Sigma: 0.4}, 0.2},
		{Spec{Method: "nytro", M: 60, Sigma: 0.4}, 0.2},
		{Spec{Method: "nytro", M: 60, Sigma: 0.4, Plain: true}, 0.2},
		{Spec{Method: "linear", FeatureMap: "fourier", M: 150, Sigma: 0.4}, 0.2},
		{Spec{Method: "linear", FeatureMap: "nystrom", M: 60, Sigma: 0.4}, 0.2},
		{Spec{Method: "lineargd", FeatureMap: "fourier", M: 150, Sigma: 0.4}, 0.3},
		{Spec{Method: "linear"}, 0.7}, // a linear fit of a nonlinear target
		{Spec{Method: "linear", FeatureMap: "relu", Widths: []int{50}}, 0.7},
		{Spec{Method: "krls", Kernel: "laplacian", Sigma: 1}, 0.2},
		{Spec{Method: "krls", Kernel: "polynomial", Degree: 3, Scale: "standardize"}, 0.75},
		{Spec{Method: "nkrls", M: 60, Scale: "standardize"}, 0.25}, // median-heuristic sigma
		{Spec{Method: "sgm", Sigma: 0.4, Seed: 1, StepSize: 2}, 0.25},
		{Spec{Method: "SGD", Sigma: 0.4, Preset: "simple", Iters: 500}, 0.8}, // a short run of small steps
	} {
		c.spec.Target = "y"
		name := c.spec.Method + "/" + c.spec.FeatureMap + "/" + c.spec.Kernel
		t.Run(name, func(t *testing.T) {
			before := snapshot(train)
			m, err := Fit(train, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if snapshot(train) != before {
				t.Fatal("Fit modified its input frame")
			}
			r, err := m.RMSE(test)
			if err != nil {
				t.Fatal(err)
			}
			if !(r < c.max) {
				t.Errorf("%v: test RMSE %.3f, want < %v", m, r, c.max)
			}
			if strings.Join(m.Features, ",") != "a,b" || m.Rows != 240 {
				t.Errorf("features %v, rows %d", m.Features, m.Rows)
			}
			if m.Spec.Method == "" || m.Spec.Method != strings.ToLower(m.Spec.Method) {
				t.Errorf("method %q not canonical", m.Spec.Method)
			}
		})
	}
}

func TestFitErrors(t *testing.T) {
	df := regFrame(t, 30, 1)
	houses, err := LoadCSV("testdata/houses.csv")
	if err != nil {
		t.Fatal(err)
	}
	withW := df.Mutate(series.New(make([]float64, 30), series.Float, "w"))
	withInf := df.Mutate(series.New(append([]float64{math.Inf(-1)}, make([]float64, 29)...), series.Float, "c"))
	for _, c := range []struct {
		name string
		df   dataframe.DataFrame
		spec Spec
		want errCheck
	}{
		{"empty frame", dataframe.New(series.New([]float64{}, series.Float, "y")), Spec{Target: "y", Method: "krls"}, wantIs(credlab.ErrEmpty)},
		{"frame error", dataframe.DataFrame{Err: errTest}, Spec{Target: "y", Method: "krls"}, wantIs(errTest)},
		{"no target", df, Spec{Method: "krls"}, wantParam("Spec.Target")},
		{"missing target", df, Spec{Target: "price", Method: "krls"}, wantColumn("price", "target")},
		{"misspelt target", houses, Spec{Target: "prcie", Method: "krls"}, wantSuggestion("prcie", "price")},
		{"misspelt feature", df, Spec{Target: "y", Features: []string{"a", "B"}, Method: "krls"}, wantSuggestion("B", "b")},
		{"feature twice", df, Spec{Target: "y", Features: []string{"a", "a"}, Method: "krls"}, wantProblem("a", "feature")},
		{"target among features", df, Spec{Target: "y", Features: []string{"a", "y"}, Method: "krls"}, wantProblem("y", "feature")},
		{"weight among features", withW, Spec{Target: "y", Weight: "w", Features: []string{"a", "w"}, Method: "krls"}, wantProblem("w", "feature")},
		{"weight is target", df, Spec{Target: "y", Weight: "y", Method: "krls"}, wantProblem("y", "weight")},
		{"missing weight", df, Spec{Target: "y", Weight: "wt", Method: "krls"}, wantColumn("wt", "weight")},
		{"zero weight", withW, Spec{Target: "y", Weight: "w", Method: "krls"}, wantProblem("w", "weight")},
		{"string feature", houses, Spec{Target: "price", Features: []string{"rooms", "city"}, Method: "krls", DropNA: true}, wantStrings("city")},
		{"string target", houses, Spec{Target: "city", Method: "krls", DropNA: true}, wantProblem("city", "target")},
		{"missing values", houses, Spec{Target: "price", Method: "krls", Exclude: []string{"city"}}, wantMissing(1, 4)},
		{"infinite", withInf, Spec{Target: "y", Method: "krls"}, wantNotFinite(`feature column "c"`, 0)},
		{"unknown method", df, Spec{Target: "y", Method: "svm"}, wantParam("Spec.Method")},
		{"ktr3 not yet", df, Spec{Target: "y", Method: "KTR3"}, wantParam("Spec.Method")},
		{"auto kernel", df, Spec{Target: "y", Kernel: "polynomial"}, wantParam("Spec.Kernel")},
		{"auto iters", df, Spec{Target: "y", Iters: 5}, wantParam("Spec.Iters")},
		{"auto sigma", df, Spec{Target: "y", Sigma: -2}, wantParam("Spec.Sigma")},
		{"bad selection", df, Spec{Target: "y", Selection: "aic"}, wantParam("Spec.Selection")},
		{"selection of a named method", df, Spec{Target: "y", Method: "krls", Selection: "gcv"}, wantParam("Spec.Selection")},
		{"bad scale", df, Spec{Target: "y", Method: "krls", Scale: "minmax"}, wantParam("Spec.Scale")},
		{"all constant", df.Mutate(series.New(onesN(30), series.Float, "a")).Mutate(series.New(onesN(30), series.Float, "b")), Spec{Target: "y", Method: "krls"}, wantIs(credlab.ErrEmpty)},
		{"sgm weights", withW.Mutate(series.New(onesN(30), series.Float, "w")), Spec{Target: "y", Weight: "w", Method: "sgm"}, wantParam("Spec.Weight")},
		{"sgm preset", df, Spec{Target: "y", Method: "sgm", Preset: "fast"}, wantParam("Spec.Preset")},
		{"negative m", df, Spec{Target: "y", Method: "nytro", M: -1}, wantParam("Spec.M")},
		{"m too large", df, Spec{Target: "y", Method: "nkrls", M: 1000}, wantParam("NystromConfig.M")},
		{"bad kernel", df, Spec{Target: "y", Method: "krls", Kernel: "cosine"}, wantParam("Spec.Kernel")},
		{"bad sigma", df, Spec{Target: "y", Method: "krls", Sigma: -1}, wantParam("Spec.Sigma")},
		{"bad feature map", df, Spec{Target: "y", Method: "linear", FeatureMap: "wavelet"}, wantParam("Spec.FeatureMap")},
		{"bad threshold", df, Spec{Target: "y", Method: "gd", Threshold: math.NaN()}, wantParam("Spec.Threshold")},
		{"kols weights", withW.Mutate(series.New(onesN(30), series.Float, "w")), Spec{Target: "y", Weight: "w", Method: "kols"}, wantParam("Spec.Weight")},
		{"bad exclude", df, Spec{Target: "y", Method: "krls", Exclude: []string{"q"}}, wantColumn("q", "excluded")},
		{"only strings", dataframe.New(series.New([]string{"u", "v"}, series.String, "s"), series.New([]float64{1, 2}, series.Float, "y")), Spec{Target: "y", Method: "krls"}, wantStrings("s")},
		{"all rows missing", dataframe.New(series.New([]float64{math.NaN(), math.NaN()}, series.Float, "a"), series.New([]float64{1, 2}, series.Float, "y")), Spec{Target: "y", Method: "krls", DropNA: true}, wantIs(credlab.ErrEmpty)},
		{"solver error", df, Spec{Target: "y", Method: "krls", Validation: 1.5}, wantParam("Holdout.Fraction")},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Fit(c.df, c.spec)
			if m != nil {
				t.Error("model returned with an error")
			}
			c.want(t, err)
		})
	}
}

type testError struct{}

func (testError) Error() string { return "test error" }

var errTest = testError{}

func onesN(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func TestOneHotDropNAStandardize(t *testing.T) {
	houses, err := LoadCSV("testdata/houses.csv")
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(houses)
	spec := Spec{Target: "price", Method: "krls", Lambda: 1e-3, Sigma: 2, OneHot: true, DropNA: true, Scale: "standardize"}
	m, err := Fit(houses, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Columns, ","); got != "rooms,age,city=east,city=north,city=south" {
		t.Errorf("design columns %s", got)
	}
	if m.Rows != 6 || len(m.Mean) != 5 || len(m.OneHot) != 1 {
		t.Errorf("rows %d, means %v, one-hot %v", m.Rows, m.Mean, m.OneHot)
	}
	// rooms over the 6 complete rows: 3 4 2 5 4 1, mean 19/6.
	if math.Abs(m.Mean[0]-19.0/6) > 1e-12 {
		t.Errorf("mean of rooms %v", m.Mean[0])
	}
	out, err := Predict(m, houses)
	if err != nil {
		t.Fatal(err)
	}
	if snapshot(houses) != before {
		t.Fatal("input frame modified")
	}
	wantNames(t, out, "rooms", "age", "city", "price", "prediction")
	p := col(t, out, "prediction")
	if !math.IsNaN(p[4]) {
		t.Errorf("row with missing age predicted %v, want NaN", p[4])
	}
	// lambda = 1e-3 nearly interpolates the training rows.
	y := col(t, houses, "price")
	for i, v := range p {
		if i != 4 && math.Abs(v-y[i]) > 0.3 {
			t.Errorf("row %d: prediction %v, price %v", i, v, y[i])
		}
	}
	// Predict on a frame with columns in another order and an unseen level.
	other := dataframe.New(
		series.New([]string{"north", "west"}, series.String, "city"),
		series.New([]int{20, 3}, series.Int, "age"),
		series.New([]int{3, 2}, series.Int, "rooms"))
	_, err = m.PredictValues(other)
	wantProblem("city", "feature")(t, err)
	v, err := m.PredictValues(other.Subset([]int{0}))
	if err != nil || len(v) != 1 || !isFinite(v[0]) {
		t.Errorf("reordered columns: %v, %v", v, err)
	}
	// Missing columns and type changes are named.
	_, err = m.PredictValues(other.Select([]string{"city", "rooms"}))
	wantColumn("age", "feature")(t, err)
	swapped := dataframe.New(
		series.New([]float64{1}, series.Float, "city"),
		series.New([]int{20}, series.Int, "age"),
		series.New([]int{3}, series.Int, "rooms"))
	_, err = m.PredictValues(swapped)
	wantProblem("city", "feature")(t, err)
	// Without DropNA, predicting a row with a missing value is an error.
	spec.DropNA = false
	m2, err := Fit(houses.Subset([]int{0, 1, 2, 3, 5, 6}), spec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Predict(m2, houses)
	wantMissing(1, 4)(t, err)
	_, err = Predict(nil, houses)
	wantIs(credlab.ErrEmpty)(t, err)
	_, err = Predict(m2, dataframe.DataFrame{Err: errTest})
	wantIs(errTest)(t, err)
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func TestDefaultFeatures(t *testing.T) {
	df := regFrame(t, 40, 3)
	df = df.Mutate(series.New(make([]string, 40), series.String, "note"))
	df = df.Mutate(series.New(onesN(40), series.Float, "extra"))
	// A string column is an error without OneHot, listing it.
	_, err := Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3, Exclude: []string{"extra"}})
	var se *StringColumnsError
	if !errors.As(err, &se) || strings.Join(se.Columns, ",") != "note" {
		t.Fatalf("got %v, want a *StringColumnsError listing note", err)
	}
	m, err := Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3, Exclude: []string{"extra", "note"}})
	if err != nil {
		t.Fatal(err)
	}
	// Exclude is honored.
	if got := strings.Join(m.Features, ","); got != "a,b" {
		t.Errorf("features %s", got)
	}
}

// TestFitDefaultsByHand checks the default scaling and intercept of a named
// method against the same fit done by hand: columns standardized with
// their training mean and population standard deviation, constant columns
// left out with a warning, the target centered by its mean, and the mean
// added back to the KRLS solution of (K + lambda n I) alpha = y - mean.
func TestFitDefaultsByHand(t *testing.T) {
	train, test := regFrame(t, 80, 4), regFrame(t, 20, 5)
	n := train.Nrow()
	shift := func(df dataframe.DataFrame) dataframe.DataFrame {
		y := col(t, df, "y")
		for i := range y {
			y[i] += 10
		}
		k := make([]float64, df.Nrow())
		for i := range k {
			k[i] = 5
		}
		return df.Mutate(series.New(y, series.Float, "y")).Mutate(series.New(k, series.Float, "k")).
			Mutate(series.New(strings.Split(strings.Repeat("u,", df.Nrow()), ",")[:df.Nrow()], series.String, "s"))
	}
	train = shift(train)
	const lambda, sigma = 1e-3, 0.7
	m, err := Fit(train, Spec{Target: "y", Method: "krls", Lambda: lambda, Sigma: sigma, OneHot: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Features, ","); got != "a,b" || m.Spec.Scale != ScaleStandardize {
		t.Fatalf("features %s, scale %q", got, m.Spec.Scale)
	}
	if len(m.Warnings) != 2 || !strings.Contains(m.Warnings[0], `column "k" is constant (5)`) || !strings.Contains(m.Warnings[1], `"s" has the single level "u"`) {
		t.Errorf("warnings %q", m.Warnings)
	}
	// By hand.
	x, err := ToMatrix(train, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	xt, err := ToMatrix(test, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 2; j++ {
		mean, v := 0.0, 0.0
		for i := 0; i < n; i++ {
			mean += x.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			v += (x.At(i, j) - mean) * (x.At(i, j) - mean) / float64(n)
		}
		sd := math.Sqrt(v)
		for _, z := range []*mat.Dense{x, xt} {
			r, _ := z.Dims()
			for i := 0; i < r; i++ {
				z.Set(i, j, (z.At(i, j)-mean)/sd)
			}
		}
	}
	y := col(t, train, "y")
	ybar := 0.0
	for _, v := range y {
		ybar += v / float64(n)
	}
	kx := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d2 := 0.0
			for c := 0; c < 2; c++ {
				d := x.At(i, c) - x.At(j, c)
				d2 += d * d
			}
			v := math.Exp(-d2 / (2 * sigma * sigma))
			if i == j {
				v += lambda * float64(n)
			}
			kx.SetSym(i, j, v)
		}
	}
	yc := make([]float64, n)
	for i, v := range y {
		yc[i] = v - ybar
	}
	var alpha mat.VecDense
	if err := alpha.SolveVec(kx, mat.NewVecDense(n, yc)); err != nil {
		t.Fatal(err)
	}
	got, err := m.PredictValues(test) // no "k" or "s" column: they were left out
	if err != nil {
		t.Fatal(err)
	}
	for r := range got {
		want := ybar
		for i := 0; i < n; i++ {
			d2 := 0.0
			for c := 0; c < 2; c++ {
				d := xt.At(r, c) - x.At(i, c)
				d2 += d * d
			}
			want += alpha.AtVec(i) * math.Exp(-d2/(2*sigma*sigma))
		}
		if math.Abs(got[r]-want) > 1e-8*(1+math.Abs(want)) {
			t.Fatalf("row %d: prediction %v, by hand %v", r, got[r], want)
		}
	}
	if math.Abs(m.Predictor.Intercept-ybar) > 1e-12 {
		t.Errorf("intercept %v, mean %v", m.Predictor.Intercept, ybar)
	}
	// Scale "none" and NoIntercept give the old behaviour: raw columns,
	// no intercept, the constant column kept.
	raw, err := Fit(train, Spec{Target: "y", Method: "krls", Lambda: lambda, Sigma: sigma, Scale: "none", NoIntercept: true, Exclude: []string{"s"}})
	if err != nil {
		t.Fatal(err)
	}
	if raw.Mean != nil || raw.Predictor.Intercept != 0 || strings.Join(raw.Features, ",") != "a,b,k" || len(raw.Warnings) != 0 {
		t.Errorf("scale none: means %v, intercept %v, features %v, warnings %v", raw.Mean, raw.Predictor.Intercept, raw.Features, raw.Warnings)
	}
}

// TestFitWarnings checks the warnings of a named method: an iterative
// method stopped at its step cap while its validation error was still
// falling, and a constant target.
func TestFitWarnings(t *testing.T) {
	df := regFrame(t, 60, 2)
	m, err := Fit(df, Spec{Target: "y", Method: "gd", Sigma: 0.5, MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	if m.Iter != 3 || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "still falling at 3 steps") ||
		!strings.Contains(m.Summary(), "warning: validation error still falling") {
		t.Errorf("iterations %d, warnings %q", m.Iter, m.Warnings)
	}
	if m, err = Fit(df, Spec{Target: "y", Method: "gd", Sigma: 0.5, MaxIter: 400}); err != nil || len(m.Warnings) != 0 {
		t.Errorf("an early-stopped fit warns: %v %q", err, m.Warnings)
	}
	c := df.Mutate(series.New(onesN(60), series.Float, "y"))
	m, err = Fit(c, Spec{Target: "y", Method: "krls", Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.PredictValues(df)
	if err != nil || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "constant") || math.Abs(p[0]-1) > 1e-12 {
		t.Errorf("constant target: %v, warnings %q, prediction %v", err, m.Warnings, p[0])
	}
}

// TestFitLeverageCenters checks that Centers "leverage" fits NKRLS on the
// centers credlab.LeverageCenters draws, the same as the solver called
// directly, and that the model remembers the choice.
func TestFitLeverageCenters(t *testing.T) {
	df := regFrame(t, 120, 2)
	spec := Spec{Target: "y", Method: "nkrls", M: 20, Sigma: 0.8, Lambda: 1e-3, Scale: "none", NoIntercept: true, Centers: "leverage", Seed: 3}
	m, err := Fit(df, spec)
	if err != nil {
		t.Fatal(err)
	}
	if m.Spec.Centers != "leverage" {
		t.Errorf("model's Centers %q, want leverage", m.Spec.Centers)
	}
	x, err := ToMatrix(df, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	y, _ := Column(df, "y")
	k := credlab.GaussianKernel{Sigma: 0.8}
	want, err := credlab.NKRLS(context.Background(), x, y, credlab.NKRLSConfig{Kernel: k, Lambda: 1e-3,
		Nystrom: credlab.NystromConfig{M: 20, Sampler: credlab.LeverageCenters{Kernel: k}, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(df)
	if err != nil {
		t.Fatal(err)
	}
	wp, _ := want.Model.Predict(x)
	p, _ := Column(got, "prediction")
	for i := range wp {
		if math.Abs(p[i]-wp[i]) > 1e-9*(1+math.Abs(wp[i])) {
			t.Fatalf("row %d: prediction %g, NKRLS on leverage centers %g", i, p[i], wp[i])
		}
	}
	u, err := Fit(df, Spec{Target: "y", Method: "nkrls", M: 20, Sigma: 0.8, Lambda: 1e-3, Scale: "none", NoIntercept: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if u.Spec.Centers != "uniform" {
		t.Errorf("default Centers %q, want uniform", u.Spec.Centers)
	}
}

// TestFitExtremeScales: standardizing a column of values near 1e300 (whose
// squares overflow) or 1e-300 (whose squares underflow) gives the fit of
// the same column at unit scale, where it gave a column of infinities or
// one left constant.
func TestFitExtremeScales(t *testing.T) {
	df := regFrame(t, 80, 5)
	a, b, y := col(t, df, "a"), col(t, df, "b"), col(t, df, "y")
	for _, f := range []float64{1e300, 1e-300} {
		scaled := make([]float64, len(a))
		for i, v := range a {
			scaled[i] = v * f
		}
		ext := dataframe.New(series.New(scaled, series.Float, "a"), series.New(b, series.Float, "b"), series.New(y, series.Float, "y"))
		spec := Spec{Target: "y", Method: "krls", Sigma: 1, Lambda: 1e-3, Scale: "standardize"}
		m1, err := Fit(df, spec)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Fit(ext, spec)
		if err != nil {
			t.Fatalf("columns scaled by %g: %v", f, err)
		}
		p1, _ := Predict(m1, df)
		p2, _ := Predict(m2, ext)
		q1, q2 := col(t, p1, "prediction"), col(t, p2, "prediction")
		for i := range q1 {
			if math.Abs(q1[i]-q2[i]) > 1e-8*(1+math.Abs(q1[i])) {
				t.Fatalf("a scaled by %g: row %d predicted %v, %v at unit scale", f, i, q2[i], q1[i])
			}
		}
	}
}
