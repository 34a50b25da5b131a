package nytro

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/papers/internal/report"
	"github.com/credlab/credlab/papers/internal/staged"
	"gonum.org/v1/gonum/mat"
)

// Reproduce reproduces the experiments of Angles, Camoriano, Rudi and Rosasco,
// "NYTRO: When Subsampling Meets Early Stopping" (AISTATS 2016), Section 4:
//
//   - Table 2, rows InsuranceCompany (COIL 2000, Gaussian sigma = 3,
//     m = 2000) and Adult (a9a, sigma = 6.6, m = 1000): test RMSE on the
//     official test split, the selected parameter (lambda for KRLS and
//     NKRLS, the iteration t* for EarlyStopping and NYTRO) and the
//     model-selection time (credlab Fit.Timing.Total) of KOLS, KRLS,
//     EarlyStopping, NKRLS and NYTRO, with credlab's defaults: a 20%
//     hold-out, the paper's 100-value lambda grid LogGrid(1e-15, 1, 100),
//     at most 500 gradient steps and the 5% stopping threshold. Labels are
//     regressed as -1/+1. Repetition s uses seed s for the hold-out split
//     and the Nyström centers.
//   - Figure 2: model-selection time of NKRLS (100 lambdas) and NYTRO (500
//     iterations, stopping rule disabled) on cpuSmall (n = 6554 training
//     rows, a seeded 80% of the 8192) as the number of centers m grows.
//
// Features are min-max scaled per column with the training rows' ranges,
// as in the authors' Enitor code: to [-1, 1] for InsuranceCompany and
// Adult (a9a's 0/1 features become -1/+1) and to [0, 1] for cpuSmall,
// whose kernel width the paper does not give (0.5 is used).
//
// Exact methods on Adult need a 32561 x 26049 kernel matrix. Before running
// them NYTRO times each on a 2500-row calibration subsample, extrapolates
// (O(n^3) for KRLS and KOLS, O(n^2) per step for EarlyStopping) and runs
// the method only if one run is estimated under 10 minutes and its
// matrices fit in 60% of the memory; otherwise the row reads "not run" with
// the estimate. KOLS has no hold-out or seed, so it runs once.
//
// Full mode runs 5 repetitions for Table 2 and 3 for Figure 2 (m = 100,
// 500, 1000, ..., 4000). quick runs one repetition on 2000-row training
// subsamples (m scaled down) and a shorter m grid, in about a minute.
//
// The t* study (tstar.go) reruns EarlyStopping (up to 10,000
// training rows) and NYTRO for 20,000 steps (quick: 2000) with the stopping
// rule off, and reports the best iteration without a cap and where
// candidate stopping rules would stop.
//
// Outputs in outDir: table2.csv (one row per run), table2_summary.csv,
// fig2.csv, fig2_summary.csv, paths.csv (validation paths of the first
// repetition), tstar.csv and reproductions-nytro.md; progress and tables
// go to w.
func Reproduce(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error {
	start := time.Now()
	cfg := defaultConfig(quick)
	cfg.command = report.Command("credlab", quick, "nytro", "-data", dataDir, "-out", outDir)
	fmt.Fprintf(w, "NYTRO reproduction (%s mode), data in %s\n", cfg.mode(), dataDir)
	cases, err := loadTable2(dataDir, cfg)
	if err != nil {
		return err
	}
	x, y, err := staged.CPUSmall(filepath.Join(dataDir, "cpusmall"))
	if err != nil {
		return err
	}
	cfg.fig2.x, cfg.fig2.y = x, y
	res, err := runAll(ctx, cases, cfg, w)
	if err != nil {
		return err
	}
	res.total = time.Since(start)
	return writeResults(outDir, res, w)
}

// config sizes the reproduction.
type config struct {
	quick   bool
	command string
	reps    int      // Table 2 repetitions (seeds 1..reps)
	methods []string // Table 2 columns
	subN    int      // quick mode: training rows kept (0: all)
	exact   exactPolicy
	fig2    fig2Config
	tstar   tstarConfig
}

func (c config) mode() string {
	if c.quick {
		return "quick"
	}
	return "full"
}

// exactPolicy decides whether an exact method runs on a large data set.
type exactPolicy struct {
	checkAbove int           // estimate first when n_train > checkAbove
	calibN     int           // rows of the calibration run
	budget     time.Duration // largest estimated time of one run
	memShare   float64       // largest share of physical memory
}

// fig2Config is the cpuSmall timing experiment.
type fig2Config struct {
	x      *mat.Dense // all rows, unscaled
	y      []float64
	nTrain int     // training rows drawn per repetition (6554)
	sigma  float64 // Gaussian width on [0, 1]-scaled features
	ms     []int
	reps   int
}

const (
	methodKOLS  = "KOLS"
	methodKRLS  = "KRLS"
	methodES    = "EarlyStopping"
	methodNKRLS = "NKRLS"
	methodNYTRO = "NYTRO"
)

func defaultConfig(quick bool) config {
	c := config{
		quick:   quick,
		reps:    5,
		methods: []string{methodKOLS, methodKRLS, methodES, methodNKRLS, methodNYTRO},
		exact: exactPolicy{checkAbove: 10000, calibN: 2500, budget: 10 * time.Minute,
			memShare: 0.6},
		fig2: fig2Config{nTrain: 6554, sigma: 0.5, reps: 3,
			ms: []int{100, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000}},
		tstar: tstarConfig{steps: 20000, esMaxRows: 10000, esReps: 1},
	}
	if quick {
		c.reps = 1
		c.subN = 2000
		c.fig2.reps = 1
		c.fig2.ms = []int{100, 400, 700, 1000}
		c.tstar.steps = 2000
	}
	return c
}

// table2Case is one Table 2 data set, preprocessed.
type table2Case struct {
	name          string // as in the paper
	sigma         float64
	m             int // Nyström centers
	xTrain, xTest *mat.Dense
	yTrain, yTest []float64
	nFull         int // training rows before any quick-mode subsampling
}

// loadTable2 loads and preprocesses InsuranceCompany and Adult.
func loadTable2(dataDir string, cfg config) ([]*table2Case, error) {
	ins, err := staged.COIL2000(filepath.Join(dataDir, "coil2000"))
	if err != nil {
		return nil, err
	}
	adult, err := staged.A9A(filepath.Join(dataDir, "a9a"))
	if err != nil {
		return nil, err
	}
	var cases []*table2Case
	for _, c := range []struct {
		name  string
		s     *staged.TrainTest
		sigma float64
		m     int
	}{
		{"InsuranceCompany", ins, 3, 2000},
		{"Adult", adult, 6.6, 1000},
	} {
		nc, err := prepare(c.name, c.s, c.sigma, c.m, cfg.subN)
		if err != nil {
			return nil, err
		}
		cases = append(cases, nc)
	}
	return cases, nil
}

// prepare maps labels to -1/+1, scales features to [-1, 1] with the
// training ranges and, if subN > 0, keeps a seeded subsample of subN
// training rows with m scaled in proportion (at least 100).
func prepare(name string, s *staged.TrainTest, sigma float64, m, subN int) (*table2Case, error) {
	ytr, err := plusMinusOne(s.YTrain)
	if err != nil {
		return nil, fmt.Errorf("repro: %s training labels: %w", name, err)
	}
	yte, err := plusMinusOne(s.YTest)
	if err != nil {
		return nil, fmt.Errorf("repro: %s test labels: %w", name, err)
	}
	xtr, xte := mat.DenseCopyOf(s.XTrain), mat.DenseCopyOf(s.XTest)
	minMax(-1, 1, xtr, xte)
	n, _ := xtr.Dims()
	c := &table2Case{name: name, sigma: sigma, m: m, xTrain: xtr, yTrain: ytr, xTest: xte, yTest: yte, nFull: n}
	if subN > 0 && subN < n {
		if c.xTrain, c.yTrain, err = subsample(xtr, ytr, subN, 1); err != nil {
			return nil, err
		}
		c.m = max(100, int(math.Round(float64(m)*float64(subN)/float64(n))))
	}
	return c, nil
}

// plusMinusOne maps 0/1 labels to -1/+1 and leaves -1/+1 labels as
// they are.
func plusMinusOne(y []float64) ([]float64, error) {
	out := make([]float64, len(y))
	zero := false
	for i, v := range y {
		switch v {
		case 0:
			zero = true
		case 1, -1:
		default:
			return nil, fmt.Errorf("label %v at row %d is not 0/1 or -1/+1", v, i)
		}
		out[i] = v
	}
	for i, v := range out {
		if zero && v == -1 {
			return nil, fmt.Errorf("labels mix 0 and -1 (row %d)", i)
		}
		if zero {
			out[i] = 2*v - 1
		}
	}
	return out, nil
}

// minMax scales each column of ref to [lo, hi] using ref's own range
// and applies the same map to the other matrices, in place. Constant
// columns become (lo+hi)/2.
func minMax(lo, hi float64, ref *mat.Dense, others ...*mat.Dense) {
	r, c := ref.Dims()
	for j := 0; j < c; j++ {
		mn, mx := math.Inf(1), math.Inf(-1)
		for i := 0; i < r; i++ {
			v := ref.At(i, j)
			mn, mx = math.Min(mn, v), math.Max(mx, v)
		}
		for _, a := range append([]*mat.Dense{ref}, others...) {
			ar, _ := a.Dims()
			for i := 0; i < ar; i++ {
				v := (lo + hi) / 2
				if mx > mn {
					v = lo + (hi-lo)*(a.At(i, j)-mn)/(mx-mn)
				}
				a.Set(i, j, v)
			}
		}
	}
}

// subsample returns k rows drawn without replacement with the given
// seed.
func subsample(x *mat.Dense, y []float64, k int, seed uint64) (*mat.Dense, []float64, error) {
	perm := rand.New(rand.NewPCG(seed, 0x6e7974726f)).Perm(len(y))[:k]
	return staged.Rows(x, y, perm)
}

// table2Run is one Table 2 fit or the reason it was skipped.
type table2Run struct {
	dataset, method string
	seed            int
	n, nTest, d, m  int
	sigma           float64
	status          string // "ok" or "not run"
	testRMSE        float64
	valRMSE         float64
	lambda          float64
	iter, steps     int
	rank            int
	timing          credlab.Timing
	estimate        time.Duration // "not run": estimated time of one run
	memGB           float64       // "not run": estimated memory
	note            string
	path            []credlab.PathPoint // first repetition only
}

// fig2Run is one Figure 2 fit.
type fig2Run struct {
	m           int
	method      string
	seed        int
	rank, steps int
	timing      credlab.Timing
}

type results struct {
	cfg   config
	cases []*table2Case
	runs  []table2Run
	fig2  []fig2Run
	fig2N int // training rows of the Figure 2 runs
	total time.Duration
	t2    time.Duration // wall time of Table 2
	f2    time.Duration // wall time of Figure 2
	tstar []tstarRun
	ts    time.Duration // wall time of the t* study
}

// runAll runs Table 2 on cases and Figure 2 on cfg.fig2.
func runAll(ctx context.Context, cases []*table2Case, cfg config, w io.Writer) (*results, error) {
	res := &results{cfg: cfg, cases: cases}
	t0 := time.Now()
	for _, c := range cases {
		n, d := c.xTrain.Dims()
		nt, _ := c.xTest.Dims()
		fmt.Fprintf(w, "\n%s: n = %d, n_test = %d, d = %d, sigma = %g, m = %d\n", c.name, n, nt, d, c.sigma, c.m)
		for _, meth := range cfg.methods {
			runs, err := runMethod(ctx, c, meth, cfg, w)
			if err != nil {
				return nil, fmt.Errorf("repro: %s on %s: %w", meth, c.name, err)
			}
			res.runs = append(res.runs, runs...)
		}
	}
	res.t2 = time.Since(t0)
	t0 = time.Now()
	for _, c := range cases {
		ts, err := runTStar(ctx, c, cfg, w)
		if err != nil {
			return nil, fmt.Errorf("repro: t* study on %s: %w", c.name, err)
		}
		res.tstar = append(res.tstar, ts...)
	}
	res.ts = time.Since(t0)
	t0 = time.Now()
	if cfg.fig2.x != nil {
		fr, nTrain, err := runFig2(ctx, cfg.fig2, w)
		if err != nil {
			return nil, fmt.Errorf("repro: Figure 2: %w", err)
		}
		res.fig2, res.fig2N = fr, nTrain
	}
	res.f2 = time.Since(t0)
	return res, nil
}

// runMethod runs one method on one data set for every repetition, or
// records why it was not run.
func runMethod(ctx context.Context, c *table2Case, meth string, cfg config, w io.Writer) ([]table2Run, error) {
	n, d := c.xTrain.Dims()
	nTest, _ := c.xTest.Dims()
	base := table2Run{dataset: c.name, method: meth, n: n, nTest: nTest, d: d, sigma: c.sigma}
	if meth == methodNKRLS || meth == methodNYTRO {
		base.m = c.m
	}
	reps := cfg.reps
	exact := meth == methodKOLS || meth == methodKRLS || meth == methodES
	if meth == methodKOLS {
		reps = 1 // no hold-out split and no centers: nothing to vary
	}
	if exact && n > cfg.exact.checkAbove {
		est, memGB, calib, err := estimateRun(ctx, c, meth, cfg.exact.calibN)
		if err != nil {
			return nil, err
		}
		limit := cfg.exact.memShare * physMemGB()
		fmt.Fprintf(w, "  %-14s estimate for n = %d: %s per run, %.1f GB (from a %d-row run of %s)\n",
			meth, n, fmtDur(est), memGB, cfg.exact.calibN, fmtDur(calib))
		var why string
		switch {
		case est > cfg.exact.budget:
			why = fmt.Sprintf("estimated %s per run (over the %s limit)", fmtDur(est), fmtDur(cfg.exact.budget))
		case memGB > limit:
			why = fmt.Sprintf("needs about %.1f GB (over %.0f%% of memory, %.1f GB)", memGB, 100*cfg.exact.memShare, limit)
		}
		if why != "" {
			r := base
			r.status, r.estimate, r.memGB = "not run", est, memGB
			r.testRMSE, r.valRMSE = math.NaN(), math.NaN()
			r.note = fmt.Sprintf("not run: %s; extrapolated from a %d-row calibration run (%s), pure Go, %d cores",
				why, cfg.exact.calibN, fmtDur(calib), runtime.GOMAXPROCS(0))
			fmt.Fprintf(w, "  %-14s not run: %s\n", meth, why)
			return []table2Run{r}, nil
		}
		if time.Duration(reps)*est > cfg.exact.budget*3/2 {
			reps = 1
			base.note = fmt.Sprintf("1 repetition only: estimated %s per run", fmtDur(est))
		}
	}
	var out []table2Run
	for s := 1; s <= reps; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fit, err := fitMethod(ctx, meth, c.xTrain, c.yTrain, c.sigma, c.m, uint64(s), 0)
		if err != nil {
			return nil, err
		}
		pred, err := fit.Model.PredictContext(ctx, c.xTest)
		if err != nil {
			return nil, err
		}
		r := base
		r.seed, r.status = s, "ok"
		r.testRMSE = credlab.RMSE(pred, c.yTest)
		r.valRMSE, r.lambda, r.iter, r.rank, r.timing = fit.ValRMSE, fit.Lambda, fit.Iter, fit.Rank, fit.Timing
		r.steps = len(fit.Path)
		if meth == methodKOLS {
			r.note = "deterministic (no hold-out, no seed): run once"
		}
		if s == 1 {
			r.path = fit.Path
		}
		fmt.Fprintf(w, "  %-14s seed %d: test RMSE %.4f, %s, rank %d, %.2f s\n",
			meth, s, r.testRMSE, paramString(r), r.rank, fit.Timing.Total().Seconds())
		out = append(out, r)
	}
	return out, nil
}

