package papers

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// reproduceSGM reproduces the numerical section of Lin and Rosasco, "Optimal
// Learning for Multi-pass Stochastic Gradient Methods" (NIPS 2016):
//
//   - Figure 1a-c: m = 100 points x ~ U[0,1], y = |x - 1/2| - 1/2 + N(0, 1),
//     the Gaussian kernel exp(-(x-x')^2 / (2 sigma^2)) with sigma = 0.2 (the
//     paper's own formula, so "bandwidth 0.2" is credlab.GaussianKernel's
//     Sigma), the population replaced by 2000 uniform points, and the error
//     decomposition (16) (total error, bias, sample and computational
//     variance) against passes for mini-batch SGM (b = sqrt(m),
//     eta = 1/(8 sqrt(m))), simple SGM (b = 1, eta = 1/(8m)) and batch GD
//     (eta = 1/8), averaged over 50 trials;
//   - Figure 2: training and test classification error of the three
//     variants on Breast Cancer Wisconsin against passes.
//
// It writes fig1_decomposition.csv, fig2_breast_cancer.csv and
// reproductions-sgm.md to outDir and progress to w. quick shrinks the
// sizes so that the run takes about a minute.
func reproduceSGM(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error {
	cfg := sgmrDefaults(quick)
	cfg.DataDir = dataDir
	cfg.Command = command("go run ./cmd/credlab", quick, "sgm", "-data", dataDir, "-out", outDir)
	return sgmrRun(ctx, outDir, cfg, w)
}

// sgmrConfig sizes the reproduction.
type sgmrConfig struct {
	Quick      bool
	M          int     // sample size of Fig. 1
	Sigma      float64 // Gaussian kernel bandwidth
	Noise      float64
	Population int
	Trials     int
	MaxPasses  int // Fig. 1 passes are log-spaced up to this
	Points     int // recorded passes
	// Fig. 2
	DataDir    string
	Splits     int     // seeded train/test splits averaged
	TestShare  float64 // share of rows in the test set
	BCMaxPass  int
	BCPoints   int
	Command    string
	LoadBreast func(dir string) (*mat.Dense, []float64, error)
}

func sgmrDefaults(quick bool) sgmrConfig {
	c := sgmrConfig{Quick: quick, M: 100, Sigma: 0.2, Noise: 1, Population: 2000, Trials: 50,
		MaxPasses: 10000, Points: 25, Splits: 10, TestShare: 0.3, BCMaxPass: 10000, BCPoints: 21,
		LoadBreast: sgmrLoadBreast}
	if quick {
		c.Population, c.Trials, c.MaxPasses, c.Points = 500, 8, 1000, 13
		c.Splits, c.BCMaxPass, c.BCPoints = 2, 300, 8
	}
	return c
}

// sgmrVariant is one of the paper's three runs.
type sgmrVariant struct {
	Name   string
	Preset credlab.SGMPreset
}

var sgmrVariants = []sgmrVariant{
	{"minibatch", credlab.SGMMiniBatch},
	{"simple", credlab.SGMSimple},
	{"batch", credlab.SGMBatch},
}

// sgmrCurve is the decomposition of one variant averaged over the trials.
type sgmrCurve struct {
	Variant                                  sgmrVariant
	B                                        int
	Eta                                      float64
	Passes                                   []float64
	Total, Bias, SampleVar, CompVar, BatchGD []float64
	Time                                     time.Duration
}

// sgmrBC is the mean classification error of one variant on the breast
// cancer data, per recorded pass.
type sgmrBC struct {
	Variant         sgmrVariant
	B               int
	Eta             float64
	Passes          []float64
	Train, Test     []float64
	TrainSD, TestSD []float64
}

func sgmrRun(ctx context.Context, outDir string, cfg sgmrConfig, w io.Writer) error {
	start := time.Now()
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(w, "SGM reproduction (Lin & Rosasco 2016), quick=%v\n", cfg.Quick)
	t0 := time.Now()
	curves, popTime, rank, err := sgmrFig1(ctx, cfg, w)
	if err != nil {
		return err
	}
	fig1Time := time.Since(t0)
	if err := sgmrWriteFig1(filepath.Join(outDir, "fig1_decomposition.csv"), curves); err != nil {
		return err
	}
	t0 = time.Now()
	bc, bcInfo, err := sgmrFig2(ctx, cfg, w)
	if err != nil {
		return err
	}
	fig2Time := time.Since(t0)
	if err := sgmrWriteFig2(filepath.Join(outDir, "fig2_breast_cancer.csv"), bc); err != nil {
		return err
	}
	md := sgmrMarkdown(cfg, curves, bc, bcInfo, popTime, rank, fig1Time, fig2Time, time.Since(start))
	if err := os.WriteFile(filepath.Join(outDir, "reproductions-sgm.md"), []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (%.1f s)\n", filepath.Join(outDir, "reproductions-sgm.md"), time.Since(start).Seconds())
	return nil
}

// sgmrFig1 computes the decomposition curves of the three variants.
func sgmrFig1(ctx context.Context, cfg sgmrConfig, w io.Writer) ([]sgmrCurve, time.Duration, int, error) {
	k := credlab.GaussianKernel{Sigma: cfg.Sigma}
	xp, fp := sgmPoints(cfg.Population, 2016, 1)
	t0 := time.Now()
	pop, err := credlab.NewSGMPopulation(k, xp, fp)
	if err != nil {
		return nil, 0, 0, err
	}
	popTime := time.Since(t0)
	fmt.Fprintf(w, "fig1: population of %d points diagonalised in %.1f s (rank %d)\n", cfg.Population, popTime.Seconds(), pop.Rank())
	passes := passGridLog(cfg.MaxPasses, cfg.Points)
	var curves []sgmrCurve
	for _, v := range sgmrVariants {
		t0 := time.Now()
		c := sgmrCurve{Variant: v}
		n := len(passes)
		c.Total, c.Bias, c.SampleVar, c.CompVar, c.BatchGD = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for trial := 0; trial < cfg.Trials; trial++ {
			x, y := sgmSample(cfg.M, cfg.Noise, uint64(trial))
			// iterations at the chosen passes: pass p ends at ceil(p m / b);
			// with b <= m no two passes share one.
			_, iters := passIters(passes, cfg.M, batchOf(v.Preset, cfg.M))
			dec, err := pop.Decompose(ctx, x, y, credlab.SGMDecompositionConfig{
				SGM: credlab.SGMConfig{Preset: v.Preset, Seed: 1000 + uint64(trial)}, Iters: iters})
			if err != nil {
				return nil, 0, 0, err
			}
			c.B, c.Eta = dec.Batch, dec.StepSize
			if trial == 0 {
				c.Passes = dec.Passes
			}
			for i := range iters {
				c.Total[i] += dec.Total[i] / float64(cfg.Trials)
				c.Bias[i] += dec.Bias[i] / float64(cfg.Trials)
				c.SampleVar[i] += dec.SampleVar[i] / float64(cfg.Trials)
				c.CompVar[i] += dec.CompVar[i] / float64(cfg.Trials)
				c.BatchGD[i] += dec.SampleTotal[i] / float64(cfg.Trials)
			}
		}
		c.Time = time.Since(t0)
		fmt.Fprintf(w, "fig1: %-9s b=%3d eta=%.5f: %d trials in %.1f s; min total %.4f at %g passes\n",
			v.Name, c.B, c.Eta, cfg.Trials, c.Time.Seconds(), sgmrMin(c.Total), c.Passes[sgmrArgMin(c.Total)])
		curves = append(curves, c)
	}
	return curves, popTime, pop.Rank(), nil
}

func sgmrArgMin(v []float64) int {
	b := 0
	for i, x := range v {
		if x < v[b] {
			b = i
		}
	}
	return b
}

func sgmrMin(v []float64) float64 { return v[sgmrArgMin(v)] }

// sgmrUShape reports whether the curve falls by at least 10% from its
// first value to an interior minimum and rises by at least 10% after it.
func sgmrUShape(v []float64) bool {
	i := sgmrArgMin(v)
	return i > 0 && i < len(v)-1 && v[0] > 1.1*v[i] && v[len(v)-1] > 1.1*v[i]
}

// sgmrCompShare returns max_t CompVar_t / Total_t.
func sgmrCompShare(c sgmrCurve) float64 {
	s := 0.0
	for i := range c.Total {
		s = math.Max(s, c.CompVar[i]/c.Total[i])
	}
	return s
}

func sgmrWriteFig1(path string, curves []sgmrCurve) error {
	rows := [][]string{{"variant", "b", "eta", "passes", "total", "bias", "sample_variance", "computational_variance", "batch_gd_total"}}
	for _, c := range curves {
		for i := range c.Passes {
			rows = append(rows, []string{c.Variant.Name, strconv.Itoa(c.B), sgmrF(c.Eta), sgmrF(c.Passes[i]),
				sgmrF(c.Total[i]), sgmrF(c.Bias[i]), sgmrF(c.SampleVar[i]), sgmrF(c.CompVar[i]), sgmrF(c.BatchGD[i])})
		}
	}
	return writeCSV(path, rows)
}

func sgmrF(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// sgmrLoadBreast reads breast_cancer_wisconsin/breast_cancer.csv: a
// "569,30,malignant,benign" shape line, then 30 features and a 0/1 target
// per line (0 = malignant).
func sgmrLoadBreast(dir string) (*mat.Dense, []float64, error) {
	path := filepath.Join(dir, "breast_cancer_wisconsin", "breast_cancer.csv")
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty file", path)
	}
	head := strings.Split(strings.TrimSpace(sc.Text()), ",")
	if len(head) < 2 {
		return nil, nil, fmt.Errorf("%s:1: want the shape line n,d,names..., got %q", path, sc.Text())
	}
	n, err1 := strconv.Atoi(head[0])
	d, err2 := strconv.Atoi(head[1])
	if err1 != nil || err2 != nil || n <= 0 || d <= 0 {
		return nil, nil, fmt.Errorf("%s:1: bad shape line %q", path, sc.Text())
	}
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	i := 0
	for line := 2; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		if i >= n {
			return nil, nil, fmt.Errorf("%s:%d: more than the %d rows announced", path, line, n)
		}
		fs := strings.Split(s, ",")
		if len(fs) != d+1 {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want %d", path, line, len(fs), d+1)
		}
		for j, field := range fs {
			v, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("%s:%d: field %d: %q is not a finite number", path, line, j+1, field)
			}
			if j < d {
				x.Set(i, j, v)
			} else if v != 0 && v != 1 {
				return nil, nil, fmt.Errorf("%s:%d: target %v, want 0 or 1", path, line, v)
			} else {
				y[i] = v
			}
		}
		i++
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if i != n {
		return nil, nil, fmt.Errorf("%s: %d rows, the shape line announced %d", path, i, n)
	}
	return x, y, nil
}

// sgmrBCInfo describes the breast cancer setup for the report.
type sgmrBCInfo struct {
	N, D, Train, Test int
	Sigma             float64 // median of the split's training distances, averaged
}

// sgmrFig2 runs the three variants on seeded splits of the breast cancer
// data: features standardised on the training rows, labels +1 (benign) and
// -1 (malignant), a Gaussian kernel whose sigma is the median pairwise
// distance of the training rows, and the classification error of sign(f).
func sgmrFig2(ctx context.Context, cfg sgmrConfig, w io.Writer) ([]sgmrBC, sgmrBCInfo, error) {
	x, y01, err := cfg.LoadBreast(cfg.DataDir)
	if err != nil {
		return nil, sgmrBCInfo{}, err
	}
	n, d := x.Dims()
	y := make([]float64, n)
	for i, v := range y01 {
		y[i] = 2*v - 1
	}
	nTest := int(math.Round(cfg.TestShare * float64(n)))
	info := sgmrBCInfo{N: n, D: d, Train: n - nTest, Test: nTest}
	passes := passGridLog(cfg.BCMaxPass, cfg.BCPoints)
	out := make([]sgmrBC, len(sgmrVariants))
	trainErr := make([][][]float64, len(sgmrVariants)) // [variant][split][pass]
	testErr := make([][][]float64, len(sgmrVariants))
	for s := 0; s < cfg.Splits; s++ {
		perm := rand.New(rand.NewPCG(uint64(s), 0x6263)).Perm(n)
		xt, yt := rowsOf(x, y, perm[nTest:])
		xs, ys := rowsOf(x, y, perm[:nTest])
		sgmrStandardize(xt, xs)
		sigma := sgmrMedianDistance(xt)
		info.Sigma += sigma / float64(cfg.Splits)
		k := credlab.GaussianKernel{Sigma: sigma}
		kt, err := credlab.KernelMatrix(k, xt, nil)
		if err != nil {
			return nil, info, err
		}
		ks, err := credlab.KernelMatrix(k, xs, xt)
		if err != nil {
			return nil, info, err
		}
		m := info.Train
		for vi, v := range sgmrVariants {
			// One iteration per pass, as b <= m.
			_, iters := passIters(passes, m, batchOf(v.Preset, m))
			fit, err := credlab.SGM(ctx, xt, yt, credlab.SGMConfig{Kernel: k, Preset: v.Preset,
				Iter: iters[len(iters)-1], Keep: iters, Seed: 500 + uint64(s)})
			if err != nil {
				return nil, info, err
			}
			out[vi].Variant, out[vi].B, out[vi].Eta = v, fit.Batch, fit.StepSize
			var tr, te []float64
			for _, it := range iters {
				a := fit.Iterates[it]
				tr = append(tr, classError(kt, a, yt))
				te = append(te, classError(ks, a, ys))
			}
			trainErr[vi] = append(trainErr[vi], tr)
			testErr[vi] = append(testErr[vi], te)
		}
		fmt.Fprintf(w, "fig2: split %d/%d done (sigma %.3g)\n", s+1, cfg.Splits, sigma)
	}
	for vi := range out {
		out[vi].Passes = make([]float64, len(passes))
		for i, p := range passes {
			out[vi].Passes[i] = float64(p)
			out[vi].Train = append(out[vi].Train, 0)
			out[vi].Test = append(out[vi].Test, 0)
			var a, b []float64
			for s := range trainErr[vi] {
				a = append(a, trainErr[vi][s][i])
				b = append(b, testErr[vi][s][i])
			}
			out[vi].Train[i], out[vi].TrainSD = sgmrMean(a), append(out[vi].TrainSD, sgmrSD(a))
			out[vi].Test[i], out[vi].TestSD = sgmrMean(b), append(out[vi].TestSD, sgmrSD(b))
		}
	}
	return out, info, nil
}

// sgmrStandardize scales every column of xt and xs by xt's mean and
// standard deviation (columns with no spread are only centred). It sums
// x/n term by term, which rounds differently from frames' standardizeWith;
// sharing one would change this reproduction's numbers.
func sgmrStandardize(xt, xs *mat.Dense) {
	n, d := xt.Dims()
	ns, _ := xs.Dims()
	for j := 0; j < d; j++ {
		m, s := 0.0, 0.0
		for i := 0; i < n; i++ {
			m += xt.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			e := xt.At(i, j) - m
			s += e * e / float64(n)
		}
		s = math.Sqrt(s)
		if s == 0 {
			s = 1
		}
		for i := 0; i < n; i++ {
			xt.Set(i, j, (xt.At(i, j)-m)/s)
		}
		for i := 0; i < ns; i++ {
			xs.Set(i, j, (xs.At(i, j)-m)/s)
		}
	}
}

func sgmrMedianDistance(x *mat.Dense) float64 {
	n, _ := x.Dims()
	var ds []float64
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			s := 0.0
			a, b := x.RawRowView(i), x.RawRowView(j)
			for c := range a {
				e := a[c] - b[c]
				s += e * e
			}
			ds = append(ds, math.Sqrt(s))
		}
	}
	sort.Float64s(ds)
	return ds[len(ds)/2]
}

