package frames

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// Spec says what Fit learns and how. Only Target is required: every other
// field's zero value is a documented default. A Spec with only Target set
// standardizes the features, centers the target, and chooses the method,
// sigma and lambda automatically (credlab.Tune) by 5-fold
// cross-validation (Selection); Model.Choice reports what was chosen and
// why.
type Spec struct {
	// Target names the column to predict.
	Target string `json:"target"`
	// Features names the input columns. Default: every column except
	// Target, Weight, the columns in Exclude and the bookkeeping columns
	// Select adds ("row", "prob", "weight", "batch", "count", "audit",
	// "pool_weight"; in a
	// frame with row, prob and weight, also the Beam module's "file",
	// "line" and "draw"). Features must be numeric
	// (float, int or bool): a string (categorical) column among them, named
	// or by default, is a *StringColumnsError naming every such column,
	// never left out silently; OneHot encodes them, Exclude leaves them out.
	Features []string `json:"features,omitempty"`
	// Exclude lists columns left out of the default Features.
	Exclude []string `json:"exclude,omitempty"`
	// Weight optionally names a column of positive importance weights, such
	// as the "weight" column Select writes.
	Weight string `json:"weight,omitempty"`
	// Audit optionally names a column of audit weights, such as the
	// "audit" column Select writes for a batch method (SelectSpec.Audit):
	// 1/pi for rows of an audit sample, 0 for the others. The automatic
	// method then estimates the model's RMSE on the pool from the audit
	// rows alone (credlab.TuneConfig.Audit); other methods ignore it.
	Audit string `json:"audit,omitempty"`

	// Method is "" or "auto" (default: credlab.Tune chooses exact KRLS or
	// Nyström KRLS, searches sigma unless Sigma fixes it and lambda unless
	// Lambda fixes it, by the Selection criterion), or one of "krls",
	// "kols", "earlystopping" (or "gd", "landweber"), "nkrls", "nytro",
	// "linear" (ridge regression on a feature map, LinearRLS), "lineargd"
	// (gradient descent on a feature map, LinearGD) and "sgm" (multi-pass
	// mini-batch stochastic gradient descent); case is ignored. A named
	// method uses the median-heuristic sigma unless Sigma is set, and
	// chooses its lambda or step count on a hold-out split.
	Method string `json:"method"`
	// Selection is the criterion of the automatic method: "cv" (default:
	// 5-fold cross-validation on Nyström paths, seeded by Seed), "gcv"
	// (generalized cross-validation on all rows), "holdout" (a
	// Validation share of the rows held out) or "loo" (exact leave-one-out,
	// up to credlab.MaxLOORows rows). Named methods select on a hold-out
	// split and accept only "" or "holdout".
	Selection string `json:"selection,omitempty"`

	// Kernel is "gaussian" (default), "matern52", "matern32",
	// "manhattan" (the Laplacian kernel of the L1 distance), "laplacian",
	// "linear" or "polynomial", for the kernel methods and for FeatureMap
	// "nystrom". The automatic method searches the bandwidth of a
	// Gaussian, Matérn, Manhattan or Laplacian kernel; with Kernel empty it
	// starts from the Gaussian kernel and tries the Matérn and Manhattan
	// kernels, keeping Matérn 3/2 unless another validates 1% better
	// (credlab.TuneConfig.Family), and the fitted model's Spec.Kernel names
	// the one chosen.
	Kernel string `json:"kernel,omitempty"`
	// Sigma is the Gaussian or Laplacian bandwidth (and the random Fourier
	// features' sigma). Default: searched by the automatic method; for a
	// named method, the median distance between rows of a deterministic
	// sample of up to 256 rows, after standardization.
	Sigma float64 `json:"sigma,omitempty"`
	// Degree, Gamma and Coef0 parametrize the polynomial kernel (defaults
	// 2, 1 and 1).
	Degree int     `json:"degree,omitempty"`
	Gamma  float64 `json:"gamma,omitempty"`
	Coef0  float64 `json:"coef0,omitempty"`

	// Lambda, when positive, fixes the regularization parameter of the
	// automatic method, krls, nkrls and linear: a named method is then
	// fitted on all rows, without validation. Otherwise lambda is chosen by
	// the automatic method's criterion over Lambdas (default
	// credlab.LogGrid(1e-12, 10, 66); a choice at an end is a warning), or on a
	// hold-out split from Lambdas (default credlab.LogGrid(1e-15, 1, 100))
	// for a named method. One solver call covers the whole grid.
	Lambda  float64   `json:"lambda,omitempty"`
	Lambdas []float64 `json:"lambdas,omitempty"`

	// M is the number of Nyström centers (nkrls, nytro: default
	// credlab.DefaultNystromM = 1000, at most the training rows; the
	// automatic method: grown while the criterion improves unless M fixes
	// it) or of random features (FeatureMap "fourier", "nystrom"; default
	// 100).
	M int `json:"m,omitempty"`
	// Centers chooses the Nyström centers of nkrls, nytro and the
	// "nystrom" feature map: "uniform" (the default) or "leverage", drawn
	// by approximate ridge leverage scores of the kernel
	// (credlab.LeverageCenters, BLESS), which need fewer centers where the
	// rows are unevenly spread.
	Centers string `json:"centers,omitempty"`
	// FeatureMap is the feature map of linear and lineargd: "raw" (default:
	// the columns plus a constant), "fourier" (M random Fourier features of
	// the Gaussian kernel with Sigma), "relu" (a random ReLU network with
	// hidden widths Widths, default [500 500 500]) or "nystrom" (M Nyström
	// features of Kernel).
	FeatureMap string `json:"feature_map,omitempty"`
	Widths     []int  `json:"widths,omitempty"`
	// NoBias drops the constant column of the "raw" feature map.
	NoBias bool `json:"no_bias,omitempty"`

	// Iters, when positive, runs exactly that many gradient steps
	// (earlystopping, nytro, lineargd) on all rows, without validation.
	// Otherwise the step count is chosen on a hold-out split, up to MaxIter
	// (default 500) steps, stopping once the validation error exceeds
	// (1 + Threshold) times its best (default 0.05; negative: never stop
	// early). StepSize defaults to the solver's safe step.
	Iters     int     `json:"iters,omitempty"`
	MaxIter   int     `json:"max_iter,omitempty"`
	Threshold float64 `json:"threshold,omitempty"`
	StepSize  float64 `json:"step_size,omitempty"`
	// Plain runs plain gradient descent (the papers' Landweber iteration)
	// instead of the default nu-method.
	Plain bool `json:"plain,omitempty"`

	// Passes bounds an sgm run (default 100 passes over the data); the
	// number of passes is chosen on the hold-out split unless Iters fixes
	// the iterations. Batch is the mini-batch size and Decay the step-size
	// decay theta (eta_t = eta_1 t^-theta); Preset picks Lin and Rosasco's
	// parameter choice when Batch and StepSize are zero: "minibatch"
	// (default: b = sqrt(m)), "simple" (b = 1) or "batch" (batch gradient
	// descent). SGM takes no weights.
	Passes int     `json:"passes,omitempty"`
	Batch  int     `json:"batch,omitempty"`
	Decay  float64 `json:"decay,omitempty"`
	Preset string  `json:"preset,omitempty"`

	// Validation is the hold-out fraction (default 0.2) and Seed seeds the
	// split, the Nyström centers and the random features.
	Validation float64 `json:"validation,omitempty"`
	Seed       uint64  `json:"seed,omitempty"`

	// OneHot encodes string feature columns as one 0/1 column per level
	// (named "column=level"); without it a string feature is an error.
	OneHot bool `json:"one_hot,omitempty"`
	// Scale is the feature scaling: "standardize" (the default, "" in Fit
	// and Sweep) centers each design column and scales it to unit variance
	// on the training rows, and leaves out a column that is constant on
	// them (with a warning in Model.Warnings); the model remembers the
	// means and scales and applies them in Predict. "none" uses the
	// columns as they are.
	Scale string `json:"scale,omitempty"`
	// NoIntercept fits without an intercept: by default the target is
	// centered by its (weighted) mean, which the model adds back
	// (Model.Intercept).
	NoIntercept bool `json:"no_intercept,omitempty"`
	// Relevance is the automatic method's column scaling: "" or "auto"
	// (the default: one kernel scale per design column, learned and kept
	// when it validates better than one shared scale; credlab.Tune) or
	// "off" (one shared scale). TimeBudget bounds the automatic method's
	// search (zero: credlab.DefaultTimeBudget; negative: no bound); a search
	// the budget stops keeps its best model so far and says so in Warnings.
	Relevance  string        `json:"relevance,omitempty"`
	TimeBudget time.Duration `json:"time_budget,omitempty"`
	// Transform is the automatic method's map of skewed design columns:
	// "" or "auto" (the default: columns of |skewness| above 1 mapped to
	// normal scores through their training values' distribution when that
	// validates better; credlab.Tune), "off" or "normal" (always mapped).
	// The model remembers the map and applies it in Predict.
	Transform string `json:"transform,omitempty"`
	// Progress, if not nil, receives the automatic method's progress
	// reports (stage, best RMSE so far, time left).
	Progress func(credlab.TuneStatus) `json:"-"`

	// DropNA drops rows with a missing value in a used column; without it
	// a missing value is an error naming the column and the number of rows.
	// Predict then gives NaN for such rows.
	DropNA bool `json:"drop_na,omitempty"`
}

