package papers

import (
	"fmt"
	"math"
	"strings"

	"github.com/credlab/credlab/frames"

	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Compare fits every spec on train once per seed (Spec.Seed set to it:
// the hold-out split, the Nyström centers and the random features) and
// scores each model on test, as in the NYTRO paper's Table 2. A spec with
// Method "kols", which has no hold-out or randomness, runs once, with the
// first seed. It returns one row per fit: "method", "setting" (the spec's
// index), "seed", "sigma" and "m" (0 when unused), "lambda" and "iter" (the
// chosen regularization; 0 when unused), "val_rmse" (NaN without
// hold-out), "test_rmse", "test_error" (the share of sign errors when the
// test target holds only -1 and +1; NaN otherwise) and "seconds", the
// solver's time (credlab.Fit.Timing.Total: kernel, solve and model
// selection). Without seeds every spec runs once with its own Seed.
func Compare(train, test dataframe.DataFrame, specs []frames.Spec, seeds []uint64) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := checkFrame(train, "training"); err != nil {
		return none, err
	}
	if err := checkFrame(test, "test"); err != nil {
		return none, err
	}
	if len(specs) == 0 {
		return none, fmt.Errorf("papers: Compare needs at least one spec")
	}
	var method []string
	var setting, seedCol, mCol, iter []int
	var sigma, lambda, val, rmse, cerr, secs []float64
	for si, spec := range specs {
		ss := seeds
		if len(ss) == 0 {
			ss = []uint64{spec.Seed}
		}
		if strings.EqualFold(spec.Method, "kols") {
			ss = ss[:1]
		}
		for _, seed := range ss {
			s := spec
			s.Seed = seed
			m, err := frames.Fit(train, s)
			if err != nil {
				return none, fmt.Errorf("papers: spec %d (%s), seed %d: %w", si, spec.Method, seed, err)
			}
			pred, err := m.PredictValues(test)
			if err != nil {
				return none, fmt.Errorf("papers: spec %d (%s) on the test frame: %w", si, spec.Method, err)
			}
			yt, err := frames.Column(test, s.Target)
			if err != nil {
				return none, fmt.Errorf("papers: test frame: %w", err)
			}
			method = append(method, m.Spec.Method)
			setting = append(setting, si)
			seedCol = append(seedCol, int(seed))
			sg, mm := m.Sigma(), m.Centers()
			sigma = append(sigma, sg)
			mCol = append(mCol, mm)
			lambda = append(lambda, m.Lambda)
			iter = append(iter, m.Iter)
			val = append(val, m.ValRMSE)
			r, e := testScores(pred, yt)
			rmse = append(rmse, r)
			cerr = append(cerr, e)
			t := math.NaN()
			if m.Fit != nil {
				t = m.Fit.Timing.Total().Seconds()
			}
			secs = append(secs, t)
		}
	}
	return dataframe.New(series.New(method, series.String, "method"), series.New(setting, series.Int, "setting"),
		series.New(seedCol, series.Int, "seed"), series.New(sigma, series.Float, "sigma"),
		series.New(mCol, series.Int, "m"), series.New(lambda, series.Float, "lambda"),
		series.New(iter, series.Int, "iter"), series.New(val, series.Float, "val_rmse"),
		series.New(rmse, series.Float, "test_rmse"), series.New(cerr, series.Float, "test_error"),
		series.New(secs, series.Float, "seconds")), nil
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

// TimedOf returns the rows of a Compare frame as points for
// viz.TimeAccuracy: each fit's method, solver time ("seconds") and test
// RMSE ("test_rmse"); with several seeds, a method's mean time and RMSE.
func TimedOf(df dataframe.DataFrame) ([]viz.Timed, error) {
	s, err := frames.Summarize(df, []string{"method"}, "seconds", "test_rmse")
	if err != nil {
		return nil, fmt.Errorf("%w (pass the frame Compare returned)", err)
	}
	meth := s.Col("method").Records()
	mean := s.Col(frames.SummaryMean).Float()
	var out []viz.Timed
	for i := 0; i+1 < len(meth); i += 2 {
		out = append(out, viz.Timed{Name: meth[i], Seconds: mean[i], RMSE: mean[i+1]})
	}
	return out, nil
}
