package cred

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/credlab/baselines"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// This file holds the labeling benchmark of the CRED paper's Figure 3 and
// its engine, shared with the reproduction.

// Labeling benchmark methods.
const (
	BenchCRED = "CRED"
	// BenchCREDTied is CRED with the ridge lambda tied to lambda_q, as in
	// the paper's theory (Theorem 4.4).
	BenchCREDTied = "CRED(lambda=lambda_q)"
	BenchKRR      = "KRR"
	BenchKTR3     = "KTR3"
	BenchSSSR     = "SSSR"
	// BenchCREDDistinct is CRED with a budget of distinct labels: the
	// same q, drawn without replacement (credlab.WithoutReplacement,
	// Horvitz-Thompson weights), the budgets Ns labeled as successive
	// batches of one seed (credlab.SampleDesign with a previous
	// selection), which add up to a one-shot draw of each budget.
	// Opt-in: run only when named in Methods.
	BenchCREDDistinct = "CRED-distinct"
	// BenchCREDDraws is the paper's design paid per distinct label: CRED's
	// own independent draws from q, continued until n distinct rows come
	// up, each labeled once and weighted by its draw count
	// (credlab.DistinctRows), which gives the fit on all those draws.
	// Opt-in.
	BenchCREDDraws = "CRED-draws"
	// BenchGSx is greedy sampling in the feature space (credlab.GreedySelector)
	// fitted by ridge regression without weights. Opt-in.
	BenchGSx = "GSx"
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
	// Methods is a subset of CRED, KRR, KTR3, SSSR, BenchCREDTied,
	// BenchCREDDistinct, BenchCREDDraws and BenchGSx (default the first four).
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
		return &credlab.ParamError{Name: "BenchmarkSpec.Ns", Value: s.Ns[0], Want: "positive labeled sizes"}
	}
	if len(s.NoiseVars) == 0 {
		s.NoiseVars = []float64{1e-6, 1e-4, 1e-2, 1, 100}
	}
	for _, v := range s.NoiseVars {
		if !(v >= 0) || math.IsInf(v, 0) {
			return &credlab.ParamError{Name: "BenchmarkSpec.NoiseVars", Value: v, Want: "finite noise variances >= 0"}
		}
	}
	if s.Reps <= 0 {
		s.Reps = 1
	}
	if len(s.Methods) == 0 {
		s.Methods = []string{BenchCRED, BenchKRR, BenchKTR3, BenchSSSR}
	}
	s.Methods = append([]string(nil), s.Methods...)
	for i, m := range s.Methods {
		known := false
		for _, k := range allMethods() {
			if strings.EqualFold(m, k) {
				s.Methods[i], known = k, true
			}
		}
		if !known {
			return &credlab.ParamError{Name: "BenchmarkSpec.Methods", Value: strconv.Quote(m), Want: strings.Join(allMethods(), ", ")}
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
			return &credlab.ParamError{Name: "BenchmarkSpec.Lambdas", Value: v, Want: "positive finite lambdas (LambdaQs and Lambdas)"}
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
//   - CRED: n rows drawn from CRED's distribution q (credlab.CREDDistribution
//     of the ridge leverage scores at lambda_q, drawn by
//     credlab.DrawSelection; one labeling per lambda_q) and
//     importance-weighted ridge regression (LinearRLS with Weights);
//     BenchCREDTied ties lambda to lambda_q;
//   - KRR: ridge regression on n rows drawn uniformly without replacement;
//   - KTR3: on the same rows, ridge regression on the first k rows, k
//     uniform on {0, ..., n-1}, predictions clipped at max |y|
//     (baselines.KTR3);
//   - SSSR: on the same rows, least squares on the top s eigenfunctions of
//     the pool covariance (baselines.SSSR).
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
// part are solved once for all noise levels; the test RMSE comes from the
// test covariance. This is the engine of `credlab reproduce cred`; the
// package tests check it against CREDSelector, LinearRLS, KTR3 and SSSR
// on the same rows.
func LabelingBenchmark(pool, test dataframe.DataFrame, spec BenchmarkSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := spec.defaults(); err != nil {
		return none, err
	}
	if err := frames.CheckFrame(pool, "pool"); err != nil {
		return none, err
	}
	if err := frames.CheckFrame(test, "test"); err != nil {
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
		return none, &credlab.ParamError{Name: "BenchmarkSpec.FeatureMap", Value: strconv.Quote(spec.FeatureMap), Want: "raw or relu"}
	}
	phi, err := featurize(ctx, fm, x)
	if err != nil {
		return none, err
	}
	phiT, err := featurize(ctx, fm, xt)
	if err != nil {
		return none, err
	}
	cfg := fig3Config{Ns: spec.Ns, Noises: spec.NoiseVars, Reps: spec.Reps, LambdaQs: spec.LambdaQs, Lambdas: spec.Lambdas,
		Labelings: spec.Labelings, SGrid: spec.SGrid, Floor: spec.Floor, Methods: spec.Methods, Seed: spec.Seed}
	rows, _, err := runFig3Task(ctx, "", "", phi, phiT, cfg, io.Discard)
	if err != nil {
		return none, fmt.Errorf("papers: %w", err)
	}
	var keep []fig3Row
	for _, r := range rows {
		if spec.has(r.Method) {
			keep = append(keep, r)
		}
	}
	return benchFrame(keep), nil
}

func benchFrame(rows []fig3Row) dataframe.DataFrame {
	k := len(rows)
	method := make([]string, k)
	n, rep, s := make([]int, k), make([]int, k), make([]int, k)
	nv, rmse, lam, lq := make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	for i, r := range rows {
		method[i], n[i], rep[i], s[i] = r.Method, r.N, r.Rep, r.S
		nv[i], rmse[i], lam[i], lq[i] = r.Noise, r.RMSE, r.Lambda, r.LambdaQ
	}
	return dataframe.New(series.New(method, series.String, "method"), series.New(n, series.Int, "n"),
		series.New(nv, series.Float, "noise_var"), series.New(rep, series.Int, "rep"),
		series.New(rmse, series.Float, "test_rmse"), series.New(lam, series.Float, "lambda"),
		series.New(lq, series.Float, "lambda_q"), series.New(s, series.Int, "s"))
}

// The Figure 3 engine, shared by LabelingBenchmark and the reproduction.

// has reports whether the method runs.
func (c fig3Config) has(m string) bool {
	if len(c.Methods) == 0 {
		return methodIndex(m) < len(fig3Methods)
	}
	for _, x := range c.Methods {
		if x == m {
			return true
		}
	}
	return false
}

// fig3Config sizes Figure 3. Lambda grids are relative: they are
// multiplied by the mean eigenvalue tr(C)/D of the pool's feature
// covariance C = Phi^T Phi / N.
type fig3Config struct {
	PoolLimit, TestLimit int       // 0 keeps every row; else a seeded subsample
	Ns                   []int     // labeled sizes, increasing (paper: 1000, 2000, 4000)
	Noises               []float64 // label-noise variances sigma^2
	Reps                 int       // independent repetitions (paper: 5)
	LambdaQs             []float64 // CRED's lambda_q grid (paper: 10^-12 ... 10^-3)
	Lambdas              []float64 // the ridge lambda grid of CRED, KRR and KTR3
	Labelings            int       // uniform labelings of the baselines (paper: 10)
	SGrid                int       // number of s values tried by SSSR
	Floor                float64   // relative eigenvalue floor of the target and of SSSR
	Widths               []int     // hidden widths of the random ReLU network
	Methods              []string  // the methods to run (nil: all of fig3Methods)
	Check                bool      // compare the fast path with the package estimators (tests)
	Seed                 uint64
}

// fig3Row is one method's best test RMSE in one setting and repetition.
type fig3Row struct {
	Dataset, Task, Method string
	N                     int
	Noise                 float64 // sigma^2
	Rep                   int
	RMSE                  float64 // against the noiseless test targets
	Labeling              int     // which of the labelings won
	LambdaQ, Lambda       float64 // relative units; NaN when unused
	S                     int     // SSSR's s; 0 when unused
}

// fig3Info records one task's setup and timing.
type fig3Info struct {
	Dataset, Task   string
	N, NTest, D, R  int
	MeanEig, TopEig float64
	SignalRMS       float64 // RMS of the target on the test set, first repetition
	Features, Setup time.Duration
	Total           time.Duration
	Checks          map[string]float64 // fast path against the package: max relative difference
}

var fig3Methods = []string{BenchCRED, BenchCREDTied, BenchKRR, BenchKTR3, BenchSSSR}

// extraMethods run only when named.
var extraMethods = []string{BenchCREDDistinct, BenchCREDDraws, BenchGSx}

func allMethods() []string {
	return append(append([]string(nil), fig3Methods...), extraMethods...)
}

// labeling is one labeled set: pool rows in draw order (prefixes give the
// smaller budgets) and importance weights (nil for uniform labeling).
type labeling struct {
	Idx []int
	W   []float64
	// Method, when set (BenchCREDDistinct, BenchCREDDraws, BenchGSx), evaluates the
	// labeling as that method; Wn then holds the weights of Idx[:Ns[i]]
	// at each budget (nil: unweighted).
	Method  string
	Wn      [][]float64
	LambdaQ float64 // CRED's lambda_q; 0 for uniform
	Num     int
}

// fig3Task holds one task's precomputed pool quantities.
type fig3Task struct {
	c         fig3Config
	phi, phiT *mat.Dense // pool and test features
	n, nt, D  int
	mean      float64    // mean eigenvalue of C, the unit of the lambda grids
	vals      []float64  // eigenvalues of C, decreasing
	vecs      *mat.Dense // D x D eigenvectors, by decreasing eigenvalue
	r         int        // eigenvalues above the floor
	m         *mat.Dense // D x r: e_i / sqrt(mu_i), the whitening map of SSSR and the target
	ct        *mat.Dense // test covariance Phi_t^T Phi_t / N_t
	ctw       *mat.Dense // m^T ct m, r x r
	q         [][]float64
	gsx       []int // GSx's rows, the same in every repetition
}

func runFig3Task(ctx context.Context, dataset, taskName string, phi, phiT *mat.Dense, c fig3Config, w io.Writer) ([]fig3Row, fig3Info, error) {
	t0 := time.Now()
	t, err := newFig3Task(ctx, phi, phiT, c)
	if err != nil {
		return nil, fig3Info{}, err
	}
	info := fig3Info{Dataset: dataset, Task: taskName, N: t.n, NTest: t.nt, D: t.D, R: t.r,
		MeanEig: t.mean, TopEig: t.vals[0], Setup: time.Since(t0), Checks: map[string]float64{}}
	if c.Ns[len(c.Ns)-1] > t.n {
		return nil, info, fmt.Errorf("labeled size %d exceeds the pool of %d rows", c.Ns[len(c.Ns)-1], t.n)
	}
	fmt.Fprintf(w, "%s/%s: N=%d test=%d D=%d, %d eigenvalues above %g of the largest (%.3g), mean %.3g; setup %v\n",
		dataset, taskName, t.n, t.nt, t.D, t.r, c.Floor, t.vals[0], t.mean, info.Setup.Round(time.Millisecond))
	if c.Check {
		d, err := t.checkScores(ctx)
		if err != nil {
			return nil, info, err
		}
		info.Checks["CRED sampling distribution q"] = d
	}
	var rows []fig3Row
	for rep := 0; rep < c.Reps; rep++ {
		r, err := t.repetition(ctx, rep, &info)
		if err != nil {
			return nil, info, err
		}
		for i := range r {
			r[i].Dataset, r[i].Task = dataset, taskName
		}
		rows = append(rows, r...)
		fmt.Fprintf(w, "  repetition %d/%d done (%v)\n", rep+1, c.Reps, time.Since(t0).Round(time.Second))
	}
	info.Total = time.Since(t0)
	return rows, info, nil
}

func newFig3Task(ctx context.Context, phi, phiT *mat.Dense, c fig3Config) (*fig3Task, error) {
	n, D := phi.Dims()
	nt, _ := phiT.Dims()
	t := &fig3Task{c: c, phi: phi, phiT: phiT, n: n, nt: nt, D: D}
	cov := gramOf(phi, 1/float64(n))
	t.ct = gramOf(phiT, 1/float64(nt))
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(D, cov.RawMatrix().Data), true) {
		return nil, fmt.Errorf("eigendecomposition of the feature covariance failed")
	}
	asc := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	t.vals = make([]float64, D)
	t.vecs = mat.NewDense(D, D, nil)
	tr := 0.0
	for i := 0; i < D; i++ {
		t.vals[i] = asc[D-1-i]
		tr += asc[i]
		for j := 0; j < D; j++ {
			t.vecs.Set(j, i, v.At(j, D-1-i))
		}
	}
	t.mean = tr / float64(D)
	for t.r < D && t.vals[t.r] > c.Floor*t.vals[0] {
		t.r++
	}
	t.m = mat.NewDense(D, t.r, nil)
	for i := 0; i < t.r; i++ {
		s := 1 / math.Sqrt(t.vals[i])
		for j := 0; j < D; j++ {
			t.m.Set(j, i, s*t.vecs.At(j, i))
		}
	}
	tmp := mat.NewDense(D, t.r, nil)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, t.ct.RawMatrix(), t.m.RawMatrix(), 0, tmp.RawMatrix())
	t.ctw = mat.NewDense(t.r, t.r, nil)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, t.m.RawMatrix(), tmp.RawMatrix(), 0, t.ctw.RawMatrix())
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// CRED scores s_j = sum_i (e_i . phi_j)^2 / (mu_i + lambda_q), one pass
	// over the pool for every lambda_q at once.
	scores := make([][]float64, len(c.LambdaQs))
	for k := range scores {
		scores[k] = make([]float64, n)
	}
	const block = 2048
	p := mat.NewDense(block, D, nil)
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		pb := p.Slice(0, hi-lo, 0, D).(*mat.Dense)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, phi.Slice(lo, hi, 0, D).(*mat.Dense).RawMatrix(), t.vecs.RawMatrix(), 0, pb.RawMatrix())
		for k, lq := range c.LambdaQs {
			den := make([]float64, D)
			for i, mu := range t.vals {
				den[i] = math.Max(mu, 0) + lq*t.mean
			}
			for j := lo; j < hi; j++ {
				row := pb.RawRowView(j - lo)
				s := 0.0
				for i, v := range row {
					s += v * v / den[i]
				}
				scores[k][j] = s
			}
		}
	}
	t.q = make([][]float64, len(c.LambdaQs))
	for k := range scores {
		q, err := credlab.CREDDistribution(scores[k])
		if err != nil {
			return nil, err
		}
		t.q[k] = q
	}
	return t, nil
}

