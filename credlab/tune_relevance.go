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

// Relevance values of TuneConfig.Relevance.
const (
	// RelevanceAuto learns one scale per column (LearnScales) and keeps
	// them when they validate better than one shared scale: the default.
	RelevanceAuto = "auto"
	// RelevanceOff searches one shared scale (sigma) only.
	RelevanceOff = "off"
)

// Sizes of the relevance stage: at least minRelevanceRows rows; a held-out
// validation sample of up to relevanceValRows rows when at least
// minRelevanceVal rows remain beside the subsample, else both searches run
// up to the kernel family and the lower criterion wins; learned scales
// must lower the validation error (or the criterion) by relevanceMargin.
// Below nestedRelevanceRows rows, where scales learned and scored on the
// same rows overfit (measured: up to 2x the test RMSE of one scale at
// 60-200 rows of 10 columns), they must first win a relevanceFolds-fold
// cross-validation of the learning itself. Where that error (or, from
// nestedRelevanceRows rows, the leave-one-out error) of the learned scales
// is below relevanceDecisive of one scale's, the search with one scale is
// skipped.
const (
	minRelevanceRows    = 40
	minRelevanceVal     = 1000
	relevanceValRows    = 2000
	relevanceMargin     = 0.02
	relevanceDecisive   = 0.5
	relevanceShare      = 0.25
	nestedRelevanceRows = 1000
	relevanceFolds      = 5
	relevanceIters      = 30 // quasi-Newton iterations of each start
)

// relevanceFor says whether Tune learns column scales for cfg on d
// columns, and checks fixed ones.
func relevanceFor(cfg TuneConfig, n, d int) (bool, error) {
	mode := strings.ToLower(strings.TrimSpace(cfg.Relevance))
	switch mode {
	case "", RelevanceAuto, RelevanceOff:
	default:
		return false, &ParamError{Name: "TuneConfig.Relevance", Value: strconv.Quote(cfg.Relevance), Want: "auto (the default) or off"}
	}
	if cfg.Scales != nil {
		if len(cfg.Scales) != d {
			return false, &ParamError{Name: "TuneConfig.Scales", Value: len(cfg.Scales), Want: fmt.Sprintf("%d scales, one per column", d)}
		}
		return false, checkScales("TuneConfig.Scales", cfg.Scales)
	}
	gauss := cfg.Family == "" || cfg.Family == "gaussian" || cfg.Family == "rbf"
	return mode != RelevanceOff && gauss && cfg.Sigma == 0 && d >= 2 && n >= minRelevanceRows, nil
}

