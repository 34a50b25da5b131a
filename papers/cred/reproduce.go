package cred

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/papers/internal/report"
	"gonum.org/v1/gonum/mat"
)

// Reproduce reproduces the experiments of Murata and Suzuki, "Gradient Descent
// in RKHS with Importance Labeling" (AISTATS 2021): Figures 1 and 2 (a
// two-dimensional Gaussian pool, uniform against CRED labeling, the spread
// of least-squares coefficients from 3 labels) and Figure 3 (test RMSE of
// CRED, KRR, KTR3 and SSSR on linear and random-ReLU-feature regression
// tasks built on Fashion-MNIST and USPS). It writes fig1_points.csv,
// fig2_coefficients.csv, fig3.csv and reproductions-cred.md to outDir and
// progress to w. quick shrinks every size so that the run takes about a
// minute.
func Reproduce(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error {
	cfg := defaultConfig(quick)
	cfg.Load = func() ([]*imageSet, error) {
		fm, err := loadFashionMNIST(dataDir)
		if err != nil {
			return nil, err
		}
		us, err := loadUSPS(dataDir)
		if err != nil {
			return nil, err
		}
		return []*imageSet{fm, us}, nil
	}
	cfg.Command = report.Command("go run ./cmd/credlab", quick, "cred", "-data", dataDir, "-out", outDir)
	return reproduce(ctx, outDir, cfg, w)
}

// config sizes the whole reproduction.
type config struct {
	Quick   bool
	Toy     toyConfig
	Fig3    fig3Config
	Load    func() ([]*imageSet, error)
	Command string
}

// toyConfig sizes Figures 1 and 2.
type toyConfig struct {
	Pool      int     // unlabeled points (paper: 100,000)
	Shown     int     // points labeled for Figure 1 (paper: 100)
	PoolShown int     // pool points written as the figure's background
	Trials    int     // regressions per replication (paper: 1,000)
	Labels    int     // labels per regression (paper: 3)
	Reps      int     // replications of the Trials, for the spread of the ratios
	Noise     float64 // label noise variance (paper: 0.01)
	LambdaQ   float64 // the main lambda_q
	// LambdaQs are further lambda_q values compared with the main one.
	LambdaQs []float64
	Seed     uint64
}

func decades(lo, hi int) []float64 {
	var out []float64
	for e := lo; e <= hi; e++ {
		out = append(out, math.Pow(10, float64(e)))
	}
	return out
}

func defaultConfig(quick bool) config {
	c := config{
		Quick: quick,
		Toy: toyConfig{Pool: 100000, Shown: 100, PoolShown: 5000, Trials: 1000, Labels: 3, Reps: 50,
			Noise: 0.01, LambdaQ: 1e-6, LambdaQs: []float64{1e-3, 1e-2, 1e-1, 1}, Seed: 1},
		Fig3: fig3Config{Ns: []int{1000, 2000, 4000}, Noises: []float64{1e-6, 1e-4, 1e-2, 1, 1e2}, Reps: 5,
			LambdaQs: decades(-12, -3), Lambdas: decades(-12, -3), Labelings: 10, SGrid: 10, Floor: 1e-10,
			Widths: []int{500, 500, 500}, Seed: 2, Methods: allMethods()},
	}
	if quick {
		c.Toy.Reps = 4
		c.Fig3 = fig3Config{PoolLimit: 3000, TestLimit: 1000, Ns: []int{500, 1000}, Noises: []float64{1e-6, 1e-2, 1e2},
			Reps: 2, LambdaQs: []float64{1e-12, 1e-9, 1e-6, 1e-3}, Lambdas: []float64{1e-12, 1e-9, 1e-6, 1e-3},
			Labelings: 4, SGrid: 4, Floor: 1e-10, Widths: []int{500, 500, 500}, Seed: 2, Methods: allMethods()}
	}
	return c
}

func reproduce(ctx context.Context, outDir string, cfg config, w io.Writer) error {
	start := time.Now()
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(w, "CRED reproduction (quick=%v), %d CPUs\n", cfg.Quick, runtime.GOMAXPROCS(0))
	toy, err := runToy(ctx, outDir, cfg.Toy, w)
	if err != nil {
		return err
	}
	toyTime := time.Since(start)
	sets, err := cfg.Load()
	if err != nil {
		return err
	}
	t1 := time.Now()
	rows, infos, err := runFig3(ctx, sets, cfg.Fig3, w)
	if err != nil {
		return err
	}
	if err := writeFig3CSV(filepath.Join(outDir, "fig3.csv"), rows); err != nil {
		return err
	}
	fig3Time := time.Since(t1)
	md := markdown(cfg, toy, rows, infos, sets, toyTime, fig3Time, time.Since(start))
	if err := os.WriteFile(filepath.Join(outDir, "reproductions-cred.md"), []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "done in %v; wrote %s\n", time.Since(start).Round(time.Second), outDir)
	return nil
}

// ---------------------------------------------------------------------------
// Figures 1 and 2.

type toyVariant struct {
	Name     string
	Uniform  bool
	LambdaQ  float64
	Weighted bool
}

type toyStats struct {
	SD, IQR, Q90 [2]float64 // Q90: 90% quantile of |beta_k - 1|
}

type toyResult struct {
	Variant toyVariant
	First   toyStats // the replication written to fig2_coefficients.csv
	// Ratios to uniform's statistic, one per replication.
	RatioSD, RatioIQR, RatioQ90 [2][]float64
}

func (c toyConfig) variants() []toyVariant {
	vs := []toyVariant{{Name: "uniform", Uniform: true},
		{Name: "CRED", LambdaQ: c.LambdaQ, Weighted: true},
		{Name: "CRED unweighted", LambdaQ: c.LambdaQ}}
	for _, l := range c.LambdaQs {
		vs = append(vs, toyVariant{Name: "CRED", LambdaQ: l, Weighted: true})
	}
	return vs
}

func (v toyVariant) selector() credlab.Selector {
	if v.Uniform {
		return credlab.UniformSelector{}
	}
	return credlab.CREDSelector{Features: credlab.RawFeatures{}, LambdaQ: v.LambdaQ}
}

func (v toyVariant) label() string {
	if v.Uniform {
		return v.Name
	}
	return fmt.Sprintf("%s lambda_q=%g", v.Name, v.LambdaQ)
}

func runToy(ctx context.Context, outDir string, c toyConfig, w io.Writer) ([]toyResult, error) {
	t0 := time.Now()
	pool := toyPool(c.Pool, c.Seed)
	// Figure 1: 100 points labeled by each scheme.
	f1, err := os.Create(filepath.Join(outDir, "fig1_points.csv"))
	if err != nil {
		return nil, err
	}
	defer f1.Close()
	cw := csv.NewWriter(f1)
	cw.Write([]string{"set", "x1", "x2", "weight"})
	for i := 0; i < min(c.PoolShown, c.Pool); i++ {
		cw.Write([]string{"pool", report.G8(pool.At(i, 0)), report.G8(pool.At(i, 1)), ""})
	}
	for _, v := range c.variants()[:2] {
		sel, err := v.selector().Select(ctx, pool, c.Shown, c.Seed+100)
		if err != nil {
			return nil, err
		}
		for i, j := range sel.Index {
			cw.Write([]string{strings.ToLower(v.Name), report.G8(pool.At(j, 0)), report.G8(pool.At(j, 1)), report.G8(sel.Weight[i])})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}

	// Figure 2: Trials least-squares fits on Labels points each.
	f2, err := os.Create(filepath.Join(outDir, "fig2_coefficients.csv"))
	if err != nil {
		return nil, err
	}
	defer f2.Close()
	cw2 := csv.NewWriter(f2)
	cw2.Write([]string{"method", "lambda_q", "weighted", "trial", "beta1", "beta2"})
	vs := c.variants()
	res := make([]toyResult, len(vs))
	for i, v := range vs {
		res[i].Variant = v
	}
	for r := 0; r < c.Reps; r++ {
		// Each pool point carries one noisy label, as in the paper's model.
		y := toyLabels(pool, math.Sqrt(c.Noise), c.Seed, uint64(r))
		var uni toyStats
		for i, v := range vs {
			b1, b2, err := toyTrials(ctx, pool, y, v, c, uint64(1000*r+i))
			if err != nil {
				return nil, err
			}
			st := toyStats{SD: [2]float64{report.SD(b1), report.SD(b2)}, IQR: [2]float64{iqr(b1), iqr(b2)},
				Q90: [2]float64{quantile(absDev(b1, 1), 0.9), quantile(absDev(b2, 1), 0.9)}}
			if i == 0 {
				uni = st
			}
			for k := 0; k < 2; k++ {
				res[i].RatioSD[k] = append(res[i].RatioSD[k], st.SD[k]/uni.SD[k])
				res[i].RatioIQR[k] = append(res[i].RatioIQR[k], st.IQR[k]/uni.IQR[k])
				res[i].RatioQ90[k] = append(res[i].RatioQ90[k], st.Q90[k]/uni.Q90[k])
			}
			if r == 0 {
				res[i].First = st
				lq := ""
				if !v.Uniform {
					lq = report.G8(v.LambdaQ)
				}
				for t := range b1 {
					cw2.Write([]string{strings.ToLower(v.Name), lq, strconv.FormatBool(v.Weighted), strconv.Itoa(t), report.G8(b1[t]), report.G8(b2[t])})
				}
			}
		}
	}
	cw2.Flush()
	if err := cw2.Error(); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "figures 1-2: %d replications of %d trials in %v\n", c.Reps, c.Trials, time.Since(t0).Round(time.Millisecond))
	return res, nil
}

// toyTrials draws Trials x Labels rows with the variant's selector (i.i.d.
// draws, so consecutive groups are independent labelings) and fits each
// group by (importance-weighted) least squares without intercept.
func toyTrials(ctx context.Context, pool *mat.Dense, y []float64, v toyVariant, c toyConfig, seed uint64) (b1, b2 []float64, err error) {
	sel, err := v.selector().Select(ctx, pool, c.Trials*c.Labels, c.Seed*7919+seed)
	if err != nil {
		return nil, nil, err
	}
	x, err := credlab.GatherRows(pool, sel.Index)
	if err != nil {
		return nil, nil, err
	}
	yl := make([]float64, len(sel.Index))
	for i, j := range sel.Index {
		yl[i] = y[j]
	}
	var w []float64
	if v.Weighted {
		w = sel.Weight
	}
	// A negligible ridge: the package needs lambda > 0; 1e-10 n is far
	// below the smallest covariance eigenvalue, 0.01.
	coefs, err := trialCoefficients(ctx, x, yl, w, c.Labels, c.Trials, 1e-10)
	if err != nil {
		return nil, nil, err
	}
	return coefs[0], coefs[1], nil
}

// ---------------------------------------------------------------------------
// Figure 3.

func runFig3(ctx context.Context, sets []*imageSet, c fig3Config, w io.Writer) ([]fig3Row, []fig3Info, error) {
	var rows []fig3Row
	var infos []fig3Info
	for si, set := range sets {
		pool, test := set.Pool, set.Test
		if c.PoolLimit > 0 {
			pool = subsampleRows(pool, c.PoolLimit, c.Seed+uint64(si))
		}
		if c.TestLimit > 0 {
			test = subsampleRows(test, c.TestLimit, c.Seed+uint64(si)+50)
		}
		_, d := pool.Dims()
		net, err := credlab.NewReLUNetwork(d, c.Widths, c.Seed+uint64(si))
		if err != nil {
			return nil, nil, err
		}
		for _, task := range []struct {
			name string
			fm   credlab.FeatureMap
		}{{"linear", credlab.RawFeatures{Bias: true}}, {"nonlinear", net}} {
			t0 := time.Now()
			phi, err := featurize(ctx, task.fm, pool)
			if err != nil {
				return nil, nil, err
			}
			phiT, err := featurize(ctx, task.fm, test)
			if err != nil {
				return nil, nil, err
			}
			ft := time.Since(t0)
			r, info, err := runFig3Task(ctx, set.Name, task.name, phi, phiT, c, w)
			if err != nil {
				return nil, nil, fmt.Errorf("%s/%s: %w", set.Name, task.name, err)
			}
			info.Features = ft
			info.Total += ft
			rows = append(rows, r...)
			infos = append(infos, info)
		}
	}
	return rows, infos, nil
}

// subsampleRows returns m rows of x chosen without replacement (all rows
// when m >= the row count).
func subsampleRows(x *mat.Dense, m int, seed uint64) *mat.Dense {
	n, _ := x.Dims()
	if m >= n {
		return x
	}
	idx := rand.New(rand.NewPCG(seed, 0x737562)).Perm(n)[:m]
	sort.Ints(idx)
	out, _ := credlab.GatherRows(x, idx)
	return out
}

// ---------------------------------------------------------------------------
// Output.

func writeFig3CSV(path string, rows []fig3Row) error {
	recs := [][]string{{"dataset", "task", "n", "noise_var", "method", "rep", "test_rmse", "labeling", "lambda_q_rel", "lambda_rel", "s_or_k"}}
	for _, r := range rows {
		recs = append(recs, []string{r.Dataset, r.Task, strconv.Itoa(r.N), report.G8(r.Noise), r.Method, strconv.Itoa(r.Rep), report.G8(r.RMSE),
			strconv.Itoa(r.Labeling), report.G8(r.LambdaQ), report.G8(r.Lambda), strconv.Itoa(r.S)})
	}
	return report.WriteCSV(path, recs)
}

// medianRMSE returns the median over repetitions for each setting.
func medianRMSE(rows []fig3Row) map[string]float64 {
	groups := map[string][]float64{}
	for _, r := range rows {
		k := fig3Key(r.Dataset, r.Task, r.Method, r.N, r.Noise)
		groups[k] = append(groups[k], r.RMSE)
	}
	out := map[string]float64{}
	for k, v := range groups {
		out[k] = median(v)
	}
	return out
}

func fig3Key(dataset, task, method string, n int, noise float64) string {
	return fmt.Sprintf("%s|%s|%s|%d|%g", dataset, task, method, n, noise)
}

func markdown(cfg config, toy []toyResult, rows []fig3Row, infos []fig3Info, sets []*imageSet, toyTime, fig3Time, total time.Duration) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	tc, fc := cfg.Toy, cfg.Fig3
	p("## CRED: Gradient Descent in RKHS with Importance Labeling (Murata and Suzuki, AISTATS 2021)\n\n")
	p("Regenerate with `%s` (data in `../shared/data`; add `-quick` for a one-minute smoke run).", "go run ./cmd/credlab reproduce cred -data ../shared/data -out out/cred")
	if cfg.Quick {
		p(" **These numbers come from a `-quick` run (subsampled pools, fewer settings); they are not the full reproduction.**")
	}
	p(" This run: `%s`, %d CPUs, %v in total (figures 1-2: %v; figure 3: %v).\n\n", cfg.Command, runtime.GOMAXPROCS(0),
		total.Round(time.Second), toyTime.Round(time.Second), fig3Time.Round(time.Second))

	// Figures 1 and 2.
	p("### Figures 1 and 2: CRED on a two-dimensional Gaussian pool\n\n")
	p("Pool: %d points, X1 ~ N(0, 1), X2 ~ N(0, 0.01). Figure 1: %d points labeled uniformly and %d by CRED "+
		"(`CREDSelector{Features: RawFeatures{}, LambdaQ: %g}`), both with replacement, in `fig1_points.csv` "+
		"(with %d pool points as background). Figure 2: %d trials of least squares without intercept on %d labeled points, "+
		"f(x) = x1 + x2, noise variance %g, each pool point carrying one noisy label; CRED's losses weighted by 1/(N q) "+
		"(`LinearRLS` with `Weights` and lambda = 1e-10, a negligible ridge), uniform unweighted. "+
		"The coefficients of the first replication are in `fig2_coefficients.csv`.\n\n",
		tc.Pool, tc.Shown, tc.Shown, tc.LambdaQ, tc.PoolShown, tc.Trials, tc.Labels, tc.Noise)
	p("The paper shows the two clouds of (beta1, beta2) and says CRED \"significantly reduces the estimation variance\"; it gives no numbers. "+
		"Ours: the spread of each coefficient and its ratio to uniform's (below 1: CRED is tighter): standard deviation, interquartile range and q90, "+
		"the 90%% quantile of |beta_k - 1|. With 3 points for 2 unknowns uniform least squares has infinite variance, so a standard deviation over %d trials "+
		"is dominated by a few near-degenerate draws and swings widely between runs; the second table therefore gives the median and range of each ratio "+
		"over %d independent replications (new label noise and new draws).\n\n", tc.Trials, tc.Reps)
	p("| labeling (first replication) | sd beta1 | sd beta2 | IQR beta1 | IQR beta2 | q90 beta1 | q90 beta2 |\n|---|---|---|---|---|---|---|\n")
	for _, r := range toy {
		s := r.First
		p("| %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n", r.Variant.label(), s.SD[0], s.SD[1], s.IQR[0], s.IQR[1], s.Q90[0], s.Q90[1])
	}
	p("\n| labeling: ratio to uniform, median (range) over %d replications | sd beta1 | sd beta2 | IQR beta1 | IQR beta2 | q90 beta1 | q90 beta2 |\n|---|---|---|---|---|---|---|\n", tc.Reps)
	for _, r := range toy[1:] {
		p("| %s | %s | %s | %s | %s | %s | %s |\n", r.Variant.label(), ratioRange(r.RatioSD[0]), ratioRange(r.RatioSD[1]),
			ratioRange(r.RatioIQR[0]), ratioRange(r.RatioIQR[1]), ratioRange(r.RatioQ90[0]), ratioRange(r.RatioQ90[1]))
	}
	p("\n")
	b.WriteString(toyVerdict(toy))

	// Figure 3.
	p("\n### Figure 3: test RMSE on Fashion-MNIST and USPS\n\n")
	p("Data: %s. ", strings.Join(setDescriptions(sets), "; "))
	p("The paper's second data set is MNIST; its training images are not staged here (only its 10,000 test images), so USPS stands in for it. ")
	if fc.PoolLimit > 0 || fc.TestLimit > 0 {
		p("This run subsamples the pools to %d rows and the test sets to %d rows. ", fc.PoolLimit, fc.TestLimit)
	}
	p("Tasks: linear (raw pixels plus a bias, `RawFeatures{Bias: true}`) and nonlinear (`NewReLUNetwork(d, %v, seed)`, N(0, 1) weights, no output layer). "+
		"Target: beta* = sum_i a_i e_i / sqrt(mu_i), a_i ~ N(0, 1), over the eigenpairs (mu_i, e_i) of the pool's feature covariance C = Phi^T Phi / N "+
		"with mu_i > %g mu_1 (below that the spectra have a clear gap: the rest are numerically zero, e.g. dead ReLU units), "+
		"so that f = phi . beta* has mean square sum a_i^2 (about the rank) on the pool. "+
		"A new target, new pool label noise (one noisy label per pool point) and new labelings in each of %d repetitions; "+
		"test RMSE is against the noiseless test targets (against noisy ones add sigma^2 to the square); the tables give the median over repetitions.\n\n",
		fc.Widths, fc.Floor, fc.Reps)
	p("Methods, each given %d labeled sets per repetition and the best test error recorded (footnote 4):\n\n", len(fc.LambdaQs))
	p("- **CRED**: importance labeling with lambda_q in %s (one labeling per lambda_q), then the analytic importance-weighted ridge "+
		"(`LinearRLS` with `Weights`, footnote 3) with lambda on the grid %s; best over lambda_q and lambda. "+
		"**CRED(lambda=lambda_q)** ties the ridge to lambda = lambda_q, as in the paper's theory (Theorem 4.4 and the remark after it).\n", gridString(fc.LambdaQs), gridString(fc.Lambdas))
	p("- **KRR**: %d uniform labelings (without replacement), ridge (`LinearRLS`, no weights) with lambda on the same grid; best over both.\n", fc.Labelings)
	p("- **KTR3**: on the same uniform labelings, `baselines.KTR3` (k uniform on {0..n-1}, ridge on the first k rows with penalty lambda n, predictions clipped at max |y|), lambda on the same grid; best over both.\n")
	p("- **SSSR**: on the same uniform labelings, least squares on the top s eigenfunctions of the pool covariance (`baselines.SSSR`), s on %d evenly spaced values up to min(rank, n); best over both.\n", fc.SGrid)
	p("- **CRED-distinct** (not in the paper): the same q, drawn without replacement (`credlab.WithoutReplacement`: inclusion probabilities pi_j = min(1, c q_j) summing to n, the first n rows of a ranking drawn by Tillé's elimination procedure, Horvitz-Thompson weights n/(N pi_j)), "+
		"the budgets %v labeled as successive batches of one design and seed, which add up to a one-shot draw of each budget; best over lambda_q and lambda as CRED.\n", fc.Ns)
	p("- **CRED-draws** (not in the paper): the paper's design paid per distinct label: CRED's own draws (the same seed) continued until n distinct rows come up, each labeled once and weighted by its draw count (`credlab.DistinctRows`, the fit on all those draws); best over lambda_q and lambda as CRED.\n")
	p("- **GSx** (not in the paper): greedy sampling in the task's feature space (`GreedySelector`, Wu, Lin and Huang 2019: each next row the farthest from those chosen), unweighted ridge with lambda on the grid.\n\n")
	p("All lambda values are in units of the mean eigenvalue tr(C)/D of the pool covariance (the paper's absolute grid): for raw pixels that unit is about 0.2, " +
		"so the grid is close to the paper's; for the ReLU features (entries of order 1e3) an absolute grid of at most 1e-3 would make every lambda and lambda_q " +
		"numerically zero, so the grid is read relative to the feature scale.\n\n")
	p("Implementation: for speed the fits are computed from shared Gram matrices (one per labeling, grown through the nested budgets, " +
		"one Cholesky factorization per lambda for all noise levels, test error from the test covariance): the engine of `cred.LabelingBenchmark`, " +
		"which the package tests check against `CREDSelector`, `LinearRLS`, `baselines.KTR3` and `baselines.SSSR` on the same labeled rows (TestFastPathMatchesPackage).\n\n")
	p("| task | D | rank above floor | mean eigenvalue | test RMS of f | time |\n|---|---|---|---|---|---|\n")
	for _, in := range infos {
		p("| %s %s | %d | %d | %.3g | %.3g | %v |\n", in.Dataset, in.Task, in.D, in.R, in.MeanEig, in.SignalRMS, in.Total.Round(time.Second))
	}
	p("\n")
	med := medianRMSE(rows)
	for _, in := range infos {
		p("**%s, %s task** (median test RMSE over %d repetitions; last column KRR / CRED)\n\n", in.Dataset, in.Task, fc.Reps)
		p("| n | sigma^2 | CRED | CRED(lambda=lambda_q) | KRR | KTR3 | SSSR | KRR/CRED |\n|---|---|---|---|---|---|---|---|\n")
		for _, n := range fc.Ns {
			for _, s2 := range fc.Noises {
				v := func(m string) float64 { return med[fig3Key(in.Dataset, in.Task, m, n, s2)] }
				p("| %d | %g | %.3g | %.3g | %.3g | %.3g | %.3g | %.2f |\n", n, s2, v(BenchCRED), v(BenchCREDTied), v(BenchKRR), v(BenchKTR3), v(BenchSSSR), v(BenchKRR)/v(BenchCRED))
			}
		}
		p("\n")
		if !fc.has(BenchCREDDistinct) {
			continue
		}
		p("**%s, %s task, budgets of distinct labels** (median test RMSE; n counts distinct labels for every method but the first, the paper's CRED with n draws, shown for reference)\n\n", in.Dataset, in.Task)
		p("| n | sigma^2 | CRED (paper, n draws) | CRED-draws | CRED-distinct | GSx | KRR (uniform) | KRR / CRED-distinct |\n|---|---|---|---|---|---|---|---|\n")
		for _, n := range fc.Ns {
			for _, s2 := range fc.Noises {
				v := func(m string) float64 { return med[fig3Key(in.Dataset, in.Task, m, n, s2)] }
				p("| %d | %g | %.4g | %.4g | %.4g | %.4g | %.4g | %.3f |\n", n, s2, v(BenchCRED), v(BenchCREDDraws), v(BenchCREDDistinct), v(BenchGSx), v(BenchKRR), v(BenchKRR)/v(BenchCREDDistinct))
			}
		}
		p("\n")
	}
	b.WriteString(fig3Verdict(fc, infos, med))
	return b.String()
}

