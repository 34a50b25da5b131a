package papers

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/frames"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// This file holds the experiments of the CRED paper (Murata and Suzuki,
// "Gradient Descent in RKHS with Importance Labeling", AISTATS 2021): the two-dimensional Gaussian
// pool of Figures 1 and 2, repeated least-squares fits on a few labels
// (Figure 2) and the labeling benchmark of Figure 3.

// CREDToyPool returns the pool of the CRED paper's Figures 1 and 2: n rows
// with x1 ~ N(0, 1) and x2 ~ N(0, 0.01) (standard deviation 0.1), and one
// noisy label per row, y = x1 + x2 + noise * N(0, 1) (the paper: noise
// variance 0.01, noise = 0.1). The same seed gives the same pool.
func CREDToyPool(n int, noise float64, seed uint64) (dataframe.DataFrame, error) {
	if n <= 0 {
		return dataframe.DataFrame{}, fmt.Errorf("papers: CREDToyPool of %d rows: must be positive", n)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return dataframe.DataFrame{}, fmt.Errorf("papers: CREDToyPool noise %v: must be finite and non-negative", noise)
	}
	rng := rand.New(rand.NewPCG(seed, 0x746f79))
	x1, x2, y := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range y {
		x1[i] = rng.NormFloat64()
		x2[i] = 0.1 * rng.NormFloat64()
		y[i] = x1[i] + x2[i] + noise*rng.NormFloat64()
	}
	return floatsFrame([]string{"x1", "x2", "y"}, [][]float64{x1, x2, y}), nil
}

// TrialSpec configures CoefficientTrials.
type TrialSpec struct {
	// Name labels the trials in the "labeling" column (default: the
	// selection method, "cred" or "uniform").
	Name string
	// Target is the label column; Features (default: every numeric column
	// but the target and the bookkeeping columns) the regressors, fitted
	// without intercept.
	Target   string
	Features []string
	// Labels is the number of rows labeled per trial (the paper: 3) and
	// Trials the number of trials (the paper: 1000).
	Labels, Trials int
	// Select draws the rows: all Labels x Trials rows in one call, so that
	// consecutive groups are independent draws (with replacement). Its
	// Features default to the trial's.
	Select frames.SelectSpec
	// Unweighted fits without the importance weights.
	Unweighted bool
	// Lambda is a ridge penalty lambda n ||b||^2; default 1e-10, negligible.
	Lambda float64
}

// CoefficientTrials repeats a small importance-labeling experiment (the
// CRED paper's Figure 2): Trials times, label Labels rows of pool drawn by
// spec.Select and fit (importance-weighted) least squares on them. It
// returns one row per trial: "labeling" (spec.Name), "trial" and one column
// per feature holding its coefficient.
func CoefficientTrials(pool dataframe.DataFrame, spec TrialSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := checkFrame(pool, "pool"); err != nil {
		return none, err
	}
	if spec.Target == "" {
		return none, fmt.Errorf("papers: TrialSpec.Target is required")
	}
	if spec.Labels <= 0 || spec.Trials <= 0 {
		return none, fmt.Errorf("papers: TrialSpec needs positive Labels and Trials (got %d and %d)", spec.Labels, spec.Trials)
	}
	if err := hasColumn(pool, spec.Target); err != nil {
		return none, err
	}
	feats, err := frames.FeatureColumns(pool, frames.Spec{Target: spec.Target, Features: spec.Features})
	if err != nil {
		return none, err
	}
	sel := spec.Select
	if len(sel.Features) == 0 && len(sel.Exclude) == 0 {
		sel.Features = feats
	}
	chosen, err := frames.Select(pool, spec.Labels*spec.Trials, sel)
	if err != nil {
		return none, err
	}
	x, err := frames.ToMatrix(chosen, feats...)
	if err != nil {
		return none, err
	}
	y, err := frames.Column(chosen, spec.Target)
	if err != nil {
		return none, err
	}
	if err := checkFinite(spec.Target, y); err != nil {
		return none, err
	}
	w, _ := frames.Column(chosen, frames.WeightColumn)
	lambda := spec.Lambda
	if lambda == 0 {
		lambda = 1e-10
	}
	name := spec.Name
	if name == "" {
		name = strings.ToLower(sel.Method)
		if name == "" {
			name = "cred"
		}
		if sel.Selector != nil {
			name = "custom"
		}
	}
	d := len(feats)
	coefs := make([][]float64, d)
	L := spec.Labels
	ctx := context.Background()
	for t := 0; t < spec.Trials; t++ {
		xt := x.Slice(t*L, (t+1)*L, 0, d).(*mat.Dense)
		cfg := credlab.LinearRLSConfig{Features: credlab.RawFeatures{}, Lambda: lambda}
		if !spec.Unweighted {
			cfg.Weights = w[t*L : (t+1)*L]
		}
		fit, err := credlab.LinearRLS(ctx, xt, y[t*L:(t+1)*L], cfg)
		if err != nil {
			return none, fmt.Errorf("papers: trial %d: %w", t, err)
		}
		for j := range coefs {
			coefs[j] = append(coefs[j], fit.Model.Coef[j])
		}
	}
	trial := make([]int, spec.Trials)
	labels := make([]string, spec.Trials)
	for t := range trial {
		trial[t], labels[t] = t, name
	}
	cols := []series.Series{series.New(labels, series.String, "labeling"), series.New(trial, series.Int, "trial")}
	for j, f := range feats {
		cols = append(cols, series.New(coefs[j], series.Float, f))
	}
	return dataframe.New(cols...), nil
}

