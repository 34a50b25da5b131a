package frames

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted model with everything Predict needs to map a frame's
// columns to the solver's inputs.
type Model struct {
	// Spec holds the settings used, resolved: Method is canonical (the
	// method the automatic choice picked, "krls" or "nkrls"), Scale and
	// Selection are explicit, Sigma is the bandwidth used (searched, or the
	// median heuristic's value) and M the Nyström centers used.
	Spec Spec
	// Features are the input columns, in order; Columns the design
	// columns after one-hot encoding (equal to Features without string
	// columns). Columns left out as constant are not among them.
	Features []string
	Columns  []string
	// OneHot holds the levels of each encoded string column.
	OneHot []Encoding
	// Mean and Scale standardize the design columns (nil with Scale
	// "none"): a value v becomes (v - Mean[j]) / Scale[j].
	Mean, Scale []float64
	// Choice is the automatic method's record of what it chose and why;
	// nil for a named method.
	Choice *Choice
	// Warnings are what the user should know about the fit, in words:
	// columns left out, a search that ended at the edge of its grid, an
	// iterative method whose validation error was still falling at its
	// step cap, a constant target.
	Warnings []string

	// Lambda and Iter are the chosen regularization (zero when unused),
	// ValRMSE the validation RMSE at that choice (NaN without hold-out),
	// and Rows the number of training rows after dropping missing values.
	Lambda  float64
	Iter    int
	ValRMSE float64
	Rows    int
	// Passes is the number of passes over the data at Iter (sgm only).
	Passes float64

	// Predictor is the fitted credlab model, on the design columns; its
	// Intercept is the (weighted) mean of the training target (0 with
	// Spec.NoIntercept).
	Predictor *credlab.Model
	// Fit is the solver's full record (path, timing) and Tuning the
	// automatic search's (every point evaluated); nil for a model read by
	// LoadModel, Tuning nil for a named method.
	Fit    *credlab.Fit
	Tuning *credlab.TuneFit
}

// Choice records the automatic method's choice: the method and why, sigma,
// lambda, the Nyström centers, the selection criterion with its value at
// the choice (an estimate of the mean squared prediction error) and the
// RMSE it estimates, and how long the search took.
type Choice struct {
	Method  string  `json:"method"` // "krls" or "nkrls"
	Reason  string  `json:"reason"`
	Sigma   float64 `json:"sigma"`
	Lambda  float64 `json:"lambda"`
	M       int     `json:"m,omitempty"`
	Centers string  `json:"centers,omitempty"` // "uniform" or "leverage" (credlab.Choice.Centers)
	// Scales are the kernel's per-design-column scales (credlab.Choice.Scales;
	// nil for one shared scale); Model.Relevance lists them relative to the
	// largest.
	Scales []float64 `json:"scales,omitempty"`
	// NormalScores names the skewed design columns the model maps to
	// normal scores (credlab.Choice.Transform), nil when none.
	NormalScores []string `json:"normal_scores,omitempty"`
	OutOfTime    bool     `json:"out_of_time,omitempty"` // the time budget stopped the search
	// FoldRMSE is each cross-validation fold's held-out RMSE at the choice
	// (credlab.Choice.FoldRMSE; nil for other criteria).
	FoldRMSE []float64 `json:"fold_rmse,omitempty"`
	// PoolRMSE estimates the model's RMSE on the population the rows
	// represent (the pool, when they are a uniform or CRED sample with its
	// weights), with a 90% interval, from out-of-fold residuals
	// (credlab.Choice.PoolRMSE; nil when not computed).
	PoolRMSE *credlab.RMSEEstimate `json:"pool_rmse,omitempty"`
	// Curve is the learning curve measured on the same rows and projected
	// to 1.5 and 2 times them (credlab.Choice.Curve; nil when not
	// computed).
	Curve     *credlab.LearningCurve `json:"curve,omitempty"`
	Criterion string                 `json:"criterion"`
	Score     float64                `json:"score"`
	ValRMSE   float64                `json:"val_rmse"`
	Stages    []string               `json:"stages,omitempty"`
	Seconds   float64                `json:"seconds"`
}

// Fit fits the model described by spec to the rows of df. df is not
// modified.
func Fit(df dataframe.DataFrame, spec Spec) (*Model, error) {
	return FitContext(context.Background(), df, spec)
}

// FitContext is Fit with cancellation.
func FitContext(ctx context.Context, df dataframe.DataFrame, spec Spec) (*Model, error) {
	mi, crit, err := checkSpec(&spec)
	if err != nil {
		return nil, err
	}
	p, err := prepare(df, &spec, "training")
	if err != nil {
		return nil, err
	}
	if mi == nil {
		return fitAuto(ctx, p, spec, crit)
	}
	r, err := newRunner(ctx, p, spec, mi)
	if err != nil {
		return nil, err
	}
	fit, err := r.run()
	if err != nil {
		return nil, withWarnings(err, r.warns)
	}
	return r.model(p, fit), nil
}

