package nytro

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/papers/internal/report"
)

// The t* study. With MaxIter 500 every EarlyStopping and NYTRO run of
// Table 2 stops at the cap, while the paper reports t* = 494 and 491 on
// InsuranceCompany and about 39 and 45 on Adult. nytRunTStar runs the same
// fits (the paper's plain steps of size 1, the same splits and centers)
// for nytTStarConfig.steps steps with the stopping rule off and reads
// from each validation path the best iteration without a cap and the
// iteration at which candidate stopping rules would have stopped.

// nytTStarConfig sizes the study.
type nytTStarConfig struct {
	steps     int // steps run without a stopping rule
	esMaxRows int // EarlyStopping (O(n^2) a step) runs only up to this many training rows
	esReps    int // EarlyStopping repetitions (NYTRO runs all of cfg.reps)
}

// nytRelEps are the relative-improvement rules studied: stop after the
// first step t whose validation RMSE improved on step t-1 by less than
// eps e_{t-1}, and return the best iterate so far.
var nytRelEps = []float64{1e-3, 1e-4, 1e-5}

// nytTStar is one uncapped run.
type nytTStar struct {
	dataset, method string
	seed, steps     int
	best            int // argmin of the validation RMSE over all steps
	bestVal         float64
	bestTest        float64 // test RMSE of the best iterate
	rule5           int     // t* of the 5% rule (stop once val > 1.05 best so far) without a cap
	rel             []int   // t* of the nytRelEps rules
}

// nytRunTStar runs the study on one data set.
func nytRunTStar(ctx context.Context, c *nytCase, cfg nytConfig, w io.Writer) ([]nytTStar, error) {
	n, _ := c.xTrain.Dims()
	var out []nytTStar
	for _, meth := range []string{nytES, nytNYTRO} {
		reps := cfg.reps
		if meth == nytES {
			if n > cfg.tstar.esMaxRows {
				fmt.Fprintf(w, "  t* study: %s skipped on %s (n = %d over %d rows: O(n^2) a step)\n", meth, c.name, n, cfg.tstar.esMaxRows)
				continue
			}
			reps = min(reps, cfg.tstar.esReps)
		}
		for s := 1; s <= reps; s++ {
			fit, err := nytFit(ctx, meth, c.xTrain, c.yTrain, c.sigma, c.m, uint64(s), cfg.tstar.steps)
			if err != nil {
				return nil, err
			}
			pred, err := fit.Model.PredictContext(ctx, c.xTest)
			if err != nil {
				return nil, err
			}
			val := make([]float64, len(fit.Path))
			for i, p := range fit.Path {
				val[i] = p.ValRMSE
			}
			r := nytTStar{dataset: c.name, method: meth, seed: s, steps: len(val), best: fit.Iter, bestVal: fit.ValRMSE,
				bestTest: credlab.RMSE(pred, c.yTest), rule5: nytStopRatio(val, 0.05)}
			for _, eps := range nytRelEps {
				r.rel = append(r.rel, nytStopRelative(val, eps))
			}
			fmt.Fprintf(w, "  t* study: %s %s seed %d: best t %d of %d (val %.4f, test %.4f); 5%% rule %d; relative rules %v\n",
				c.name, meth, s, r.best, r.steps, r.bestVal, r.bestTest, r.rule5, r.rel)
			out = append(out, r)
		}
	}
	return out, nil
}

// nytStopRatio returns the iteration (1-based) the rule "stop once the
// validation RMSE exceeds (1 + th) times its best so far" returns: the best
// before it stops, or the best over the path when it never stops.
func nytStopRatio(val []float64, th float64) int {
	best := 0
	for t, v := range val {
		if v < val[best] {
			best = t
		}
		if v > (1+th)*val[best] {
			break
		}
	}
	return best + 1
}

// nytStopRelative returns the iteration (1-based) the rule "stop after the
// first step that improves the validation RMSE by less than eps times the
// previous one" returns: the best iterate up to that step.
func nytStopRelative(val []float64, eps float64) int {
	best := 0
	for t, v := range val {
		if v < val[best] {
			best = t
		}
		if t > 0 && val[t-1]-v < eps*val[t-1] {
			break
		}
	}
	return best + 1
}

// nytTStarMarkdown is the study's table: per data set and method, means
// over the repetitions.
func nytTStarMarkdown(res *nytResults) string {
	if len(res.tstar) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n**t* without the cap** (%d steps of the paper's plain iteration, step 1, stopping rule off, the same splits and centers as Table 2; "+
		"means over the seeds; the rule columns give the iteration each stopping rule would return on the same validation path)\n\n", res.cfg.tstar.steps)
	b.WriteString("| Dataset | Method | Seeds | best t | val RMSE at best | test RMSE at best | 5% rule, no cap |")
	for _, eps := range nytRelEps {
		fmt.Fprintf(&b, " improvement < %g |", eps)
	}
	b.WriteString(" paper t* |\n|---|---|---|---|---|---|---|")
	for range nytRelEps {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	type key struct{ d, m string }
	var order []key
	groups := map[key][]nytTStar{}
	for _, r := range res.tstar {
		k := key{r.dataset, r.method}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, k := range order {
		g := groups[k]
		mean := func(f func(nytTStar) float64) float64 {
			s := 0.0
			for _, r := range g {
				s += f(r)
			}
			return s / float64(len(g))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %.0f | %.4f | %.4f | %.0f |", k.d, k.m, len(g),
			mean(func(r nytTStar) float64 { return float64(r.best) }), mean(func(r nytTStar) float64 { return r.bestVal }),
			mean(func(r nytTStar) float64 { return r.bestTest }), mean(func(r nytTStar) float64 { return float64(r.rule5) }))
		for i := range nytRelEps {
			fmt.Fprintf(&b, " %.0f |", mean(func(r nytTStar) float64 { return float64(r.rel[i]) }))
		}
		fmt.Fprintf(&b, " %s |\n", nytPaper[k.d][k.m].par)
	}
	return b.String()
}

// nytTStarRows is tstar.csv.
func nytTStarRows(res *nytResults) [][]string {
	head := []string{"dataset", "method", "seed", "steps", "best_t", "best_val_rmse", "best_test_rmse", "rule5_t"}
	for _, eps := range nytRelEps {
		head = append(head, "rel_"+report.G8(eps)+"_t")
	}
	rows := [][]string{head}
	for _, r := range res.tstar {
		row := []string{r.dataset, r.method, strconv.Itoa(r.seed), strconv.Itoa(r.steps), strconv.Itoa(r.best),
			report.G8(r.bestVal), report.G8(r.bestTest), strconv.Itoa(r.rule5)}
		for _, t := range r.rel {
			row = append(row, strconv.Itoa(t))
		}
		rows = append(rows, row)
	}
	return rows
}