// tuneRelevance learns column scales and runs the search with them, or
// without them when they do not validate better. When alt is not nil and
// held-out rows validate the scales, the scales are learned and validated
// on alt's mapped columns too, and the columns whose kept candidate (one
// scale, or the learned ones) validates better by transformMargin win:
// used is then alt, and note the comparison's line for Choice.Stages.
func tuneRelevance(ctx context.Context, iso *tuner, x *mat.Dense, y []float64, cfg TuneConfig, alt *NormalScores) (*TuneFit, *NormalScores, string, error) {
	t0 := time.Now()
	n, d := x.Dims()
	perm := relevanceRows(n, cfg.Seed)
	ns := min(n, DefaultRelevanceRows)
	nv := min(n-ns, relevanceValRows)
	if nv < minRelevanceVal {
		nv = 0
	}
	sIdx := append([]int(nil), perm[:ns]...)
	sort.Ints(sIdx)
	var stop time.Time // the relevance stage takes at most relevanceShare of the budget
	if !iso.deadline.IsZero() {
		stop = t0.Add(time.Duration(relevanceShare * float64(iso.budget)))
	}
	iso.status("relevance", 0)
	if alt != nil && nv > 0 { // the columns and their normal scores, each in its half of the share
		stop = iso.sideStop()
	}
	rf, err := learnScales(ctx, gatherRows(x, sIdx), gather(y, sIdx), gatherWeights(cfg.Weights, sIdx), relevanceIters, stop)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, "", ctx.Err()
		}
		iso.out.Choice.Warnings = append(iso.out.Choice.Warnings, fmt.Sprintf("column scales not learned: %v", err))
		note := ""
		if alt != nil && nv > 0 {
			note = transformWhat(alt, d) + " left as they are: no learned scales to compare them with"
		}
		return iso.out, nil, note, iso.run(ctx)
	}
	learned := fmt.Sprintf("relevance: column scales learned on %d rows by leave-one-out (%d evaluations, start %s): %.4g against %.4g with one scale",
		ns, rf.Evals, rf.Start, rf.LOO, rf.IsoLOO)
	if nv == 0 {
		decisive := rf.LOO < relevanceDecisive*rf.IsoLOO
		if n < nestedRelevanceRows {
			vIso, vARD, err := crossValidateScales(ctx, x, y, cfg.Weights, perm, stop)
			if err != nil {
				if ctx.Err() != nil {
					return nil, nil, "", ctx.Err()
				}
				iso.out.Choice.Warnings = append(iso.out.Choice.Warnings, fmt.Sprintf("column scales not learned: %v", err))
				return iso.out, nil, "", iso.run(ctx)
			}
			verdict := fmt.Sprintf("relevance: scales learned on each %d-fold complement, validation MSE %.4g against %.4g with one scale", relevanceFolds, vARD, vIso)
			if !(vARD < (1-relevanceMargin)*vIso) {
				iso.stage("%s; one scale kept: %v", verdict, time.Since(t0).Round(time.Millisecond))
				return iso.out, nil, "", iso.run(ctx)
			}
			learned = verdict + "; " + learned
			decisive = vARD < relevanceDecisive*vIso
		}
		// Few rows: both searches, the lower criterion of the configured
		// kernel wins, unless the learned scales' error is decisive; the
		// other families are tried for the winner alone.
		var bIso sigmaResult
		if !decisive {
			if bIso, err = iso.searchKernel(ctx); err != nil {
				return nil, nil, "", err
			}
		}
		at, err := scaledTuner(x, y, cfg, rf.Scales, iso)
		if err != nil {
			return nil, nil, "", err
		}
		bARD, err := at.searchKernel(ctx)
		if err != nil {
			return nil, nil, "", err
		}
		took := time.Since(t0).Round(time.Millisecond) // the relevance stage and the searches
		why := fmt.Sprintf("no search with one scale, whose error is above %g times theirs", 1/relevanceDecisive)
		if !decisive {
			if !(bARD.score() < (1-relevanceMargin)*bIso.score()) {
				iso.done = at.done
				iso.stage("%s: %v", learned, took)
				iso.stage("relevance: one scale kept: criterion %.4g against %.4g with the learned scales", bIso.score(), bARD.score())
				return iso.out, nil, "", iso.complete(ctx, bIso)
			}
			why = fmt.Sprintf("criterion %.4g against %.4g with one scale", bARD.score(), bIso.score())
		}
		if err := at.complete(ctx, bARD); err != nil {
			return nil, nil, "", err
		}
		ard := unscaled(at, x, rf.Scales, "learned")
		ard.Choice.Stages = append([]string{fmt.Sprintf("%s: %v", learned, took), "relevance: learned scales kept: " + why}, ard.Choice.Stages...)
		return ard, nil, "", nil
	}
	vIdx := perm[ns : ns+nv]
	vIso, vARD, err := validateScales(ctx, x, y, cfg.Weights, sIdx, vIdx, rf, true)
	if err != nil {
		return nil, nil, "", err
	}
	var used *NormalScores
	note := ""
	if alt != nil {
		iso.begin("transform")
		xm, err := alt.Apply(x)
		if err != nil {
			return nil, nil, "", err
		}
		rfM, err := learnScales(ctx, gatherRows(xm, sIdx), gather(y, sIdx), gatherWeights(cfg.Weights, sIdx), relevanceIters, iso.sideStop())
		if err != nil && ctx.Err() != nil {
			return nil, nil, "", ctx.Err()
		}
		if err != nil {
			note = fmt.Sprintf("%s left as they are: column scales not learned on their normal scores: %v", transformWhat(alt, d), err)
		} else {
			mIso, mARD, err := validateScales(ctx, xm, y, cfg.Weights, sIdx, vIdx, rfM, true)
			if err != nil {
				return nil, nil, "", err
			}
			var keep bool
			note, keep = transformVerdict(alt, d, fmt.Sprintf("validation MSE on %d held-out rows (one scale or learned scales, as the relevance stage keeps)", nv), keptScalesError(mIso, mARD), keptScalesError(vIso, vARD))
			if keep {
				if iso, err = continuedTuner(xm, y, cfg, iso); err != nil {
					return nil, nil, "", err
				}
				x, rf, vIso, vARD, used = xm, rfM, mIso, mARD, alt
				learned = fmt.Sprintf("relevance: column scales learned on the %d rows' normal scores by leave-one-out (%d evaluations, start %s): %.4g against %.4g with one scale",
					ns, rf.Evals, rf.Start, rf.LOO, rf.IsoLOO)
			}
		}
	}
	verdict := fmt.Sprintf("%s; validation MSE on %d held-out rows %.4g against %.4g: %v", learned, nv, vARD, vIso, time.Since(t0).Round(time.Millisecond))
	if !(vARD < (1-relevanceMargin)*vIso) {
		iso.stage("%s; one scale kept", verdict)
		return iso.out, used, note, iso.run(ctx)
	}
	ard, err := tuneScaled(ctx, x, y, cfg, rf.Scales, "learned", iso)
	if err != nil {
		return nil, nil, "", err
	}
	ard.Choice.Stages = append([]string{verdict + "; learned scales kept"}, ard.Choice.Stages...)
	return ard, used, note, nil
}