// WarnedError is the error of a fit that failed after its settings drew
// warnings that may explain the failure, such as a Sigma far from the
// median distance between rows (the kernel matrix nearly the identity or
// nearly constant). Err is the failure, which errors.Is and errors.As see
// through; Warnings are the warnings a fitted Model would carry in
// Model.Warnings.
type WarnedError struct {
	Err      error
	Warnings []string
}

func (e *WarnedError) Error() string {
	return e.Err.Error() + " (warning: " + strings.Join(e.Warnings, "; warning: ") + ")"
}

func (e *WarnedError) Unwrap() error { return e.Err }

// withWarnings returns err in a *WarnedError with warns, err itself
// without warnings.
func withWarnings(err error, warns []string) error {
	if len(warns) == 0 {
		return err
	}
	return &WarnedError{Err: err, Warnings: warns}
}

// CheckSpec runs the checks of spec that need no data, the ones Fit runs
// before it reads a row: a Target named; the method and the settings that
// belong to it (Selection, Relevance, Kernel, FeatureMap, Centers, Preset);
// the ranges of Sigma, M and Threshold; no Weight for kols and sgm. Its
// error is the one Fit returns, a *credlab.ParamError naming the setting.
// A spec that passes can still fail on the data: a column missing, M
// beyond the rows, a solver's own checks.
func CheckSpec(spec Spec) error {
	_, _, err := checkSpec(&spec)
	return err
}

// checkSpec is CheckSpec on s, which it resolves as resolveSpec does; it
// returns the named method (nil for the automatic one) and the automatic
// method's criterion.
func checkSpec(s *Spec) (*methodInfo, credlab.Criterion, error) {
	if s.Target == "" {
		return nil, "", errNoTarget
	}
	mi, crit, err := resolveSpec(s)
	if err != nil || mi == nil {
		return mi, crit, err
	}
	r := &runner{mi: mi, s: *s}
	r.s.Method = mi.name
	return mi, crit, r.check()
}

// errNoTarget is the error of a Spec without Target.
var errNoTarget = &credlab.ParamError{Name: "Spec.Target", Value: `""`, Want: "the name of the column to predict"}

// isAuto reports whether a method name asks for the automatic method.
func isAuto(method string) bool {
	m := strings.ToLower(strings.TrimSpace(method))
	return m == "" || m == "auto"
}

// resolveSpec checks the method, scaling and selection settings of s and
// makes Scale and Selection explicit. It returns the named method (nil for
// the automatic one) and the automatic method's criterion.
func resolveSpec(s *Spec) (*methodInfo, credlab.Criterion, error) {
	var err error
	if s.Scale, err = resolveScale(s.Scale); err != nil {
		return nil, "", err
	}
	sel := strings.ToLower(strings.TrimSpace(s.Selection))
	if !isAuto(s.Method) {
		mi, err := lookupMethod(s.Method)
		if err != nil {
			return nil, "", err
		}
		if sel != "" && sel != string(credlab.CriterionHoldout) {
			return nil, "", &credlab.ParamError{Name: "Spec.Selection", Value: strconv.Quote(s.Selection),
				Want: fmt.Sprintf(`"" or holdout: method %s selects on a hold-out split; cv, gcv and loo apply to the automatic method (Method "")`, mi.name)}
		}
		s.Selection = string(credlab.CriterionHoldout)
		if s.Relevance != "" || s.TimeBudget != 0 || s.Transform != "" {
			return nil, "", &credlab.ParamError{Name: "Spec.Relevance", Value: fmt.Sprintf("%q, TimeBudget %v, Transform %q", s.Relevance, s.TimeBudget, s.Transform),
				Want: fmt.Sprintf("Relevance, TimeBudget and Transform unset: they belong to the automatic method (Method \"\"), not to method %s", mi.name)}
		}
		return mi, "", nil
	}
	var crit credlab.Criterion
	switch sel {
	case "", string(credlab.CriterionCV):
		crit = credlab.CriterionCV
	case string(credlab.CriterionGCV):
		crit = credlab.CriterionGCV
	case string(credlab.CriterionHoldout):
		crit = credlab.CriterionHoldout
	case string(credlab.CriterionLOO):
		crit = credlab.CriterionLOO
	default:
		return nil, "", &credlab.ParamError{Name: "Spec.Selection", Value: strconv.Quote(s.Selection), Want: "cv (the default), gcv, holdout or loo"}
	}
	s.Selection = string(crit)
	switch strings.ToLower(strings.TrimSpace(s.Relevance)) {
	case "", credlab.RelevanceAuto:
		s.Relevance = credlab.RelevanceAuto
	case credlab.RelevanceOff:
		s.Relevance = credlab.RelevanceOff
	default:
		return nil, "", &credlab.ParamError{Name: "Spec.Relevance", Value: strconv.Quote(s.Relevance), Want: "auto (the default) or off"}
	}
	switch t := strings.ToLower(strings.TrimSpace(s.Transform)); t {
	case "", credlab.TransformAuto:
		s.Transform = credlab.TransformAuto
	case credlab.TransformOff, credlab.TransformNormal:
		s.Transform = t
	default:
		return nil, "", &credlab.ParamError{Name: "Spec.Transform", Value: strconv.Quote(s.Transform), Want: "auto (the default), off or normal"}
	}
	switch k := strings.ToLower(s.Kernel); k {
	case "":
	case "gaussian", "rbf":
		s.Kernel = "gaussian"
	case "laplacian", "laplace":
		s.Kernel = "laplacian"
	case "matern52", "matern32", "manhattan":
		s.Kernel = k
	default:
		return nil, "", &credlab.ParamError{Name: "Spec.Kernel", Value: strconv.Quote(s.Kernel),
			Want: `gaussian, matern52, matern32, manhattan or laplacian (or empty: the Gaussian kernel, then the Matérn and Manhattan kernels tried): the automatic method searches the bandwidth of one of these; for another kernel name a method (for example Method "krls")`}
	}
	for _, c := range []struct {
		name  string
		set   bool
		value any
	}{
		{"FeatureMap", s.FeatureMap != "", strconv.Quote(s.FeatureMap)}, {"Widths", len(s.Widths) > 0, s.Widths}, {"NoBias", s.NoBias, s.NoBias},
		{"Iters", s.Iters != 0, s.Iters}, {"MaxIter", s.MaxIter != 0, s.MaxIter}, {"Threshold", s.Threshold != 0, s.Threshold},
		{"StepSize", s.StepSize != 0, s.StepSize}, {"Plain", s.Plain, s.Plain}, {"Passes", s.Passes != 0, s.Passes},
		{"Batch", s.Batch != 0, s.Batch}, {"Decay", s.Decay != 0, s.Decay}, {"Preset", s.Preset != "", strconv.Quote(s.Preset)},
		{"Centers", s.Centers != "", strconv.Quote(s.Centers)},
	} {
		if c.set {
			return nil, "", &credlab.ParamError{Name: "Spec." + c.name, Value: c.value,
				Want: fmt.Sprintf("it unset: Spec.%s does not apply to the automatic method (kernel ridge regression, exact or Nyström); name the method it belongs to", c.name)}
		}
	}
	if s.Sigma < 0 || math.IsNaN(s.Sigma) || math.IsInf(s.Sigma, 0) {
		return nil, "", &credlab.ParamError{Name: "Spec.Sigma", Value: s.Sigma, Want: "a positive bandwidth, or 0 to search it"}
	}
	if s.M < 0 {
		return nil, "", &credlab.ParamError{Name: "Spec.M", Value: s.M, Want: "a positive number of Nyström centers, or 0 to choose it"}
	}
	return nil, crit, nil
}

