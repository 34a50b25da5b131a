package credlab

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Transform values of TuneConfig.Transform.
const (
	// TransformAuto maps the skewed columns (SkewedColumns) to normal
	// scores (NormalScores) when that lowers the validation error of the
	// relevance stage, or the isotropic leave-one-out error on its
	// subsample when it has no held-out rows, by transformMargin: the
	// default.
	TransformAuto = "auto"
	// TransformOff leaves the columns as they are.
	TransformOff = "off"
	// TransformNormal maps the skewed columns to normal scores.
	TransformNormal = "normal"
)

// transformMargin is how much lower the mapped columns' validation or
// leave-one-out error must be for TransformAuto to map them.
const transformMargin = 0.02

// transformCandidate returns the normal-score map of x's skewed columns
// that TuneConfig.Transform may apply (nil for none) and whether it is to
// be applied without a comparison (TransformNormal). TransformAuto
// considers it only when no sigma, sigma grid or column scales are given
// (they would be the columns' own), on at least minRelevanceRows rows.
func (t *tuner) transformCandidate(x *mat.Dense) (*NormalScores, bool, error) {
	cfg := t.cfg
	mode := strings.ToLower(strings.TrimSpace(cfg.Transform))
	switch mode {
	case "", TransformAuto, TransformOff, TransformNormal:
	default:
		return nil, false, &ParamError{Name: "TuneConfig.Transform", Value: strconv.Quote(cfg.Transform), Want: "auto (the default), off or normal"}
	}
	n, _ := x.Dims()
	if mode == TransformOff || (mode != TransformNormal && (cfg.Sigma != 0 || cfg.Sigmas != nil || cfg.Scales != nil || n < minRelevanceRows)) {
		return nil, false, nil
	}
	cols := SkewedColumns(x)
	if len(cols) == 0 {
		return nil, false, nil
	}
	warp, err := FitNormalScores(x, cols)
	return warp, mode == TransformNormal, err
}

// transformWhat describes the map's columns for Choice.Stages.
func transformWhat(warp *NormalScores, d int) string {
	return fmt.Sprintf("transform: %d skewed columns of %d (|skewness| > %g)", len(warp.Columns), d, float64(SkewThreshold))
}

// transformVerdict is the stage line of a comparison of the mapped
// columns' error with the unmapped columns', and whether the map wins by
// transformMargin.
func transformVerdict(warp *NormalScores, d int, how string, mapped, raw float64) (string, bool) {
	keep := mapped < (1-transformMargin)*raw
	verdict := "left as they are"
	if keep {
		verdict = "mapped to normal scores"
	}
	return fmt.Sprintf("%s %s: %s %.4g mapped against %.4g", transformWhat(warp, d), verdict, how, mapped, raw), keep
}

// looTransform decides TransformAuto without held-out rows: it compares
// the least leave-one-out error of the Gaussian kernel with one shared
// scale (sigma and lambda optimized, as LearnScales's isotropic start) on
// the rows LearnScales would use, with and without the map, and returns
// the map when it wins (else nil) and a line for Choice.Stages. Cost: two
// such searches, O(2 n^3) per evaluation on at most DefaultRelevanceRows
// rows.
func (t *tuner) looTransform(ctx context.Context, x *mat.Dense, y []float64, warp *NormalScores) (*NormalScores, string, error) {
	t0 := time.Now()
	t.begin("transform")
	n, d := x.Dims()
	idx := append([]int(nil), relevanceRows(n, t.cfg.Seed)[:min(n, DefaultRelevanceRows)]...)
	sort.Ints(idx)
	xs := gatherRows(x, idx)
	xw, err := warp.Apply(xs)
	if err != nil {
		return nil, "", err
	}
	ys, ws := gather(y, idx), gatherWeights(t.cfg.Weights, idx)
	raw, err := isotropicLOO(ctx, xs, ys, ws, t.sideStop())
	if err != nil {
		return nil, "", err
	}
	mapped, err := isotropicLOO(ctx, xw, ys, ws, t.sideStop())
	if err != nil {
		return nil, "", err
	}
	line, keep := transformVerdict(warp, d, fmt.Sprintf("leave-one-out MSE of one shared scale on %d rows", len(idx)), mapped, raw)
	line += fmt.Sprintf(": %v", time.Since(t0).Round(time.Millisecond))
	if !keep {
		return nil, line, nil
	}
	return warp, line, nil
}

// sideStop is the deadline of one side of a comparison of the columns
// with their normal scores, from now: an eighth of the time budget, so
// that the two sides take at most the relevance stage's share (zero
// without a budget).
func (t *tuner) sideStop() time.Time {
	if t.deadline.IsZero() {
		return time.Time{}
	}
	return time.Now().Add(time.Duration(relevanceShare * float64(t.budget) / 2))
}

// isotropicLOO returns the least leave-one-out mean squared error (in
// units of the target's variance) of Gaussian kernel ridge regression on
// the rows x with one shared scale, over the scale and lambda; +Inf when
// the target is constant.
func isotropicLOO(ctx context.Context, x *mat.Dense, y, w []float64, stop time.Time) (float64, error) {
	p := newLOOProblem(x, y, w)
	if p == nil {
		return math.Inf(1), nil
	}
	p.stop = stop
	_, l, err := p.isotropic(ctx, relevanceIters)
	return l, err
}