// keptScalesError is the validation error of the candidate the relevance
// stage keeps: the learned scales' when lower by relevanceMargin, else one
// scale's.
func keptScalesError(iso, ard float64) float64 {
	if ard < (1-relevanceMargin)*iso {
		return ard
	}
	return iso
}

// crossValidateScales learns scales on the complement of each of
// relevanceFolds folds of the rows (dealt by perm) and returns the mean
// squared errors on the folds of exact KRLS with one scale and with the
// learned scales (validateScales), weighted by the folds' rows.
func crossValidateScales(ctx context.Context, x *mat.Dense, y, w []float64, perm []int, stop time.Time) (iso, ard float64, err error) {
	n := len(perm)
	for f := 0; f < relevanceFolds; f++ {
		var tr, va []int
		for i, r := range perm {
			if i%relevanceFolds == f {
				va = append(va, r)
			} else {
				tr = append(tr, r)
			}
		}
		sort.Ints(tr)
		rf, err := learnScales(ctx, gatherRows(x, tr), gather(y, tr), gatherWeights(w, tr), relevanceIters, stop)
		if err != nil {
			return 0, 0, err
		}
		vi, va2, err := validateScales(ctx, x, y, w, tr, va, rf, false)
		if err != nil {
			return 0, 0, err
		}
		iso += vi * float64(len(va)) / float64(n)
		ard += va2 * float64(len(va)) / float64(n)
	}
	return iso, ard, nil
}

// validationSigmas are the multiples of the learned sigma (1) at which
// validateScales's held-out check scores each candidate, and
// validationLambdas its lambda grid (LearnScales's bounds).
var (
	validationSigmas  = []float64{0.5, 0.71, 1, 1.41, 2}
	validationLambdas = LogGrid(1e-9, 10, 41)
)

// validateScales fits exact KRLS on the subsample rows sIdx with the
// learned scales and with the best shared scale, and returns their
// (weighted) mean squared errors on the rows vIdx. With retune, each
// candidate is scored at its best sigma (validationSigmas times the
// learned one) and lambda (validationLambdas) on vIdx, so that neither
// is judged by leave-one-out parameters tuned on the subsample alone;
// otherwise at its learned sigma and lambda. Cost: one exact
// regularization path, O(|sIdx|^3 + |vIdx| |sIdx|^2), per candidate and
// sigma.
func validateScales(ctx context.Context, x *mat.Dense, y, w []float64, sIdx, vIdx []int, rf *RelevanceFit, retune bool) (iso, ard float64, err error) {
	n, d := x.Dims()
	mean, sw := 0.0, 0.0
	for _, i := range sIdx {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		mean += wi * y[i]
		sw += wi
	}
	mean /= sw
	yc := make([]float64, n)
	for i, v := range y {
		yc[i] = v - mean
	}
	var wn []float64 // normalized to mean 1 on sIdx, as LearnScales's lambda assumes
	if w != nil {
		wn = make([]float64, n)
		for i, v := range w {
			wn[i] = v * float64(len(sIdx)) / sw
		}
	}
	isoScales := make([]float64, d)
	for j := range isoScales {
		isoScales[j] = rf.IsoScale
	}
	var out [2]float64
	for c, k := range []struct {
		s      []float64
		lambda float64
	}{{isoScales, rf.IsoLambda}, {rf.Scales, rf.Lambda}} {
		sigmas, grid := []float64{1}, []float64{k.lambda}
		if retune {
			sigmas, grid = validationSigmas, validationLambdas
		}
		out[c] = math.Inf(1)
		var failed error
		for _, sigma := range sigmas {
			kern := GaussianKernel{Sigma: sigma, Scales: k.s}
			s, err := newSplitKernel(x, yc, wn, kern, sIdx, vIdx)
			if err != nil {
				return 0, 0, err
			}
			fit, err := s.path(ctx, kern, grid, nil)
			if err != nil {
				if ctx.Err() != nil {
					return 0, 0, ctx.Err()
				}
				failed = err // no lambda of the grid solved at this sigma
				continue
			}
			out[c] = math.Min(out[c], fit.ValRMSE*fit.ValRMSE)
		}
		if math.IsInf(out[c], 1) {
			return 0, 0, failed
		}
	}
	return out[0], out[1], nil
}