// tuneConfig is the credlab.Tune configuration of an automatic spec.
func tuneConfig(s Spec, crit credlab.Criterion, w, audit []float64) credlab.TuneConfig {
	return credlab.TuneConfig{Family: s.Kernel, Sigma: s.Sigma, Lambda: s.Lambda, Lambdas: s.Lambdas,
		Criterion: crit, Holdout: credlab.Holdout{Fraction: s.Validation, Seed: s.Seed}, M: s.M,
		Seed: s.Seed, NoIntercept: s.NoIntercept, Weights: w, Audit: audit, Relevance: s.Relevance, Transform: s.Transform, TimeBudget: s.TimeBudget, Status: s.Progress}
}

// fitAuto fits the automatic method: credlab.Tune on the prepared data.
func fitAuto(ctx context.Context, p *prepared, spec Spec, crit credlab.Criterion) (*Model, error) {
	var sigmaWarns []string // the user's Sigma (the search keeps it) far from the data's scale
	if spec.Sigma > 0 {
		if w := sigmaWarning(spec.Sigma, spec.Kernel, p, "Spec.Sigma", "0 to search it"); w != "" {
			sigmaWarns = append(sigmaWarns, w)
		}
	}
	tf, err := credlab.Tune(ctx, p.x, p.y, tuneConfig(spec, crit, p.w, p.audit))
	if err != nil {
		return nil, withWarnings(err, sigmaWarns)
	}
	c := tf.Choice
	spec.Method = strings.ToLower(c.Method)
	if _, err := lookupMethod(spec.Method); err != nil {
		return nil, fmt.Errorf("frames: the automatic method chose %q, which frames cannot represent: %v", c.Method, err)
	}
	spec.Sigma, spec.M, spec.Kernel = c.Sigma, c.M, kernelFamilyName(c.Kernel)
	if c.Centers == "leverage" {
		spec.Centers = "leverage"
	}
	warns := append(append(append([]string(nil), p.warnings...), sigmaWarns...), c.Warnings...) // c.Warnings names every edge in c.Edges
	d := p.d
	var weak []string // irrelevant columns, one warning for them all
	for _, r := range relevanceOf(d.encoded, c.Scales) {
		if r.Relevance < irrelevant {
			weak = append(weak, r.Column)
			if len(weak) == 1 {
				warns = append(warns, fmt.Sprintf("column %q looks irrelevant: its learned relevance is %.2g%% of the most relevant column's", r.Column, 100*r.Relevance))
			}
		}
	}
	if len(weak) > 1 {
		warns[len(warns)-1] = fmt.Sprintf("%d columns look irrelevant, their learned relevance below %.2g%% of the most relevant column's: %s", len(weak), 100*irrelevant, listNames(weak, 10))
	}
	var mapped []string
	if c.Transform != nil {
		for _, j := range c.Transform.Columns {
			mapped = append(mapped, d.encoded[j])
		}
	}
	return &Model{
		Spec: spec, Features: d.features, Columns: d.encoded, OneHot: d.oneHot, Mean: d.mean, Scale: d.scale,
		Choice: &Choice{Method: spec.Method, Reason: c.Reason, Sigma: c.Sigma, Lambda: c.Lambda, M: c.M, Centers: c.Centers, Scales: c.Scales, NormalScores: mapped, OutOfTime: c.OutOfTime, FoldRMSE: c.FoldRMSE, PoolRMSE: c.PoolRMSE, Curve: c.Curve,
			Criterion: string(c.Criterion), Score: c.Score, ValRMSE: c.ValRMSE, Stages: c.Stages, Seconds: c.Elapsed.Seconds()},
		Warnings: warns, Lambda: c.Lambda, ValRMSE: c.ValRMSE, Rows: len(p.rows),
		Predictor: tf.Fit.Model, Fit: tf.Fit, Tuning: tf,
	}, nil
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
	// spec names the settings' type in a *credlab.ParamError: "" (Spec),
	// "SelectSpec" or "BudgetSpec".
	spec string
	// intercept is the mean subtracted from y (0 with NoIntercept);
	// constant is set when the target is constant.
	intercept float64
	constant  bool
	// warns are warnings about the settings, found before the fit (a
	// Sigma far from the data's scale).
	warns []string
}