// SpreadOf returns the coefficients b1 and b2 of the rows of trials whose
// "labeling" is name, for viz.CoefficientSpread, keeping the estimates
// with both coefficients in [lo, hi] (all of them when lo >= hi): least
// squares on a few labels has heavy tails that would squash the plot. It
// also returns the number of estimates left out.
func SpreadOf(trials dataframe.DataFrame, name, b1, b2 string, lo, hi float64) (viz.Spread, int, error) {
	if err := checkFrame(trials, "trials"); err != nil {
		return viz.Spread{}, 0, err
	}
	if err := hasColumn(trials, "labeling"); err != nil {
		return viz.Spread{}, 0, fmt.Errorf("%w (pass the frame CoefficientTrials returned)", err)
	}
	lab := trials.Col("labeling").Records()
	c1, err := frames.Column(trials, b1)
	if err != nil {
		return viz.Spread{}, 0, err
	}
	c2, err := frames.Column(trials, b2)
	if err != nil {
		return viz.Spread{}, 0, err
	}
	s := viz.Spread{Name: name}
	found, out := 0, 0
	for i, l := range lab {
		if l != name {
			continue
		}
		found++
		if lo < hi && !(c1[i] >= lo && c1[i] <= hi && c2[i] >= lo && c2[i] <= hi) {
			out++
			continue
		}
		s.B1 = append(s.B1, c1[i])
		s.B2 = append(s.B2, c2[i])
	}
	if found == 0 {
		return s, 0, fmt.Errorf("papers: no trials labeled %q", name)
	}
	return s, out, nil
}

// Labeling benchmark methods.
const (
	BenchCRED = "CRED"
	BenchKRR  = "KRR"
	BenchKTR3 = "KTR3"
	BenchSSSR = "SSSR"
)

// BenchmarkSpec configures LabelingBenchmark. Zero fields take the
// defaults given.
type BenchmarkSpec struct {
	// Features and Exclude choose the input columns of pool and test as
	// in frames.Spec (default: every numeric column).
	Features, Exclude []string
	// FeatureMap is the task: "raw" (the columns plus a constant: the
	// paper's linear task, default) or "relu" (a random ReLU network with
	// hidden widths Widths, default 500, 500, 500, N(0, 1) weights: the
	// nonlinear task).
	FeatureMap string
	Widths     []int
	// PoolLimit and TestLimit, when positive, subsample the pool and the
	// test rows (seeded).
	PoolLimit, TestLimit int
	// Ns are the labeled-set sizes (default 1000), NoiseVars the label
	// noise variances sigma^2 (default 1e-6, 1e-4, 1e-2, 1, 100, the
	// paper's), Reps the repetitions (default 1).
	Ns        []int
	NoiseVars []float64
	Reps      int
	// Methods is a subset of CRED, KRR, KTR3 and SSSR (default all).
	Methods []string
	// LambdaQs (CRED's lambda_q) and Lambdas (the ridge lambda of CRED,
	// KRR and KTR3) are in units of the mean eigenvalue tr(C)/D of the
	// pool's feature covariance C; defaults 1e-9, 1e-6, 1e-3 and 1e-12,
	// 1e-9, 1e-6, 1e-3.
	LambdaQs, Lambdas []float64
	// Labelings is the number of uniform labelings the baselines get
	// (default 1); SGrid the number of SSSR dimensions s tried, evenly
	// spaced up to min(rank, n) (default 4).
	Labelings, SGrid int
	// Floor drops eigenvalues of C below Floor times the largest, for the
	// target and SSSR (default 1e-10).
	Floor float64
	Seed  uint64
}

