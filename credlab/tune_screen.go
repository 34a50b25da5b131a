package credlab

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// tryLeverageCenters scores the chosen sigma and m with centers drawn by
// approximate ridge leverage scores (LeverageCenters: BLESS with a
// dictionary of max(400, 2m) rows, about 4 n m^2 for its last pass, then
// one evaluation, 2 n m^2) and returns that result when its criterion is
// lower by more than 1% (the grow stage's margin). It is skipped when m
// covers every training row; a failure of the sampler or of the
// evaluation is a warning, and uniform centers are kept. Uniform
// centers waste m on dense regions; leverage centers follow the rows the
// kernel finds hard to predict (on cpusmall they came within 1% of exact
// KRLS with half the centers, docs/budget.md).
func (t *tuner) tryLeverageCenters(ctx context.Context, best sigmaResult) (sigmaResult, error) {
	if best.m >= len(t.train) {
		return best, nil // every row is a center either way
	}
	// Leverage scores, one evaluation at m and a final fit that draws the
	// centers again: about 1.5 times the stage before (on 50,000 x 50 rows,
	// 40 s after a growth stage of 35 s).
	if !t.affords(max(3*t.lastEval, 3*t.lastStage/2), "trying leverage-score centers") {
		return best, nil
	}
	t.begin("centers")
	t0 := time.Now()
	ev, err := t.nystromEval(ctx, best.m, LeverageCenters{Kernel: t.fam(best.sigma)})
	if err == nil {
		var ok bool
		if ok, err = t.screened(ctx, ev, best.sigma, best, 0.01, fmt.Sprintf("centers: m = %d leverage-score centers", best.m)); err == nil && !ok {
			return best, nil
		}
	}
	if err == nil {
		var r sigmaResult
		if r, err = t.evalSigma(ctx, ev, best.sigma, "centers", 0); err == nil {
			gain := (best.score() - r.score()) / best.score()
			t.stage("centers: m = %d leverage-score centers score %.4g (%+.2f%% against uniform): %v", best.m, r.score(), -100*gain, time.Since(t0).Round(time.Millisecond))
			if gain > 0.01 {
				t.out.Choice.Centers = "leverage"
				return r, nil
			}
			return best, nil
		}
	}
	if ctx.Err() != nil {
		return best, ctx.Err()
	}
	t.out.Choice.Warnings = append(t.out.Choice.Warnings, fmt.Sprintf("leverage-score centers not tried: %v", err))
	return best, nil
}

// screened reports whether ev at sigma scores lower than best by more
// than the share minGain on fold 0 alone: a paired screen (the same rows
// predicted, one reduction instead of one per fold) before a full
// cross-validation of another sigma, more centers or other centers. With
// other criteria it always passes.
func (t *tuner) screened(ctx context.Context, ev *nystromEvaluator, sigma float64, best sigmaResult, minGain float64, what string) (bool, error) {
	if t.cv == nil || !(best.first > 0) {
		return true, nil
	}
	t0 := time.Now()
	f0, err := ev.screen(ctx, sigma)
	if err != nil {
		return false, err
	}
	gain := (best.first - f0) / best.first
	if gain > minGain {
		return true, nil
	}
	t.stage("%s screened out on fold 1 of %d: %.4g against %.4g at sigma %.4g (%+.2f%%): %v", what, t.cv.k(), f0, best.first, best.sigma, -100*gain, time.Since(t0).Round(time.Millisecond))
	return false, nil
}

// screenedGrowth is screened for a doubling of m to m2 at the best sigma,
// with the grow stage's margin of 1%. Under cross-validation, once m2
// reaches the n_t rows that fold 0's model trains on, exact KRLS on those
// rows (exactScreen: one O(4/3 n_t^3) reduction of their kernel matrix,
// no Nyström features) stands in for the Nyström model of m2 centers,
// whose n m2^2 Gram pass and m2 x m2 reduction cost more and which
// approaches it (about three times faster at n_t = 4000,
// docs/benchmarks.md). Where the exact screen does not fit the memory limit,
// the Nyström screen runs.
func (t *tuner) screenedGrowth(ctx context.Context, ev *nystromEvaluator, best sigmaResult, m2 int) (bool, error) {
	what := fmt.Sprintf("grow: m = %d", m2)
	if t.cv == nil || !(best.first > 0) {
		return t.screened(ctx, ev, best.sigma, best, 0.01, what)
	}
	_, y0, _ := t.cv.fold(0)
	nt := len(t.cv.y) - len(y0)
	if m2 < nt {
		return t.screened(ctx, ev, best.sigma, best, 0.01, what)
	}
	t0 := time.Now()
	f0, err := t.exactScreen(ctx, best.sigma)
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return t.screened(ctx, ev, best.sigma, best, 0.01, what)
	}
	if err != nil {
		return false, err
	}
	gain := (best.first - f0) / best.first
	if gain > 0.01 {
		return true, nil
	}
	t.stage("%s screened out on fold 1 of %d by exact KRLS on the %d rows it trains on (m = %d reaches them): %.4g against %.4g at sigma %.4g (%+.2f%%): %v",
		what, t.cv.k(), nt, m2, f0, best.first, best.sigma, -100*gain, time.Since(t0).Round(time.Millisecond))
	return false, nil
}