// estimateRun times meth on a calibN-row subsample of c (seed 1) and
// extrapolates the time and memory of one run on all rows: kernel
// evaluations scale as n^2; the solve as n^3 for KRLS (tridiagonal
// reduction) and KOLS (pivoted Cholesky of a nearly full-rank K) and as
// n^2 per step times MaxIter for EarlyStopping. Memory-bound steps on
// matrices larger than the caches make these lower bounds.
func estimateRun(ctx context.Context, c *table2Case, meth string, calibN int) (est time.Duration, memGB float64, calib time.Duration, err error) {
	n, _ := c.xTrain.Dims()
	calibN = min(calibN, n)
	xs, ys, err := subsample(c.xTrain, c.yTrain, calibN, 1)
	if err != nil {
		return 0, 0, 0, err
	}
	t0 := time.Now()
	fit, err := fitMethod(ctx, meth, xs, ys, c.sigma, c.m, 1, 0)
	if err != nil {
		return 0, 0, 0, err
	}
	calib = time.Since(t0)
	f := float64(n) / float64(calibN)
	tm := fit.Timing
	sec := tm.Kernel.Seconds() * f * f
	nv := math.Round(0.2 * float64(n))
	nt := float64(n) - nv
	switch meth {
	case methodKRLS:
		sec += (tm.Solve + tm.Select).Seconds() * f * f * f
		memGB = 8 * (float64(n)*nt + nt*nt + nv*nt) / 1e9 // [K_tt; K_vt], Q, K_vt Q
	case methodKOLS:
		sec += tm.Solve.Seconds() * f * f * f
		memGB = 8 * 2 * float64(n) * float64(n) / 1e9 // K (holding its rank-r factor) and L^T L, r ~ n
	case methodES:
		steps := max(len(fit.Path), 1)
		sec += (tm.Solve + tm.Select).Seconds() * f * f * 500 / float64(steps)
		memGB = 8 * float64(n) * nt / 1e9
	}
	return time.Duration(sec * float64(time.Second)), memGB, calib, nil
}

