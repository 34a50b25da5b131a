package credlab

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// LinearRLSConfig configures ridge regression in a feature space.
type LinearRLSConfig struct {
	// Features maps the inputs; default RawFeatures{} (the columns of x).
	Features FeatureMap
	// Lambda, when positive, fixes lambda and fits on all rows; otherwise
	// lambda is chosen from Lambdas (default LogGrid(1e-15, 1, 100)) on a
	// hold-out split.
	Lambda  float64
	Lambdas []float64
	Holdout Holdout
	// Weights, if not nil, are per-row importance weights w_i > 0.
	Weights  []float64
	Progress func(done, total int)
}

// LinearRLS fits beta = (Phi^T W Phi + lambda n I)^-1 Phi^T W y, ridge
// regression on the features Phi (n x D) with importance weights W (the
// analytic solution of the CRED paper's Algorithm 2 with random features).
// The rows stream through their Gram statistics (GramStats): it costs
// O(n D^2 + D^3/3 per lambda), or one O(10/3 D^3) reduction and O(D^2) per
// lambda for grids of triBreakEven or more values; memory O(D^2 + block D).
func LinearRLS(ctx context.Context, x *mat.Dense, y []float64, cfg LinearRLSConfig) (*Fit, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg.Weights, len(y)); err != nil {
		return nil, err
	}
	h, grid, err := LambdaGrid("LinearRLS", cfg.Lambda, cfg.Lambdas, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	fm := cfg.Features
	if fm == nil {
		fm = RawFeatures{}
	}
	fs, err := featureSplitOf(x, y, cfg.Weights, fm, h)
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "LinearRLS", Rank: fs.dim}
	beta, err := fs.ridge(ctx, grid, fit, cfg.Progress)
	if err != nil {
		return nil, err
	}
	fit.Model = &Model{Features: fm, Coef: beta}
	return fit, nil
}

// LinearGDConfig configures gradient descent in a feature space.
type LinearGDConfig struct {
	// Features maps the inputs; default RawFeatures{}.
	Features FeatureMap
	// Weights, if not nil, are per-row importance weights w_i > 0.
	Weights []float64
	IterConfig
}

// LinearGD runs beta_t = beta_{t-1} - (gamma/n) Phi^T W (Phi beta_{t-1} - y)
// from beta_0 = 0 with early stopping: the CRED paper's Algorithm 2 (lines
// 5-9) with any feature map. O(n D) per step, O(n D) memory; in Gram form
// (when the steps number at least D/8, or Phi does not fit the memory
// limit) O(n D^2) once with the rows streamed through GramStats, then
// O(D^2) per step.
func LinearGD(ctx context.Context, x *mat.Dense, y []float64, cfg LinearGDConfig) (*Fit, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg.Weights, len(y)); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	fm := cfg.Features
	if fm == nil {
		fm = RawFeatures{}
	}
	fs, err := featureSplitOf(x, y, cfg.Weights, fm, cfg.holdout())
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "LinearGD", Rank: fs.dim, Model: &Model{Features: fm}}
	if err := fs.gd(ctx, cfg.IterConfig, fit, nil); err != nil {
		return nil, err
	}
	return fit, nil
}

// featureSplitOf splits the rows and maps them with fm, whose dimension
// it learns from the first row.
func featureSplitOf(x *mat.Dense, y, w []float64, fm FeatureMap, h Holdout) (*featureSplit, error) {
	fs, err := splitRows(x, y, w, h)
	if err != nil {
		return nil, err
	}
	_, d := x.Dims()
	f, err := mapFeatures(fm, fs.xt.Slice(0, 1, 0, d).(*mat.Dense), 0)
	if err != nil {
		return nil, err
	}
	fs.dim = f.RawMatrix().Cols
	fs.fill = func(dst, x *mat.Dense) error {
		f, err := mapFeatures(fm, x, fs.dim)
		if err == nil {
			dst.Copy(f)
		}
		return err
	}
	return fs, nil
}
