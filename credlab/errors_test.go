package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// estimator is one configured estimator under test.
type estimator struct {
	name string
	est  Estimator
}

// fit runs the estimator on x and y without weights.
func (e estimator) fit(x *mat.Dense, y []float64) (*Fit, error) {
	return e.est.Fit(context.Background(), x, y, nil)
}

func estimators(k Kernel, m int) []estimator {
	ny := NystromConfig{M: m}
	return []estimator{
		{"KRLS fixed", KRLSConfig{Kernel: k, Lambda: 1e-3}},
		{"KRLS grid", KRLSConfig{Kernel: k, Lambdas: LogGrid(1e-6, 1, 5)}},
		{"KOLS", KOLSConfig{Kernel: k}},
		{"EarlyStopping fixed", EarlyStoppingConfig{Kernel: k, IterConfig: IterConfig{Iter: 5}}},
		{"EarlyStopping hold-out", EarlyStoppingConfig{Kernel: k, IterConfig: IterConfig{MaxIter: 20}}},
		{"NKRLS fixed", NKRLSConfig{Kernel: k, Lambda: 1e-3, Nystrom: ny}},
		{"NKRLS grid", NKRLSConfig{Kernel: k, Lambdas: LogGrid(1e-6, 1, 5), Nystrom: ny}},
		{"NYTRO fixed", NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: IterConfig{Iter: 5}}},
		{"NYTRO hold-out", NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: IterConfig{MaxIter: 20}}},
	}
}

// panicError is a panic turned into an error by callNoPanic.
type panicError struct{ value any }

func (e *panicError) Error() string { return fmt.Sprintf("PANIC: %v", e.value) }

// callNoPanic runs f and turns a panic into a *panicError.
func callNoPanic(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{r}
		}
	}()
	return f()
}

// wantErr reports a panic, or an error other than k.
func wantErr(t *testing.T, name string, err error, k errKind) {
	t.Helper()
	var pe *panicError
	if errors.As(err, &pe) {
		t.Errorf("%s: %v", name, err)
		return
	}
	wantErrKind(t, name, err, k)
}

// TestBadData checks that every estimator rejects bad x and y with a typed
// error locating the problem, without panicking.
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
		want errKind
	}{
		{"NaN in x", withX(3, 1, math.NaN()), y, notFiniteErr("x", 3, 1, math.NaN())},
		{"+Inf in x", withX(7, 0, math.Inf(1)), y, notFiniteErr("x", 7, 0, math.Inf(1))},
		{"-Inf in x", withX(19, 2, math.Inf(-1)), y, notFiniteErr("x", 19, 2, math.Inf(-1))},
		{"NaN in y", x, withY(4, math.NaN()), notFiniteErr("y", 4, -1, math.NaN())},
		{"Inf in y", x, withY(11, math.Inf(1)), notFiniteErr("y", 11, -1, math.Inf(1))},
		{"nil x", nil, y, isErr(ErrEmpty)},
		{"empty x", &mat.Dense{}, y, isErr(ErrEmpty)},
		{"short y", x, y[:19], isErr(ErrShape)},
		{"long y", x, append(append([]float64(nil), y...), 1), isErr(ErrShape)},
		{"empty y", x, []float64{}, isErr(ErrShape)},
	}
	for _, e := range estimators(GaussianKernel{Sigma: 1}, 5) {
		for _, c := range cases {
			err := callNoPanic(func() error { _, err := e.fit(c.x, c.y); return err })
			wantErr(t, e.name+": "+c.name, err, c.want)
		}
	}
}