func (s *BenchmarkSpec) defaults() error {
	if len(s.Ns) == 0 {
		s.Ns = []int{1000}
	}
	s.Ns = append([]int(nil), s.Ns...)
	sort.Ints(s.Ns)
	if s.Ns[0] <= 0 {
		return fmt.Errorf("papers: labeled size %d: must be positive", s.Ns[0])
	}
	if len(s.NoiseVars) == 0 {
		s.NoiseVars = []float64{1e-6, 1e-4, 1e-2, 1, 100}
	}
	for _, v := range s.NoiseVars {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("papers: noise variance %v: must be finite and non-negative", v)
		}
	}
	if s.Reps <= 0 {
		s.Reps = 1
	}
	if len(s.Methods) == 0 {
		s.Methods = []string{BenchCRED, BenchKRR, BenchKTR3, BenchSSSR}
	}
	for i, m := range s.Methods {
		switch strings.ToUpper(m) {
		case BenchCRED, BenchKRR, BenchKTR3, BenchSSSR:
			s.Methods[i] = strings.ToUpper(m)
		default:
			return fmt.Errorf("papers: unknown benchmark method %q: choose CRED, KRR, KTR3 or SSSR", m)
		}
	}
	if len(s.LambdaQs) == 0 {
		s.LambdaQs = []float64{1e-9, 1e-6, 1e-3}
	}
	if len(s.Lambdas) == 0 {
		s.Lambdas = []float64{1e-12, 1e-9, 1e-6, 1e-3}
	}
	for _, v := range append(append([]float64(nil), s.LambdaQs...), s.Lambdas...) {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("papers: lambda %v: must be positive and finite", v)
		}
	}
	if s.Labelings <= 0 {
		s.Labelings = 1
	}
	if s.SGrid <= 0 {
		s.SGrid = 4
	}
	if s.Floor <= 0 {
		s.Floor = 1e-10
	}
	return nil
}

func (s *BenchmarkSpec) has(m string) bool {
	for _, x := range s.Methods {
		if x == m {
			return true
		}
	}
	return false
}