// newRunner resolves the spec's defaults on the prepared data.
func newRunner(ctx context.Context, p *prepared, spec Spec, mi *methodInfo) (*runner, error) {
	spec.Method = mi.name
	r := &runner{ctx: ctx, mi: mi, s: spec, x: p.x, y: p.y, w: p.w}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	r.warnSigma(spec.Sigma, p)
	r.centerTarget()
	return r, nil
}

// warnSigma adds sigmaWarning's warning to r.warns when the user set the
// bandwidth (given > 0) and the kernel or feature map uses it.
func (r *runner) warnSigma(given float64, p *prepared) {
	if given > 0 && usesSigma(&r.s, r.mi) {
		if w := sigmaWarning(given, r.s.Kernel, p, r.field("Sigma"), "0 for the median"); w != "" {
			r.warns = append(r.warns, w)
		}
	}
}

// sigmaWarning returns a warning when sigma, a bandwidth the user set, is
// far from the median distance between the rows of p's design matrix, the
// one the kernel sees (credlab.MedianDistance: standardized columns unless
// Scale "none"): below 1/30 of it the kernel matrix is nearly the
// identity, above 30 times it nearly constant. field names the setting
// ("Spec.Sigma") and zero what 0 does ("0 for the median"). It returns ""
// otherwise, and for fewer than two rows or no column.
func sigmaWarning(sigma float64, kernel string, p *prepared, field, zero string) string {
	n, d := p.x.Dims()
	if !(sigma > 0) || n < 2 || d == 0 {
		return ""
	}
	med := medianDistance(kernel, p.x)
	switch {
	case sigma < med/30:
		hint := ""
		if p.d.mean == nil {
			hint = "standardize the columns (flag -standardize) or "
		}
		return fmt.Sprintf("sigma %g (%s, flag -sigma) is far below the median distance %.3g between rows: the kernel matrix is nearly the identity; %suse a larger sigma, or %s", sigma, field, med, hint, zero)
	case sigma > 30*med:
		return fmt.Sprintf("sigma %g (%s, flag -sigma) is far above the median distance %.3g between rows: the kernel matrix is nearly constant; use a smaller sigma, or %s", sigma, field, med, zero)
	}
	return ""
}

// centerTarget subtracts the (weighted) mean from a copy of y, unless
// NoIntercept.
func (r *runner) centerTarget() {
	r.intercept, r.constant = 0, false
	if len(r.y) == 0 {
		return
	}
	r.constant = true
	for _, v := range r.y {
		if v != r.y[0] {
			r.constant = false
			break
		}
	}
	if r.s.NoIntercept {
		return
	}
	sum, sw := 0.0, 0.0
	for i, v := range r.y {
		w := 1.0
		if r.w != nil {
			w = r.w[i]
		}
		sum += w * v
		sw += w
	}
	r.intercept = sum / sw
	y := make([]float64, len(r.y))
	for i, v := range r.y {
		y[i] = v - r.intercept
	}
	r.y = y
}

// run runs the method and adds the intercept to its model.
func (r *runner) run() (*credlab.Fit, error) {
	fit, err := r.fit()
	if err != nil {
		return nil, err
	}
	fit.Model.Intercept = r.intercept
	if r.mi.usesM && r.s.M == 0 { // credlab's default: report the centers used
		r.s.M, _ = fit.Model.Centers.Dims()
	}
	return fit, nil
}