// tuneScaled runs the search on x's columns multiplied by scales (columns
// scaled to zero left out), and returns its fit with the model, the
// kernel and the choice mapped back to x's columns.
// The search continues prev's time budget and progress count.
func tuneScaled(ctx context.Context, x *mat.Dense, y []float64, cfg TuneConfig, scales []float64, how string, prev *tuner) (*TuneFit, error) {
	t, err := scaledTuner(x, y, cfg, scales, prev)
	if err != nil {
		return nil, err
	}
	if err := t.run(ctx); err != nil {
		return nil, err
	}
	return unscaled(t, x, scales, how), nil
}

// scaledTuner returns a tuner on x's columns multiplied by scales (columns
// scaled to zero left out) that continues prev's time budget and progress
// count.
func scaledTuner(x *mat.Dense, y []float64, cfg TuneConfig, scales []float64, prev *tuner) (*tuner, error) {
	n, _ := x.Dims()
	kept := keptColumns(scales)
	if err := checkAlloc("scaled copy of the rows", n, len(kept)); err != nil {
		return nil, err
	}
	xs := mat.NewDense(n, len(kept), nil)
	for i := 0; i < n; i++ {
		src, dst := x.RawRowView(i), xs.RawRowView(i)
		for k, j := range kept {
			dst[k] = src[j] * scales[j]
		}
	}
	cfg.Scales, cfg.Relevance = nil, RelevanceOff
	return continuedTuner(xs, y, cfg, prev)
}

// continuedTuner returns a tuner on other columns of prev's rows (checked,
// the target centered) that continues prev's time budget and progress
// count.
func continuedTuner(x *mat.Dense, y []float64, cfg TuneConfig, prev *tuner) (*tuner, error) {
	if !prev.deadline.IsZero() {
		cfg.TimeBudget = max(time.Until(prev.deadline), time.Nanosecond)
	}
	t, err := setupTuner(x, y, cfg, prev)
	if err != nil {
		return nil, err
	}
	t.start, t.done, t.budget = prev.start, prev.done, prev.budget
	return t, nil
}

// keptColumns lists the columns whose scale is positive.
func keptColumns(scales []float64) []int {
	var kept []int
	for j, s := range scales {
		if s > 0 {
			kept = append(kept, j)
		}
	}
	return kept
}

// unscaled returns the fit of scaledTuner's t, run, with the model, the
// kernel and the choice mapped back to x's columns.
func unscaled(t *tuner, x *mat.Dense, scales []float64, how string) *TuneFit {
	out := t.out
	ch := &out.Choice
	ch.Scales = append([]float64(nil), scales...)
	ch.ScalesFrom = how
	ch.Kernel = withScales(t.fam(ch.Sigma), ch.Scales)
	m := out.Fit.Model
	m.Kernel = ch.Kernel
	c, _ := m.Centers.Dims()
	_, d := x.Dims()
	kept := keptColumns(scales)
	centers := mat.NewDense(c, d, nil)
	for i := 0; i < c; i++ {
		src, dst := m.Centers.RawRowView(i), centers.RawRowView(i)
		for k, j := range kept {
			dst[j] = src[k] / scales[j]
		}
	}
	m.Centers = centers
	return out
}

// Relevance returns each column's scale relative to the largest, in
// [0, 1]; nil when the choice has one shared scale.
func (c Choice) Relevance() []float64 {
	if c.Scales == nil {
		return nil
	}
	return relativeScales(c.Scales)
}
