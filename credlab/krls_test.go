package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refKRLS solves (K + lambda n I) alpha = y by mat.Dense LU.
func refKRLS(t *testing.T, k refKernel, x *mat.Dense, y []float64, lambda float64) []float64 {
	t.Helper()
	n := len(y)
	return denseSolve(t, addDiag(refMatrix(k, x, x), lambda*float64(n)), y)
}

func TestKRLSFixedLambda(t *testing.T) {
	rng := newRNG(10)
	x := randData(rng, 60, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	xnew := randData(rng, 25, 3, 1)
	cases := []struct {
		name   string
		k      Kernel
		lambda float64
	}{
		{"gaussian 1e-2", GaussianKernel{Sigma: 0.8}, 1e-2},
		{"gaussian 1e-5", GaussianKernel{Sigma: 0.8}, 1e-5},
		{"laplacian", LaplacianKernel{Sigma: 1.5}, 1e-3},
		{"polynomial", PolynomialKernel{Degree: 3, Gamma: 1, Coef0: 1}, 1e-3},
		{"linear", LinearKernel{}, 1e-4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := refOf(t, c.k)
			fit, err := KRLS(context.Background(), x, y, KRLSConfig{Kernel: c.k, Lambda: c.lambda})
			if err != nil {
				t.Fatal(err)
			}
			alpha := refKRLS(t, ref, x, y, c.lambda)
			if d := relDiff(fit.Model.Coef, alpha); d > 1e-8 {
				t.Errorf("alpha differs from dense solve: rel %g", d)
			}
			if fit.Method != "KRLS" || fit.Lambda != c.lambda || fit.Rank != 60 || !math.IsNaN(fit.ValRMSE) {
				t.Errorf("fit record: method %q lambda %g rank %d val %g", fit.Method, fit.Lambda, fit.Rank, fit.ValRMSE)
			}
			if len(fit.Path) != 1 {
				t.Fatalf("path has %d points, want 1", len(fit.Path))
			}
			train := matVec(refMatrix(ref, x, x), alpha)
			if tr := refRMSE(train, y); !relClose(fit.Path[0].TrainRMSE, tr, 1e-6) {
				t.Errorf("TrainRMSE %g, direct %g", fit.Path[0].TrainRMSE, tr)
			}
			if !math.IsNaN(fit.Path[0].ValRMSE) {
				t.Errorf("path ValRMSE %g without validation, want NaN", fit.Path[0].ValRMSE)
			}
			pred, err := fit.Model.Predict(xnew)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(pred, matVec(refMatrix(ref, xnew, x), alpha)); d > 1e-8 {
				t.Errorf("predictions on new points: rel %g", d)
			}
		})
	}
}

// krlsRefPath recomputes the validation and training RMSE for lambda on the
// same hold-out split, by dense solves on the training rows.
func krlsRefPath(t *testing.T, ref refKernel, x *mat.Dense, y []float64, h Holdout, lambda float64) (train, val float64, alpha []float64) {
	t.Helper()
	tr, va, err := h.Split(len(y))
	if err != nil {
		t.Fatal(err)
	}
	xt, xv := rowsOf(x, tr), rowsOf(x, va)
	yt, yv := pick(y, tr), pick(y, va)
	alpha = refKRLS(t, ref, xt, yt, lambda)
	train = refRMSE(matVec(refMatrix(ref, xt, xt), alpha), yt)
	val = refRMSE(matVec(refMatrix(ref, xv, xt), alpha), yv)
	return train, val, alpha
}