// gramOf returns scale * A^T A.
func gramOf(a *mat.Dense, scale float64) *mat.Dense {
	_, D := a.Dims()
	g := mat.NewDense(D, D, nil)
	blas64.Gemm(blas.Trans, blas.NoTrans, scale, a.RawMatrix(), a.RawMatrix(), 0, g.RawMatrix())
	return g
}

// checkScores compares the sampling distribution with CREDSelector's.
func (t *fig3Task) checkScores(ctx context.Context) (float64, error) {
	k := len(t.c.LambdaQs) / 2
	sel, err := credlab.CREDSelector{Features: credlab.RawFeatures{}, LambdaQ: t.c.LambdaQs[k] * t.mean}.Select(ctx, t.phi, 1, 0)
	if err != nil {
		return 0, err
	}
	return maxRelDiff(t.q[k], sel.Q), nil
}

// bestTable tracks the smallest RMSE of each method, budget and noise level.
type bestTable map[[3]int]*fig3Row

func (b bestTable) offer(method, ni, si int, rmse float64, row fig3Row) {
	if math.IsNaN(rmse) {
		return
	}
	k := [3]int{method, ni, si}
	if cur := b[k]; cur == nil || rmse < cur.RMSE {
		row.RMSE = rmse
		b[k] = &row
	}
}

