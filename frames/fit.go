package frames

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted model with everything Predict needs to map a frame's
// columns to the solver's inputs.
type Model struct {
	// Spec holds the settings used, resolved: Method is canonical and
	// Sigma is the bandwidth used (the median heuristic's value when the
	// spec left it zero).
	Spec Spec
	// Features are the input columns, in order; Columns the design
	// columns after one-hot encoding (equal to Features without string
	// columns).
	Features []string
	Columns  []string
	// OneHot holds the levels of each encoded string column.
	OneHot []Encoding
	// Mean and Scale standardize the design columns (nil unless
	// Spec.Standardize): a value v becomes (v - Mean[j]) / Scale[j].
	Mean, Scale []float64

	// Lambda and Iter are the chosen regularization (zero when unused),
	// ValRMSE the validation RMSE at that choice (NaN without hold-out),
	// and Rows the number of training rows after dropping missing values.
	Lambda  float64
	Iter    int
	ValRMSE float64
	Rows    int
	// Passes is the number of passes over the data at Iter (sgm only).
	Passes float64

	// Predictor is the fitted credlab model, on the design columns.
	Predictor *credlab.Model
	// Fit is the solver's full record (path, timing); nil for a model read
	// by Load.
	Fit *credlab.Fit
}

// Fit fits the model described by spec to the rows of df. df is not
// modified.
func Fit(df dataframe.DataFrame, spec Spec) (*Model, error) {
	return FitContext(context.Background(), df, spec)
}

// FitContext is Fit with cancellation.
func FitContext(ctx context.Context, df dataframe.DataFrame, spec Spec) (*Model, error) {
	if spec.Target == "" {
		return nil, fmt.Errorf("frames: Spec.Target is empty: name the column to predict")
	}
	mi, err := lookupMethod(spec.Method)
	if err != nil {
		return nil, err
	}
	p, err := prepare(df, &spec, "training")
	if err != nil {
		return nil, err
	}
	r, err := newRunner(ctx, p, spec, mi)
	if err != nil {
		return nil, err
	}
	fit, err := mi.run(r)
	if err != nil {
		return nil, err
	}
	return r.model(p, fit), nil
}

// runner holds one solver call's inputs.
type runner struct {
	ctx  context.Context
	mi   *methodInfo
	s    Spec // resolved
	x    *mat.Dense
	y, w []float64
	k    credlab.Kernel
	fm   credlab.FeatureMap // feature methods only
	sgm  *credlab.SGMFit    // the last sgm result, for its passes
}

// newRunner resolves the spec's defaults on the prepared data.
func newRunner(ctx context.Context, p *prepared, spec Spec, mi *methodInfo) (*runner, error) {
	spec.Method = mi.name
	r := &runner{ctx: ctx, mi: mi, s: spec, x: p.x, y: p.y, w: p.w}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	return r, nil
}

// resolve fills the sigma default and builds the kernel and feature map.
func (r *runner) resolve() error {
	s := &r.s
	if s.Sigma < 0 || math.IsNaN(s.Sigma) || math.IsInf(s.Sigma, 0) {
		return fmt.Errorf("frames: Sigma = %v: must be positive (or zero for the median heuristic)", s.Sigma)
	}
	if s.Sigma == 0 && usesSigma(s, r.mi) {
		s.Sigma = medianDistance(r.x)
	}
	if math.IsNaN(s.Threshold) || math.IsInf(s.Threshold, 0) {
		return fmt.Errorf("frames: Threshold = %v: must be finite", s.Threshold)
	}
	if r.mi.usesM && s.M <= 0 {
		return fmt.Errorf("frames: method %s needs Spec.M, the number of Nyström centers (got %d)", r.mi.name, s.M)
	}
	if s.M < 0 {
		return fmt.Errorf("frames: M = %d: must be positive", s.M)
	}
	sigma := s.Sigma
	if sigma == 0 {
		sigma = 1 // unused by the kernel
	}
	k, err := kernelOf(s, sigma)
	if err != nil {
		return err
	}
	r.k = k
	if r.mi.feature {
		fm, err := r.featureMap()
		if err != nil {
			return err
		}
		r.fm = fm
	}
	return nil
}

