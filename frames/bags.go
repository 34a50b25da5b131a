package frames

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/credlab/distreg"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// BagSpec says how FitBags learns one label per bag of rows (distribution
// regression): each row is a point, the Bag column says which bag it
// belongs to, and the Target column holds the bag's label on each of its
// rows.
type BagSpec struct {
	// Bag names the column of bag identifiers (of any type); a bag's rows
	// need not be adjacent. Target names the label column, equal on every
	// row of a bag.
	Bag, Target string
	// Features and Exclude act as in Spec; the Bag and Target columns are
	// never features.
	Features, Exclude []string
	// Method is "twostage" (default: two-stage kernel ridge regression on
	// the mean embeddings, distreg.TwoStageKRR) or "tailsgd"
	// (tail-averaged mini-batch SGD, distreg.TailSGD).
	Method string
	// Sigma is the inner Gaussian kernel's bandwidth (default: the median
	// distance heuristic). With FeatureMap "fourier" the embeddings are
	// the mean of M random Fourier features (default 100) instead of exact.
	Sigma      float64
	FeatureMap string
	M          int
	// Outer is the kernel on embeddings: "linear" (default) or "gaussian"
	// with bandwidth OuterSigma (default 1).
	Outer      string
	OuterSigma float64
	// Lambda fixes twostage's lambda; otherwise it is chosen from Lambdas
	// (default credlab.LogGrid(1e-15, 1, 100)) on a hold-out split of the
	// bags.
	Lambda  float64
	Lambdas []float64
	// Iters fixes tailsgd's stopping time (otherwise chosen on the
	// hold-out split); Batch and StepSize override its schedule.
	Iters    int
	Batch    int
	StepSize float64
	// Validation is the hold-out fraction of bags (default 0.2); Seed
	// seeds the split, the random features and the SGD draws.
	Validation float64
	Seed       uint64
	// DropNA acts as in Spec and Standardize as Spec.Scale "standardize", on the points.
	Standardize, DropNA bool
}

// BagModel is a fitted distribution regression model.
type BagModel struct {
	// Spec holds the settings used (Sigma resolved); Features the point
	// columns; Mean and Scale their standardization (nil without).
	Spec        BagSpec
	Features    []string
	Mean, Scale []float64
	// Lambda or Iter is the chosen regularization, ValRMSE its validation
	// RMSE (NaN without hold-out), and Bags the number of training bags.
	Lambda  float64
	Iter    int
	ValRMSE float64
	Bags    int
	// Predictor is package distreg's model; Fit the solver's record.
	Predictor *distreg.Model
	Fit       *distreg.Fit
}

// FitBags fits a distribution regression model: one label per bag of rows.
// df is not modified.
func FitBags(df dataframe.DataFrame, spec BagSpec) (*BagModel, error) {
	return FitBagsContext(context.Background(), df, spec)
}

// FitBagsContext is FitBags with cancellation.
func FitBagsContext(ctx context.Context, df dataframe.DataFrame, spec BagSpec) (*BagModel, error) {
	if spec.Bag == "" {
		return nil, &credlab.ParamError{Name: "BagSpec.Bag", Value: `""`, Want: "the name of the column of bag identifiers"}
	}
	if spec.Target == "" {
		return nil, &credlab.ParamError{Name: "BagSpec.Target", Value: `""`, Want: "the name of the column of bag labels"}
	}
	method := strings.ToLower(spec.Method)
	switch method {
	case "", "twostage", "twostagekrr":
		method = "twostage"
	case "tailsgd":
	default:
		return nil, &credlab.ParamError{Name: "BagSpec.Method", Value: strconv.Quote(spec.Method), Want: "twostage (the default) or tailsgd"}
	}
	spec.Method = method
	p, ids, groups, err := prepareBags(df, spec)
	if err != nil {
		return nil, err
	}
	bags := &distreg.Bags{X: make([]*mat.Dense, len(groups)), Y: make([]float64, len(groups))}
	for j, g := range groups {
		if bags.X[j], err = credlab.GatherRows(p.x, g); err != nil {
			return nil, err
		}
		y := p.y[g[0]]
		for _, r := range g {
			if p.y[r] != y {
				return nil, problem(spec.Target, "target", "has the labels %v and %v in bag %q: a bag has one label", y, p.y[r], ids[j])
			}
		}
		bags.Y[j] = y
	}
	if spec.Sigma < 0 || math.IsNaN(spec.Sigma) || math.IsInf(spec.Sigma, 0) {
		return nil, &credlab.ParamError{Name: "BagSpec.Sigma", Value: spec.Sigma, Want: "a positive bandwidth, or 0 for the median heuristic"}
	}
	if spec.Sigma == 0 {
		spec.Sigma = medianDistance("", p.x)
	}
	k, err := bagKernel(&spec, p.x.RawMatrix().Cols)
	if err != nil {
		return nil, err
	}
	h := credlab.Holdout{Fraction: spec.Validation, Seed: spec.Seed}
	var fit *distreg.Fit
	if method == "twostage" {
		fit, err = distreg.TwoStageKRR(ctx, bags, distreg.TwoStageKRRConfig{Kernel: k, Lambda: spec.Lambda, Lambdas: spec.Lambdas, Holdout: h})
	} else {
		fit, err = distreg.TailSGD(ctx, bags, distreg.TailSGDConfig{Kernel: k, Batch: spec.Batch, StepSize: spec.StepSize,
			Iter: spec.Iters, Holdout: h, Seed: spec.Seed})
	}
	if err != nil {
		return nil, err
	}
	return &BagModel{Spec: spec, Features: p.d.features, Mean: p.d.mean, Scale: p.d.scale, Lambda: fit.Lambda,
		Iter: fit.Iter, ValRMSE: fit.ValRMSE, Bags: len(groups), Predictor: fit.Model, Fit: fit}, nil
}