func toyVerdict(toy []toyResult) string {
	var b strings.Builder
	main := toy[1]
	m := func(v []float64) float64 { return median(v) }
	iq1, iq2 := m(main.RatioIQR[0]), m(main.RatioIQR[1])
	q1, q2 := m(main.RatioQ90[0]), m(main.RatioQ90[1])
	below := 0
	for k := 0; k < 2; k++ {
		for _, v := range main.RatioIQR[k] {
			if v < 1 {
				below++
			}
		}
	}
	fmt.Fprintf(&b, "Reading: with lambda_q = %g, CRED's spread relative to uniform's is a median %.2f (beta1) and %.2f (beta2) in IQR and %.2f / %.2f in q90; "+
		"the IQR ratio is below 1 in %d of %d coefficient-replications. The standard deviation ratio has a median of %.2f / %.2f but ranges over a factor of ten between replications. ",
		main.Variant.LambdaQ, iq1, iq2, q1, q2, below, 2*len(main.RatioIQR[0]), m(main.RatioSD[0]), m(main.RatioSD[1]))
	b.WriteString("Which lambda_q: with linear features the score is x1^2/(1 + lambda_q) + x2^2/(0.01 + lambda_q), so lambda_q must be well below the small variance 0.01 " +
		"for CRED to favour large |x2|; every lambda_q <= 1e-3 behaves alike, and at lambda_q >= 0.01 the gain on beta2 shrinks and then vanishes while beta1 gains more. " +
		"Which estimator: dropping the importance weights changes little. ")
	if iq1 < 0.9 && iq2 < 0.9 {
		b.WriteString("**Reproduced in direction, moderate in size**: CRED consistently tightens both coefficients, by about a fifth to a quarter in the robust spreads. " +
			"The paper's figure (a plot, no numbers) reads as a larger effect; a single run of 1,000 trials can show anything from a large reduction to none in the standard deviation, " +
			"which is how a smoke run can see \"almost no difference in RMS deviation\".\n")
	} else {
		b.WriteString("**Not reproduced**: the reduction is small or absent in the robust spreads.\n")
	}
	return b.String()
}