// LabelingBenchmark runs the CRED paper's Figure 3 protocol on a pool of
// unlabeled rows and a test set: features phi(x) from spec.FeatureMap; a
// random target f = phi . beta* with beta* = sum_i a_i e_i / sqrt(mu_i),
// a_i ~ N(0, 1), over the eigenpairs (mu_i, e_i) of the pool's feature
// covariance above the floor; one noisy label per pool row for each noise
// variance; then, for each labeled size n:
//
//   - CRED: n rows drawn by credlab.CREDSelector (one labeling per
//     lambda_q) and importance-weighted ridge regression (LinearRLS with
//     Weights);
//   - KRR: ridge regression on n rows drawn uniformly without replacement;
//   - KTR3: on the same rows, ridge regression on the first k rows, k
//     uniform on {0, ..., n-1}, predictions clipped at max |y|
//     (credlab.KTR3);
//   - SSSR: on the same rows, least squares on the top s eigenfunctions of
//     the pool covariance (credlab.SSSR).
//
// As in the paper (its footnote 4) each method reports its best test RMSE
// over its parameters (lambda_q and lambda, lambda, s) and labelings,
// measured against the noiseless test targets. It returns one row per
// method, n, noise variance and repetition: "method", "n", "noise_var",
// "rep", "test_rmse", and the parameters of the best fit, "lambda" and
// "lambda_q" (relative; NaN when unused) and "s" (SSSR's s or KTR3's k).
//
// A repetition draws a new target, new label noise and new labelings. The
// fits share work: each labeling's Gram matrix Phi^T W Phi grows through
// the nested sizes, every lambda costs one Cholesky factorization, and
// the fits are linear in the labels, so the noiseless part and the noise
// part are solved once for all noise levels. The package tests check the
// result against LinearRLS, KTR3 and SSSR on the same rows.
func LabelingBenchmark(pool, test dataframe.DataFrame, spec BenchmarkSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := spec.defaults(); err != nil {
		return none, err
	}
	if err := checkFrame(pool, "pool"); err != nil {
		return none, err
	}
	if err := checkFrame(test, "test"); err != nil {
		return none, err
	}
	ctx := context.Background()
	feats, err := frames.FeatureColumns(pool, frames.Spec{Features: spec.Features, Exclude: spec.Exclude})
	if err != nil {
		return none, err
	}
	if spec.PoolLimit > 0 {
		if pool, err = frames.Subsample(pool, spec.PoolLimit, spec.Seed+11); err != nil {
			return none, err
		}
	}
	if spec.TestLimit > 0 {
		if test, err = frames.Subsample(test, spec.TestLimit, spec.Seed+12); err != nil {
			return none, err
		}
	}
	x, err := frames.ToMatrix(pool, feats...)
	if err != nil {
		return none, err
	}
	xt, err := frames.ToMatrix(test, feats...)
	if err != nil {
		return none, fmt.Errorf("papers: test frame: %w", err)
	}
	var fm credlab.FeatureMap
	switch strings.ToLower(spec.FeatureMap) {
	case "", "raw":
		fm = credlab.RawFeatures{Bias: true}
	case "relu":
		w := spec.Widths
		if len(w) == 0 {
			w = []int{500, 500, 500}
		}
		if fm, err = credlab.NewReLUNetwork(len(feats), w, spec.Seed); err != nil {
			return none, err
		}
	default:
		return none, fmt.Errorf("papers: unknown benchmark feature map %q: choose raw or relu", spec.FeatureMap)
	}
	b, err := newBench(ctx, fm, x, xt, &spec)
	if err != nil {
		return none, err
	}
	if nmax := spec.Ns[len(spec.Ns)-1]; nmax > b.n {
		return none, fmt.Errorf("papers: labeled size %d exceeds the pool of %d rows", nmax, b.n)
	}
	var rows []benchRow
	for rep := 0; rep < spec.Reps; rep++ {
		r, err := b.repetition(ctx, rep)
		if err != nil {
			return none, err
		}
		rows = append(rows, r...)
	}
	return benchFrame(rows), nil
}

// benchRow is one method's best result in one setting.
type benchRow struct {
	method          string
	n, rep, s       int
	noiseVar, rmse  float64
	lambda, lambdaQ float64
}

func benchFrame(rows []benchRow) dataframe.DataFrame {
	k := len(rows)
	method := make([]string, k)
	n, rep, s := make([]int, k), make([]int, k), make([]int, k)
	nv, rmse, lam, lq := make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	for i, r := range rows {
		method[i], n[i], rep[i], s[i] = r.method, r.n, r.rep, r.s
		nv[i], rmse[i], lam[i], lq[i] = r.noiseVar, r.rmse, r.lambda, r.lambdaQ
	}
	return dataframe.New(series.New(method, series.String, "method"), series.New(n, series.Int, "n"),
		series.New(nv, series.Float, "noise_var"), series.New(rep, series.Int, "rep"),
		series.New(rmse, series.Float, "test_rmse"), series.New(lam, series.Float, "lambda"),
		series.New(lq, series.Float, "lambda_q"), series.New(s, series.Int, "s"))
}

// bench holds a task's pool quantities.
type bench struct {
	spec      *BenchmarkSpec
	phi, phiT *mat.Dense // pool and test features
	n, nt, D  int
	mean      float64    // tr(C)/D, the unit of the lambdas
	r         int        // eigenfunctions above the floor
	m         *mat.Dense // D x r whitening map e_i / sqrt(mu_i)
	psi, psiT *mat.Dense // pool and test eigenfunctions, n x r and nt x r
	basis     *credlab.SSSRBasis
}

