package nytro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// Spec configures Benchmark. Zero fields take the defaults
// given.
type Spec struct {
	// Target is the target column (required).
	Target string
	// Features are the feature columns; default every column but Target.
	Features []string
	// Methods are the methods fitted, of KOLS, KRLS, EarlyStopping, NKRLS
	// and NYTRO (in any case); default all five.
	Methods []string
	// Sigma is the Gaussian kernel's width (required; the paper gives one
	// per data set).
	Sigma float64
	// Ms are the numbers of Nyström centers of NKRLS and NYTRO, one fit per
	// value (Figure 2); default {credlab.DefaultNystromM}.
	Ms []int
	// Seeds: one fit per seed (hold-out split and centers); default {1}.
	// KOLS, which has neither, runs once.
	Seeds []uint64
	// Steps, when positive, runs EarlyStopping and NYTRO for exactly Steps
	// steps with the stopping rule off (Figure 2 times 500); default the
	// paper's rule, capped at 500 steps.
	Steps int
}

// Benchmark is BenchmarkContext without cancellation.
func Benchmark(train, test dataframe.DataFrame, spec Spec) (dataframe.DataFrame, error) {
	return BenchmarkContext(context.Background(), train, test, spec)
}

// BenchmarkContext runs the comparison of the NYTRO paper's Table 2
// (and, with several Ms, its Figure 2) on frames: each method is fitted
// on train with the settings of `credlab reproduce nytro` (fitMethod: the
// paper's plain gradient steps of size 1/max k(x, x) = 1, a 20% hold-out,
// lambda over LogGrid(1e-15, 1, 100)) once per seed and number of
// centers, and scored on test. It returns one row per fit: "method",
// "seed", "sigma", "m" (0 for the exact methods), "lambda" and "iter" (the
// chosen regularization; 0 when unused), "val_rmse" (NaN without
// hold-out), "test_rmse", "test_error" (the share of sign errors when the
// test target holds only -1 and +1; NaN otherwise) and "seconds", the
// solver's time (credlab.Fit.Timing.Total: kernel, solve and model
// selection).
func BenchmarkContext(ctx context.Context, train, test dataframe.DataFrame, spec Spec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := frames.CheckFrame(train, "training"); err != nil {
		return none, err
	}
	if err := frames.CheckFrame(test, "test"); err != nil {
		return none, err
	}
	if !(spec.Sigma > 0) || math.IsInf(spec.Sigma, 1) {
		return none, &credlab.ParamError{Name: "nytro.Spec.Sigma", Value: spec.Sigma, Want: "a positive, finite kernel width"}
	}
	methods, err := canonicalMethods(spec.Methods)
	if err != nil {
		return none, err
	}
	ms, seeds := spec.Ms, spec.Seeds
	if len(ms) == 0 {
		ms = []int{credlab.DefaultNystromM}
	}
	for _, m := range ms {
		if m <= 0 {
			return none, &credlab.ParamError{Name: "nytro.Spec.Ms", Value: m, Want: "positive numbers of centers"}
		}
	}
	if len(seeds) == 0 {
		seeds = []uint64{1}
	}
	if spec.Steps < 0 {
		return none, &credlab.ParamError{Name: "nytro.Spec.Steps", Value: spec.Steps, Want: "0 (the paper's stopping rule) or a positive number of steps"}
	}
	feats, err := frames.FeatureColumns(train, frames.Spec{Target: spec.Target, Features: spec.Features})
	if err != nil {
		return none, err
	}
	x, err := frames.ToMatrix(train, feats...)
	if err != nil {
		return none, fmt.Errorf("papers: training frame: %w", err)
	}
	xt, err := frames.ToMatrix(test, feats...)
	if err != nil {
		return none, fmt.Errorf("papers: test frame: %w", err)
	}
	y, err := frames.FiniteColumn(train, spec.Target)
	if err != nil {
		return none, fmt.Errorf("papers: training frame: %w", err)
	}
	yt, err := frames.Column(test, spec.Target)
	if err != nil {
		return none, fmt.Errorf("papers: test frame: %w", err)
	}
	var method []string
	var seedCol, mCol, iter []int
	var sigma, lambda, val, rmse, cerr, secs []float64
	for _, meth := range methods {
		mm, ss := ms, seeds
		if meth != methodNKRLS && meth != methodNYTRO {
			mm = []int{0}
		}
		if meth == methodKOLS {
			ss = ss[:1]
		}
		for _, m := range mm {
			for _, seed := range ss {
				steps := 0
				if meth == methodES || meth == methodNYTRO {
					steps = spec.Steps
				}
				fit, err := fitMethod(ctx, meth, x, y, spec.Sigma, m, seed, steps)
				if err != nil {
					return none, fmt.Errorf("papers: %s, m = %d, seed %d: %w", meth, m, seed, err)
				}
				pred, err := fit.Model.PredictContext(ctx, xt)
				if err != nil {
					return none, fmt.Errorf("papers: %s on the test frame: %w", meth, err)
				}
				method = append(method, meth)
				seedCol = append(seedCol, int(seed))
				sigma = append(sigma, spec.Sigma)
				mCol = append(mCol, m)
				lambda = append(lambda, fit.Lambda)
				iter = append(iter, fit.Iter)
				val = append(val, fit.ValRMSE)
				r, e := testScores(pred, yt)
				rmse = append(rmse, r)
				cerr = append(cerr, e)
				secs = append(secs, fit.Timing.Total().Seconds())
			}
		}
	}
	return dataframe.New(series.New(method, series.String, "method"),
		series.New(seedCol, series.Int, "seed"), series.New(sigma, series.Float, "sigma"),
		series.New(mCol, series.Int, "m"), series.New(lambda, series.Float, "lambda"),
		series.New(iter, series.Int, "iter"), series.New(val, series.Float, "val_rmse"),
		series.New(rmse, series.Float, "test_rmse"), series.New(cerr, series.Float, "test_error"),
		series.New(secs, series.Float, "seconds")), nil
}

