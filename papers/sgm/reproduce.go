package sgm

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/papers/internal/report"
	"github.com/credlab/credlab/papers/internal/staged"
	"gonum.org/v1/gonum/mat"
)

// Reproduce reproduces the numerical section of Lin and Rosasco, "Optimal
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
func Reproduce(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error {
	cfg := defaultConfig(quick)
	cfg.DataDir = dataDir
	cfg.Command = report.Command("go run ./cmd/credlab", quick, "sgm", "-data", dataDir, "-out", outDir)
	return reproduce(ctx, outDir, cfg, w)
}

// config sizes the reproduction.
type config struct {
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
	Seed       uint64
	Command    string
	LoadBreast func(dir string) (*mat.Dense, []float64, error)
}

func defaultConfig(quick bool) config {
	c := config{Quick: quick, M: 100, Sigma: 0.2, Noise: 1, Population: 2000, Trials: 50,
		MaxPasses: 10000, Points: 25, Splits: 10, TestShare: 0.3, BCMaxPass: 10000, BCPoints: 21,
		LoadBreast: staged.BreastCancer}
	if quick {
		c.Population, c.Trials, c.MaxPasses, c.Points = 500, 8, 1000, 13
		c.Splits, c.BCMaxPass, c.BCPoints = 2, 300, 8
	}
	return c
}

// breastCurve is the mean classification error of one variant on the breast
// cancer data, per recorded pass.
type breastCurve struct {
	Variant         variant
	B               int
	Eta             float64
	Passes          []float64
	Train, Test     []float64
	TrainSD, TestSD []float64
}

func reproduce(ctx context.Context, outDir string, cfg config, w io.Writer) error {
	start := time.Now()
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(w, "SGM reproduction (Lin & Rosasco 2016), quick=%v\n", cfg.Quick)
	t0 := time.Now()
	curves, popTime, rank, err := runFig1(ctx, cfg, w)
	if err != nil {
		return err
	}
	fig1Time := time.Since(t0)
	if err := writeFig1(filepath.Join(outDir, "fig1_decomposition.csv"), curves); err != nil {
		return err
	}
	t0 = time.Now()
	bc, bcInfo, err := runFig2(ctx, cfg, w)
	if err != nil {
		return err
	}
	fig2Time := time.Since(t0)
	if err := writeFig2(filepath.Join(outDir, "fig2_breast_cancer.csv"), bc); err != nil {
		return err
	}
	md := markdown(cfg, curves, bc, bcInfo, popTime, rank, fig1Time, fig2Time, time.Since(start))
	if err := os.WriteFile(filepath.Join(outDir, "reproductions-sgm.md"), []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (%.1f s)\n", filepath.Join(outDir, "reproductions-sgm.md"), time.Since(start).Seconds())
	return nil
}

// runFig1 computes the decomposition curves of the three variants.
func runFig1(ctx context.Context, cfg config, w io.Writer) ([]curve, time.Duration, int, error) {
	spec := DecompositionSpec{M: cfg.M, Population: cfg.Population, Sigma: cfg.Sigma, Noise: cfg.Noise, Trials: cfg.Trials,
		Passes: passGridLog(cfg.MaxPasses, cfg.Points), Presets: presets, Seed: cfg.Seed}
	curves, rank, popTime, err := decompose(ctx, spec, w)
	return curves, popTime, rank, err
}

// presets are the paper's three runs.
var presets = []string{"minibatch", "simple", "batch"}

func argMin(v []float64) int {
	b := 0
	for i, x := range v {
		if x < v[b] {
			b = i
		}
	}
	return b
}

func minOf(v []float64) float64 { return v[argMin(v)] }

// uShape reports whether the curve falls by at least 10% from its
// first value to an interior minimum and rises by at least 10% after it.
func uShape(v []float64) bool {
	i := argMin(v)
	return i > 0 && i < len(v)-1 && v[0] > 1.1*v[i] && v[len(v)-1] > 1.1*v[i]
}

// compShare returns max_t CompVar_t / Total_t.
func compShare(c curve) float64 {
	s := 0.0
	for i := range c.Total {
		s = math.Max(s, c.CompVar[i]/c.Total[i])
	}
	return s
}

func writeFig1(path string, curves []curve) error {
	rows := [][]string{{"variant", "b", "eta", "passes", "total", "bias", "sample_variance", "computational_variance", "batch_gd_total"}}
	for _, c := range curves {
		for i := range c.Passes {
			rows = append(rows, []string{c.Variant.Name, strconv.Itoa(c.B), report.G6(c.Eta), report.G6(c.Passes[i]),
				report.G6(c.Total[i]), report.G6(c.Bias[i]), report.G6(c.SampleVar[i]), report.G6(c.CompVar[i]), report.G6(c.BatchGD[i])})
		}
	}
	return report.WriteCSV(path, rows)
}

// breastInfo describes the breast cancer setup for the report.
type breastInfo struct {
	N, D, Train, Test int
	Sigma             float64 // median of the split's training distances, averaged
}

// runFig2 runs the three variants on seeded splits of the breast cancer
// data: features standardised on the training rows, labels +1 (benign) and
// -1 (malignant), a Gaussian kernel whose sigma is the median pairwise
// distance of the training rows, and the classification error of sign(f).
func runFig2(ctx context.Context, cfg config, w io.Writer) ([]breastCurve, breastInfo, error) {
	x, y, err := cfg.LoadBreast(cfg.DataDir)
	if err != nil {
		return nil, breastInfo{}, err
	}
	n, d := x.Dims()
	nTest := int(math.Round(cfg.TestShare * float64(n)))
	info := breastInfo{N: n, D: d, Train: n - nTest, Test: nTest}
	spec := PassSpec{Presets: presets, Passes: passGridLog(cfg.BCMaxPass, cfg.BCPoints), Splits: cfg.Splits, TestShare: cfg.TestShare, Seed: cfg.Seed}
	runs, err := passErrors(ctx, x, y, spec, w)
	if err != nil {
		return nil, info, err
	}
	out := make([]breastCurve, len(presets))
	for vi, name := range presets {
		var tr, te [][]float64
		for _, r := range runs {
			if r.Variant.Name != name {
				continue
			}
			out[vi].Variant, out[vi].B, out[vi].Eta = r.Variant, r.B, r.Eta
			if len(out[vi].Passes) == 0 {
				for _, p := range r.Nominal {
					out[vi].Passes = append(out[vi].Passes, float64(p))
				}
			}
			tr, te = append(tr, r.Train), append(te, r.Test)
			if vi == 0 {
				info.Sigma += r.Sigma / float64(cfg.Splits)
			}
		}
		for i := range out[vi].Passes {
			var a, b []float64
			for s := range tr {
				a, b = append(a, tr[s][i]), append(b, te[s][i])
			}
			out[vi].Train, out[vi].TrainSD = append(out[vi].Train, report.Mean(a)), append(out[vi].TrainSD, report.SD(a))
			out[vi].Test, out[vi].TestSD = append(out[vi].Test, report.Mean(b)), append(out[vi].TestSD, report.SD(b))
		}
	}
	return out, info, nil
}

func writeFig2(path string, bc []breastCurve) error {
	rows := [][]string{{"variant", "b", "eta", "passes", "train_error", "train_error_sd", "test_error", "test_error_sd"}}
	for _, c := range bc {
		for i := range c.Passes {
			rows = append(rows, []string{c.Variant.Name, strconv.Itoa(c.B), report.G6(c.Eta), report.G6(c.Passes[i]),
				report.G6(c.Train[i]), report.G6(c.TrainSD[i]), report.G6(c.Test[i]), report.G6(c.TestSD[i])})
		}
	}
	return report.WriteCSV(path, rows)
}

func markdown(cfg config, curves []curve, bc []breastCurve, info breastInfo, popTime time.Duration, rank int, fig1, fig2, total time.Duration) string {
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
	show := showIdx(curves[0].Passes)
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
		i := argMin(c.Total)
		p("\nMinimum total error %.4f at %g passes (bias %.4f, sample variance %.4f); U-shaped: %v; largest computational share of the total: %.1f%%.\n\n",
			c.Total[i], c.Passes[i], c.Bias[i], c.SampleVar[i], uShape(c.Total), 100*compShare(c))
	}
	p("Checks: ")
	allU, maxComp := true, 0.0
	for _, c := range curves {
		allU = allU && uShape(c.Total)
		maxComp = math.Max(maxComp, compShare(c))
	}
	p("total error U-shaped for all three runs: **%v**; computational variance at most **%.1f%%** of the total error (the paper: \"negligible\"). ", allU, 100*maxComp)
	p("As in the paper, the bias falls and the sample variance grows with the passes, and the three runs nearly coincide when plotted against passes, since eta per pass is 1/8 in all three.\n\n")
	p("### Figure 2: Breast Cancer Wisconsin\n\n")
	p("%d rows x %d features (the scikit-learn copy in `breast_cancer_wisconsin/`), labels +1 benign / -1 malignant; %d seeded random splits of %d training and %d test rows; ",
		info.N, info.D, cfg.Splits, info.Train, info.Test)
	p("features standardised on the training rows; Gaussian kernel with sigma the median distance between training rows (credlab.MedianDistance, on up to 256 of them) (%.2f on average; the paper does not give its kernel); ", info.Sigma)
	p("the paper's step sizes (eta = 1/(8m), 1/(8 sqrt(m)), 1/8). Error of sign(f) against passes, mean over the splits. CSV: `fig2_breast_cancer.csv`.\n\n")
	p("| variant | b | eta |")
	showBC := showIdx(bc[0].Passes)
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
		i := argMin(c.Test)
		p(" %s %.3f at %g passes;", c.Variant.Name, c.Test[i], c.Passes[i])
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range bc {
		lo, hi = math.Min(lo, minOf(c.Test)), math.Max(hi, minOf(c.Test))
	}
	if hi-lo <= 0.01 {
		p(" the best test errors lie within %.1f points of each other: the three variants perform alike, as in the paper's Fig. 2.\n", 100*(hi-lo))
	} else {
		p(" the best test errors differ by %.1f points, more than the paper's Fig. 2 suggests.\n", 100*(hi-lo))
	}
	return sb.String()
}

// showIdx picks about 7 indices of a pass grid for the tables.
func showIdx(passes []float64) []int {
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