// warnings returns what the user should know about a named method's fit.
func (r *runner) warnings(fit *credlab.Fit) []string {
	var out []string
	if r.constant {
		out = append(out, fmt.Sprintf("the target %q is constant on the training rows: the model predicts that constant", r.s.Target))
	}
	if r.mi.path == pathIter && r.s.Iters == 0 && !math.IsNaN(fit.ValRMSE) {
		switch {
		case r.sgm != nil && len(fit.Path) > 1 && fit.Iter == fit.Path[len(fit.Path)-1].Iter:
			out = append(out, fmt.Sprintf("validation error still falling after %.4g passes (%d steps), the last run: raise Passes (-passes)", r.sgm.Passes, fit.Iter))
		case r.sgm == nil && fit.AtCap:
			out = append(out, fmt.Sprintf("validation error still falling at %d steps, near the cap: raise MaxIter (-max-iter)", fit.Iter))
		}
	}
	return out
}

// field returns the name of the setting f ("Sigma") as the user writes
// it: "Spec.Sigma", or "SelectSpec.Sigma" for a selector.
func (r *runner) field(f string) string {
	if r.spec == "" {
		return "Spec." + f
	}
	return r.spec + "." + f
}

// check runs the checks of resolve and of the method's estimator that
// need no data; it changes nothing.
func (r *runner) check() error {
	s := r.s
	if s.Sigma < 0 || math.IsNaN(s.Sigma) || math.IsInf(s.Sigma, 0) {
		return &credlab.ParamError{Name: r.field("Sigma"), Value: s.Sigma, Want: "a positive bandwidth, or 0 for the median heuristic"}
	}
	if math.IsNaN(s.Threshold) || math.IsInf(s.Threshold, 0) {
		return &credlab.ParamError{Name: r.field("Threshold"), Value: s.Threshold, Want: "a finite number (negative: never stop early)"}
	}
	if s.M < 0 {
		return &credlab.ParamError{Name: r.field("M"), Value: s.M, Want: "a positive number"}
	}
	nystromMap := r.mi.feature && strings.EqualFold(s.FeatureMap, "nystrom")
	if s.Centers != "" && !r.mi.usesM && !nystromMap {
		return &credlab.ParamError{Name: r.field("Centers"), Value: strconv.Quote(s.Centers),
			Want: "it unset: Nyström centers belong to nkrls, nytro and the nystrom feature map, not to method " + r.mi.name}
	}
	sigma := s.Sigma
	if sigma == 0 {
		sigma = 1 // the median heuristic's value, not known yet
	}
	if _, err := kernelOf(&s, sigma, r.field("Kernel")); err != nil {
		return err
	}
	if r.mi.feature {
		switch strings.ToLower(s.FeatureMap) {
		case "", "raw", "fourier", "rff", "random-fourier", "relu", "nystrom":
		default:
			return r.featureMapError()
		}
	}
	if r.mi.usesM || nystromMap {
		if err := r.checkCenters(); err != nil {
			return err
		}
	}
	if s.Weight != "" {
		if err := noWeights(r.mi.name, s.Weight); err != nil {
			return err
		}
	}
	if r.mi.name == "sgm" {
		if _, err := sgmPreset(s.Preset); err != nil {
			return err
		}
	}
	return nil
}

// noWeights returns the error of weights given to a method that takes
// none (kols, sgm), nil for the other methods; weight names them.
func noWeights(method, weight string) error {
	want := map[string]string{
		"kols": `"": method kols takes no weights; use krls with a small Lambda`,
		"sgm":  `"": method sgm takes no weights; use earlystopping or nytro for a weighted fit`,
	}[method]
	if want == "" {
		return nil
	}
	return &credlab.ParamError{Name: "Spec.Weight", Value: strconv.Quote(weight), Want: want}
}

// resolve fills the sigma default and builds the kernel and feature map.
func (r *runner) resolve() error {
	if err := r.check(); err != nil {
		return err
	}
	s := &r.s
	if s.Sigma == 0 && usesSigma(s, r.mi) {
		s.Sigma = medianDistance(s.Kernel, r.x)
	}
	sigma := s.Sigma
	if sigma == 0 {
		sigma = 1 // unused by the kernel
	}
	k, err := kernelOf(s, sigma, r.field("Kernel"))
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
		c, err := r.centers()
		if err != nil {
			return nil, err
		}
		idx, err := credlab.NystromCenters(r.x, m, c, s.Seed)
		if err != nil {
			return nil, err
		}
		return credlab.NewNystrom(r.k, r.x, idx, 0)
	}
	return nil, r.featureMapError()
}

// featureMapError is the error of an unknown Spec.FeatureMap.
func (r *runner) featureMapError() error {
	return &credlab.ParamError{Name: r.field("FeatureMap"), Value: strconv.Quote(r.s.FeatureMap), Want: "raw, fourier, relu or nystrom"}
}