func fig3Verdict(c fig3Config, infos []fig3Info, med map[string]float64) string {
	var b strings.Builder
	b.WriteString("What the paper shows (Figure 3 is plots only): at large noise all methods are similar; at small noise CRED is clearly best, SSSR comparable to or better than KRR and KTR3, sometimes much worse than CRED.\n\n")
	lo, hi := c.Noises[0], c.Noises[len(c.Noises)-1]
	for _, in := range infos {
		var wins, cells int
		var ratiosLo, ratiosHi []float64
		for _, n := range c.Ns {
			for _, s2 := range c.Noises {
				cr := med[fig3Key(in.Dataset, in.Task, BenchCRED, n, s2)]
				bestOther := math.Inf(1)
				for _, m := range []string{BenchKRR, BenchKTR3, BenchSSSR} {
					bestOther = math.Min(bestOther, med[fig3Key(in.Dataset, in.Task, m, n, s2)])
				}
				cells++
				if cr < bestOther {
					wins++
				}
				if s2 == lo {
					ratiosLo = append(ratiosLo, bestOther/cr)
				}
				if s2 == hi {
					ratiosHi = append(ratiosHi, bestOther/cr)
				}
			}
		}
		fmt.Fprintf(&b, "- %s %s: CRED has the lowest median RMSE in %d of %d settings; best baseline / CRED is %s at sigma^2 = %g and %s at sigma^2 = %g (over n = %v).\n",
			in.Dataset, in.Task, wins, cells, ratioList(ratiosLo), lo, ratioList(ratiosHi), hi, c.Ns)
	}
	if !c.has(BenchCREDDistinct) {
		return b.String()
	}
	b.WriteString("\nDistinct-label budgets (the target: CRED-distinct no worse than uniform labeling in any USPS cell, and best at small noise on Fashion-MNIST):\n\n")
	for _, in := range infos {
		var notWorse, cells, beatsDraws, best int
		var worst, lost []string
		for _, n := range c.Ns {
			for _, s2 := range c.Noises {
				key := func(m string) float64 { return med[fig3Key(in.Dataset, in.Task, m, n, s2)] }
				cd, kr := key(BenchCREDDistinct), key(BenchKRR)
				cells++
				if cd <= kr {
					notWorse++
				} else {
					worst = append(worst, fmt.Sprintf("n = %d, sigma^2 = %g: %+.1f%%", n, s2, 100*(cd/kr-1)))
				}
				if cd <= key(BenchCREDDraws) {
					beatsDraws++
				}
				if s2 != lo {
					continue
				}
				winner := BenchCREDDistinct
				for _, m := range []string{BenchCREDDraws, BenchGSx, BenchKRR, BenchKTR3, BenchSSSR} {
					if v := key(m); v < key(winner) {
						winner = m
					}
				}
				if winner == BenchCREDDistinct {
					best++
				} else {
					lost = append(lost, fmt.Sprintf("n = %d: %s %.3g against %.3g", n, winner, key(winner), cd))
				}
			}
		}
		fmt.Fprintf(&b, "- %s %s: CRED-distinct is no worse than uniform in %d of %d cells and no worse than the paper's design at the same distinct budget (CRED-draws) in %d", in.Dataset, in.Task, notWorse, cells, beatsDraws)
		if len(worst) > 0 {
			fmt.Fprintf(&b, "; worse than uniform at %s", strings.Join(worst, "; "))
		}
		fmt.Fprintf(&b, ". At sigma^2 = %g it has the lowest RMSE of every method at %d of %d budgets", lo, best, len(c.Ns))
		if len(lost) > 0 {
			fmt.Fprintf(&b, " (lower: %s)", strings.Join(lost, "; "))
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// Small helpers.

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func containsF(v []float64, x float64) bool {
	for _, u := range v {
		if u == x {
			return true
		}
	}
	return false
}

// maxRelDiff returns max_i |a_i - b_i| / max_i |b_i|.
func maxRelDiff(a, b []float64) float64 {
	num, den := 0.0, 0.0
	for i := range a {
		num = math.Max(num, math.Abs(a[i]-b[i]))
		den = math.Max(den, math.Abs(b[i]))
	}
	if den == 0 {
		return num
	}
	return num / den
}

// quantile returns the p-quantile of v by linear interpolation.
func quantile(v []float64, p float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	h := p * float64(len(s)-1)
	lo := int(math.Floor(h))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (h-float64(lo))*(s[hi]-s[lo])
}

// absDev returns |v_i - c|.
func absDev(v []float64, c float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Abs(x - c)
	}
	return out
}

func iqr(v []float64) float64 { return quantile(v, 0.75) - quantile(v, 0.25) }

func median(v []float64) float64 {
	var ok []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			ok = append(ok, x)
		}
	}
	return quantile(ok, 0.5)
}

func ratioRange(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return fmt.Sprintf("%.2f (%.2f-%.2f)", median(s), s[0], s[len(s)-1])
}

func ratioList(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.2g", x)
	}
	return strings.Join(parts, ", ")
}

func gridString(v []float64) string {
	if len(v) == 0 {
		return "{}"
	}
	return fmt.Sprintf("{%g, ..., %g} (%d values)", v[0], v[len(v)-1], len(v))
}

func setDescriptions(sets []*imageSet) []string {
	out := make([]string, len(sets))
	for i, s := range sets {
		out[i] = s.Description
	}
	return out
}
