package frames

import (
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
)

// checkSweep checks a sweep's shape and that best marks the least
// validation RMSE.
func checkSweep(t *testing.T, sw dataframe.DataFrame, rows, settings int) {
	t.Helper()
	wantNames(t, sw, "method", "setting", "sigma", "m", "lambda_q", "batch", "lambda", "iter", "passes", "train_rmse", "val_rmse", "seconds", "criterion", "score", "stage", "best")
	if sw.Nrow() != rows {
		t.Fatalf("%d rows, want %d", sw.Nrow(), rows)
	}
	set := col(t, sw, "setting")
	if int(set[len(set)-1]) != settings-1 {
		t.Errorf("last setting %v, want %d", set[len(set)-1], settings-1)
	}
	best, err := sw.Col("best").Bool()
	if err != nil {
		t.Fatal(err)
	}
	val := col(t, sw, "val_rmse")
	k, least := -1, math.Inf(1)
	for i, v := range val {
		if !math.IsNaN(v) && v < least {
			least = v
		}
		if best[i] {
			if k >= 0 {
				t.Fatal("two rows marked best")
			}
			k = i
		}
	}
	if k < 0 || val[k] != least {
		t.Errorf("best row %d (val %v), least %v", k, val[k], least)
	}
	for _, s := range col(t, sw, "seconds") {
		if !(s >= 0) {
			t.Fatalf("seconds %v", s)
		}
	}
}

func TestSweep(t *testing.T) {
	df := regFrame(t, 160, 5)
	before := snapshot(df)
	sw, err := Sweep(df, Spec{Target: "y", Method: "krls"}, Grid{Lambda: credlab.LogGrid(1e-6, 1, 7), Sigma: []float64{0.3, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if snapshot(df) != before {
		t.Fatal("Sweep modified its input")
	}
	checkSweep(t, sw, 14, 2)
	wantFloats(t, col(t, sw, "lambda")[:3], credlab.LogGrid(1e-6, 1, 7)[:3])
	wantFloats(t, col(t, sw, "sigma")[6:8], []float64{0.3, 1})
	wantFloats(t, col(t, sw, "iter")[:2], []float64{0, 0})

	sw, err = Sweep(df, Spec{Target: "y", Method: "nytro", Sigma: 0.4, MaxIter: 30}, Grid{M: []int{20, 40}})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, sw, 60, 2)
	iter := col(t, sw, "iter")
	if iter[0] != 1 || iter[29] != 30 || iter[30] != 1 {
		t.Errorf("iterations %v", iter)
	}
	wantFloats(t, col(t, sw, "m")[28:32], []float64{20, 20, 40, 40})

	sw, err = Sweep(df, Spec{Target: "y", Method: "krls", Sigma: 0.4, Lambda: 1e-3}, Grid{LambdaQ: []float64{1e-6, 1e-2}, Budget: 60})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, sw, 2, 2)
	wantFloats(t, col(t, sw, "lambda_q"), []float64{1e-6, 1e-2})

	sw, err = Sweep(df, Spec{Target: "y", Method: "linear", FeatureMap: "fourier", Sigma: 0.4, Lambdas: []float64{1e-4, 1e-2}}, Grid{M: []int{20, 60}})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, sw, 4, 2)

	// SGM: one run per batch size covers the listed passes.
	sw, err = Sweep(df, Spec{Target: "y", Method: "sgm", Sigma: 0.4, Seed: 2}, Grid{Batch: []int{4, 16}, Passes: []int{1, 2, 5}})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, sw, 6, 2)
	wantFloats(t, col(t, sw, "batch"), []float64{4, 4, 4, 16, 16, 16})
	passes := col(t, sw, "passes")
	for i, want := range []float64{1, 2, 5, 1, 2, 5} {
		if passes[i] < want || passes[i] > want+0.2 {
			t.Errorf("passes %v, want about %v", passes, []float64{1, 2, 5, 1, 2, 5})
			break
		}
	}
}

func TestSweepErrors(t *testing.T) {
	df := regFrame(t, 40, 5)
	for _, c := range []struct {
		name string
		spec Spec
		grid Grid
		want errCheck
	}{
		{"kols", Spec{Method: "kols"}, Grid{}, wantParam("Spec.Method")},
		{"lambda for gd", Spec{Method: "gd"}, Grid{Lambda: []float64{1}}, wantParam("Grid.Lambda")},
		{"sigma for linear kernel", Spec{Method: "krls", Kernel: "linear"}, Grid{Sigma: []float64{1}}, wantParam("Grid.Sigma")},
		{"sigma for raw", Spec{Method: "linear"}, Grid{Sigma: []float64{1}}, wantParam("Grid.Sigma")},
		{"m for krls", Spec{Method: "krls"}, Grid{M: []int{5}}, wantParam("Grid.M")},
		{"bad sigma", Spec{Method: "krls"}, Grid{Sigma: []float64{0}}, wantParam("Grid.Sigma[0]")},
		{"bad m", Spec{Method: "nkrls", M: 5}, Grid{M: []int{-1}}, wantParam("Grid.M[0]")},
		{"bad lambda_q", Spec{Method: "krls"}, Grid{LambdaQ: []float64{math.NaN()}, Budget: 5}, wantParam("Grid.LambdaQ[0]")},
		{"no budget", Spec{Method: "krls"}, Grid{LambdaQ: []float64{1e-3}}, wantParam("Grid.Budget")},
		{"budget alone", Spec{Method: "krls"}, Grid{Budget: 5}, wantParam("Grid.Budget")},
		{"weight and lambda_q", Spec{Method: "krls", Weight: "a"}, Grid{LambdaQ: []float64{1e-3}, Budget: 5}, wantParam("Spec.Weight")},
		{"passes", Spec{Method: "nytro", M: 5}, Grid{Passes: []int{1}}, wantParam("Grid.Passes")},
		{"bad passes", Spec{Method: "sgm"}, Grid{Passes: []int{0}}, wantParam("Grid.Passes[0]")},
		{"bad batch", Spec{Method: "sgm"}, Grid{Batch: []int{-2}}, wantParam("Grid.Batch[0]")},
		{"unknown method", Spec{Method: "xgboost"}, Grid{}, wantParam("Spec.Method")},
		{"bad lambda", Spec{Method: "krls"}, Grid{Lambda: []float64{-1}}, wantParam("lambda[0]")},
		{"no target", Spec{Method: "krls", Target: "-"}, Grid{}, wantColumn("z", "target")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.spec.Target == "" {
				c.spec.Target = "y"
			}
			if c.spec.Target == "-" {
				c.spec.Target = "z"
			}
			_, err := Sweep(df, c.spec, c.grid)
			c.want(t, err)
		})
	}
	_, err := Sweep(df, Spec{Method: "krls"}, Grid{})
	wantParam("Spec.Target")(t, err)
}