// Scale values.
const (
	ScaleStandardize = "standardize"
	ScaleNone        = "none"
)

// scaleName maps the Standardize flag of SelectSpec and BagSpec to Scale.
func scaleName(standardize bool) string {
	if standardize {
		return ScaleStandardize
	}
	return ScaleNone
}

// resolveScale returns the canonical Scale of Fit and Sweep.
func resolveScale(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", ScaleStandardize:
		return ScaleStandardize, nil
	case ScaleNone:
		return ScaleNone, nil
	}
	return "", &credlab.ParamError{Name: "Spec.Scale", Value: strconv.Quote(s), Want: fmt.Sprintf("%s (the default) or %s", ScaleStandardize, ScaleNone)}
}

// Bookkeeping columns written by Select.
const (
	RowColumn        = "row"
	ProbColumn       = "prob"
	WeightColumn     = "weight"
	PredictionColumn = "prediction"
)

// pathKind says what a method's path runs over.
type pathKind int

const (
	pathNone   pathKind = iota // a single solution (kols)
	pathLambda                 // one point per lambda
	pathIter                   // one point per iteration
)

// methodInfo describes a method: its canonical name, what it uses and how
// to run it on a prepared design.
type methodInfo struct {
	name    string
	path    pathKind
	usesM   bool // M is required (Nyström centers)
	feature bool // a FeatureMap method (linear, lineargd)
	// estimator builds the credlab.Estimator of the resolved spec.
	estimator func(r *runner) (credlab.Estimator, error)
}

