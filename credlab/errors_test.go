package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// estimator is one configured estimator under test.
type estimator struct {
	name string
	fit  func(x *mat.Dense, y []float64) (*Fit, error)
}

func estimators(k Kernel, m int) []estimator {
	bg := context.Background()
	return []estimator{
		{"KRLS fixed", func(x *mat.Dense, y []float64) (*Fit, error) {
			return KRLS(bg, x, y, KRLSConfig{Kernel: k, Lambda: 1e-3})
		}},
		{"KRLS grid", func(x *mat.Dense, y []float64) (*Fit, error) {
			return KRLS(bg, x, y, KRLSConfig{Kernel: k, Lambdas: LogGrid(1e-6, 1, 5)})
		}},
		{"KOLS", func(x *mat.Dense, y []float64) (*Fit, error) {
			return KOLS(bg, x, y, KOLSConfig{Kernel: k})
		}},
		{"EarlyStopping fixed", func(x *mat.Dense, y []float64) (*Fit, error) {
			return EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: k, IterConfig: IterConfig{Iter: 5}})
		}},
		{"EarlyStopping hold-out", func(x *mat.Dense, y []float64) (*Fit, error) {
			return EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: k, IterConfig: IterConfig{MaxIter: 20}})
		}},
		{"NKRLS fixed", func(x *mat.Dense, y []float64) (*Fit, error) {
			return NKRLS(bg, x, y, NKRLSConfig{Kernel: k, Lambda: 1e-3, Nystrom: NystromConfig{M: m}})
		}},
		{"NKRLS grid", func(x *mat.Dense, y []float64) (*Fit, error) {
			return NKRLS(bg, x, y, NKRLSConfig{Kernel: k, Lambdas: LogGrid(1e-6, 1, 5), Nystrom: NystromConfig{M: m}})
		}},
		{"NYTRO fixed", func(x *mat.Dense, y []float64) (*Fit, error) {
			return NYTRO(bg, x, y, NYTROConfig{Kernel: k, Nystrom: NystromConfig{M: m}, IterConfig: IterConfig{Iter: 5}})
		}},
		{"NYTRO hold-out", func(x *mat.Dense, y []float64) (*Fit, error) {
			return NYTRO(bg, x, y, NYTROConfig{Kernel: k, Nystrom: NystromConfig{M: m}, IterConfig: IterConfig{MaxIter: 20}})
		}},
	}
}

// callNoPanic runs f and turns a panic into an error.
func callNoPanic(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	return f()
}

func wantErr(t *testing.T, name string, err error, subs ...string) {
	t.Helper()
	if err != nil && strings.HasPrefix(err.Error(), "PANIC") {
		t.Errorf("%s: %v", name, err)
		return
	}
	wantErrMentions(t, name, err, subs...)
}