func methodIndex(m string) int {
	for i, v := range allMethods() {
		if v == m {
			return i
		}
	}
	panic(m)
}

// repetition runs one repetition: a fresh target, pool label noise and
// labelings, and every method on every budget.
func (t *fig3Task) repetition(ctx context.Context, rep int, info *fig3Info) ([]fig3Row, error) {
	c := t.c
	rng := rand.New(rand.NewPCG(c.Seed, 0x7265700000+uint64(rep)))
	// Target beta* = sum_i a_i e_i / sqrt(mu_i) over the eigenvalues above
	// the floor, so that f = phi . beta* has E_pool f^2 = ||a||^2.
	a := make([]float64, t.r)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	bstar := make([]float64, t.D)
	blas64.Gemv(blas.NoTrans, 1, t.m.RawMatrix(), vec(a), 0, vec(bstar))
	f := make([]float64, t.n)
	blas64.Gemv(blas.NoTrans, 1, t.phi.RawMatrix(), vec(bstar), 0, vec(f))
	ft := make([]float64, t.nt)
	blas64.Gemv(blas.NoTrans, 1, t.phiT.RawMatrix(), vec(bstar), 0, vec(ft))
	if rep == 0 {
		info.SignalRMS = math.Sqrt(dot(ft, ft) / float64(t.nt))
	}
	eps := make([]float64, t.n)
	for i := range eps {
		eps[i] = rng.NormFloat64()
	}
	sigmas := make([]float64, len(c.Noises))
	for i, v := range c.Noises {
		sigmas[i] = math.Sqrt(v)
	}
	nmax := c.Ns[len(c.Ns)-1]
	var labs []labeling
	for k, lq := range c.LambdaQs {
		if !c.has(BenchCRED) && !c.has(BenchCREDTied) {
			break
		}
		sel, err := credlab.DrawSelection(t.q[k], nmax, c.Seed*1000003+uint64(rep*100+k))
		if err != nil {
			return nil, err
		}
		labs = append(labs, labeling{Idx: sel.Index, W: sel.Weight, LambdaQ: lq, Num: k})
	}
	for k, lq := range c.LambdaQs {
		if !c.has(BenchCREDDraws) {
			break
		}
		lab, err := distinctDraws(t.q[k], c.Ns, c.Seed*1000003+uint64(rep*100+k))
		if err != nil {
			return nil, err
		}
		lab.LambdaQ, lab.Num = lq, k
		labs = append(labs, lab)
	}
	for k, lq := range c.LambdaQs {
		if !c.has(BenchCREDDistinct) {
			break
		}
		var sel *credlab.Selection
		lab := labeling{Method: BenchCREDDistinct, LambdaQ: lq, Num: k}
		prevN := 0
		for _, n := range c.Ns {
			var err error
			if sel, err = credlab.SampleDesign(t.q[k], nil, n-prevN, credlab.WithoutReplacement, sel, c.Seed*1000037+uint64(rep*100+k)); err != nil {
				return nil, err
			}
			lab.Wn = append(lab.Wn, append([]float64(nil), sel.Weight...))
			prevN = n
		}
		lab.Idx = sel.Index
		labs = append(labs, lab)
	}
	if c.has(BenchGSx) {
		if t.gsx == nil { // deterministic: one greedy pass serves every repetition
			sel, err := credlab.GreedySelector{}.Select(ctx, t.phi, nmax, 0)
			if err != nil {
				return nil, err
			}
			t.gsx = sel.Index
		}
		labs = append(labs, labeling{Method: BenchGSx, Idx: t.gsx})
	}
	for k := 0; k < c.Labelings; k++ {
		if !c.has(BenchKRR) && !c.has(BenchKTR3) && !c.has(BenchSSSR) {
			break
		}
		sel, err := credlab.UniformSelector{WithoutReplacement: true}.Select(ctx, t.phi, nmax, c.Seed*1000033+uint64(rep*100+k))
		if err != nil {
			return nil, err
		}
		labs = append(labs, labeling{Idx: sel.Index, Num: k})
	}
	best := bestTable{}
	st := &fitState{t: t, f: f, ft: ft, eps: eps, sigmas: sigmas, bstar: bstar, a: a, best: best, rep: rep}
	for _, lab := range labs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := st.run(ctx, lab, info); err != nil {
			return nil, err
		}
	}
	var rows []fig3Row
	for mi, m := range allMethods() {
		if !c.has(m) {
			continue
		}
		for ni, n := range c.Ns {
			for si, s2 := range c.Noises {
				row := fig3Row{Method: m, N: n, Noise: s2, Rep: rep, RMSE: math.NaN(), LambdaQ: math.NaN(), Lambda: math.NaN(), Labeling: -1}
				if b := best[[3]int{mi, ni, si}]; b != nil {
					row = *b
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// distinctDraws continues the draws from q of the given seed (those of
// the paper's CRED) until the largest budget of distinct rows comes up,
// and returns for each budget n the credlab.DistinctRows selection of the
// draws up to the n-th distinct row: its rows in order of first draw, so
// that each budget's rows extend the last, and their count weights.
func distinctDraws(q []float64, ns []int, seed uint64) (labeling, error) {
	nmax := ns[len(ns)-1]
	lab := labeling{Method: BenchCREDDraws}
	for b := 2 * nmax; ; b *= 2 {
		if b > 64*len(q) {
			return lab, fmt.Errorf("%s: fewer than %d distinct rows in %d draws", BenchCREDDraws, nmax, b/2)
		}
		sel, err := credlab.DrawSelection(q, b, seed)
		if err != nil {
			return lab, err
		}
		seen := map[int]bool{}
		var draws []int // draws[i]: the draws up to the (i+1)-th distinct row
		for i, j := range sel.Index {
			if !seen[j] {
				seen[j] = true
				draws = append(draws, i+1)
			}
		}
		if len(draws) < nmax {
			continue
		}
		for _, n := range ns {
			d, err := credlab.SampleDesign(q, nil, draws[n-1], credlab.DistinctRows, nil, seed)
			if err != nil {
				return lab, err
			}
			if len(d.Index) != n {
				return lab, fmt.Errorf("%s: %d draws gave %d distinct rows, want %d", BenchCREDDraws, draws[n-1], len(d.Index), n)
			}
			lab.Idx, lab.Wn = d.Index, append(lab.Wn, d.Weight)
		}
		return lab, nil
	}
}

// fitState carries one repetition's data through the labelings.
type fitState struct {
	t           *fig3Task
	f, ft, eps  []float64
	sigmas      []float64
	bstar, a    []float64
	best        bestTable
	rep         int
	checkedKTR3 bool
	checkedCRED bool
	checkedKRR  bool
	checkedSSSR bool
}

// run grows the Gram matrix G = A^T W A and b = A^T W y through the
// budgets (prefixes of the draw order) and evaluates the methods at each.
func (st *fitState) run(ctx context.Context, lab labeling, info *fig3Info) error {
	t, c := st.t, st.t.c
	D := t.D
	g := mat.NewDense(D, D, nil)
	bf, be := make([]float64, D), make([]float64, D)
	if lab.Method != "" {
		// Weights change with each batch: the Gram matrix is rebuilt per
		// budget, and the method's best ridge lambda recorded.
		mi := methodIndex(lab.Method)
		for ni, n := range c.Ns {
			g.Zero()
			for i := range bf {
				bf[i], be[i] = 0, 0
			}
			var w []float64
			if lab.Wn != nil {
				w = lab.Wn[ni]
			}
			accumulate(t.phi, g, bf, be, lab.Idx[:n], w, st.f, st.eps)
			st.ridge(g, bf, be, n, func(li int, lam float64, rmse []float64) {
				for si, e := range rmse {
					lq := math.NaN()
					if lab.Wn != nil {
						lq = lab.LambdaQ
					}
					st.best.offer(mi, ni, si, e, fig3Row{Method: lab.Method, N: n, Noise: c.Noises[si], Rep: st.rep, Labeling: lab.Num, LambdaQ: lq, Lambda: lam})
				}
			}, 0)
		}
		return nil
	}
	gPrev := mat.NewDense(D, D, nil)
	bfPrev, bePrev := make([]float64, D), make([]float64, D)
	prev := 0
	cred := lab.W != nil
	for ni, n := range c.Ns {
		gPrev.Copy(g)
		copy(bfPrev, bf)
		copy(bePrev, be)
		accumulate(t.phi, g, bf, be, lab.Idx[prev:n], wOrNil(lab.W, prev, n), st.f, st.eps)
		if cred {
			st.ridge(g, bf, be, n, func(li int, lam float64, rmse []float64) {
				for si, e := range rmse {
					row := fig3Row{Method: BenchCRED, N: n, Noise: c.Noises[si], Rep: st.rep, Labeling: lab.Num, LambdaQ: lab.LambdaQ, Lambda: lam}
					if li < len(c.Lambdas) {
						st.best.offer(methodIndex(BenchCRED), ni, si, e, row)
					}
					if lam == lab.LambdaQ {
						row.Method = BenchCREDTied
						st.best.offer(methodIndex(BenchCREDTied), ni, si, e, row)
					}
				}
			}, lab.LambdaQ)
			if c.Check && !st.checkedCRED && st.rep == 0 {
				st.checkedCRED = true
				d, err := st.checkRidge(ctx, lab, n, g, bf, be)
				if err != nil {
					return err
				}
				info.Checks["CRED weighted ridge vs LinearRLS"] = d
			}
		} else {
			if c.has(BenchKRR) {
				st.ridge(g, bf, be, n, func(li int, lam float64, rmse []float64) {
					for si, e := range rmse {
						st.best.offer(methodIndex(BenchKRR), ni, si, e, fig3Row{Method: BenchKRR, N: n, Noise: c.Noises[si], Rep: st.rep, Labeling: lab.Num, LambdaQ: math.NaN(), Lambda: lam})
					}
				}, 0)
			}
			if c.Check && !st.checkedKRR && st.rep == 0 {
				st.checkedKRR = true
				d, err := st.checkRidge(ctx, lab, n, g, bf, be)
				if err != nil {
					return err
				}
				info.Checks["KRR ridge vs LinearRLS"] = d
			}
			if c.has(BenchKTR3) {
				if err := st.ktr3(ctx, lab, ni, n, prev, gPrev, bfPrev, bePrev, info); err != nil {
					return err
				}
			}
			if c.has(BenchSSSR) {
				if err := st.sssr(ctx, lab, ni, n, g, bf, be, info); err != nil {
					return err
				}
			}
		}
		prev = n
	}
	return nil
}

func wOrNil(w []float64, lo, hi int) []float64 {
	if w == nil {
		return nil
	}
	return w[lo:hi]
}

// solve2 returns (G + shift I)^-1 [b1 b2] by Cholesky, false when G + shift
// I is not numerically positive definite.
func solve2(g *mat.Dense, work *mat.Dense, shift float64, b1, b2 []float64) ([]float64, []float64, bool) {
	p := len(b1)
	work.Copy(g)
	wr := work.RawMatrix()
	for i := 0; i < p; i++ {
		wr.Data[i*wr.Stride+i] += shift
	}
	tri, ok := lapack64.Potrf(blas64.Symmetric{N: p, Stride: wr.Stride, Data: wr.Data, Uplo: blas.Lower})
	if !ok {
		return nil, nil, false
	}
	rhs := make([]float64, 2*p)
	for i := 0; i < p; i++ {
		rhs[2*i], rhs[2*i+1] = b1[i], b2[i]
	}
	lapack64.Potrs(tri, blas64.General{Rows: p, Cols: 2, Stride: 2, Data: rhs})
	x1, x2 := make([]float64, p), make([]float64, p)
	for i := 0; i < p; i++ {
		x1[i], x2[i] = rhs[2*i], rhs[2*i+1]
	}
	return x1, x2, allFinite(x1) && allFinite(x2)
}

// ridge solves (G + lambda mean n I) beta = b for every lambda of the grid
// (plus extra, when positive and not in it) and reports the test RMSE at
// every noise level: beta_sigma = beta_f + sigma beta_e, and the RMSE
// against the noiseless test targets is sqrt((beta_sigma - beta*)^T C_t
// (beta_sigma - beta*)).
func (st *fitState) ridge(g *mat.Dense, bf, be []float64, n int, report func(li int, lam float64, rmse []float64), extra float64) {
	t, c := st.t, st.t.c
	lams := append([]float64(nil), c.Lambdas...)
	if extra > 0 && !containsF(lams, extra) {
		lams = append(lams, extra)
	}
	work := mat.NewDense(t.D, t.D, nil)
	u, v := make([]float64, t.D), make([]float64, t.D)
	for li, lam := range lams {
		xf, xe, ok := solve2(g, work, lam*t.mean*float64(n), bf, be)
		rmse := make([]float64, len(st.sigmas))
		if !ok {
			for i := range rmse {
				rmse[i] = math.NaN()
			}
			report(li, lam, rmse)
			continue
		}
		for i := range xf {
			xf[i] -= st.bstar[i]
		}
		blas64.Gemv(blas.NoTrans, 1, t.ct.RawMatrix(), vec(xf), 0, vec(u))
		blas64.Gemv(blas.NoTrans, 1, t.ct.RawMatrix(), vec(xe), 0, vec(v))
		quadRMSE(rmse, st.sigmas, dot(xf, u), dot(xf, v), dot(xe, v))
		report(li, lam, rmse)
	}
}

// quadRMSE sets out[i] = sqrt(dd + 2 sigma_i dv + sigma_i^2 vv).
func quadRMSE(out, sigmas []float64, dd, dv, vv float64) {
	for i, s := range sigmas {
		out[i] = math.Sqrt(math.Max(dd+2*s*dv+s*s*vv, 0))
	}
}

// ktr3 evaluates KTR3 on a uniform labeling's first n rows: k uniform on
// {0, ..., n-1}, ridge on the first k rows with penalty lambda mean n,
// predictions truncated at Y = max |y_i| over the n labeled rows.
func (st *fitState) ktr3(ctx context.Context, lab labeling, ni, n, prev int, gPrev *mat.Dense, bfPrev, bePrev []float64, info *fig3Info) error {
	t, c := st.t, st.t.c
	k := rand.New(rand.NewPCG(c.Seed, 0x6b74720000+uint64(st.rep*100000+lab.Num*100+ni))).IntN(n)
	idx := lab.Idx[:n]
	bounds := make([]float64, len(st.sigmas))
	for si, s := range st.sigmas {
		for _, j := range idx {
			bounds[si] = math.Max(bounds[si], math.Abs(st.f[j]+s*st.eps[j]))
		}
	}
	pred := make([]float64, t.nt)
	offer := func(lam float64, pf, pe []float64) {
		for si, s := range st.sigmas {
			for i := range pred {
				v := 0.0
				if pf != nil {
					v = pf[i] + s*pe[i]
				}
				pred[i] = math.Max(-bounds[si], math.Min(bounds[si], v))
			}
			st.best.offer(methodIndex(BenchKTR3), ni, si, credlab.RMSE(pred, st.ft),
				fig3Row{Method: BenchKTR3, N: n, Noise: c.Noises[si], Rep: st.rep, Labeling: lab.Num, LambdaQ: math.NaN(), Lambda: lam, S: k})
		}
	}
	if k == 0 {
		offer(math.NaN(), nil, nil)
		return nil
	}
	g := mat.NewDense(t.D, t.D, nil)
	bf, be := make([]float64, t.D), make([]float64, t.D)
	if k >= prev { // reuse the Gram matrix of the previous budget
		g.Copy(gPrev)
		copy(bf, bfPrev)
		copy(be, bePrev)
		accumulate(t.phi, g, bf, be, idx[prev:k], nil, st.f, st.eps)
	} else {
		accumulate(t.phi, g, bf, be, idx[:k], nil, st.f, st.eps)
	}
	work := mat.NewDense(t.D, t.D, nil)
	pf, pe := make([]float64, t.nt), make([]float64, t.nt)
	for _, lam := range c.Lambdas {
		xf, xe, ok := solve2(g, work, lam*t.mean*float64(n), bf, be)
		if !ok {
			continue
		}
		blas64.Gemv(blas.NoTrans, 1, t.phiT.RawMatrix(), vec(xf), 0, vec(pf))
		blas64.Gemv(blas.NoTrans, 1, t.phiT.RawMatrix(), vec(xe), 0, vec(pe))
		offer(lam, pf, pe)
		if c.Check && !st.checkedKTR3 && st.rep == 0 && lam == c.Lambdas[len(c.Lambdas)/2] {
			st.checkedKTR3 = true
			d, err := st.checkKTR3(ctx, lab, n, k, lam, pf, pe, bounds)
			if err != nil {
				return err
			}
			info.Checks["KTR3 vs baselines.KTR3"] = d
		}
	}
	return nil
}

// sssr evaluates SSSR on a uniform labeling's first n rows for s on a grid
// up to min(r, n): with Z = Phi_S M_s (M = e_i / sqrt(mu_i)), the normal
// equations are (M^T G M)_s gamma = (M^T b)_s.
func (st *fitState) sssr(ctx context.Context, lab labeling, ni, n int, g *mat.Dense, bf, be []float64, info *fig3Info) error {
	t, c := st.t, st.t.c
	r := t.r
	tmp := mat.NewDense(t.D, r, nil)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, g.RawMatrix(), t.m.RawMatrix(), 0, tmp.RawMatrix())
	h := mat.NewDense(r, r, nil)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, t.m.RawMatrix(), tmp.RawMatrix(), 0, h.RawMatrix())
	hf, he := make([]float64, r), make([]float64, r)
	blas64.Gemv(blas.Trans, 1, t.m.RawMatrix(), vec(bf), 0, vec(hf))
	blas64.Gemv(blas.Trans, 1, t.m.RawMatrix(), vec(be), 0, vec(he))
	rn := min(r, n)
	u, v := make([]float64, r), make([]float64, r)
	df, de := make([]float64, r), make([]float64, r)
	for j := 1; j <= c.SGrid; j++ {
		s := (rn*j + c.SGrid - 1) / c.SGrid
		hs := h.Slice(0, s, 0, s).(*mat.Dense)
		work := mat.NewDense(s, s, nil)
		gf, ge, ok := solve2(hs, work, 0, hf[:s], he[:s])
		if !ok {
			// Singular normal equations (a direction no labeled row
			// touches): a tiny ridge stands in for the minimum-norm
			// least-squares solution.
			tr := 0.0
			for i := 0; i < s; i++ {
				tr += hs.At(i, i)
			}
			if gf, ge, ok = solve2(hs, work, 1e-10*tr/float64(s), hf[:s], he[:s]); !ok {
				continue
			}
		}
		for i := range df {
			df[i], de[i] = -st.a[i], 0
			if i < s {
				df[i] += gf[i]
				de[i] = ge[i]
			}
		}
		blas64.Gemv(blas.NoTrans, 1, t.ctw.RawMatrix(), vec(df), 0, vec(u))
		blas64.Gemv(blas.NoTrans, 1, t.ctw.RawMatrix(), vec(de), 0, vec(v))
		rmse := make([]float64, len(st.sigmas))
		quadRMSE(rmse, st.sigmas, dot(df, u), dot(df, v), dot(de, v))
		for si, e := range rmse {
			st.best.offer(methodIndex(BenchSSSR), ni, si, e, fig3Row{Method: BenchSSSR, N: n, Noise: c.Noises[si], Rep: st.rep, Labeling: lab.Num, LambdaQ: math.NaN(), Lambda: math.NaN(), S: s})
		}
		if c.Check && !st.checkedSSSR && st.rep == 0 && j == (c.SGrid+1)/2 {
			st.checkedSSSR = true
			d, err := st.checkSSSR(ctx, lab, n, s, gf, ge)
			if err != nil {
				return err
			}
			info.Checks["SSSR vs baselines.SSSR"] = d
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Checks of the fast path against the package estimators, on the same
// labeled rows, at the middle noise level.

func (st *fitState) checkData(lab labeling, n int) (*mat.Dense, []float64, float64) {
	si := len(st.sigmas) / 2
	s := st.sigmas[si]
	x, _ := credlab.GatherRows(st.t.phi, lab.Idx[:n])
	y := make([]float64, n)
	for i, j := range lab.Idx[:n] {
		y[i] = st.f[j] + s*st.eps[j]
	}
	return x, y, s
}

func (st *fitState) testPred(beta []float64) []float64 {
	p := make([]float64, st.t.nt)
	blas64.Gemv(blas.NoTrans, 1, st.t.phiT.RawMatrix(), vec(beta), 0, vec(p))
	return p
}

func (st *fitState) checkRidge(ctx context.Context, lab labeling, n int, g *mat.Dense, bf, be []float64) (float64, error) {
	t := st.t
	lam := t.c.Lambdas[len(t.c.Lambdas)/2]
	x, y, s := st.checkData(lab, n)
	cfg := credlab.LinearRLSConfig{Lambda: lam * t.mean}
	if lab.W != nil {
		cfg.Weights = lab.W[:n]
	}
	fit, err := credlab.LinearRLS(ctx, x, y, cfg)
	if err != nil {
		return 0, err
	}
	xf, xe, ok := solve2(g, mat.NewDense(t.D, t.D, nil), lam*t.mean*float64(n), bf, be)
	if !ok {
		return math.NaN(), nil
	}
	for i := range xf {
		xf[i] += s * xe[i]
	}
	return maxRelDiff(st.testPred(xf), st.testPred(fit.Model.Coef)), nil
}

func (st *fitState) checkKTR3(ctx context.Context, lab labeling, n, k int, lam float64, pf, pe, bounds []float64) (float64, error) {
	t := st.t
	x, y, s := st.checkData(lab, n)
	fit, err := baselines.KTR3(ctx, x, y, baselines.KTR3Config{Lambda: lam * t.mean, Prefix: k})
	if err != nil {
		return 0, err
	}
	got, err := fit.Predict(t.phiT)
	if err != nil {
		return 0, err
	}
	want := make([]float64, t.nt)
	b := bounds[len(st.sigmas)/2]
	for i := range want {
		want[i] = math.Max(-b, math.Min(b, pf[i]+s*pe[i]))
	}
	return maxRelDiff(want, got), nil
}

func (st *fitState) checkSSSR(ctx context.Context, lab labeling, n, sdim int, gf, ge []float64) (float64, error) {
	t := st.t
	x, y, s := st.checkData(lab, n)
	basis := &baselines.SSSRBasis{Features: credlab.RawFeatures{}, Vectors: mat.DenseCopyOf(t.vecs.Slice(0, t.D, 0, t.r)), Values: t.vals[:t.r]}
	fit, err := baselines.SSSR(ctx, x, y, baselines.SSSRConfig{Basis: basis, S: sdim})
	if err != nil {
		return 0, err
	}
	gamma := make([]float64, t.r)
	for i := range gf {
		gamma[i] = gf[i] + s*ge[i]
	}
	beta := make([]float64, t.D)
	blas64.Gemv(blas.NoTrans, 1, t.m.RawMatrix(), vec(gamma), 0, vec(beta))
	return maxRelDiff(st.testPred(beta), st.testPred(fit.Model.Coef)), nil
}
