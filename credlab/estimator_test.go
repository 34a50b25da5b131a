package credlab

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// functionForm fits e by the function of the same name, with the weights
// in the config: the form the Estimator must reproduce bit for bit.
func functionForm(ctx context.Context, e Estimator, x *mat.Dense, y, w []float64) (*Fit, error) {
	switch c := e.(type) {
	case KRLSConfig:
		c.Weights = w
		return KRLS(ctx, x, y, c)
	case KOLSConfig:
		return KOLS(ctx, x, y, c)
	case EarlyStoppingConfig:
		c.Weights = w
		return EarlyStopping(ctx, x, y, c)
	case NKRLSConfig:
		c.Weights = w
		return NKRLS(ctx, x, y, c)
	case NYTROConfig:
		c.Weights = w
		return NYTRO(ctx, x, y, c)
	case LinearRLSConfig:
		c.Weights = w
		return LinearRLS(ctx, x, y, c)
	case LinearGDConfig:
		c.Weights = w
		return LinearGD(ctx, x, y, c)
	case SGMConfig:
		f, err := SGM(ctx, x, y, c)
		if err != nil {
			return nil, err
		}
		return &f.Fit, nil
	case TuneConfig:
		c.Weights = w
		f, err := Tune(ctx, x, y, c)
		if err != nil {
			return nil, err
		}
		return f.Fit, nil
	}
	return nil, fmt.Errorf("no function form for %T", e)
}

// zeroEstimators is every Estimator at its zero value: the contract's
// defaults need no field set.
var zeroEstimators = map[string]Estimator{
	"KRLS": KRLSConfig{}, "KOLS": KOLSConfig{}, "EarlyStopping": EarlyStoppingConfig{},
	"NKRLS": NKRLSConfig{}, "NYTRO": NYTROConfig{}, "LinearRLS": LinearRLSConfig{},
	"LinearGD": LinearGDConfig{}, "SGM": SGMConfig{}, "Tune": TuneConfig{},
}

// takesWeights reports whether the named estimator accepts weights.
func takesWeights(name string) bool { return name != "KOLS" && name != "SGM" }