// TestNilTargets: a nil y is n targets short like any other short y.
// CheckData treats y == nil as "no targets to check" (it is shared with
// KernelMatrix, NewNystrom and Predict), so the estimators skip the length
// check and panic on the empty training set.
func TestNilTargets(t *testing.T) {
	x := randData(newRNG(85), 20, 3, 1)
	for _, e := range estimators(GaussianKernel{Sigma: 1}, 5) {
		err := callNoPanic(func() error { _, err := e.fit(x, nil); return err })
		wantErr(t, e.name+": nil y", err, isErr(ErrShape))
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
		want errKind
	}{
		// Kernels.
		{"KRLS sigma 0", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: GaussianKernel{}, Lambda: 1}); return err }, paramErr("Gaussian kernel sigma", 0.0)},
		{"KRLS sigma < 0", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: LaplacianKernel{Sigma: -1}, Lambda: 1})
			return err
		}, paramErr("Laplacian kernel sigma", -1.0)},
		{"KOLS sigma 0", func() error { _, err := KOLS(bg, x, y, KOLSConfig{Kernel: GaussianKernel{}}); return err }, paramErr("Gaussian kernel sigma", 0.0)},
		{"EarlyStopping sigma 0", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: GaussianKernel{Sigma: -2}})
			return err
		}, paramErr("Gaussian kernel sigma", -2.0)},
		{"NKRLS sigma 0", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: GaussianKernel{}, Lambda: 1, Nystrom: nc})
			return err
		}, paramErr("Gaussian kernel sigma", 0.0)},
		{"NYTRO sigma 0", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: GaussianKernel{}, Nystrom: nc})
			return err
		}, paramErr("Gaussian kernel sigma", 0.0)},
		// Lambda.
		{"KRLS lambda < 0", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: -1}); return err }, paramErr("lambda", -1.0)},
		{"KRLS lambda NaN", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: math.NaN()}); return err }, paramErr("lambda", math.NaN())},
		{"KRLS lambda +Inf", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: math.Inf(1)}); return err }, paramErr("lambda", math.Inf(1))},
		{"NKRLS lambda < 0", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: -1e-3, Nystrom: nc})
			return err
		}, paramErr("lambda", -1e-3)},
		{"KRLS Lambdas zero", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambdas: []float64{1e-3, 0, 1}})
			return err
		}, paramErr("lambda[1]", 0.0)},
		{"KRLS Lambdas negative", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambdas: []float64{-1}})
			return err
		}, paramErr("lambda[0]", -1.0)},
		{"KRLS Lambdas empty", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambdas: []float64{}})
			return err
		}, paramErr("Lambdas")},
		{"NKRLS Lambdas zero", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambdas: []float64{1, 0.5, 0}, Nystrom: nc})
			return err
		}, paramErr("lambda[2]", 0.0)},
		{"NKRLS Lambdas NaN", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambdas: []float64{math.NaN()}, Nystrom: nc})
			return err
		}, paramErr("lambda[0]", math.NaN())},
		// Nyström m.
		{"NKRLS m > n", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: NystromConfig{M: 21}})
			return err
		}, paramErr("NystromConfig.M", 21)},
		{"NKRLS m > training rows", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Nystrom: NystromConfig{M: 17}})
			return err
		}, paramErr("NystromConfig.M", 17)},
		{"NKRLS m < 0", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: NystromConfig{M: -1}})
			return err
		}, paramErr("NystromConfig.M", -1)},
		{"NYTRO m < 0", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: NystromConfig{M: -3}, IterConfig: IterConfig{Iter: 2}})
			return err
		}, paramErr("NystromConfig.M", -3)},
		{"NYTRO m > n", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: NystromConfig{M: 25}, IterConfig: IterConfig{Iter: 2}})
			return err
		}, paramErr("NystromConfig.M", 25)},
		// Steps and iterations.
		{"EarlyStopping diverging step", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: 10, StepSize: bigStep}})
			return err
		}, divergedErr()},
		{"NYTRO diverging step", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{Iter: 10, StepSize: bigStepNy}})
			return err
		}, divergedErr()},
		{"EarlyStopping negative step", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{StepSize: -1}})
			return err
		}, paramErr("step size", -1.0)},
		{"NYTRO NaN step", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{StepSize: math.NaN()}})
			return err
		}, paramErr("step size", math.NaN())},
		{"EarlyStopping negative Iter", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: -1}})
			return err
		}, paramErr("IterConfig.Iter", -1)},
		{"NYTRO negative Iter", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{Iter: -4}})
			return err
		}, paramErr("IterConfig.Iter", -4)},
		{"NYTRO negative MaxIter", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{MaxIter: -4}})
			return err
		}, paramErr("IterConfig.MaxIter", -4)},
		// Tolerances.
		{"KOLS negative Tol", func() error { _, err := KOLS(bg, x, y, KOLSConfig{Kernel: g, Tol: -1}); return err }, paramErr("KOLS tolerance", -1.0)},
		{"NKRLS negative Tol", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: NystromConfig{M: 5, Tol: -1}})
			return err
		}, paramErr("Nyström tolerance", -1.0)},
		// Zero kernel diagonal: the default step is undefined.
		{"EarlyStopping zero kernel", func() error {
			_, err := EarlyStopping(bg, mat.NewDense(5, 2, nil), make([]float64, 5), EarlyStoppingConfig{Kernel: LinearKernel{}, IterConfig: IterConfig{Iter: 2}})
			return err
		}, degenerateErr("step size")},
		{"KOLS zero kernel", func() error {
			_, err := KOLS(bg, mat.NewDense(5, 2, nil), make([]float64, 5), KOLSConfig{Kernel: LinearKernel{}})
			return err
		}, degenerateErr("zero")},
		// KernelMatrix shapes.
		{"KernelMatrix column mismatch", func() error {
			_, err := KernelMatrix(g, x, randData(rng, 4, 3, 1))
			return err
		}, isErr(ErrShape)},
		{"KernelMatrix empty y", func() error { _, err := KernelMatrix(g, x, &mat.Dense{}); return err }, isErr(ErrEmpty)},
		{"KernelMatrix NaN", func() error {
			xb := mat.DenseCopyOf(x)
			xb.Set(2, 1, math.NaN())
			_, err := KernelMatrix(g, xb, nil)
			return err
		}, notFiniteErr("x", 2, 1, math.NaN())},
		{"KernelMatrix nil x", func() error { _, err := KernelMatrix(g, nil, nil); return err }, isErr(ErrEmpty)},
	}
	for _, c := range cases {
		wantErr(t, c.name, callNoPanic(c.call), c.want)
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
		IterConfig: IterConfig{Iter: 50, StepSize: step, Plain: true}}); err != nil {
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
	_, err := KernelMatrix(g, x, nil)
	wantErr(t, "KernelMatrix", err, tooLargeErr("Nyström"))
	for name, e := range map[string]Estimator{
		"KRLS":          KRLSConfig{Kernel: g, Lambda: 1e-3},
		"KOLS":          KOLSConfig{Kernel: g},
		"EarlyStopping": EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: 3}},
	} {
		err := callNoPanic(func() error { _, err := e.Fit(bg, x, y, nil); return err })
		wantErr(t, name, err, tooLargeErr("Nyström"))
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

// TestEntryPointErrorTypes calls every public entry point with a wrong
// shape and with a bad setting and checks the error's type only:
// errors.Is(err, ErrShape) for the shape, and for the setting a *ParamError
// (errors.As) whose Name is the setting, as a caller such as the command
// maps it.
func TestEntryPointErrorTypes(t *testing.T) {
	bg := context.Background()
	rng := newRNG(86)
	x := randData(rng, 20, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	x2 := randData(rng, 5, 2, 1) // two columns where three are expected
	short := y[:7]
	g := GaussianKernel{Sigma: 1}
	nc := NystromConfig{M: 5}
	rf, err := NewRandomFourier(3, 8, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	rf2, _ := NewRandomFourier(2, 8, 1, 1) // for inputs of 2 columns
	relu, _ := NewReLUNetwork(3, []int{4}, 1)
	fit, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	ny, err := NewNystrom(g, x, []int{0, 1, 2, 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	pop, err := NewSGMPopulation(g, x, y)
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, 20)
	for i := range q {
		q[i] = 1.0 / 20
	}
	prev := &Selection{Index: []int{1, 2}, Prob: []float64{0.1}, Weight: []float64{1, 1}} // one probability short
	shape := isErr(ErrShape)

	cases := []struct {
		name string
		call func() error
		want errKind
	}{
		// Estimators: y of another length, then a setting out of range.
		{"KRLS shape", func() error { _, err := KRLS(bg, x, short, KRLSConfig{Kernel: g, Lambda: 1}); return err }, shape},
		{"KRLS Lambda", func() error { _, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Lambda: -1}); return err }, paramErr("lambda", -1.0)},
		{"KRLS Holdout.Fraction", func() error {
			_, err := KRLS(bg, x, y, KRLSConfig{Kernel: g, Holdout: Holdout{Fraction: 2}})
			return err
		}, paramErr("Holdout.Fraction", 2.0)},
		{"KOLS shape", func() error { _, err := KOLS(bg, x, short, KOLSConfig{Kernel: g}); return err }, shape},
		{"KOLS Tol", func() error { _, err := KOLS(bg, x, y, KOLSConfig{Kernel: g, Tol: -1}); return err }, paramErr("KOLS tolerance", -1.0)},
		{"EarlyStopping shape", func() error {
			_, err := EarlyStopping(bg, x, short, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: 2}})
			return err
		}, shape},
		{"EarlyStopping Iter", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: -1}})
			return err
		}, paramErr("IterConfig.Iter", -1)},
		{"EarlyStopping Threshold", func() error {
			_, err := EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Threshold: math.NaN()}})
			return err
		}, paramErr("IterConfig.Threshold", math.NaN())},
		{"NKRLS shape", func() error {
			_, err := NKRLS(bg, x, short, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: nc})
			return err
		}, shape},
		{"NKRLS M", func() error {
			_, err := NKRLS(bg, x, y, NKRLSConfig{Kernel: g, Lambda: 1, Nystrom: NystromConfig{M: 21}})
			return err
		}, paramErr("NystromConfig.M", 21)},
		{"NYTRO shape", func() error { _, err := NYTRO(bg, x, short, NYTROConfig{Kernel: g, Nystrom: nc}); return err }, shape},
		{"NYTRO MaxIter", func() error {
			_, err := NYTRO(bg, x, y, NYTROConfig{Kernel: g, Nystrom: nc, IterConfig: IterConfig{MaxIter: -1}})
			return err
		}, paramErr("IterConfig.MaxIter", -1)},
		{"LinearRLS shape", func() error { _, err := LinearRLS(bg, x, y, LinearRLSConfig{Features: rf2, Lambda: 1}); return err }, shape},
		{"LinearRLS Lambdas", func() error { _, err := LinearRLS(bg, x, y, LinearRLSConfig{Lambdas: []float64{}}); return err }, paramErr("Lambdas")},
		{"LinearGD shape", func() error {
			_, err := LinearGD(bg, x, short, LinearGDConfig{IterConfig: IterConfig{Iter: 2}})
			return err
		}, shape},
		{"LinearGD StepSize", func() error {
			_, err := LinearGD(bg, x, y, LinearGDConfig{IterConfig: IterConfig{StepSize: -1}})
			return err
		}, paramErr("step size", -1.0)},
		{"SGM shape", func() error { _, err := SGM(bg, x, short, SGMConfig{Kernel: g}); return err }, shape},
		{"SGM Decay", func() error { _, err := SGM(bg, x, y, SGMConfig{Kernel: g, Decay: 2}); return err }, paramErr("SGMConfig.Decay", 2.0)},
		{"SGM StepSize", func() error { _, err := SGM(bg, x, y, SGMConfig{Kernel: g, StepSize: -1}); return err }, paramErr("SGMConfig.StepSize", -1.0)},
		{"Tune shape", func() error { _, err := Tune(bg, x, short, TuneConfig{}); return err }, shape},
		{"Tune Criterion", func() error { _, err := Tune(bg, x, y, TuneConfig{Criterion: "aic"}); return err }, paramErr("TuneConfig.Criterion")},
		// Models and feature maps: new inputs of the wrong width.
		{"Model.Predict shape", func() error { _, err := fit.Model.Predict(x2); return err }, shape},
		{"Model.Predict kernel", func() error {
			_, err := (&Model{Kernel: GaussianKernel{Sigma: -1}, Centers: x, Coef: y}).Predict(x)
			return err
		}, paramErr("Gaussian kernel sigma", -1.0)},
		{"Model.Predict corrupt", func() error { _, err := (&Model{Kernel: g, Centers: x, Coef: short}).Predict(x); return err }, shape},
		{"KernelMatrix shape", func() error { _, err := KernelMatrix(g, x, x2); return err }, shape},
		{"KernelMatrix kernel", func() error { _, err := KernelMatrix(nil, x, nil); return err }, paramErr("Kernel")},
		{"KernelMatrix NaN y", func() error {
			yb := mat.DenseCopyOf(x)
			yb.Set(3, 2, math.NaN())
			_, err := KernelMatrix(g, x, yb)
			return err
		}, notFiniteErr("y", 3, 2, math.NaN())},
		{"Nystrom.Features shape", func() error { _, err := ny.Features(x2); return err }, shape},
		{"NewNystrom tol", func() error { _, err := NewNystrom(g, x, []int{1}, -1); return err }, paramErr("Nyström tolerance", -1.0)},
		{"NewNystrom index", func() error { _, err := NewNystrom(g, x, []int{1, 20}, 0); return err }, paramErr("idx[1]", 20)},
		{"NystromCenters m", func() error { _, err := NystromCenters(x, 21, nil, 1); return err }, paramErr("NystromConfig.M", 21)},
		{"LeverageCenters m", func() error { _, err := NystromCenters(x, 0, LeverageCenters{}, 1); return err }, paramErr("NystromConfig.M", 0)},
		{"RandomFourier.Features shape", func() error { _, err := rf.Features(x2); return err }, shape},
		{"NewRandomFourier d", func() error { _, err := NewRandomFourier(0, 8, 1, 1); return err }, paramErr("random features d", 0)},
		{"NewRandomFourier D", func() error { _, err := NewRandomFourier(3, 0, 1, 1); return err }, paramErr("random features D", 0)},
		{"ReLUNetwork.Features shape", func() error { _, err := relu.Features(x2); return err }, shape},
		{"NewReLUNetwork widths", func() error { _, err := NewReLUNetwork(3, []int{4, 0}, 1); return err }, paramErr("ReLU network widths[1]", 0)},
		{"FeatureMap rows", func() error {
			_, err := LinearRLS(bg, x, y, LinearRLSConfig{Features: crRowsFeatures{1}, Lambda: 1})
			return err
		}, shape},
		{"NewSGMPopulation shape", func() error { _, err := NewSGMPopulation(g, x, short); return err }, shape},
		{"SGMPopulation.Decompose shape", func() error { _, err := pop.Decompose(bg, x2, short[:5], SGMDecompositionConfig{}); return err }, shape},
		{"SGMPopulation.Decompose Draws", func() error {
			_, err := pop.Decompose(bg, x, y, SGMDecompositionConfig{Draws: -1})
			return err
		}, paramErr("SGMDecompositionConfig.Draws", -1)},
		// Scores, designs and selectors.
		{"LeverageScores lambda_q", func() error { _, err := LeverageScores(bg, g, x, -1); return err }, paramErr("lambda_q", -1.0)},
		{"FeatureLeverageScores shape", func() error { _, err := FeatureLeverageScores(bg, rf2, x, 1e-3, 0); return err }, shape},
		{"FeatureLeverageScores Block", func() error { _, err := FeatureLeverageScores(bg, rf, x, 1e-3, -1); return err }, paramErr("Block", -1)},
		{"ApproxLeverageScores Dict", func() error {
			_, err := ApproxLeverageScores(bg, g, x, 1e-3, BLESSConfig{Dict: -1})
			return err
		}, paramErr("BLESSConfig.Dict", -1)},
		{"ApproxLeverageScores Block", func() error {
			_, err := ApproxLeverageScores(bg, g, x, 1e-3, BLESSConfig{Block: -1})
			return err
		}, paramErr("BLESSConfig.Block", -1)},
		{"EffectiveDimensions shape", func() error { _, err := EffectiveDimensions(bg, nil, rf2, x, []float64{1e-3}); return err }, shape},
		{"EffectiveDimensions lambda", func() error { _, err := EffectiveDimensions(bg, g, nil, x, []float64{0}); return err }, paramErr("lambda", 0.0)},
		{"ProjectLearningCurve shape", func() error {
			_, err := ProjectLearningCurve(bg, randData(rng, 40, 3, 1), make([]float64, 40), q, LearningCurveConfig{Kernel: g, Lambda: 1})
			return err
		}, shape},
		{"ProjectLearningCurve Holdout", func() error {
			q40 := make([]float64, 40)
			for i := range q40 {
				q40[i] = 1.0 / 40
			}
			_, err := ProjectLearningCurve(bg, randData(rng, 40, 3, 1), make([]float64, 40), q40, LearningCurveConfig{Kernel: g, Lambda: 1, Holdout: 2})
			return err
		}, paramErr("LearningCurveConfig.Holdout", 2.0)},
		{"SummarizeScores NaN", func() error { _, err := SummarizeScores([]float64{1, math.NaN()}); return err }, notFiniteErr("score", 1, -1, math.NaN())},
		{"CREDDistribution score", func() error { _, err := CREDDistribution([]float64{1, -1}); return err }, paramErr("score[1]", -1.0)},
		{"InclusionProbabilities budget", func() error { _, err := InclusionProbabilities(q, 0); return err }, paramErr("budget", 0)},
		{"InclusionProbabilities NaN", func() error {
			_, err := InclusionProbabilities([]float64{0.5, math.NaN()}, 1)
			return err
		}, notFiniteErr("q", 1, -1, math.NaN())},
		{"SampleDesign shape", func() error { _, err := SampleDesign(q, nil, 3, WithReplacement, prev, 1); return err }, shape},
		{"SampleDesign Design", func() error { _, err := SampleDesign(q, nil, 3, Design(9), nil, 1); return err }, paramErr("Design", Design(9))},
		{"SampleDesign q", func() error { _, err := SampleDesign([]float64{1, -1}, nil, 1, WithReplacement, nil, 1); return err }, paramErr("q[1]", -1.0)},
		{"DrawSelection budget", func() error { _, err := DrawSelection(q, 0, 1); return err }, paramErr("budget", 0)},
		{"DrawSelection sum", func() error { _, err := DrawSelection([]float64{0.5, 0.2}, 1, 1); return err }, paramErr("q")},
		{"GatherRows idx", func() error { _, err := GatherRows(x, []int{20}); return err }, paramErr("idx[0]", 20)},
		{"UniformSelector shape", func() error { _, err := (UniformSelector{Previous: prev}).Select(bg, x, 3, 1); return err }, shape},
		{"UniformSelector budget", func() error { _, err := (UniformSelector{}).Select(bg, x, 0, 1); return err }, paramErr("budget", 0)},
		{"CREDSelector shape", func() error { _, err := (CREDSelector{Features: rf2}).Select(bg, x, 3, 1); return err }, shape},
		{"CREDSelector Kernel", func() error { _, err := (CREDSelector{}).Select(bg, x, 3, 1); return err }, paramErr("CREDSelector.Kernel")},
		{"CREDSelector.Scores lambda_q", func() error { _, err := (CREDSelector{Kernel: g, LambdaQ: -1}).Scores(bg, x); return err }, paramErr("lambda_q", -1.0)},
		{"GreedySelector shape", func() error {
			_, err := (GreedySelector{Previous: &Selection{Index: []int{1}, Batch: []int{0, 0}}}).Select(bg, x, 3, 1)
			return err
		}, shape},
		{"GreedySelector budget", func() error { _, err := (GreedySelector{}).Select(bg, x, 21, 1); return err }, paramErr("budget", 21)},
		// Parsers and process settings.
		{"ParseSGMPreset", func() error { _, err := ParseSGMPreset("fast"); return err }, paramErr("SGMConfig.Preset", `"fast"`)},
		{"ParseMemoryLimit", func() error { _, err := ParseMemoryLimit("lots"); return err }, paramErr("memory limit")},
		{"UseBLAS", func() error { return UseBLAS("no-such-blas") }, paramErr("BLAS backend", `"no-such-blas"`)},
	}
	for _, c := range cases {
		wantErr(t, c.name, callNoPanic(c.call), c.want)
	}
}

