package frames_test

import (
	"fmt"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Load a file in a staged format (ARFF, as cpu_small.arff): numeric
// attributes become float columns, nominal ones string columns, and '?'
// a missing value.
func ExampleLoadARFF() {
	df, err := frames.LoadARFF("testdata/cpu.arff")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(df.Nrow(), "rows:", strings.Join(df.Names(), ", "))
	m, err := frames.Fit(df, frames.Spec{Target: "usr", Method: "krls", Lambda: 0.1, OneHot: true, DropNA: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(m.Columns, ", "), "on", m.Rows, "rows")
	// Output:
	// 5 rows: lread, lwrite, run queue, mode, usr
	// lread, lwrite, run queue, mode=system, mode=user on 4 rows
}

// Choose 60 of 500 unlabeled rows to label with CRED.
func ExampleSelect() {
	x, _, _ := credlab.SmoothRegression(500, 2, 0.1, 1)
	pool, _ := frames.FromMatrix(x, "a", "b")
	chosen, err := frames.Select(pool, 60, frames.SelectSpec{Sigma: 0.5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	rows, _ := chosen.Col("row").Int()
	fmt.Println(chosen.Nrow(), "rows:", strings.Join(chosen.Names(), ", "))
	fmt.Println("first pool rows:", rows[:5])
	// Output:
	// 60 rows: a, b, row, prob, weight
	// first pool rows: [230 123 42 133 87]
}

// Label the chosen rows, then fit with their importance weights.
func ExampleFit() {
	x, y, f := credlab.SmoothRegression(500, 2, 0.1, 1)
	pool, _ := frames.FromMatrix(x, "a", "b")
	chosen, _ := frames.Select(pool, 100, frames.SelectSpec{Sigma: 0.5, Seed: 1})
	rows, _ := chosen.Col("row").Int()
	labels := make([]float64, len(rows))
	for i, r := range rows {
		labels[i] = y[r] // the oracle
	}
	labeled := chosen.Mutate(series.New(labels, series.Float, "y"))
	m, err := frames.Fit(labeled, frames.Spec{Target: "y", Weight: "weight", Method: "krls", Sigma: 0.5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.PredictValues(pool)
	fmt.Println("features:", m.Features)
	fmt.Printf("RMSE on the whole pool against the true function: %.2f\n", credlab.RMSE(p, f))
	// Output:
	// features: [a b]
	// RMSE on the whole pool against the true function: 0.10
}

// Predict adds a "prediction" column; feature columns are matched by name.
func ExamplePredict() {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 2)
	train, _ := frames.FromMatrix(x, "a", "b")
	train = train.Mutate(series.New(y, series.Float, "y"))
	m, err := frames.Fit(train, frames.Spec{Target: "y", Method: "nytro", M: 50, Sigma: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	xt, yt, _ := credlab.SmoothRegression(5, 2, 0.1, 3)
	test, _ := frames.FromMatrix(xt, "a", "b")
	out, err := frames.Predict(m, test.Select([]string{"b", "a"}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(out.Names(), ", "))
	for i, p := range out.Col("prediction").Float() {
		fmt.Printf("%5.2f %5.2f\n", p, yt[i])
	}
	// Output:
	// b, a, prediction
	//  1.44  1.36
	// -1.08 -1.09
	// -0.34 -0.27
	//  1.47  1.38
	// -0.25 -0.23
}

// Sweep sigma for KRLS over a lambda grid: each sigma is one solver call
// covering all lambdas.
func ExampleSweep() {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 4)
	df, _ := frames.FromMatrix(x, "a", "b")
	df = df.Mutate(series.New(y, series.Float, "y"))
	sw, err := frames.Sweep(df, frames.Spec{Target: "y", Method: "krls", Seed: 1, Scale: "none"},
		frames.Grid{Sigma: []float64{0.1, 0.3, 1}, Lambda: credlab.LogGrid(1e-8, 1e-1, 8)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sw.Nrow(), "rows")
	best := sw.Filter(dataframe.F{Colname: "best", Comparator: series.Eq, Comparando: true})
	fmt.Printf("best: sigma %v, lambda %v, validation RMSE %.3f\n",
		best.Col("sigma").Float()[0], best.Col("lambda").Float()[0], best.Col("val_rmse").Float()[0])
	// Output:
	// 24 rows
	// best: sigma 0.3, lambda 0.001, validation RMSE 0.132
}

// Fit with only the target: the features are standardized (a constant
// column is left out with a warning), the target centered, and the method,
// sigma and lambda chosen by generalized cross-validation.
func ExampleFit_defaults() {
	x, y, f := credlab.SmoothRegression(400, 2, 0.1, 5)
	df, _ := frames.FromMatrix(x, "a", "b")
	df = df.Mutate(series.New(y, series.Float, "y"))
	df = df.Mutate(series.New(make([]float64, 400), series.Float, "unused"))
	m, err := frames.Fit(df, frames.Spec{Target: "y"})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.PredictValues(df)
	fmt.Println("method:", m.Spec.Method, "chosen by", m.Choice.Criterion)
	fmt.Println("features:", m.Features, "standardized:", m.Mean != nil)
	fmt.Println("warning:", m.Warnings[0])
	fmt.Println("RMSE against the true function below 0.05:", credlab.RMSE(p, f) < 0.05)
	// Output:
	// method: krls chosen by cv
	// features: [a b] standardized: true
	// warning: column "unused" is constant (0) on the 400 training rows: left out of the features
	// RMSE against the true function below 0.05: true
}