// featureMap builds the spec's feature map for the linear methods.
func (r *runner) featureMap() (credlab.FeatureMap, error) {
	s := &r.s
	_, d := r.x.Dims()
	m := s.M
	if m == 0 {
		m = 100
	}
	switch strings.ToLower(s.FeatureMap) {
	case "", "raw":
		s.FeatureMap = "raw"
		return credlab.RawFeatures{Bias: !s.NoBias}, nil
	case "fourier", "rff", "random-fourier":
		s.FeatureMap, s.M = "fourier", m
		return credlab.NewRandomFourier(d, m, s.Sigma, s.Seed)
	case "relu":
		s.FeatureMap = "relu"
		if len(s.Widths) == 0 {
			s.Widths = []int{500, 500, 500}
		}
		return credlab.NewReLUNetwork(d, s.Widths, s.Seed)
	case "nystrom":
		s.FeatureMap, s.M = "nystrom", m
		idx, err := credlab.NystromCenters(r.x, m, nil, s.Seed)
		if err != nil {
			return nil, err
		}
		return credlab.NewNystrom(r.k, r.x, idx, 0)
	}
	return nil, fmt.Errorf("frames: unknown feature map %q: choose raw, fourier, relu or nystrom", s.FeatureMap)
}

func (r *runner) holdout() credlab.Holdout {
	return credlab.Holdout{Fraction: r.s.Validation, Seed: r.s.Seed}
}

func (r *runner) iter() credlab.IterConfig {
	return credlab.IterConfig{StepSize: r.s.StepSize, Iter: r.s.Iters, MaxIter: r.s.MaxIter,
		Threshold: r.s.Threshold, Holdout: r.holdout(), Plain: r.s.Plain}
}

func (r *runner) nystrom() credlab.NystromConfig {
	return credlab.NystromConfig{M: r.s.M, Seed: r.s.Seed}
}

func runKRLS(r *runner) (*credlab.Fit, error) {
	return credlab.KRLS(r.ctx, r.x, r.y, credlab.KRLSConfig{Kernel: r.k, Lambda: r.s.Lambda,
		Lambdas: r.s.Lambdas, Holdout: r.holdout(), Weights: r.w})
}

func runKOLS(r *runner) (*credlab.Fit, error) {
	if r.w != nil {
		return nil, fmt.Errorf("frames: method kols takes no weights; use krls with a small Lambda")
	}
	return credlab.KOLS(r.ctx, r.x, r.y, credlab.KOLSConfig{Kernel: r.k})
}

func runEarlyStopping(r *runner) (*credlab.Fit, error) {
	return credlab.EarlyStopping(r.ctx, r.x, r.y, credlab.EarlyStoppingConfig{Kernel: r.k, Weights: r.w, IterConfig: r.iter()})
}

func runNKRLS(r *runner) (*credlab.Fit, error) {
	return credlab.NKRLS(r.ctx, r.x, r.y, credlab.NKRLSConfig{Kernel: r.k, Nystrom: r.nystrom(),
		Lambda: r.s.Lambda, Lambdas: r.s.Lambdas, Holdout: r.holdout(), Weights: r.w})
}

func runNYTRO(r *runner) (*credlab.Fit, error) {
	return credlab.NYTRO(r.ctx, r.x, r.y, credlab.NYTROConfig{Kernel: r.k, Nystrom: r.nystrom(), Weights: r.w, IterConfig: r.iter()})
}

func runLinearRLS(r *runner) (*credlab.Fit, error) {
	return credlab.LinearRLS(r.ctx, r.x, r.y, credlab.LinearRLSConfig{Features: r.fm, Lambda: r.s.Lambda,
		Lambdas: r.s.Lambdas, Holdout: r.holdout(), Weights: r.w})
}

// sgmPreset maps Spec.Preset to credlab's presets.
func sgmPreset(p string) (credlab.SGMPreset, error) {
	switch strings.ToLower(p) {
	case "", "minibatch", "mini-batch":
		return credlab.SGMMiniBatch, nil
	case "simple":
		return credlab.SGMSimple, nil
	case "batch":
		return credlab.SGMBatch, nil
	}
	return 0, fmt.Errorf("frames: unknown SGM preset %q: choose minibatch, simple or batch", p)
}

func runSGM(r *runner) (*credlab.Fit, error) {
	if r.w != nil {
		return nil, fmt.Errorf("frames: method sgm takes no weights; use earlystopping or nytro for a weighted fit")
	}
	p, err := sgmPreset(r.s.Preset)
	if err != nil {
		return nil, err
	}
	f, err := credlab.SGM(r.ctx, r.x, r.y, credlab.SGMConfig{Kernel: r.k, Preset: p, Batch: r.s.Batch,
		StepSize: r.s.StepSize, Decay: r.s.Decay, Passes: r.s.Passes, Iter: r.s.Iters,
		Threshold: r.s.Threshold, Holdout: r.holdout(), Seed: r.s.Seed})
	if err != nil {
		return nil, err
	}
	r.sgm = f
	return &f.Fit, nil
}