// runFig2 times NKRLS and NYTRO (all 500 steps) on cpuSmall for each m
// and repetition. Repetition s draws the nTrain training rows with seed s
// and uses seed s for the hold-out split and the centers.
func runFig2(ctx context.Context, fc fig2Config, w io.Writer) ([]fig2Run, int, error) {
	n, d := fc.x.Dims()
	nTrain := min(fc.nTrain, n)
	fmt.Fprintf(w, "\ncpuSmall (Figure 2): n = %d of %d rows, d = %d, sigma = %g on [0, 1]-scaled features, m = %v, %d repetition(s)\n",
		nTrain, n, d, fc.sigma, fc.ms, fc.reps)
	var out []fig2Run
	for s := 1; s <= fc.reps; s++ {
		x, y, err := subsample(fc.x, fc.y, nTrain, uint64(s))
		if err != nil {
			return nil, 0, err
		}
		minMax(0, 1, x)
		for _, m := range fc.ms {
			for _, meth := range []string{methodNKRLS, methodNYTRO} {
				if err := ctx.Err(); err != nil {
					return nil, 0, err
				}
				steps := 0
				if meth == methodNYTRO {
					steps = 500 // all of them, for the time
				}
				fit, err := fitMethod(ctx, meth, x, y, fc.sigma, m, uint64(s), steps)
				if err != nil {
					return nil, 0, fmt.Errorf("%s, m = %d, seed %d: %w", meth, m, s, err)
				}
				r := fig2Run{m: m, method: meth, seed: s, rank: fit.Rank, steps: len(fit.Path), timing: fit.Timing}
				fmt.Fprintf(w, "  seed %d m %4d %-5s rank %4d: %.2f s (kernel and factor %.2f s, solve %.2f s, select %.2f s)\n",
					s, m, meth, r.rank, r.timing.Total().Seconds(), r.timing.Kernel.Seconds(), r.timing.Solve.Seconds(), r.timing.Select.Seconds())
				out = append(out, r)
			}
		}
	}
	return out, nTrain, nil
}

// physMemGB returns the machine's memory in GB from /proc/meminfo, or 8.
func physMemGB() float64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 8
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseFloat(fields[1], 64); err == nil {
				return kb * 1024 / 1e9
			}
		}
	}
	return 8
}

// fmtDur formats a duration for tables: seconds, minutes or hours.
func fmtDur(d time.Duration) string {
	switch s := d.Seconds(); {
	case s < 120:
		return fmt.Sprintf("%.1f s", s)
	case s < 2*3600:
		return fmt.Sprintf("%.1f min", s/60)
	default:
		return fmt.Sprintf("%.1f h", s/3600)
	}
}

// paramString describes the selected parameter of one run.
func paramString(r table2Run) string {
	switch r.method {
	case methodKRLS, methodNKRLS:
		return fmt.Sprintf("lambda %.3g", r.lambda)
	case methodES, methodNYTRO:
		return fmt.Sprintf("t* %d of %d steps", r.iter, r.steps)
	}
	return "no parameter"
}