func (r *runner) holdout() credlab.Holdout {
	return credlab.Holdout{Fraction: r.s.Validation, Seed: r.s.Seed}
}

func (r *runner) iter() credlab.IterConfig {
	return credlab.IterConfig{StepSize: r.s.StepSize, Iter: r.s.Iters, MaxIter: r.s.MaxIter,
		Threshold: r.s.Threshold, Holdout: r.holdout(), Plain: r.s.Plain}
}

func (r *runner) nystrom() (credlab.NystromConfig, error) {
	c, err := r.centers()
	return credlab.NystromConfig{M: r.s.M, Sampler: c, Seed: r.s.Seed}, err
}

// centers returns the sampler of Nyström centers that Spec.Centers names:
// nil (uniform) or leverage-score centers of the spec's kernel.
func (r *runner) centers() (credlab.CenterSampler, error) {
	if err := r.checkCenters(); err != nil {
		return nil, err
	}
	if strings.EqualFold(r.s.Centers, "leverage") {
		r.s.Centers = "leverage"
		return credlab.LeverageCenters{Kernel: r.k}, nil
	}
	r.s.Centers = "uniform"
	return nil, nil
}

// checkCenters checks the name in Spec.Centers.
func (r *runner) checkCenters() error {
	switch strings.ToLower(r.s.Centers) {
	case "", "uniform", "leverage":
		return nil
	}
	return &credlab.ParamError{Name: r.field("Centers"), Value: strconv.Quote(r.s.Centers), Want: "uniform (the default) or leverage"}
}

// The estimator builders of the method table (methods in spec.go): each
// turns the resolved spec into the credlab.Estimator that r.fit runs on
// the prepared rows, targets and weights.

func krlsEstimator(r *runner) (credlab.Estimator, error) {
	return credlab.KRLSConfig{Kernel: r.k, Lambda: r.s.Lambda, Lambdas: r.s.Lambdas, Holdout: r.holdout()}, nil
}

func kolsEstimator(r *runner) (credlab.Estimator, error) {
	if r.w != nil {
		return nil, noWeights("kols", r.s.Weight)
	}
	return credlab.KOLSConfig{Kernel: r.k}, nil
}

func earlyStoppingEstimator(r *runner) (credlab.Estimator, error) {
	return credlab.EarlyStoppingConfig{Kernel: r.k, IterConfig: r.iter()}, nil
}

func nkrlsEstimator(r *runner) (credlab.Estimator, error) {
	ny, err := r.nystrom()
	if err != nil {
		return nil, err
	}
	return credlab.NKRLSConfig{Kernel: r.k, Nystrom: ny, Lambda: r.s.Lambda, Lambdas: r.s.Lambdas, Holdout: r.holdout()}, nil
}

func nytroEstimator(r *runner) (credlab.Estimator, error) {
	ny, err := r.nystrom()
	if err != nil {
		return nil, err
	}
	return credlab.NYTROConfig{Kernel: r.k, Nystrom: ny, IterConfig: r.iter()}, nil
}

func linearRLSEstimator(r *runner) (credlab.Estimator, error) {
	return credlab.LinearRLSConfig{Features: r.fm, Lambda: r.s.Lambda, Lambdas: r.s.Lambdas, Holdout: r.holdout()}, nil
}

func linearGDEstimator(r *runner) (credlab.Estimator, error) {
	return credlab.LinearGDConfig{Features: r.fm, IterConfig: r.iter()}, nil
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
	return 0, &credlab.ParamError{Name: "Spec.Preset", Value: strconv.Quote(p), Want: "minibatch, simple or batch"}
}

func sgmEstimator(r *runner) (credlab.Estimator, error) {
	if r.w != nil {
		return nil, noWeights("sgm", r.s.Weight)
	}
	p, err := sgmPreset(r.s.Preset)
	if err != nil {
		return nil, err
	}
	return sgmRecorder{r: r, cfg: credlab.SGMConfig{Kernel: r.k, Preset: p, Batch: r.s.Batch,
		StepSize: r.s.StepSize, Decay: r.s.Decay, Passes: r.s.Passes, Iter: r.s.Iters,
		Threshold: r.s.Threshold, Holdout: r.holdout(), Seed: r.s.Seed}}, nil
}

// sgmRecorder is credlab.SGMConfig's Estimator that keeps the whole
// *credlab.SGMFit in r.sgm, for its passes.
type sgmRecorder struct {
	r   *runner
	cfg credlab.SGMConfig
}

func (e sgmRecorder) Fit(ctx context.Context, x mat.Matrix, y, w []float64) (*credlab.Fit, error) {
	if w != nil {
		return e.cfg.Fit(ctx, x, y, w) // the contract's error
	}
	f, err := credlab.SGM(ctx, x.(*mat.Dense), y, e.cfg)
	if err != nil {
		return nil, err
	}
	e.r.sgm = f
	return &f.Fit, nil
}

// fit builds the method's estimator and runs it on the runner's data.
func (r *runner) fit() (*credlab.Fit, error) {
	est, err := r.mi.estimator(r)
	if err != nil {
		return nil, err
	}
	return est.Fit(r.ctx, r.x, r.y, r.w)
}