// TestBadData checks that every estimator rejects bad x and y with an
// error naming the problem, without panicking.
func TestBadData(t *testing.T) {
	rng := newRNG(80)
	x := randData(rng, 20, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	withX := func(i, j int, v float64) *mat.Dense {
		xb := mat.DenseCopyOf(x)
		xb.Set(i, j, v)
		return xb
	}
	withY := func(i int, v float64) []float64 {
		yb := append([]float64(nil), y...)
		yb[i] = v
		return yb
	}
	cases := []struct {
		name string
		x    *mat.Dense
		y    []float64
		want []string
	}{
		{"NaN in x", withX(3, 1, math.NaN()), y, []string{"x[3,1]", "NaN"}},
		{"+Inf in x", withX(7, 0, math.Inf(1)), y, []string{"x[7,0]", "Inf"}},
		{"-Inf in x", withX(19, 2, math.Inf(-1)), y, []string{"x[19,2]", "Inf"}},
		{"NaN in y", x, withY(4, math.NaN()), []string{"y[4]", "NaN"}},
		{"Inf in y", x, withY(11, math.Inf(1)), []string{"y[11]", "Inf"}},
		{"nil x", nil, y, []string{"empty"}},
		{"empty x", &mat.Dense{}, y, []string{"empty"}},
		{"short y", x, y[:19], []string{"shape mismatch", "20", "19"}},
		{"long y", x, append(append([]float64(nil), y...), 1), []string{"shape mismatch", "21"}},
		{"empty y", x, []float64{}, []string{"shape mismatch"}},
	}
	for _, e := range estimators(GaussianKernel{Sigma: 1}, 5) {
		for _, c := range cases {
			err := callNoPanic(func() error { _, err := e.fit(c.x, c.y); return err })
			wantErr(t, e.name+": "+c.name, err, c.want...)
		}
	}
}

// TestNilTargets: a nil y is n targets short like any other short y.
// checkData treats y == nil as "no targets to check" (it is shared with
// KernelMatrix, NewNystrom and Predict), so the estimators skip the length
// check and panic on the empty training set.
func TestNilTargets(t *testing.T) {
	x := randData(newRNG(85), 20, 3, 1)
	for _, e := range estimators(GaussianKernel{Sigma: 1}, 5) {
		err := callNoPanic(func() error { _, err := e.fit(x, nil); return err })
		wantErr(t, e.name+": nil y", err, "shape mismatch")
	}
}

func TestBadParameters(t *testing.T) {
	rng := newRNG(81)
	x := randData(rng, 20, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	bg := context.Background()
	g := GaussianKernel{Sigma: 1}
	nc := NystromConfig{M: 5}
	// The largest stable step is 2n/||K|| (Landweber) or 2n/||A^T A||
	// (NYTRO); 10x that diverges.
	var es mat.EigenSym
	es.Factorize(mat.NewSymDense(20, denseBits(refMatrix(refGaussian(1), x, x))), false)
	vals := es.Values(nil)
	bigStep := 10 * 2 * 20 / vals[len(vals)-1]
	idx, _ := NystromCenters(x, 5, nil, 0)
	ny, _ := NewNystrom(g, x, idx, 0)
	a, _ := ny.Features(x)
	var sv mat.SVD
	sv.Factorize(a, mat.SVDNone)
	s0 := sv.Values(nil)[0]
	bigStepNy := 10 * 2 * 20 / (s0 * s0)

	cases := []struct {
		name string
		call func() error
		want []string
	}{
		// Kernels.
		{"KRLS sigma 0", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: GaussianKernel{}, Lambda: 1}); return err }, []string{"sigma"}},
		{"KRLS sigma < 0", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: LaplacianKernel{Sigma: -1}, Lambda: 1})
			return err
		}, []string{"sigma"}},
		{"KOLS sigma 0", func() error { _, err := KOLS(bg, x, y, KOLSConfig{Kernel: GaussianKernel{}}); return err }, []string{"sigma"}},
		{"EarlyStopping sigma 0", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: -2}})
			return err
		}, []string{"sigma"}},
		{"NKRLS sigma 0", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: GaussianKernel{}, Lambda: 1, Nystrom: nc})
			return err
		}, []string{"sigma"}},
		{"NYTRO sigma 0", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: GaussianKernel{}, Nystrom: nc})
			return err
		}, []string{"sigma"}},
		// Lambda.
		{"KRLS lambda < 0", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: -1}); return err }, []string{"lambda"}},
		{"KRLS lambda NaN", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: math.NaN()}); return err }, []string{"lambda"}},
		{"KRLS lambda +Inf", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: math.Inf(1)}); return err }, []string{"lambda"}},
		{"NKRLS lambda < 0", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: -1e-3, Nystrom: nc})
			return err
		}, []string{"lambda"}},
		{"KRLS Lambdas zero", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambdas: []float64{1e-3, 0, 1}})
			return err
		}, []string{"lambda[1]"}},
		{"KRLS Lambdas negative", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambdas: []float64{-1}})
			return err
		}, []string{"lambda[0]"}},
		{"KRLS Lambdas empty", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambdas: []float64{}})
			return err
		}, []string{"empty lambda grid"}},
		{"NKRLS Lambdas zero", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambdas: []float64{1, 0.5, 0}, Nystrom: nc})
			return err
		}, []string{"lambda[2]"}},
		{"NKRLS Lambdas NaN", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambdas: []float64{math.NaN()}, Nystrom: nc})
			return err
		}, []string{"lambda[0]"}},
		// Nyström m.
		{"NKRLS m > n", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: NystromConfig{M: 21}})
			return err
		}, []string{"m = 21"}},
		{"NKRLS m > training rows", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Nystrom: NystromConfig{M: 17}})
			return err
		}, []string{"m = 17", "training rows"}},
		{"NKRLS m = 0", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1})
			return err
		}, []string{"m = 0"}},
		{"NYTRO m < 0", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: NystromConfig{M: -3}, IterConfig: IterConfig{Iter: 2}})
			return err
		}, []string{"m = -3"}},
		{"NYTRO m > n", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: NystromConfig{M: 25}, IterConfig: IterConfig{Iter: 2}})
			return err
		}, []string{"m = 25"}},
		// Steps and iterations.
		{"EarlyStopping diverging step", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: 10, StepSize: bigStep}})
			return err
		}, []string{"step size", "diverges"}},
		{"NYTRO diverging step", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{Iter: 10, StepSize: bigStepNy}})
			return err
		}, []string{"step size", "diverges"}},
		{"EarlyStopping negative step", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{StepSize: -1}})
			return err
		}, []string{"step size"}},
		{"NYTRO NaN step", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{StepSize: math.NaN()}})
			return err
		}, []string{"step size"}},
		{"EarlyStopping negative Iter", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: -1}})
			return err
		}, []string{"Iter = -1"}},
		{"NYTRO negative Iter", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{Iter: -4}})
			return err
		}, []string{"Iter = -4"}},
		{"NYTRO negative MaxIter", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{MaxIter: -4}})
			return err
		}, []string{"MaxIter = -4"}},
		// Tolerances.
		{"KOLS negative Tol", func() error { _, err := KOLS(bg, x, y, KOLSConfig{Kernel: g, Tol: -1}); return err }, []string{"tolerance"}},
		{"NKRLS negative Tol", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: NystromConfig{M: 5, Tol: -1}})
			return err
		}, []string{"tolerance"}},
		// Zero kernel diagonal: the default step is undefined.
		{"EarlyStopping zero kernel", func() error {
			_, err := EarlyStopping(bg, mat.NewDense(5, 2, nil), make([]float64, 5), EarlyStoppingConfig{Kernel: LinearKernel{}, IterConfig: IterConfig{Iter: 2}})
			return err
		}, []string{"step size"}},
		{"KOLS zero kernel", func() error {
			_, err := KOLS(bg, mat.NewDense(5, 2, nil), make([]float64, 5), KOLSConfig{Kernel: LinearKernel{}})
			return err
		}, []string{"zero"}},
		// KernelMatrix shapes.
		{"KernelMatrix column mismatch", func() error {
			_, err := KernelMatrix(g, x, randData(rng, 4, 3, 1))
			return err
		}, []string{"shape mismatch"}},
		{"KernelMatrix empty y", func() error { _, err := KernelMatrix(g, x, &mat.Dense{}); return err }, []string{"empty"}},
		{"KernelMatrix NaN", func() error {
			xb := mat.DenseCopyOf(x)
			xb.Set(2, 1, math.NaN())
			_, err := KernelMatrix(g, xb, nil)
			return err
		}, []string{"x[2,1]"}},
		{"KernelMatrix nil x", func() error { _, err := KernelMatrix(g, nil, nil); return err }, []string{"empty"}},
	}
	for _, c := range cases {
		wantErr(t, c.name, callNoPanic(c.call), c.want...)
	}
}