func sgmrMean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func sgmrSD(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m, s := sgmrMean(v), 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}

func sgmrWriteFig2(path string, bc []sgmrBC) error {
	rows := [][]string{{"variant", "b", "eta", "passes", "train_error", "train_error_sd", "test_error", "test_error_sd"}}
	for _, c := range bc {
		for i := range c.Passes {
			rows = append(rows, []string{c.Variant.Name, strconv.Itoa(c.B), sgmrF(c.Eta), sgmrF(c.Passes[i]),
				sgmrF(c.Train[i]), sgmrF(c.TrainSD[i]), sgmrF(c.Test[i]), sgmrF(c.TestSD[i])})
		}
	}
	return writeCSV(path, rows)
}

func sgmrMarkdown(cfg sgmrConfig, curves []sgmrCurve, bc []sgmrBC, info sgmrBCInfo, popTime time.Duration, rank int, fig1, fig2, total time.Duration) string {
	var sb strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&sb, format, a...) }
	p("## Lin & Rosasco (2016), multi-pass SGM: section 4\n\n")
	p("Regenerate with `%s` (%.0f s here: Fig. 1 %.0f s, of which %.0f s diagonalising the population; Fig. 2 %.0f s).\n\n",
		cfg.Command, total.Seconds(), fig1.Seconds(), popTime.Seconds(), fig2.Seconds())
	if cfg.Quick {
		p("**Quick mode**: %d trials, a %d-point population and at most %d passes; the full run uses 50 trials, 2000 points and 10,000 passes.\n\n",
			cfg.Trials, cfg.Population, cfg.MaxPasses)
	}
	p("### Figure 1: error decomposition against passes\n\n")
	p("m = %d points x ~ U[0,1], y = |x - 1/2| - 1/2 + N(0, %g^2); kernel exp(-(x-x')^2 / (2 sigma^2)) with sigma = %g, ", cfg.M, cfg.Noise, cfg.Sigma)
	p("as written in the paper's section 4 (so the bandwidth is `credlab.GaussianKernel{Sigma: 0.2}`, not exp(-(x-x')^2/sigma^2)). ")
	p("The population rho_X is replaced by %d uniform points (K/N has numerical rank %d: its pivoted Cholesky factor stops at pivots below 1e-13); ", cfg.Population, rank)
	p("%d trials, each a new sample and a new index sequence J; all squared norms are in L^2(rho_hat). ", cfg.Trials)
	p("Total = E_J ||omega_t - f_rho||^2, bias = ||mu_t - f_rho||^2 (population iteration, eq. 13), sample variance = ||nu_t - mu_t||^2 (nu_t the sample iteration, eq. 14), computational variance = E_J ||omega_t - nu_t||^2. ")
	p("For batch GD omega_t = nu_t, so its total is ||nu_t - f_rho||^2 and its computational variance 0 (Fig. 1c). CSV: `fig1_decomposition.csv`.\n\n")
	show := sgmrShowIdx(curves[0].Passes)
	for _, c := range curves {
		p("**%s** (b = %d, eta = %.4g)\n\n", c.Variant.Preset, c.B, c.Eta)
		p("| passes |")
		for _, i := range show {
			p(" %g |", c.Passes[i])
		}
		p("\n|---|")
		for range show {
			p("---|")
		}
		p("\n")
		for _, row := range []struct {
			name string
			v    []float64
		}{{"total", c.Total}, {"bias", c.Bias}, {"sample variance", c.SampleVar}, {"computational variance", c.CompVar}} {
			p("| %s |", row.name)
			for _, i := range show {
				p(" %.4f |", row.v[i])
			}
			p("\n")
		}
		i := sgmrArgMin(c.Total)
		p("\nMinimum total error %.4f at %g passes (bias %.4f, sample variance %.4f); U-shaped: %v; largest computational share of the total: %.1f%%.\n\n",
			c.Total[i], c.Passes[i], c.Bias[i], c.SampleVar[i], sgmrUShape(c.Total), 100*sgmrCompShare(c))
	}
	p("Checks: ")
	allU, maxComp := true, 0.0
	for _, c := range curves {
		allU = allU && sgmrUShape(c.Total)
		maxComp = math.Max(maxComp, sgmrCompShare(c))
	}
	p("total error U-shaped for all three runs: **%v**; computational variance at most **%.1f%%** of the total error (the paper: \"negligible\"). ", allU, 100*maxComp)
	p("As in the paper, the bias falls and the sample variance grows with the passes, and the three runs nearly coincide when plotted against passes, since eta per pass is 1/8 in all three.\n\n")
	p("### Figure 2: Breast Cancer Wisconsin\n\n")
	p("%d rows x %d features (the scikit-learn copy in `breast_cancer_wisconsin/`), labels +1 benign / -1 malignant; %d seeded random splits of %d training and %d test rows; ",
		info.N, info.D, cfg.Splits, info.Train, info.Test)
	p("features standardised on the training rows; Gaussian kernel with sigma the median training distance (%.2f on average; the paper does not give its kernel); ", info.Sigma)
	p("the paper's step sizes (eta = 1/(8m), 1/(8 sqrt(m)), 1/8). Error of sign(f) against passes, mean over the splits. CSV: `fig2_breast_cancer.csv`.\n\n")
	p("| variant | b | eta |")
	showBC := sgmrShowIdx(bc[0].Passes)
	for _, i := range showBC {
		p(" train / test @ %g |", bc[0].Passes[i])
	}
	p("\n|---|---|---|")
	for range showBC {
		p("---|")
	}
	p("\n")
	for _, c := range bc {
		p("| %s | %d | %.3g |", c.Variant.Name, c.B, c.Eta)
		for _, i := range showBC {
			p(" %.3f / %.3f |", c.Train[i], c.Test[i])
		}
		p("\n")
	}
	p("\nBest mean test error:")
	for _, c := range bc {
		i := sgmrArgMin(c.Test)
		p(" %s %.3f at %g passes;", c.Variant.Name, c.Test[i], c.Passes[i])
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range bc {
		lo, hi = math.Min(lo, sgmrMin(c.Test)), math.Max(hi, sgmrMin(c.Test))
	}
	if hi-lo <= 0.01 {
		p(" the best test errors lie within %.1f points of each other: the three variants perform alike, as in the paper's Fig. 2.\n", 100*(hi-lo))
	} else {
		p(" the best test errors differ by %.1f points, more than the paper's Fig. 2 suggests.\n", 100*(hi-lo))
	}
	return sb.String()
}

// sgmrShowIdx picks about 7 indices of a pass grid for the tables.
func sgmrShowIdx(passes []float64) []int {
	var out []int
	for _, want := range []float64{1, 3, 10, 30, 100, 300, 1000, 3000, 10000} {
		for i, p := range passes {
			if p >= want {
				if len(out) == 0 || out[len(out)-1] != i {
					out = append(out, i)
				}
				break
			}
		}
	}
	if last := len(passes) - 1; len(out) == 0 || out[len(out)-1] != last {
		out = append(out, last)
	}
	return out
}
