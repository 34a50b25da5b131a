package credlab

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// Estimator is the contract every regression method of this package
// implements: fit a model to the rows of x (n x d), the targets y (n
// values) and optional importance weights w (nil: all weights 1; else n
// positive values, as a Selection's Weight), stopping when ctx is
// cancelled. The method's settings are the receiver, a Config struct whose
// zero value means documented defaults; the data are the arguments.
//
// KRLSConfig, KOLSConfig, EarlyStoppingConfig, NKRLSConfig, NYTROConfig,
// LinearRLSConfig, LinearGDConfig, SGMConfig and TuneConfig (the automatic
// method) implement it; each Fit calls the function of the same name
// (KRLS, ..., Tune) and returns its result bit for bit.
//
// x is a mat.Matrix: a *mat.Dense is used as it is, without a copy (the
// solvers read its rows in place; TuneConfig's search copies it once more
// when it maps skewed columns); any other Matrix is copied once into a
// *mat.Dense. Neither x, y nor w is modified.
//
// Weights: the configs keep their Weights fields for the function forms
// (KRLS(ctx, x, y, KRLSConfig{Weights: w})); through Fit, pass the weights
// as w. A config with Weights set and a non-nil w is a *ParamError named
// "Weights", since the two would disagree; a config with Weights and a nil
// w fits with the config's weights, as the function does. KOLS and SGM
// take no weights: a non-nil w is a *ParamError named "weights".
type Estimator interface {
	Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error)
}

var (
	_ Estimator = KRLSConfig{}
	_ Estimator = KOLSConfig{}
	_ Estimator = EarlyStoppingConfig{}
	_ Estimator = NKRLSConfig{}
	_ Estimator = NYTROConfig{}
	_ Estimator = LinearRLSConfig{}
	_ Estimator = LinearGDConfig{}
	_ Estimator = SGMConfig{}
	_ Estimator = TuneConfig{}
)

// dense returns x as a *mat.Dense: x itself when it is one (a nil x gives
// a nil *mat.Dense, which the checks report as empty), otherwise a copy.
func dense(x mat.Matrix) *mat.Dense {
	switch m := x.(type) {
	case nil:
		return nil
	case *mat.Dense:
		return m
	}
	if r, c := x.Dims(); r == 0 || c == 0 {
		return nil
	}
	return mat.DenseCopyOf(x)
}

// weightsOf merges the weights argument of Fit with a config's Weights
// field.
func weightsOf(method string, field, w []float64) ([]float64, error) {
	switch {
	case w == nil:
		return field, nil
	case field != nil:
		return nil, &ParamError{Name: "Weights", Value: "set in " + method + " and passed to Fit",
			Want: "the weights in one place: the argument of Fit"}
	}
	return w, nil
}

// noWeights is the check of a method that takes no weights.
func noWeights(method string, w []float64) error {
	if w != nil {
		return &ParamError{Name: "weights", Value: len(w), Want: "nil: " + method + " takes no importance weights"}
	}
	return nil
}

// Fit fits KRLS (Estimator).
func (c KRLSConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("KRLSConfig", c.Weights, w); err != nil {
		return nil, err
	}
	return KRLS(ctx, dense(x), y, c)
}

// Fit fits KOLS (Estimator); w must be nil.
func (c KOLSConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	if err := noWeights("KOLS", w); err != nil {
		return nil, err
	}
	return KOLS(ctx, dense(x), y, c)
}

// Fit fits EarlyStopping (Estimator).
func (c EarlyStoppingConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("EarlyStoppingConfig", c.Weights, w); err != nil {
		return nil, err
	}
	return EarlyStopping(ctx, dense(x), y, c)
}

// Fit fits NKRLS (Estimator).
func (c NKRLSConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("NKRLSConfig", c.Weights, w); err != nil {
		return nil, err
	}
	return NKRLS(ctx, dense(x), y, c)
}

// Fit fits NYTRO (Estimator).
func (c NYTROConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("NYTROConfig", c.Weights, w); err != nil {
		return nil, err
	}
	return NYTRO(ctx, dense(x), y, c)
}

// Fit fits LinearRLS (Estimator).
func (c LinearRLSConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("LinearRLSConfig", c.Weights, w); err != nil {
		return nil, err
	}
	return LinearRLS(ctx, dense(x), y, c)
}

// Fit fits LinearGD (Estimator).
func (c LinearGDConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("LinearGDConfig", c.Weights, w); err != nil {
		return nil, err
	}
	return LinearGD(ctx, dense(x), y, c)
}

// Fit fits SGM (Estimator); w must be nil. The result is the embedded Fit
// of the *SGMFit, with Fit.Passes set; call SGM for the rest of the record.
func (c SGMConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	if err := noWeights("SGM", w); err != nil {
		return nil, err
	}
	f, err := SGM(ctx, dense(x), y, c)
	if err != nil {
		return nil, err
	}
	return &f.Fit, nil
}

// Fit runs Tune, the automatic method (Estimator), and returns the final
// fit (TuneFit.Fit); call Tune for the search record and the Choice.
func (c TuneConfig) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*Fit, error) {
	var err error
	if c.Weights, err = weightsOf("TuneConfig", c.Weights, w); err != nil {
		return nil, err
	}
	tf, err := Tune(ctx, dense(x), y, c)
	if err != nil {
		return nil, err
	}
	return tf.Fit, nil
}