func newBench(ctx context.Context, fm credlab.FeatureMap, x, xt *mat.Dense, spec *BenchmarkSpec) (*bench, error) {
	phi, err := featurize(ctx, fm, x)
	if err != nil {
		return nil, err
	}
	phiT, err := featurize(ctx, fm, xt)
	if err != nil {
		return nil, err
	}
	n, D := phi.Dims()
	nt, _ := phiT.Dims()
	b := &bench{spec: spec, phi: phi, phiT: phiT, n: n, nt: nt, D: D}
	tr := 0.0
	for _, v := range phi.RawMatrix().Data {
		tr += v * v
	}
	b.mean = tr / float64(n) / float64(D)
	if !(b.mean > 0) {
		return nil, fmt.Errorf("papers: the pool's features are all zero")
	}
	basis, err := credlab.NewSSSRBasis(ctx, credlab.SSSRConfig{Pool: phi, Features: credlab.RawFeatures{}, Floor: spec.Floor})
	if err != nil {
		return nil, err
	}
	b.basis = basis
	b.r = basis.Size()
	b.m = mat.NewDense(D, b.r, nil)
	for i := 0; i < b.r; i++ {
		s := 1 / math.Sqrt(basis.Values[i])
		for j := 0; j < D; j++ {
			b.m.Set(j, i, s*basis.Vectors.At(j, i))
		}
	}
	b.psi = mat.NewDense(n, b.r, nil)
	b.psi.Mul(phi, b.m)
	b.psiT = mat.NewDense(nt, b.r, nil)
	b.psiT.Mul(phiT, b.m)
	return b, nil
}

// best tracks the least RMSE per (method, n, noise).
type benchBest map[string]*benchRow

func (bb benchBest) offer(r benchRow) {
	if math.IsNaN(r.rmse) {
		return
	}
	k := fmt.Sprintf("%s|%d|%g", r.method, r.n, r.noiseVar)
	if cur := bb[k]; cur == nil || r.rmse < cur.rmse {
		bb[k] = &r
	}
}

// labeling is one labeled set in draw order; w nil for uniform.
type labeling struct {
	idx []int
	w   []float64
	lq  float64
}

func (b *bench) repetition(ctx context.Context, rep int) ([]benchRow, error) {
	sp := b.spec
	rng := rand.New(rand.NewPCG(sp.Seed, 0x7265700000+uint64(rep)))
	a := make([]float64, b.r)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	f := mulVec(b.psi, a)
	ft := mulVec(b.psiT, a)
	eps := make([]float64, b.n)
	for i := range eps {
		eps[i] = rng.NormFloat64()
	}
	sig := make([]float64, len(sp.NoiseVars))
	for i, v := range sp.NoiseVars {
		sig[i] = math.Sqrt(v)
	}
	st := &benchState{b: b, f: f, ft: ft, eps: eps, sig: sig, best: benchBest{}, rep: rep}
	nmax := sp.Ns[len(sp.Ns)-1]
	if sp.has(BenchCRED) {
		for k, lq := range sp.LambdaQs {
			sel, err := credlab.CREDSelector{Features: credlab.RawFeatures{}, LambdaQ: lq * b.mean}.Select(ctx, b.phi, nmax, sp.Seed*1000003+uint64(rep*100+k))
			if err != nil {
				return nil, err
			}
			if err := st.run(labeling{idx: sel.Index, w: sel.Weight, lq: lq}, uint64(k)); err != nil {
				return nil, err
			}
		}
	}
	if sp.has(BenchKRR) || sp.has(BenchKTR3) || sp.has(BenchSSSR) {
		for k := 0; k < sp.Labelings; k++ {
			sel, err := credlab.UniformSelector{WithoutReplacement: true}.Select(ctx, b.phi, nmax, sp.Seed*1000033+uint64(rep*100+k))
			if err != nil {
				return nil, err
			}
			if err := st.run(labeling{idx: sel.Index}, uint64(k)); err != nil {
				return nil, err
			}
		}
	}
	var out []benchRow
	for _, m := range sp.Methods {
		for _, n := range sp.Ns {
			for _, v := range sp.NoiseVars {
				k := fmt.Sprintf("%s|%d|%g", m, n, v)
				if r := st.best[k]; r != nil {
					out = append(out, *r)
				} else {
					out = append(out, benchRow{method: m, n: n, rep: rep, noiseVar: v, rmse: math.NaN(), lambda: math.NaN(), lambdaQ: math.NaN()})
				}
			}
		}
	}
	return out, nil
}