// methods is the table of Fit's methods. A new credlab solver (such as
// SGM) is added here with its aliases.
var methods = map[string]*methodInfo{
	"krls":          {name: "krls", path: pathLambda, estimator: krlsEstimator},
	"kols":          {name: "kols", path: pathNone, estimator: kolsEstimator},
	"earlystopping": {name: "earlystopping", path: pathIter, estimator: earlyStoppingEstimator},
	"nkrls":         {name: "nkrls", path: pathLambda, usesM: true, estimator: nkrlsEstimator},
	"nytro":         {name: "nytro", path: pathIter, usesM: true, estimator: nytroEstimator},
	"linear":        {name: "linear", path: pathLambda, feature: true, estimator: linearRLSEstimator},
	"lineargd":      {name: "lineargd", path: pathIter, feature: true, estimator: linearGDEstimator},
	"sgm":           {name: "sgm", path: pathIter, estimator: sgmEstimator},
}

var aliases = map[string]string{
	"gd": "earlystopping", "landweber": "earlystopping", "early-stopping": "earlystopping",
	"linearrls": "linear", "ridge": "linear", "linear-gd": "lineargd", "sgd": "sgm",
}

// notYet names methods of credlab or its subpackages not reachable from frames
// yet, with the reason.
var notYet = map[string]string{
	"ktr3":        "KTR3 is a baseline of the CRED paper (baselines.KTR3, package credlab/baselines) without a frames wrapper yet",
	"sssr":        "SSSR is a baseline of the CRED paper (baselines.SSSR, package credlab/baselines) without a frames wrapper yet",
	"twostagekrr": "distribution regression works on bags, not rows: use FitBags (distreg.TwoStageKRR, package credlab/distreg)",
	"tailsgd":     "distribution regression works on bags, not rows: use FitBags with Method tailsgd (distreg.TailSGD, package credlab/distreg)",
}