// bagKernel builds the spec's kernel on embeddings of d-dimensional points.
func bagKernel(s *BagSpec, d int) (distreg.Kernel, error) {
	k := distreg.Kernel{Inner: credlab.GaussianKernel{Sigma: s.Sigma}}
	switch strings.ToLower(s.FeatureMap) {
	case "":
	case "fourier", "rff":
		s.FeatureMap = "fourier"
		if s.M == 0 {
			s.M = 100
		}
		fm, err := credlab.NewRandomFourier(d, s.M, s.Sigma, s.Seed)
		if err != nil {
			return k, err
		}
		k.Features = fm
	default:
		return k, &credlab.ParamError{Name: "BagSpec.FeatureMap", Value: strconv.Quote(s.FeatureMap), Want: `"" (exact embeddings) or fourier`}
	}
	switch strings.ToLower(s.Outer) {
	case "", "linear":
		k.Outer = distreg.LinearOuter{}
	case "gaussian":
		if s.OuterSigma == 0 {
			s.OuterSigma = 1
		}
		k.Outer = distreg.GaussianOuter{Sigma: s.OuterSigma}
	default:
		return k, &credlab.ParamError{Name: "BagSpec.Outer", Value: strconv.Quote(s.Outer), Want: "linear (the default) or gaussian"}
	}
	return k, k.Validate()
}

// prepareBags reads the points of df and groups the kept rows by bag, in
// order of first appearance.
func prepareBags(df dataframe.DataFrame, spec BagSpec) (*prepared, []string, [][]int, error) {
	if err := checkFrame(df, "bag"); err != nil {
		return nil, nil, nil, err
	}
	if _, err := columnIndex(df.Names(), spec.Bag, "bag"); err != nil {
		return nil, nil, nil, err
	}
	for _, f := range spec.Features {
		if f == spec.Bag {
			return nil, nil, nil, problem(f, "feature", "is the bag column; remove it from the features")
		}
	}
	s := Spec{Target: spec.Target, Features: spec.Features, Exclude: append(append([]string(nil), spec.Exclude...), spec.Bag),
		Scale: scaleName(spec.Standardize), DropNA: spec.DropNA}
	p, err := prepare(df, &s, "bag")
	if err != nil {
		return nil, nil, nil, err
	}
	ids, groups := groupRows(df.Col(spec.Bag), p.rows)
	return p, ids, groups, nil
}

// groupRows groups the positions of rows (frame rows) by the bag id in
// col, in order of first appearance; ids are the ids as strings.
func groupRows(col series.Series, rows []int) ([]string, [][]int) {
	rec := col.Records()
	index := map[string]int{}
	var ids []string
	var groups [][]int
	for pos, r := range rows {
		id := rec[r]
		j, ok := index[id]
		if !ok {
			j = len(ids)
			index[id] = j
			ids = append(ids, id)
			groups = append(groups, nil)
		}
		groups[j] = append(groups[j], pos)
	}
	return ids, groups
}

// PredictBags returns one row per bag of df, in order of first
// appearance, with the bag identifier (as a string, in the model's Bag
// column), the number of points ("points") and the prediction
// ("prediction"). Point columns are matched by name.
func PredictBags(m *BagModel, df dataframe.DataFrame) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if m == nil || m.Predictor == nil {
		return none, emptyf("predict with an empty bag model")
	}
	spec := BagSpec{Bag: m.Spec.Bag, Features: m.Features, DropNA: m.Spec.DropNA}
	if err := checkFrame(df, "bag"); err != nil {
		return none, err
	}
	if _, err := columnIndex(df.Names(), spec.Bag, "bag"); err != nil {
		return none, err
	}
	d := &design{features: m.Features, mean: m.Mean, scale: m.Scale, isString: map[int]int{}}
	ex, err := d.extract(df, "", "", false)
	if err != nil {
		return none, err
	}
	if ex.nNA > 0 && !m.Spec.DropNA {
		return none, fmt.Errorf("%w; the model was fitted without DropNA, so it cannot predict those rows", ex.missingError())
	}
	keep := keptRows(ex.na)
	if len(keep) == 0 {
		return none, emptyf("every row has a missing value (%s)", ex.missing)
	}
	x := d.matrix(ex, keep)
	ids, groups := groupRows(df.Col(spec.Bag), keep)
	bags := &distreg.Bags{X: make([]*mat.Dense, len(groups))}
	points := make([]int, len(groups))
	for j, g := range groups {
		if bags.X[j], err = credlab.GatherRows(x, g); err != nil {
			return none, err
		}
		points[j] = len(g)
	}
	p, err := m.Predictor.Predict(bags)
	if err != nil {
		return none, err
	}
	return dataframe.New(series.New(ids, series.String, spec.Bag), series.New(points, series.Int, "points"),
		series.New(p, series.Float, PredictionColumn)), nil
}