// benchState carries one repetition through the labelings.
type benchState struct {
	b        *bench
	f, ft    []float64 // pool and test targets
	eps, sig []float64 // pool noise draws; noise standard deviations
	best     benchBest
	rep      int
}

// run grows G = A^T W A, bf = A^T W f and be = A^T W eps through the
// labeled sizes and evaluates the methods at each.
func (st *benchState) run(lab labeling, num uint64) error {
	b, sp := st.b, st.b.spec
	D := b.D
	g := mat.NewDense(D, D, nil)
	bf, be := make([]float64, D), make([]float64, D)
	prev := 0
	for _, n := range sp.Ns {
		var w []float64
		if lab.w != nil {
			w = lab.w[prev:n]
		}
		accumulate(b.phi, g, bf, be, lab.idx[prev:n], w, st.f, st.eps)
		if lab.w != nil {
			for _, lam := range sp.Lambdas {
				pf, pe, ok := st.ridge(g, bf, be, lam*b.mean*float64(n))
				if !ok {
					continue
				}
				for si, s := range st.sig {
					st.best.offer(benchRow{method: BenchCRED, n: n, rep: st.rep, noiseVar: sp.NoiseVars[si],
						rmse: rmseOf(pf, pe, s, st.ft, math.Inf(1)), lambda: lam, lambdaQ: lab.lq})
				}
			}
		} else {
			if sp.has(BenchKRR) {
				for _, lam := range sp.Lambdas {
					pf, pe, ok := st.ridge(g, bf, be, lam*b.mean*float64(n))
					if !ok {
						continue
					}
					for si, s := range st.sig {
						st.best.offer(benchRow{method: BenchKRR, n: n, rep: st.rep, noiseVar: sp.NoiseVars[si],
							rmse: rmseOf(pf, pe, s, st.ft, math.Inf(1)), lambda: lam, lambdaQ: math.NaN()})
					}
				}
			}
			if sp.has(BenchKTR3) {
				st.ktr3(lab, n, num)
			}
			if sp.has(BenchSSSR) {
				st.sssr(g, bf, be, n)
			}
		}
		prev = n
	}
	return nil
}

func vec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }

func mulVec(a *mat.Dense, x []float64) []float64 {
	r, _ := a.Dims()
	out := make([]float64, r)
	blas64.Gemv(blas.NoTrans, 1, a.RawMatrix(), vec(x), 0, vec(out))
	return out
}

// solve2 returns (G + shift I)^-1 [b1 b2]; false when the matrix is not
// numerically positive definite.
func solve2(g *mat.Dense, shift float64, b1, b2 []float64) ([]float64, []float64, bool) {
	p, _ := g.Dims()
	s := mat.NewSymDense(p, nil)
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			v := (g.At(i, j) + g.At(j, i)) / 2
			if i == j {
				v += shift
			}
			s.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(s) {
		return nil, nil, false
	}
	rhs := mat.NewDense(p, 2, nil)
	for i := 0; i < p; i++ {
		rhs.Set(i, 0, b1[i])
		rhs.Set(i, 1, b2[i])
	}
	var sol mat.Dense
	if err := ch.SolveTo(&sol, rhs); err != nil {
		return nil, nil, false
	}
	x1, x2 := make([]float64, p), make([]float64, p)
	for i := 0; i < p; i++ {
		x1[i], x2[i] = sol.At(i, 0), sol.At(i, 1)
		if math.IsNaN(x1[i]) || math.IsNaN(x2[i]) || math.IsInf(x1[i], 0) || math.IsInf(x2[i], 0) {
			return nil, nil, false
		}
	}
	return x1, x2, true
}

// ridge solves (G + shift I) [beta_f beta_e] = [bf be] and returns the test
// predictions of both parts.
func (st *benchState) ridge(g *mat.Dense, bf, be []float64, shift float64) (pf, pe []float64, ok bool) {
	xf, xe, ok := solve2(g, shift, bf, be)
	if !ok {
		return nil, nil, false
	}
	return mulVec(st.b.phiT, xf), mulVec(st.b.phiT, xe), true
}