// Every config at its zero value fits through the contract, on a
// *mat.Dense and on another mat.Matrix alike, and gives the function
// form's result bit for bit.
func TestEstimatorZeroConfigs(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(25)
	x := randData(rng, 60, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	w := crWeights(rng, 60, 0.5, 2)
	xt := mat.DenseCopyOf(x.T())
	asMatrix := mat.Transpose{Matrix: xt} // equal to x, not a *mat.Dense
	for name, e := range zeroEstimators {
		var ws []float64
		if takesWeights(name) {
			ws = w
		}
		want, err := functionForm(ctx, e, x, y, ws)
		if err != nil {
			t.Fatalf("%s zero config, function form: %v", name, err)
		}
		for _, in := range []struct {
			what string
			x    mat.Matrix
		}{{"*mat.Dense", x}, {"mat.Transpose", asMatrix}} {
			got, err := e.Fit(ctx, in.x, y, ws)
			if err != nil {
				t.Fatalf("%s zero config on %s: %v", name, in.what, err)
			}
			if diff := crSameFit(want, got); diff != "" {
				t.Errorf("%s zero config on %s: the contract changes the %s", name, in.what, diff)
			}
		}
	}
}

// The configs outside the Estimator contract at their zero value: each one
// runs with defaults, or its doc names the required field and the zero
// value is a *ParamError naming it (never a panic).
func TestOtherZeroConfigs(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(26)
	x := randData(rng, 60, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	g := GaussianKernel{Sigma: 0.5}
	pop, err := NewSGMPopulation(g, x, y)
	if err != nil {
		t.Fatal(err)
	}
	train, err := NewGramStats(3)
	if err != nil {
		t.Fatal(err)
	}
	if err := train.AddRows(ctx, RawFeatures{Bias: true}, x, y, nil); err != nil {
		t.Fatal(err)
	}
	ones := make([]float64, 60)
	for i := range ones {
		ones[i] = 1
	}
	q, err := CREDDistribution(ones)
	if err != nil {
		t.Fatal(err)
	}
	// want is nil when the zero config runs, else the error of its
	// required field (named in the config's doc).
	for _, tc := range []struct {
		name string
		want *errKind
		run  func() error
	}{
		{"BLESSConfig", nil, func() error { _, err := ApproxLeverageScores(ctx, g, x, 1e-3, BLESSConfig{}); return err }},
		{"SGMDecompositionConfig", nil, func() error { _, err := pop.Decompose(ctx, x, y, SGMDecompositionConfig{}); return err }},
		{"GramFitConfig (Features)", ptr(paramErr("GramFitConfig.Features")), func() error { _, err := RidgeGram(ctx, train, nil, GramFitConfig{}); return err }},
		{"LearningCurveConfig (Kernel)", ptr(paramErr("Kernel")), func() error { _, err := ProjectLearningCurve(ctx, x, y, q, LearningCurveConfig{}); return err }},
		{"LearningCurveConfig (Lambda)", ptr(paramErr("lambda")), func() error {
			_, err := ProjectLearningCurve(ctx, x, y, q, LearningCurveConfig{Kernel: g})
			return err
		}},
	} {
		err := callNoPanic(tc.run)
		switch {
		case tc.want == nil && err != nil:
			t.Errorf("%s{}: %v", tc.name, err)
		case tc.want != nil:
			wantErrKind(t, tc.name+" zero", err, *tc.want)
		}
	}
}

func ptr(k errKind) *errKind { return &k }

// The weighted solvers through the contract equal their function forms
// with the weights in the config, bit for bit.
func TestEstimatorMatchesFunctionForm(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(52)
	x := randData(rng, 40, 2, 1)
	y := smoothTargets(rng, x, 0.2)
	w := crWeights(rng, 40, 0.5, 2)
	for _, holdout := range []bool{false, true} {
		for name, e := range crEstimators(holdout) {
			want, err := functionForm(ctx, e, x, y, w)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got, err := e.Fit(ctx, x, y, w)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := crSameFit(want, got); diff != "" {
				t.Errorf("%s (hold-out %v): the contract changes the %s", name, holdout, diff)
			}
		}
	}
}

// Bad calls of the contract are typed errors, never panics: no data,
// weights to a method without them, weights in two places.
func TestEstimatorErrors(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(7)
	x := randData(rng, 20, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	w := crWeights(rng, 20, 0.5, 2)
	for name, e := range zeroEstimators {
		for _, in := range []struct {
			what string
			x    mat.Matrix
		}{{"nil", nil}, {"nil *mat.Dense", (*mat.Dense)(nil)}, {"empty *mat.Dense", &mat.Dense{}}} {
			err := callNoPanic(func() error { _, err := e.Fit(ctx, in.x, y, nil); return err })
			wantErrKind(t, name+" on "+in.what, err, isErr(ErrEmpty))
		}
		if !takesWeights(name) {
			_, err := e.Fit(ctx, x, y, w)
			wantErrKind(t, name+" with weights", err, paramErr("weights"))
		}
	}
	both := map[string]Estimator{
		"KRLS":          KRLSConfig{Weights: w},
		"EarlyStopping": EarlyStoppingConfig{Weights: w},
		"NKRLS":         NKRLSConfig{Weights: w},
		"NYTRO":         NYTROConfig{Weights: w},
		"LinearRLS":     LinearRLSConfig{Weights: w},
		"LinearGD":      LinearGDConfig{Weights: w},
		"Tune":          TuneConfig{Weights: w},
	}
	for name, e := range both {
		_, err := e.Fit(ctx, x, y, w)
		wantErrKind(t, name+" with weights in the config and the argument", err, paramErr("Weights"))
		// The config's weights alone are the function form's.
		got, err := e.Fit(ctx, x, y, nil)
		if err != nil {
			t.Fatalf("%s with the config's weights: %v", name, err)
		}
		want, err := functionForm(ctx, e, x, y, w)
		if err != nil {
			t.Fatal(err)
		}
		if diff := crSameFit(want, got); diff != "" {
			t.Errorf("%s with the config's weights: the %s differ", name, diff)
		}
	}
}