// TestKRLSGridPaths checks both solvers of the lambda path, the per-lambda
// Cholesky (grid < triBreakEven) and the shared tridiagonal reduction,
// against independent dense solves on the hold-out split, and against each
// other at the lambdas the two grids share.
func TestKRLSGridPaths(t *testing.T) {
	rng := newRNG(11)
	x := randData(rng, 80, 2, 1.5)
	y := smoothTargets(rng, x, 0.2)
	k := GaussianKernel{Sigma: 0.5}
	ref := refGaussian(0.5)
	h := Holdout{Seed: 7}
	gTri := LogGrid(1e-6, 1, triBreakEven+5) // tridiagonal path
	var gChol []float64                      // every 4th value of gTri: Cholesky path
	for i := 0; i < len(gTri); i += 4 {
		gChol = append(gChol, gTri[i])
	}
	fits := map[int]*Fit{}
	for _, grid := range [][]float64{gChol, gTri} {
		t.Run(map[int]string{len(gChol): "cholesky", len(gTri): "tridiagonal"}[len(grid)], func(t *testing.T) {
			var calls []int
			fit, err := KRLS(context.Background(), x, y, KRLSConfig{Kernel: k, Lambdas: grid, Holdout: h,
				Progress: func(done, total int) {
					if total != len(grid) {
						t.Errorf("progress total %d, want %d", total, len(grid))
					}
					calls = append(calls, done)
				}})
			if err != nil {
				t.Fatal(err)
			}
			fits[len(grid)] = fit
			if len(fit.Path) != len(grid) {
				t.Fatalf("path has %d points, want %d", len(fit.Path), len(grid))
			}
			for i, c := range calls {
				if c != i+1 {
					t.Fatalf("progress calls %v, want 1..%d", calls, len(grid))
				}
			}
			if len(calls) != len(grid) {
				t.Errorf("%d progress calls, want %d", len(calls), len(grid))
			}
			best, compared := -1, 0
			for i, p := range fit.Path {
				if p.Lambda != grid[i] {
					t.Errorf("path[%d].Lambda = %g, want %g", i, p.Lambda, grid[i])
				}
				if math.IsNaN(p.ValRMSE) {
					continue
				}
				compared++
				tr, va, _ := krlsRefPath(t, ref, x, y, h, p.Lambda)
				if !relClose(p.ValRMSE, va, 1e-6) {
					t.Errorf("lambda %g: ValRMSE %.10g, independent %.10g", p.Lambda, p.ValRMSE, va)
				}
				if !relClose(p.TrainRMSE, tr, 1e-6) {
					t.Errorf("lambda %g: TrainRMSE %.10g, independent %.10g", p.Lambda, p.TrainRMSE, tr)
				}
				if best < 0 || p.ValRMSE < fit.Path[best].ValRMSE {
					best = i
				}
			}
			if compared < len(grid)*3/4 {
				t.Fatalf("only %d of %d path points are finite", compared, len(grid))
			}
			if fit.Lambda != fit.Path[best].Lambda || fit.ValRMSE != fit.Path[best].ValRMSE {
				t.Errorf("selected lambda %g (val %g), argmin of path is %g (val %g)",
					fit.Lambda, fit.ValRMSE, fit.Path[best].Lambda, fit.Path[best].ValRMSE)
			}
			_, va, alpha := krlsRefPath(t, ref, x, y, h, fit.Lambda)
			if d := relDiff(fit.Model.Coef, alpha); d > 1e-6 {
				t.Errorf("alpha at the selected lambda differs from the dense solve: rel %g", d)
			}
			// The model's centers are the training rows; its predictions on
			// the validation rows reproduce the selected ValRMSE.
			tr, vIdx, _ := h.Split(80)
			if d := relDiffMat(fit.Model.Centers, rowsOf(x, tr)); d != 0 {
				t.Errorf("model centers are not the training rows")
			}
			pv, err := fit.Model.Predict(rowsOf(x, vIdx))
			if err != nil {
				t.Fatal(err)
			}
			if v := refRMSE(pv, pick(y, vIdx)); !relClose(v, va, 1e-6) || !relClose(v, fit.ValRMSE, 1e-6) {
				t.Errorf("model's validation RMSE %g, fit.ValRMSE %g, independent %g", v, fit.ValRMSE, va)
			}
		})
	}
	// Cross-check the two solvers at shared lambdas.
	fc, ft := fits[len(gChol)], fits[len(gTri)]
	if fc == nil || ft == nil {
		t.Fatal("a solver path did not run")
	}
	for j, p := range fc.Path {
		q := ft.Path[4*j]
		if math.IsNaN(p.ValRMSE) || math.IsNaN(q.ValRMSE) {
			continue
		}
		if !relClose(p.ValRMSE, q.ValRMSE, 1e-6) || !relClose(p.TrainRMSE, q.TrainRMSE, 1e-6) {
			t.Errorf("lambda %g: Cholesky (%g, %g) vs tridiagonal (%g, %g) train/val RMSE",
				p.Lambda, p.TrainRMSE, p.ValRMSE, q.TrainRMSE, q.ValRMSE)
		}
	}
}

// The default grid is the paper's LogGrid(1e-15, 1, 100), solved by
// whichever path the backend's triBreakEven picks; failed tiny lambdas may
// be NaN but the choice is the argmin of the finite ones and matches a
// dense solve.
func TestKRLSDefaultGrid(t *testing.T) {
	rng := newRNG(12)
	x := randData(rng, 40, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	fit, err := KRLS(context.Background(), x, y, KRLSConfig{Kernel: GaussianKernel{Sigma: 1}})
	if err != nil {
		t.Fatal(err)
	}
	grid := LogGrid(1e-15, 1, 100)
	if len(fit.Path) != 100 {
		t.Fatalf("path has %d points, want 100", len(fit.Path))
	}
	best := -1
	for i, p := range fit.Path {
		if p.Lambda != grid[i] {
			t.Fatalf("path[%d].Lambda = %g, want %g", i, p.Lambda, grid[i])
		}
		if !math.IsNaN(p.ValRMSE) && (best < 0 || p.ValRMSE < fit.Path[best].ValRMSE) {
			best = i
		}
	}
	if fit.Lambda != fit.Path[best].Lambda {
		t.Errorf("selected %g, argmin %g", fit.Lambda, fit.Path[best].Lambda)
	}
	if fit.Lambda >= 1e-9 {
		_, va, alpha := krlsRefPath(t, refGaussian(1), x, y, Holdout{}, fit.Lambda)
		if d := relDiff(fit.Model.Coef, alpha); d > 1e-5 {
			t.Errorf("selected alpha: rel %g", d)
		}
		if !relClose(fit.ValRMSE, va, 1e-5) {
			t.Errorf("ValRMSE %g, independent %g", fit.ValRMSE, va)
		}
	}
}

func TestKRLSSelectionErrors(t *testing.T) {
	rng := newRNG(13)
	x := randData(rng, 20, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	k := GaussianKernel{Sigma: 1}
	_, err := KRLS(context.Background(), x, y, KRLSConfig{Kernel: k, Holdout: Holdout{None: true}})
	wantErrKind(t, "no hold-out and no Lambda", err, paramErr("lambda", 0.0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := KRLS(ctx, x, y, KRLSConfig{Kernel: k}); err == nil {
		t.Error("cancelled context: no error")
	}
}