// rmseOf returns the RMSE of clip(pf + s pe, bound) against t (pf nil:
// predictions 0).
func rmseOf(pf, pe []float64, s float64, t []float64, bound float64) float64 {
	sum := 0.0
	for i, v := range t {
		p := 0.0
		if pf != nil {
			p = pf[i] + s*pe[i]
		}
		p = math.Max(-bound, math.Min(bound, p))
		sum += (p - v) * (p - v)
	}
	return math.Sqrt(sum / float64(len(t)))
}

// ktr3 evaluates KTR3 on the first n rows of a uniform labeling.
func (st *benchState) ktr3(lab labeling, n int, num uint64) {
	b, sp := st.b, st.b.spec
	k := rand.New(rand.NewPCG(sp.Seed, 0x6b74720000+uint64(st.rep*100000)+num*100+uint64(n))).IntN(n)
	bounds := make([]float64, len(st.sig))
	for si, s := range st.sig {
		for _, j := range lab.idx[:n] {
			bounds[si] = math.Max(bounds[si], math.Abs(st.f[j]+s*st.eps[j]))
		}
	}
	if k == 0 {
		for si, s := range st.sig {
			st.best.offer(benchRow{method: BenchKTR3, n: n, rep: st.rep, noiseVar: sp.NoiseVars[si],
				rmse: rmseOf(nil, nil, s, st.ft, bounds[si]), lambda: math.NaN(), lambdaQ: math.NaN(), s: 0})
		}
		return
	}
	g := mat.NewDense(b.D, b.D, nil)
	bf, be := make([]float64, b.D), make([]float64, b.D)
	accumulate(b.phi, g, bf, be, lab.idx[:k], nil, st.f, st.eps)
	for _, lam := range sp.Lambdas {
		pf, pe, ok := st.ridge(g, bf, be, lam*b.mean*float64(n))
		if !ok {
			continue
		}
		for si, s := range st.sig {
			st.best.offer(benchRow{method: BenchKTR3, n: n, rep: st.rep, noiseVar: sp.NoiseVars[si],
				rmse: rmseOf(pf, pe, s, st.ft, bounds[si]), lambda: lam, lambdaQ: math.NaN(), s: k})
		}
	}
}

// sssr evaluates SSSR for s on a grid up to min(r, n): with Z = Phi M the
// normal equations are (M^T G M)_s gamma = (M^T b)_s.
func (st *benchState) sssr(g *mat.Dense, bf, be []float64, n int) {
	b, sp := st.b, st.b.spec
	r := b.r
	var tmp, h mat.Dense
	tmp.Mul(g, b.m)
	h.Mul(b.m.T(), &tmp)
	hf := make([]float64, r)
	he := make([]float64, r)
	blas64.Gemv(blas.Trans, 1, b.m.RawMatrix(), vec(bf), 0, vec(hf))
	blas64.Gemv(blas.Trans, 1, b.m.RawMatrix(), vec(be), 0, vec(he))
	rn := min(r, n)
	for j := 1; j <= sp.SGrid; j++ {
		s := (rn*j + sp.SGrid - 1) / sp.SGrid
		hs := mat.DenseCopyOf(h.Slice(0, s, 0, s))
		gf, ge, ok := solve2(hs, 0, hf[:s], he[:s])
		if !ok {
			// Singular normal equations (a direction no labeled row
			// touches): a tiny ridge stands in for the minimum-norm
			// solution.
			tr := 0.0
			for i := 0; i < s; i++ {
				tr += hs.At(i, i)
			}
			if gf, ge, ok = solve2(hs, 1e-10*tr/float64(s), hf[:s], he[:s]); !ok {
				continue
			}
		}
		ps := b.psiT.Slice(0, b.nt, 0, s).(*mat.Dense)
		pf, pe := mulVec(ps, gf), mulVec(ps, ge)
		for si, sd := range st.sig {
			st.best.offer(benchRow{method: BenchSSSR, n: n, rep: st.rep, noiseVar: sp.NoiseVars[si],
				rmse: rmseOf(pf, pe, sd, st.ft, math.Inf(1)), lambda: math.NaN(), lambdaQ: math.NaN(), s: s})
		}
	}
}