// Diverging steps are refused, but a step just below the stability bound
// is accepted.
func TestStableUserStepAccepted(t *testing.T) {
	rng := newRNG(82)
	x := randData(rng, 20, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	var es mat.EigenSym
	es.Factorize(mat.NewSymDense(20, denseBits(refMatrix(refGaussian(1), x, x))), false)
	vals := es.Values(nil)
	step := 0.9 * 2 * 20 / vals[len(vals)-1]
	if _, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: 1},
		IterConfig: IterConfig{Iter: 50, StepSize: step}}); err != nil {
		t.Errorf("step 0.9 x the stable bound refused: %v", err)
	}
}

func TestMemoryLimit(t *testing.T) {
	old := MemoryLimit
	defer func() { MemoryLimit = old }()
	rng := newRNG(83)
	x := randData(rng, 30, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	MemoryLimit = 30 * 30 * 8 / 2 // half a 30 x 30 kernel matrix
	g := GaussianKernel{Sigma: 1}
	bg := context.Background()
	calls := map[string]func() error{
		"KernelMatrix": func() error { _, err := KernelMatrix(g, x, nil); return err },
		"KRLS":         func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: 1e-3}); return err },
		"KOLS":         func() error { _, err := KOLS(bg, x, y, KOLSConfig{Kernel: g}); return err },
		"EarlyStopping": func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: 3}})
			return err
		},
	}
	for name, f := range calls {
		wantErr(t, name, callNoPanic(f), "Nyström", "memory limit")
	}
	// Nyström with few centers stays under the limit.
	if _, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1e-3, Nystrom: NystromConfig{M: 4}}); err != nil {
		t.Errorf("NKRLS with m = 4 under a %d-byte limit: %v", MemoryLimit, err)
	}
	MemoryLimit = old
	if _, err := KernelMatrix(g, x, nil); err != nil {
		t.Errorf("after restoring MemoryLimit: %v", err)
	}
}