// canonicalMethods returns the canonical names of methods (all five when
// empty), or an error naming one it does not know.
func canonicalMethods(methods []string) ([]string, error) {
	all := []string{methodKOLS, methodKRLS, methodES, methodNKRLS, methodNYTRO}
	if len(methods) == 0 {
		return all, nil
	}
	out := make([]string, len(methods))
	for i, m := range methods {
		j := slices.IndexFunc(all, func(a string) bool { return strings.EqualFold(a, m) })
		if j < 0 {
			return nil, &credlab.ParamError{Name: "nytro.Spec.Methods", Value: strconv.Quote(m), Want: "one of " + strings.Join(all, ", ")}
		}
		out[i] = all[j]
	}
	return out, nil
}

// fitMethod fits one Table 2 or Figure 2 method as the paper runs it, the
// one engine behind Benchmark and `credlab reproduce nytro`: the
// Gaussian kernel of width sigma, credlab's model-selection defaults (20%
// hold-out, LogGrid(1e-15, 1, 100), MaxIter 500, 5% threshold) with the
// paper's plain steps of size 1/max k(x, x) = 1 (Gaussian kernel), set
// explicitly, and seed for the split and the centers. A positive steps
// runs the gradient methods for exactly that many steps with the stopping
// rule off (Figure 2, and the t* study, runTStar).
func fitMethod(ctx context.Context, meth string, x *mat.Dense, y []float64, sigma float64, m int, seed uint64, steps int) (*credlab.Fit, error) {
	k := credlab.GaussianKernel{Sigma: sigma}
	h := credlab.Holdout{Seed: seed}
	ny := credlab.NystromConfig{M: m, Seed: seed}
	paper := credlab.IterConfig{Holdout: h, StepSize: 1, Plain: true}
	if steps > 0 {
		paper.MaxIter, paper.Threshold = steps, -1
	}
	est, ok := map[string]credlab.Estimator{
		methodKOLS:  credlab.KOLSConfig{Kernel: k},
		methodKRLS:  credlab.KRLSConfig{Kernel: k, Holdout: h},
		methodES:    credlab.EarlyStoppingConfig{Kernel: k, IterConfig: paper},
		methodNKRLS: credlab.NKRLSConfig{Kernel: k, Nystrom: ny, Holdout: h},
		methodNYTRO: credlab.NYTROConfig{Kernel: k, Nystrom: ny, IterConfig: paper},
	}[meth]
	if !ok {
		return nil, &credlab.ParamError{Name: "method", Value: strconv.Quote(meth), Want: strings.Join([]string{methodKOLS, methodKRLS, methodES, methodNKRLS, methodNYTRO}, ", ")}
	}
	return est.Fit(ctx, x, y, nil)
}

// testScores returns the RMSE over rows with a prediction and a target,
// and the sign error rate when every target is -1 or +1 (else NaN).
func testScores(pred, y []float64) (rmse, classErr float64) {
	sum, n, bad := 0.0, 0, 0
	binary := true
	for i, v := range y {
		if v != 1 && v != -1 {
			binary = false
		}
		if math.IsNaN(pred[i]) || math.IsNaN(v) {
			continue
		}
		sum += (pred[i] - v) * (pred[i] - v)
		n++
		if (pred[i] >= 0) != (v > 0) {
			bad++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	classErr = math.NaN()
	if binary {
		classErr = float64(bad) / float64(n)
	}
	return math.Sqrt(sum / float64(n)), classErr
}

// TimedOf returns the rows of a Benchmark frame as points for
// viz.TimeAccuracy: each fit's method, solver time ("seconds") and test
// RMSE ("test_rmse"); with several seeds, a method's mean time and RMSE.
func TimedOf(df dataframe.DataFrame) ([]viz.Timed, error) {
	s, err := frames.Summarize(df, []string{"method"}, "seconds", "test_rmse")
	if err != nil {
		return nil, fmt.Errorf("%w (pass the frame nytro.Benchmark returned)", err)
	}
	meth := s.Col("method").Records()
	mean := s.Col(frames.SummaryMean).Float()
	var out []viz.Timed
	for i := 0; i+1 < len(meth); i += 2 {
		out = append(out, viz.Timed{Name: meth[i], Seconds: mean[i], RMSE: mean[i+1]})
	}
	return out, nil
}
