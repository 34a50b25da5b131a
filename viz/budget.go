package viz

import (
	"fmt"
	"sort"

	"github.com/credlab/credlab/credlab"
)

// EffectiveDimension plots d_eff(lambda) against lambda on log-log axes
// (credlab.EffectiveDimensions): the number of labels leverage sampling
// needs grows with it. Defaults: title "Effective dimension", x "λ",
// y "d_eff(λ)".
func EffectiveDimension(lambdas, deff []float64, opt Options) (*Figure, error) {
	opt.LogX, opt.LogY = true, true
	return lineFigure([]Series{{Name: "d_eff(λ) = Σ_j s_j(λ) / N", X: lambdas, Y: deff}}, opt,
		"Effective dimension", "λ", "d_eff(λ)")
}

// ScoreConcentration plots the share of the pool's total leverage score
// carried by the top-scoring rows (a Lorenz curve, rows sorted by
// decreasing score) against the share of rows, beside the uniform
// diagonal; the legend gives the top-1% share, the total-variation distance
// from uniform and CRED's variance gain (credlab.SummarizeScores). At most
// 400 points are drawn, whatever the pool size. Defaults: title
// "Concentration of the leverage scores", x "share of rows (by decreasing
// score)", y "share of the total score".
func ScoreConcentration(scores []float64, opt Options) (*Figure, error) {
	sum, err := credlab.SummarizeScores(scores)
	if err != nil {
		return nil, fmt.Errorf("viz: %w", err)
	}
	s := append([]float64(nil), scores...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	n := len(s)
	tot := 0.0
	for _, v := range s {
		tot += v
	}
	k := min(n, 400)
	x, y := []float64{0}, []float64{0}
	acc, j := 0.0, 0
	for i := 1; i <= k; i++ {
		end := i * n / k
		for ; j < end; j++ {
			acc += s[j]
		}
		x = append(x, float64(end)/float64(n))
		y = append(y, acc/tot)
	}
	b := newBuilder(opt, "Concentration of the leverage scores", "share of rows (by decreasing score)", "share of the total score")
	b.margin = true
	th, err := b.addLine(x, y, lineStyle(Color(0), false), false, nil)
	if err != nil {
		return nil, err
	}
	b.add(fmt.Sprintf("pool (%d rows)", n), th...)
	th, err = b.addLine([]float64{0, 1}, []float64{0, 1}, lineStyle(Color(1), true), false, nil)
	if err != nil {
		return nil, err
	}
	b.add("uniform scores", th...)
	b.add(fmt.Sprintf("top 1%% of rows: %.1f%% of the score", 100*sum.Top1))
	b.add(fmt.Sprintf("TV from uniform: %.2f", sum.TV))
	b.add(fmt.Sprintf("CRED variance gain: %.2fx", sum.VarianceGain))
	b.add(fmt.Sprintf("d_eff: %.3g", sum.Deff))
	return b.render()
}

// ProjectedLearningCurves plots the measured RMSE (markers: pilot
// subsamples, or cross-validation folds for the default fit's curve) and the
// fitted power laws A n^-B over the projected label counts for each
// credlab.LearningCurve, on log-log axes. A curve with B = 0 (the
// default fit's when its RMSE did not fall: Tune clamps the slope to
// [0, 0.5]) is drawn without a projection. Defaults: title "Projected
// test error against labels", x "labels", y "test RMSE".
func ProjectedLearningCurves(curves []credlab.LearningCurve, opt Options) (*Figure, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("viz: no learning curves")
	}
	opt.LogX, opt.LogY = true, true
	b := newBuilder(opt, "Projected test error against labels", "labels", "test RMSE")
	b.margin = true
	for i, c := range curves {
		if len(c.Labels) == 0 || len(c.RMSE) != len(c.Labels) || len(c.Projected) != len(c.Project) {
			return nil, fmt.Errorf("viz: learning curve %q has %d label counts, %d errors, %d projections for %d counts", c.Method, len(c.Labels), len(c.RMSE), len(c.Projected), len(c.Project))
		}
		mx := make([]float64, len(c.Labels))
		for k, v := range c.Labels {
			mx[k] = float64(v)
		}
		px := []float64{mx[0]}
		py := []float64{c.At(mx[0])}
		for k, v := range c.Project {
			px = append(px, float64(v))
			py = append(py, c.Projected[k])
		}
		for _, v := range [][]float64{mx, c.RMSE, px, py} {
			if err := checkLog(true, "x or y", c.Method, v); err != nil {
				return nil, err
			}
		}
		th, err := b.addLine(mx, c.RMSE, lineStyle(Color(i), false), true, glyph(i))
		if err != nil {
			return nil, err
		}
		if c.B == 0 && len(c.Labels) > 1 {
			b.add(c.Method+" (measured; not falling: no projection)", th...)
			continue
		}
		b.add(c.Method+" (measured)", th...)
		th, err = b.addLine(px, py, lineStyle(Color(i), true), false, nil)
		if err != nil {
			return nil, err
		}
		b.add(c.Method+" projected: "+c.Formula(), th...)
	}
	return b.render()
}