// TestInputsNotModified checks that no estimator writes to the caller's x
// or y, and that the model does not alias x.
func TestInputsNotModified(t *testing.T) {
	rng := newRNG(84)
	big := randData(rng, 40, 5, 1)
	// A strided view, so writes through the backing array would show too.
	x := big.Slice(0, 40, 1, 4).(*mat.Dense)
	y := smoothTargets(rng, x, 0.1)
	for _, e := range estimators(GaussianKernel{Sigma: 1}, 8) {
		bigc, yc := mat.DenseCopyOf(big), append([]float64(nil), y...)
		fit, err := e.fit(x, y)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if !mat.Equal(big, bigc) {
			t.Errorf("%s modified x", e.name)
		}
		if !sameBits(y, yc) {
			t.Errorf("%s modified y", e.name)
		}
		probe := randData(rng, 5, 3, 1)
		before, err := fit.Model.Predict(probe)
		if err != nil {
			t.Fatal(err)
		}
		big.Scale(2, big) // the caller reuses its matrix
		after, err := fit.Model.Predict(probe)
		if err != nil {
			t.Fatal(err)
		}
		if !sameBits(before, after) {
			t.Errorf("%s: model aliases the caller's x", e.name)
		}
		big.Copy(bigc)
	}
	// KernelMatrix, Nyström and Predict.
	xc := mat.DenseCopyOf(big)
	if _, err := KernelMatrix(GaussianKernel{Sigma: 1}, x, x); err != nil {
		t.Fatal(err)
	}
	ny, err := NewNystrom(GaussianKernel{Sigma: 1}, x, []int{1, 2, 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ny.Features(x); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(big, xc) {
		t.Error("KernelMatrix or Nyström modified x")
	}
}

// wantNotFinite checks that err is a *NotFiniteError at (row, col) of name.
func wantNotFinite(t *testing.T, what string, err error, name string, row, col int) {
	t.Helper()
	var nf *NotFiniteError
	if !errors.As(err, &nf) || nf.Name != name || nf.Row != row || nf.Col != col {
		t.Errorf("%s: got %v (%T), want a *NotFiniteError for %s at row %d, column %d", what, err, err, name, row, col)
	}
}

// TestTypedErrors checks the error types of bad inputs with errors.As and
// errors.Is.
func TestTypedErrors(t *testing.T) {
	rng := newRNG(81)
	x := randData(rng, 20, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	k := GaussianKernel{Sigma: 1}
	bg := context.Background()
	xb := mat.DenseCopyOf(x)
	xb.Set(7, 2, math.Inf(1))
	_, err := KRLS(bg, xb, y, KRLSConfig{Kernel: k, Lambda: 1e-3})
	wantNotFinite(t, "Inf x", err, "x", 7, 2)
	yb := append([]float64(nil), y...)
	yb[4] = math.NaN()
	_, err = KRLS(bg, x, yb, KRLSConfig{Kernel: k, Lambda: 1e-3})
	wantNotFinite(t, "NaN y", err, "y", 4, -1)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 1
	}
	w[5] = math.Inf(1)
	_, err = KRLS(bg, x, y, KRLSConfig{Kernel: k, Lambda: 1e-3, Weights: w})
	wantNotFinite(t, "Inf weight", err, "weight", 5, -1)
	if _, err = KRLS(bg, x, y[:3], KRLSConfig{Kernel: k, Lambda: 1e-3}); !errors.Is(err, ErrShape) {
		t.Errorf("short y: %v, want ErrShape", err)
	}
	if _, err = KRLS(bg, &mat.Dense{}, nil, KRLSConfig{Kernel: k, Lambda: 1e-3}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty x: %v, want ErrEmpty", err)
	}
	var pe *ParamError
	if _, err = KRLS(bg, x, y, KRLSConfig{Kernel: GaussianKernel{Sigma: -1}, Lambda: 1e-3}); !errors.As(err, &pe) || pe.Value != -1.0 {
		t.Errorf("sigma -1: %v, want a *ParamError with value -1", err)
	}
}

// TestDivergedErrorType checks that a step size beyond the stable range is
// a *DivergedError carrying the step and the largest stable step.
func TestDivergedErrorType(t *testing.T) {
	rng := newRNG(82)
	x := randData(rng, 20, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	_, err := EarlyStopping(context.Background(), x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: 1}, IterConfig: IterConfig{Iter: 10, StepSize: 1e6}})
	var de *DivergedError
	if !errors.As(err, &de) || de.Step != 1e6 || !(de.MaxStable > 0 && de.MaxStable < 1e6) {
		t.Errorf("got %v (%T), want a *DivergedError with step 1e6 and a smaller stable step", err, err)
	}
}
