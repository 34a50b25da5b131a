package credlab

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// EffectiveDimensions returns d_eff(lambda) = (1/N) sum_j s_j(lambda) =
// sum_i mu_i / (mu_i + N lambda) for each lambda, where mu_i are the
// eigenvalues of the N x N kernel matrix of x (fm nil) or of Phi^T Phi for
// the features Phi = fm(x). One eigendecomposition serves every lambda:
// O(N^3) with a kernel (pools of a few thousand rows), O(N D^2 + D^3) with
// a feature map, streamed over blocks of DefaultBlock rows.
func EffectiveDimensions(ctx context.Context, k Kernel, fm FeatureMap, x *mat.Dense, lambdas []float64) ([]float64, error) {
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	for _, l := range lambdas {
		if err := checkPositive("lambda", l); err != nil {
			return nil, err
		}
	}
	n, d := x.Dims()
	var g *mat.Dense
	if fm != nil {
		for lo := 0; lo < n; lo += DefaultBlock {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			phi, err := mapFeatures(fm, x.Slice(lo, min(lo+DefaultBlock, n), 0, d).(*mat.Dense), 0)
			if err != nil {
				return nil, err
			}
			pr := phi.RawMatrix()
			if g == nil {
				if err := checkAlloc("feature covariance", pr.Cols, pr.Cols); err != nil {
					return nil, err
				}
				g = mat.NewDense(pr.Cols, pr.Cols, nil)
			}
			gr := g.RawMatrix()
			blas64.Syrk(blas.Trans, 1, pr, 1, blas64.Symmetric{N: gr.Cols, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
		}
	} else {
		if err := checkKernel(k); err != nil {
			return nil, err
		}
		if err := checkAlloc("kernel matrix", n, n); err != nil {
			return nil, err
		}
		g = mat.NewDense(n, n, nil)
		kernelSym(g, k, x)
	}
	gr := g.RawMatrix()
	sym := mat.NewSymDense(gr.Cols, nil)
	for i := 0; i < gr.Cols; i++ {
		for j := 0; j <= i; j++ {
			sym.SetSym(i, j, gr.Data[i*gr.Stride+j])
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, false) {
		return nil, &NumericalError{Op: "the eigendecomposition behind d_eff did not converge"}
	}
	mu := eig.Values(nil)
	out := make([]float64, len(lambdas))
	for i, l := range lambdas {
		for _, m := range mu {
			m = max(m, 0)
			out[i] += m / (m + float64(n)*l)
		}
	}
	return out, nil
}

// ScoreSummary describes how far a pool's leverage scores are from
// uniform, the numbers a user reads before paying for labels.
type ScoreSummary struct {
	// N is the number of rows; Deff = sum(s)/N the effective dimension.
	N    int
	Deff float64
	// TV is the total-variation distance 0.5 sum_j |p_j - 1/N| between
	// p = s/sum(s) and uniform (0: flat scores, near 1: a few rows
	// carry everything).
	TV float64
	// Top1 is the share of the total score carried by the 1% of rows
	// (at least one) with the largest scores; 0.01 when scores are flat.
	Top1 float64
	// MaxOverMean is max(s) / mean(s), the factor by which uniform
	// sampling's guarantee (labels ~ N max_j s_j / N) exceeds leverage
	// sampling's (labels ~ d_eff).
	MaxOverMean float64
	// VarianceGain is the expected variance gain of CRED's distribution q
	// (CREDDistribution) over uniform labeling,
	//
	//	G = [(1/N) sum_j s_j^2] / [(1/N^2) sum_j s_j^2 / q_j].
	//
	// Derivation: with A_j = Sigma_lambda^-1/2 phi_j phi_j^T
	// Sigma_lambda^-1/2, whose Hilbert-Schmidt norm is the score s_j, the
	// importance-weighted estimate (1/n) sum_i A_{j_i}/(N q_{j_i}) of
	// A = (1/N) sum_j A_j from n draws has E||.-A||^2_HS =
	// (1/n)[(1/N^2) sum_j s_j^2/q_j - ||A||^2_HS]; uniform q_j = 1/N
	// gives (1/n)[(1/N) sum_j s_j^2 - ||A||^2_HS]. Their ratio is at
	// least G (the common term is dropped), so uniform labeling needs
	// about G times as many labels for the same variance of the
	// whitened covariance, the term behind the estimator's variance.
	// G >= 1 up to rounding, since q puts at least half the mass in
	// proportion to s.
	VarianceGain float64
}

// SummarizeScores returns the ScoreSummary of non-negative scores s in
// O(N log N) time.
func SummarizeScores(s []float64) (*ScoreSummary, error) {
	q, err := CREDDistribution(s)
	if err != nil {
		return nil, err
	}
	n := float64(len(s))
	tot := sum(s)
	r := &ScoreSummary{N: len(s), Deff: tot / n}
	var s2, s2q, mx float64
	for j, v := range s {
		r.TV += 0.5 * math.Abs(v/tot-1/n)
		s2 += v * v
		s2q += v * v / q[j]
		mx = max(mx, v)
	}
	r.MaxOverMean = mx / (tot / n)
	r.VarianceGain = (s2 / n) / (s2q / (n * n))
	sorted := append([]float64(nil), s...)
	sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
	top := max(1, len(s)/100)
	r.Top1 = sum(sorted[:top]) / tot
	return r, nil
}

// LearningCurveConfig configures ProjectLearningCurve. The zero value
// means the documented defaults, apart from Kernel and Lambda.
type LearningCurveConfig struct {
	// Kernel and Lambda are the model fitted on subsamples (KRLS with
	// importance weights); both are required.
	Kernel Kernel
	Lambda float64
	// Fractions are the subsample sizes as fractions of the pilot's
	// training part, default 0.2, 0.3, ..., 1.
	Fractions []float64
	// Repeats is the number of subsamples per size, default 5.
	Repeats int
	// Holdout is the fraction of the pilot held out to measure the
	// error, default 0.3.
	Holdout float64
	// Project lists the label counts to project to, default 1 ... 16
	// times the pilot size, doubling.
	Project []int
	// Seed seeds the split and the subsamples.
	Seed uint64
}

// LearningCurve is a measured and projected test error against the number
// of labels for one selection rule.
type LearningCurve struct {
	Method string
	// Labels and RMSE are the measured points (mean over repeats).
	Labels []int
	RMSE   []float64
	// A, B and Floor describe the curve RMSE(n) = sqrt(Floor^2 + (A n^-B)^2)
	// (At); Projected holds it at Project. ProjectLearningCurve fits A and
	// B by least squares on log RMSE against log n, with Floor 0; the
	// default fit's curve (Choice.Curve) has a noise floor.
	A, B, Floor float64
	Projected   []float64
	Project     []int
}

// At returns the curve's RMSE at n labels, sqrt(Floor^2 + (A n^-B)^2).
func (c LearningCurve) At(n float64) float64 {
	return math.Hypot(c.Floor, c.A*math.Pow(n, -c.B))
}

// Formula returns the curve as text: "A n^-B", or
// "sqrt(Floor^2 + (A n^-B)^2)" with a floor.
func (c LearningCurve) Formula() string {
	if c.Floor == 0 {
		return fmt.Sprintf("%.3g n^-%.3g", c.A, c.B)
	}
	return fmt.Sprintf("sqrt(%.3g^2 + (%.3g n^-%.3g)^2)", c.Floor, c.A, c.B)
}

// MinPilot is the fewest pilot labels ProjectLearningCurve accepts.
const MinPilot = 30

// ProjectLearningCurve measures, from a pilot batch of labels, how the test
// error falls with the number of labels under uniform labeling and under
// CRED, and projects both by a power law. The pilot (x, y) must be a uniform
// sample of the pool (so that its held-out part measures the pool's error),
// and q holds CRED's probabilities of the pilot rows (CREDDistribution of
// their scores, computed on the pool; renormalised here).
//
// Model: a random hold-out part H of the pilot measures RMSE; from the rest
// T, for each size n = f |T| and each repeat, n rows are drawn with
// replacement, uniformly or from q restricted to T with weights
// 1/(|T| q_j) (T stands for a pool much larger than n, where draws with
// and without replacement agree; without replacement every draw of |T|
// rows would be T itself), KRLS is fitted to the targets centered by their weighted
// mean (added back, as the default fit's intercept), and RMSE on H
// averaged over repeats. The
// curve RMSE(n) = A n^-B is fitted by least squares in log-log and
// evaluated at the projected label counts. A power law is the usual shape of
// kernel ridge learning curves (B = r/(2r + 1/b) under source and capacity
// conditions); it ignores the noise floor, so far projections are
// optimistic for both rules alike.
//
// A pilot of fewer than MinPilot rows is a *ParamError named "pilot labels". Cost: Repeats x
// len(Fractions) KRLS fits of at most |T| rows.
func ProjectLearningCurve(ctx context.Context, x *mat.Dense, y, q []float64, cfg LearningCurveConfig) ([]LearningCurve, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if n < MinPilot {
		return nil, &ParamError{Name: "pilot labels", Value: n, Want: fmt.Sprintf("at least %d pilot labels for a learning curve", MinPilot)}
	}
	if len(q) != n {
		return nil, shapef("%d pilot rows but %d CRED probabilities", n, len(q))
	}
	if err := checkProbs("q", q); err != nil {
		return nil, err
	}
	if err := checkKernel(cfg.Kernel); err != nil {
		return nil, err
	}
	if err := checkPositive("lambda", cfg.Lambda); err != nil {
		return nil, err
	}
	fr := cfg.Fractions
	if fr == nil {
		fr = []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	}
	reps := cfg.Repeats
	if reps <= 0 {
		reps = 5
	}
	ho := cfg.Holdout
	if ho == 0 {
		ho = 0.3
	}
	if !(ho > 0 && ho < 1) {
		return nil, &ParamError{Name: "LearningCurveConfig.Holdout", Value: ho, Want: "a fraction in (0, 1) (or zero for 0.3)"}
	}
	proj := cfg.Project
	if proj == nil {
		for m := n; m <= 16*n; m *= 2 {
			proj = append(proj, m)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6c637276))
	perm := rng.Perm(n)
	nh := max(1, int(math.Round(ho*float64(n))))
	hold, train := perm[:nh], perm[nh:]
	xh, yh := gatherRows(x, hold), pickValues(y, hold)
	qt := make([]float64, len(train))
	for i, j := range train {
		qt[i] = q[j]
	}
	tot := sum(qt)
	if !(tot > 0) {
		return nil, &ParamError{Name: "q", Value: tot, Want: "CRED probabilities of the pilot's training rows with a positive, finite sum"}
	}
	uni := make([]float64, len(train))
	for i := range qt {
		qt[i] /= tot
		uni[i] = 1 / float64(len(train))
	}
	var out []LearningCurve
	for _, rule := range []struct {
		name string
		q    []float64
	}{{"uniform", uni}, {"cred", qt}} {
		c := LearningCurve{Method: rule.name, Project: proj}
		for _, f := range fr {
			m := int(math.Round(f * float64(len(train))))
			if m < 5 {
				continue
			}
			acc := 0.0
			for r := 0; r < reps; r++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				sel, err := SampleDesign(rule.q, nil, m, WithReplacement, nil, rng.Uint64())
				if err != nil {
					return nil, err
				}
				rows := make([]int, m)
				for i, t := range sel.Index {
					rows[i] = train[t]
				}
				// Centered by the weighted mean, the default fit's intercept.
				ys := pickValues(y, rows)
				mu, sw := 0.0, 0.0
				for i, v := range ys {
					mu += sel.Weight[i] * v
					sw += sel.Weight[i]
				}
				mu /= sw
				for i := range ys {
					ys[i] -= mu
				}
				fit, err := KRLS(ctx, gatherRows(x, rows), ys, KRLSConfig{Kernel: cfg.Kernel, Lambda: cfg.Lambda, Weights: sel.Weight})
				if err != nil {
					return nil, err
				}
				pred, err := fit.Model.Predict(xh)
				if err != nil {
					return nil, err
				}
				se := 0.0
				for i, p := range pred {
					se += (p + mu - yh[i]) * (p + mu - yh[i])
				}
				acc += math.Sqrt(se / float64(len(yh)))
			}
			c.Labels = append(c.Labels, m)
			c.RMSE = append(c.RMSE, acc/float64(reps))
		}
		if len(c.Labels) < 2 {
			return nil, &ParamError{Name: "pilot labels", Value: n, Want: "enough for two subsample sizes of at least 5 rows; label more pilot rows"}
		}
		c.A, c.B = powerLaw(c.Labels, c.RMSE)
		for _, p := range proj {
			c.Projected = append(c.Projected, c.At(float64(p)))
		}
		out = append(out, c)
	}
	return out, nil
}

// powerLaw fits e = a n^-b by least squares on log e = log a - b log n.
func powerLaw(n []int, e []float64) (a, b float64) {
	var sx, sy, sxx, sxy float64
	k := float64(len(n))
	for i := range n {
		lx, ly := math.Log(float64(n[i])), math.Log(e[i])
		sx, sy, sxx, sxy = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly
	}
	slope := (k*sxy - sx*sy) / (k*sxx - sx*sx)
	return math.Exp((sy - slope*sx) / k), -slope
}

func pickValues(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = v[j]
	}
	return out
}