// model wraps a fit with the design.
func (r *runner) model(p *prepared, fit *credlab.Fit) *Model {
	d := p.d
	passes := 0.0
	if r.sgm != nil {
		passes = r.sgm.Passes
	}
	return &Model{
		Warnings:  append(append(append([]string(nil), p.warnings...), r.warns...), r.warnings(fit)...),
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
	return m.predictValues(df, false)
}

// predictValues predicts the rows of df; rows with a missing value get NaN
// when the model was fitted with DropNA or skipMissing is set, and are an
// error otherwise.
func (m *Model) predictValues(df dataframe.DataFrame, skipMissing bool) ([]float64, error) {
	if m == nil || m.Predictor == nil {
		return nil, emptyf("predict with an empty model")
	}
	if err := checkFrame(df, "prediction"); err != nil {
		return nil, err
	}
	d := m.design()
	ex, err := d.extract(df, "", "", false)
	if err != nil {
		return nil, err
	}
	if ex.nNA > 0 && !m.Spec.DropNA && !skipMissing {
		return nil, fmt.Errorf("%w; the model was fitted without DropNA, so it cannot predict those rows", ex.missingError())
	}
	out := make([]float64, df.Nrow())
	keep := keptRows(ex.na)
	if len(keep) > 0 {
		pred, err := m.Predictor.Predict(d.matrix(ex, keep))
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
		return 0, emptyf("no row with both a target %q and a prediction", m.Spec.Target)
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
	if m.Choice != nil {
		fmt.Fprintf(&b, " (automatic, %s)", m.Choice.Criterion)
	}
	if m.Spec.Sigma > 0 {
		fmt.Fprintf(&b, ", sigma %.4g", m.Spec.Sigma)
	}
	if m.Lambda > 0 {
		fmt.Fprintf(&b, ", lambda %.3g", m.Lambda)
	}
	if m.Spec.M > 0 && (m.Spec.Method == "nkrls" || m.Spec.Method == "nytro") {
		fmt.Fprintf(&b, ", m %d", m.Spec.M)
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
	if len(m.Warnings) > 0 {
		fmt.Fprintf(&b, " [%d warnings]", len(m.Warnings))
	}
	return b.String()
}

// Summary describes the model over several lines: the method (and why,
// for the automatic choice), the chosen parameters, the criterion and its
// value, the validation RMSE, the features and scaling, and every warning
// (lines starting "warning: ").
func (m *Model) Summary() string {
	if m == nil {
		return "<nil model>\n"
	}
	var b strings.Builder
	if c := m.Choice; c != nil {
		fmt.Fprintf(&b, "method %s (automatic: %s)\n", m.Spec.Method, c.Reason)
	} else {
		fmt.Fprintf(&b, "method %s\n", m.Spec.Method)
	}
	var param []string
	if m.Choice != nil && m.Spec.Kernel != "" {
		param = append(param, "kernel="+m.Spec.Kernel)
	}
	if m.Spec.Sigma > 0 {
		param = append(param, "sigma="+strconv.FormatFloat(m.Spec.Sigma, 'g', 4, 64))
	}
	if m.Lambda > 0 {
		param = append(param, "lambda="+strconv.FormatFloat(m.Lambda, 'g', 4, 64))
	}
	if m.Spec.M > 0 && (m.Spec.Method == "nkrls" || m.Spec.Method == "nytro") {
		param = append(param, "m="+strconv.Itoa(m.Spec.M))
		if m.Spec.Centers == "leverage" {
			param = append(param, "leverage-score centers")
		}
	}
	if m.Iter > 0 {
		param = append(param, "iterations="+strconv.Itoa(m.Iter))
	}
	if m.Passes > 0 {
		param = append(param, "passes="+strconv.FormatFloat(m.Passes, 'g', 4, 64))
	}
	if len(param) == 0 {
		param = append(param, "none")
	}
	fmt.Fprintf(&b, "selected %s\n", strings.Join(param, " "))
	if c := m.Choice; c != nil {
		fmt.Fprintf(&b, "criterion %s = %.6g (estimated mean squared error), search %.3g s\n", c.Criterion, c.Score, c.Seconds)
	}
	val := "none (fitted on all rows)"
	if !math.IsNaN(m.ValRMSE) {
		val = strconv.FormatFloat(m.ValRMSE, 'g', 6, 64)
		if m.Choice != nil && m.Choice.Criterion != string(credlab.CriterionHoldout) {
			val += " (sqrt of the criterion)"
		}
	}
	fmt.Fprintf(&b, "validation RMSE %s\n", val)
	if c := m.Choice; c != nil && len(c.FoldRMSE) > 1 {
		lo, hi := c.FoldRMSE[0], c.FoldRMSE[0]
		parts := make([]string, len(c.FoldRMSE))
		for i, v := range c.FoldRMSE {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			parts[i] = strconv.FormatFloat(v, 'g', 4, 64)
		}
		fmt.Fprintf(&b, "cross-validation RMSE per fold %s (spread %.3g to %.3g)\n", strings.Join(parts, ", "), lo, hi)
	}
	if e := m.poolRMSE(); e != nil {
		if m.Spec.Audit != "" {
			fmt.Fprintf(&b, "estimated RMSE on the pool %.4g, 90%% interval %.4g to %.4g (out-of-fold residuals of the %d audit rows, weighted by 1/pi in %q; docs/labeling.md)\n",
				e.RMSE, e.Lo, e.Hi, e.Rows, m.Spec.Audit)
		} else {
			fmt.Fprintf(&b, "estimated RMSE on the population the rows represent %.4g, 90%% interval %.4g to %.4g (out-of-fold residuals of %d rows, %s); often optimistic: the search tuned on the same rows, and a few hundred rows miss a skewed target's tails (docs/labeling.md)\n",
				e.RMSE, e.Lo, e.Hi, e.Rows, m.weighting())
		}
	}
	if c := m.Choice; c != nil && c.Curve != nil && c.Curve.B == 0 && len(c.Curve.Labels) > 1 {
		cv, k := c.Curve, len(c.Curve.Labels)-1
		fmt.Fprintf(&b, "learning curve from the same rows: the cross-validated RMSE did not fall from %d to %d rows (%.4g to %.4g), so there is no projection: these rows cannot tell whether more labels would help\n",
			cv.Labels[0], cv.Labels[k], cv.RMSE[0], cv.RMSE[k])
	} else if c != nil && c.Curve != nil && len(c.Curve.Projected) == 3 {
		cv := c.Curve
		fmt.Fprintf(&b, "learning curve from the same rows: RMSE ~ %s (a noise floor, the cross-validated error above it, through the estimate at the rows); with more labels drawn the same way, expect %.4g at %d rows (1.5x) and %.4g at %d (2x), against %.4g at %d; a rough guide, more often optimistic than not (within 10%% of the RMSE then measured in 3 of 4 cases on development pools: docs/labeling.md)\n",
			cv.Formula(), cv.Projected[1], cv.Project[1], cv.Projected[2], cv.Project[2], cv.Projected[0], cv.Project[0])
	}
	scale := "standardized"
	if m.Mean == nil {
		scale = "unscaled"
	}
	icpt := "no intercept"
	if m.Predictor != nil && !m.Spec.NoIntercept {
		icpt = "intercept " + strconv.FormatFloat(m.Predictor.Intercept, 'g', 6, 64)
	}
	fmt.Fprintf(&b, "features %s (%d design columns, %s), %s, %d rows\n", listNames(m.Features, 12), len(m.Columns), scale, icpt, m.Rows)
	if rel := m.Relevance(); rel != nil {
		var parts []string
		for i, r := range rel {
			if i == 12 {
				parts = append(parts, fmt.Sprintf("... (%d more)", len(rel)-12))
				break
			}
			parts = append(parts, fmt.Sprintf("%s %.2f", r.Column, r.Relevance))
		}
		fmt.Fprintf(&b, "relevance (kernel scale per column, learned; 1 = most relevant): %s\n", strings.Join(parts, ", "))
	}
	if c := m.Choice; c != nil && len(c.NormalScores) > 0 {
		why := "as that validated better"
		if m.Spec.Transform == credlab.TransformNormal {
			why = "as -transform normal (Spec.Transform) asks"
		}
		fmt.Fprintf(&b, "skewed columns mapped to normal scores: %s (through their training values' distribution, %s; -transform off, Spec.Transform \"off\", leaves them)\n", listNames(c.NormalScores, 12), why)
	}
	for _, w := range m.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

// irrelevant is the relevance below which Fit warns that a column looks
// irrelevant.
const irrelevant = 0.01

// ColumnRelevance is a design column's kernel scale relative to the
// largest, in [0, 1].
type ColumnRelevance struct {
	Column    string
	Relevance float64
}

// Relevance returns the design columns by decreasing relevance, nil when
// the model has one shared kernel scale.
func (m *Model) Relevance() []ColumnRelevance {
	if m == nil || m.Choice == nil {
		return nil
	}
	return relevanceOf(m.Columns, m.Choice.Scales)
}

func relevanceOf(cols []string, scales []float64) []ColumnRelevance {
	if scales == nil || len(scales) != len(cols) {
		return nil
	}
	rel := credlab.Choice{Scales: scales}.Relevance()
	out := make([]ColumnRelevance, len(cols))
	for j, c := range cols {
		out[j] = ColumnRelevance{Column: c, Relevance: rel[j]}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Relevance > out[b].Relevance })
	return out
}

// poolRMSE returns the choice's pool RMSE estimate, nil without one.
func (m *Model) poolRMSE() *credlab.RMSEEstimate {
	if m.Choice == nil {
		return nil
	}
	return m.Choice.PoolRMSE
}

// weighting says how the rows were weighted in the fit.
func (m *Model) weighting() string {
	if m.Spec.Weight == "" {
		return "unweighted"
	}
	return fmt.Sprintf("weighted by %q", m.Spec.Weight)
}