// TestSingularError checks that a system that is not numerically positive
// definite at the lambda tried is a *SingularError naming the setting.
func TestSingularError(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{1, 1, 1, 1}) // K is all ones: rank 1
	y := []float64{1, 2, 3, 4}
	g := GaussianKernel{Sigma: 1}
	for _, c := range []struct {
		name    string
		err     error
		setting string
	}{
		{"KRLS", second(KRLS(t.Context(), x, y, KRLSConfig{Kernel: g, Lambda: 1e-300})), "lambda"},
		{"LeverageScores", second(LeverageScores(t.Context(), g, x, 1e-300)), "lambda_q"},
	} {
		var se *SingularError
		if !errors.As(c.err, &se) || se.Setting != c.setting {
			t.Errorf("%s: got %v (%T), want a *SingularError on %s", c.name, c.err, c.err, c.setting)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// RMSE on mismatched or empty input is NaN, not a panic; on matched input
// it is the formula.
func TestRMSEShortInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pred, y []float64
	}{
		{"short predictions", []float64{1}, []float64{1, 2}},
		{"long predictions", []float64{1, 2, 3}, []float64{1, 2}},
		{"empty", nil, nil},
	} {
		var got float64
		if err := callNoPanic(func() error { got = RMSE(tc.pred, tc.y); return nil }); err != nil {
			t.Errorf("RMSE, %s: %v", tc.name, err)
		} else if !math.IsNaN(got) {
			t.Errorf("RMSE, %s = %v, want NaN", tc.name, got)
		}
	}
	if got, want := RMSE([]float64{1, 3}, []float64{2, 1}), math.Sqrt(2.5); got != want {
		t.Errorf("RMSE = %v, want %v", got, want)
	}
}

// CheckData and CheckMatrix, the input checks exported for methods
// outside the package: each problem is named by its type and input.
func TestCheckData(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	bad := mat.DenseCopyOf(x)
	bad.Set(1, 0, math.Inf(-1))
	if err := CheckData(x, []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := CheckData(x, nil); err != nil {
		t.Fatalf("nil y: %v", err)
	}
	for _, c := range []struct {
		name string
		err  error
		want errKind
	}{
		{"nil x", CheckData(nil, nil), isErr(ErrEmpty)},
		{"Inf x", CheckData(bad, nil), notFiniteErr("x", 1, 0, math.Inf(-1))},
		{"short y", CheckData(x, []float64{1, 2}), isErr(ErrShape)},
		{"NaN y", CheckData(x, []float64{1, math.NaN(), 3}), notFiniteErr("y", 1, -1, math.NaN())},
		{"named matrix", CheckMatrix(bad, "pool"), notFiniteErr("pool", 1, 0, math.Inf(-1))},
		{"empty matrix", CheckMatrix(&mat.Dense{}, "pool"), isErr(ErrEmpty)},
	} {
		wantErrKind(t, c.name, c.err, c.want)
	}
}