// MethodNames returns the canonical method names Fit accepts, sorted.
func MethodNames() []string {
	out := make([]string, 0, len(methods))
	for k := range methods {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func lookupMethod(name string) (*methodInfo, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[key]; ok {
		key = a
	}
	if m, ok := methods[key]; ok {
		return m, nil
	}
	as := make([]string, 0, len(aliases))
	for a := range aliases {
		as = append(as, a)
	}
	sort.Strings(as)
	want := `"auto" (or "", the default) or one of ` + strings.Join(MethodNames(), ", ") + " (aliases " + strings.Join(as, ", ") + ")"
	if why, ok := notYet[key]; ok {
		want += " (" + why + ")"
	}
	return nil, &credlab.ParamError{Name: "Spec.Method", Value: strconv.Quote(name), Want: want}
}

// Parameters a named method chooses on its hold-out split
// (MethodParameter).
const (
	ParamLambda = "lambda" // Spec.Lambda fixes it: krls, nkrls, linear
	ParamIters  = "iters"  // Spec.Iters fixes it: earlystopping, nytro, lineargd, sgm
)

// MethodParameter returns the canonical name of a named method (aliases
// and case resolved) and the parameter it chooses on its hold-out split
// unless the spec fixes it: ParamLambda, ParamIters, or "" for kols,
// which has none. An unknown method, or the automatic one (which chooses
// by Spec.Selection), is Fit's *credlab.ParamError on Spec.Method.
func MethodParameter(method string) (name, param string, err error) {
	mi, err := lookupMethod(method)
	if err != nil {
		return "", "", err
	}
	switch mi.path {
	case pathLambda:
		param = ParamLambda
	case pathIter:
		param = ParamIters
	}
	return mi.name, param, nil
}

// kernelOf builds the kernel named by the spec with bandwidth sigma; name
// is the setting's name for a *credlab.ParamError ("Spec.Kernel").
func kernelOf(s *Spec, sigma float64, name string) (credlab.Kernel, error) {
	var k credlab.Kernel
	switch strings.ToLower(s.Kernel) {
	case "", "gaussian", "rbf":
		k = credlab.GaussianKernel{Sigma: sigma}
	case "laplacian", "laplace":
		k = credlab.LaplacianKernel{Sigma: sigma}
	case "matern52":
		k = credlab.MaternKernel{Nu: 2.5, Sigma: sigma}
	case "matern32":
		k = credlab.MaternKernel{Nu: 1.5, Sigma: sigma}
	case "manhattan":
		k = credlab.ManhattanKernel{Sigma: sigma}
	case "linear":
		k = credlab.LinearKernel{}
	case "polynomial", "poly":
		k = credlab.PolynomialKernel{Degree: s.Degree, Gamma: s.Gamma, Coef0: s.Coef0}
	default:
		return nil, &credlab.ParamError{Name: name, Value: strconv.Quote(s.Kernel), Want: "gaussian, matern52, matern32, manhattan, laplacian, linear or polynomial"}
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	return k, nil
}

// usesSigma reports whether the spec's kernel or feature map has a
// bandwidth.
func usesSigma(s *Spec, m *methodInfo) bool {
	if m.feature {
		switch strings.ToLower(s.FeatureMap) {
		case "fourier", "rff", "random-fourier":
			return true
		case "nystrom":
		default:
			return false
		}
	}
	switch strings.ToLower(s.Kernel) {
	case "", "gaussian", "rbf", "laplacian", "laplace", "matern52", "matern32", "manhattan":
		return true
	}
	return false
}

// medianDistance is the median heuristic for the sigma of the kernel
// named: credlab.MedianL1Distance for the Manhattan kernel,
// credlab.MedianDistance for the others.
func medianDistance(kernel string, x *mat.Dense) float64 {
	if strings.EqualFold(kernel, "manhattan") {
		return credlab.MedianL1Distance(x)
	}
	return credlab.MedianDistance(x)
}

// kernelFamilyName names k's family as Spec.Kernel does ("" for a kernel
// with no name there).
func kernelFamilyName(k credlab.Kernel) string {
	switch k := k.(type) {
	case credlab.GaussianKernel:
		return "gaussian"
	case credlab.LaplacianKernel:
		return "laplacian"
	case credlab.ManhattanKernel:
		return "manhattan"
	case credlab.MaternKernel:
		if k.Nu == 1.5 {
			return "matern32"
		}
		return "matern52"
	}
	return ""
}