func runLinearGD(r *runner) (*credlab.Fit, error) {
	return credlab.LinearGD(r.ctx, r.x, r.y, credlab.LinearGDConfig{Features: r.fm, Weights: r.w, IterConfig: r.iter()})
}

// model wraps a fit with the design.
func (r *runner) model(p *prepared, fit *credlab.Fit) *Model {
	d := p.d
	passes := 0.0
	if r.sgm != nil {
		passes = r.sgm.Passes
	}
	return &Model{
		Passes:    passes,
		Spec:      r.s,
		Features:  d.features,
		Columns:   d.encoded,
		OneHot:    d.oneHot,
		Mean:      d.mean,
		Scale:     d.scale,
		Lambda:    fit.Lambda,
		Iter:      fit.Iter,
		ValRMSE:   fit.ValRMSE,
		Rows:      len(p.rows),
		Predictor: fit.Model,
		Fit:       fit,
	}
}

// design rebuilds the model's column mapping.
func (m *Model) design() *design {
	d := &design{features: m.Features, encoded: m.Columns, oneHot: m.OneHot, mean: m.Mean, scale: m.Scale, isString: map[int]int{}}
	k := 0
	for p, f := range m.Features {
		if k < len(m.OneHot) && m.OneHot[k].Column == f {
			d.isString[p] = k
			k++
		}
	}
	return d
}

// Predict returns a copy of df with a "prediction" column (replacing one
// of that name). Feature columns are matched by name; a missing one is an
// error naming it. Rows with a missing value get NaN when the model was
// fitted with DropNA, and are an error otherwise.
func Predict(m *Model, df dataframe.DataFrame) (dataframe.DataFrame, error) {
	p, err := m.PredictValues(df)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	out := df.Mutate(seriesOf(PredictionColumn, p))
	if out.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("frames: adding the prediction column: %w", out.Err)
	}
	return out, nil
}

// Predict is the function Predict as a method.
func (m *Model) Predict(df dataframe.DataFrame) (dataframe.DataFrame, error) { return Predict(m, df) }

// PredictValues returns the predictions for the rows of df.
func (m *Model) PredictValues(df dataframe.DataFrame) ([]float64, error) {
	if m == nil || m.Predictor == nil {
		return nil, fmt.Errorf("frames: predict with an empty model")
	}
	if err := checkFrame(df, "prediction"); err != nil {
		return nil, err
	}
	d := m.design()
	ex, err := d.extract(df, "", "", false)
	if err != nil {
		return nil, err
	}
	if ex.nNA > 0 && !m.Spec.DropNA {
		return nil, fmt.Errorf("frames: %s; the model was fitted without DropNA, so it cannot predict those rows", ex.missing)
	}
	out := make([]float64, df.Nrow())
	keep := keptRows(ex.na)
	if len(keep) > 0 {
		pred, err := m.Predictor.Predict(d.matrix(ex.cols, keep))
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = math.NaN()
		}
		for i, r := range keep {
			out[r] = pred[i]
		}
	} else {
		for i := range out {
			out[i] = math.NaN()
		}
	}
	return out, nil
}

// RMSE returns the root mean squared error of the model's predictions
// against the target column of df, over the rows without missing values.
func (m *Model) RMSE(df dataframe.DataFrame) (float64, error) {
	p, err := m.PredictValues(df)
	if err != nil {
		return 0, err
	}
	y, err := Column(df, m.Spec.Target)
	if err != nil {
		return 0, err
	}
	var pp, yy []float64
	for i, v := range y {
		if !math.IsNaN(v) && !math.IsNaN(p[i]) {
			pp, yy = append(pp, p[i]), append(yy, v)
		}
	}
	if len(yy) == 0 {
		return 0, fmt.Errorf("frames: no row with both a target and a prediction")
	}
	return credlab.RMSE(pp, yy), nil
}

// String summarizes the model in one line.
func (m *Model) String() string {
	if m == nil {
		return "<nil model>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s model of %q on %d columns", m.Spec.Method, m.Spec.Target, len(m.Columns))
	if m.Spec.Sigma > 0 {
		fmt.Fprintf(&b, ", sigma %.4g", m.Spec.Sigma)
	}
	if m.Lambda > 0 {
		fmt.Fprintf(&b, ", lambda %.3g", m.Lambda)
	}
	if m.Iter > 0 {
		fmt.Fprintf(&b, ", %d iterations", m.Iter)
	}
	if m.Passes > 0 {
		fmt.Fprintf(&b, " (%.3g passes)", m.Passes)
	}
	if !math.IsNaN(m.ValRMSE) {
		fmt.Fprintf(&b, ", validation RMSE %.4g", m.ValRMSE)
	}
	return b.String()
}
