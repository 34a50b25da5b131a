package sgm

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/internal/staged"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// This file holds the experiments of Lin and Rosasco, "Optimal Learning
// for Multi-pass Stochastic Gradient Methods" (NIPS 2016), section 4.

// PassGrid returns about k distinct integers log-spaced from 1 to max
// inclusive, increasing: the numbers of passes at which SGM runs are
// recorded.
func PassGrid(max, k int) []int {
	if max < 1 || k < 1 {
		return nil
	}
	out := passGridLog(max, k)
	if out[len(out)-1] != max {
		out = append(out, max)
	}
	return out
}

// DecompositionSpec configures ErrorDecomposition; zero fields take the
// paper's values.
type DecompositionSpec struct {
	// M is the sample size (100), Population the number of uniform points
	// standing in for rho_X (2000), Sigma the Gaussian kernel's width
	// (0.2), Noise the label noise's standard deviation (1), Trials the
	// number of independent samples averaged (50).
	M, Population int
	Sigma, Noise  float64
	Trials        int
	// Passes are the numbers of passes at which the terms are evaluated
	// (default PassGrid(1000, 16)).
	Passes []int
	// Presets are the SGM variants: "minibatch" (b = sqrt(m), eta =
	// 1/(8 sqrt(m))), "simple" (b = 1, eta = 1/(8m)) and "batch" (batch
	// gradient descent, eta = 1/8); default all three.
	Presets []string
	Seed    uint64
}

// ErrorDecomposition computes Lin and Rosasco's Figure 1: m points x ~
// U[0, 1] with y = |x - 1/2| - 1/2 + Noise N(0, 1), the Gaussian kernel of
// width Sigma, the population replaced by Population uniform points, and
// the error decomposition (16) of each SGM variant against passes, averaged
// over Trials samples (credlab.SGMPopulation.Decompose). Every preset sees
// the same samples but its own index draws. It returns one row
// per preset and number of passes: "preset", "b", "eta", "passes" (as
// requested: the terms are those of the iterate ceil(passes m / b), which
// completes them), "total"
// (E_J ||omega_t - f_rho||^2), "bias", "sample_var", "comp_var" and
// "batch_total" (the total error of batch gradient descent with the same
// step, ||nu_t - f_rho||^2), all squared norms in L^2 of the population.
func ErrorDecomposition(spec DecompositionSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if spec.M == 0 {
		spec.M = 100
	}
	if spec.Population == 0 {
		spec.Population = 2000
	}
	if spec.Sigma == 0 {
		spec.Sigma = 0.2
	}
	if spec.Noise == 0 {
		spec.Noise = 1
	}
	if spec.Trials == 0 {
		spec.Trials = 50
	}
	if len(spec.Passes) == 0 {
		spec.Passes = PassGrid(1000, 16)
	}
	if len(spec.Presets) == 0 {
		spec.Presets = []string{"minibatch", "simple", "batch"}
	}
	if spec.M < 2 || spec.Population < 2 || spec.Trials < 1 || spec.Sigma < 0 || spec.Noise < 0 {
		return none, fmt.Errorf("papers: DecompositionSpec %+v: sizes must be positive, Sigma and Noise non-negative", spec)
	}
	passes := append([]int(nil), spec.Passes...)
	sort.Ints(passes)
	if passes[0] < 1 {
		return none, &credlab.ParamError{Name: "Passes", Value: passes[0], Want: "positive numbers of passes"}
	}
	curves, _, _, err := decompose(context.Background(), spec, io.Discard)
	if err != nil {
		return none, err
	}
	var preset []string
	var bs []int
	var eta, ps, total, bias, svar, cvar, btot []float64
	for _, c := range curves {
		for i, p := range c.Nominal {
			preset = append(preset, c.Variant.Name)
			bs = append(bs, c.B)
			eta = append(eta, c.Eta)
			ps = append(ps, float64(p))
			total = append(total, c.Total[i])
			bias = append(bias, c.Bias[i])
			svar = append(svar, c.SampleVar[i])
			cvar = append(cvar, c.CompVar[i])
			btot = append(btot, c.BatchGD[i])
		}
	}
	return dataframe.New(series.New(preset, series.String, "preset"), series.New(bs, series.Int, "b"),
		series.New(eta, series.Float, "eta"), series.New(ps, series.Float, "passes"),
		series.New(total, series.Float, "total"), series.New(bias, series.Float, "bias"),
		series.New(svar, series.Float, "sample_var"), series.New(cvar, series.Float, "comp_var"),
		series.New(btot, series.Float, "batch_total")), nil
}

// variant is one SGM preset by name.
type variant struct {
	Name   string
	Preset credlab.SGMPreset
}

// curve is one variant's error decomposition (Figure 1) averaged over
// the trials, at the recorded passes: Nominal as requested, Passes those of
// the iterate that completes them.
type curve struct {
	Variant                                  variant
	B                                        int
	Eta                                      float64
	Nominal                                  []int
	Passes                                   []float64
	Total, Bias, SampleVar, CompVar, BatchGD []float64
	Time                                     time.Duration
}

// decompose is the engine of ErrorDecomposition and the
// reproduction's Figure 1; spec has its defaults. It returns one curve per
// preset, the population's rank and the time spent diagonalizing it.
func decompose(ctx context.Context, spec DecompositionSpec, w io.Writer) ([]curve, int, time.Duration, error) {
	passes := append([]int(nil), spec.Passes...)
	sort.Ints(passes)
	k := credlab.GaussianKernel{Sigma: spec.Sigma}
	xp, fp := populationPoints(spec.Population, spec.Seed, 0x706f70)
	t0 := time.Now()
	pop, err := credlab.NewSGMPopulation(k, xp, fp)
	if err != nil {
		return nil, 0, 0, err
	}
	popTime := time.Since(t0)
	fmt.Fprintf(w, "fig1: population of %d points diagonalised in %.1f s (rank %d)\n", spec.Population, popTime.Seconds(), pop.Rank())
	var curves []curve
	for pi, name := range spec.Presets {
		p, err := credlab.ParseSGMPreset(name)
		if err != nil {
			return nil, 0, 0, err
		}
		t0 := time.Now()
		nominal, iters := passIters(passes, spec.M, batchOf(p, spec.M))
		c := curve{Variant: variant{Name: name, Preset: p}, Nominal: nominal}
		n := len(iters)
		c.Total, c.Bias, c.SampleVar, c.CompVar, c.BatchGD = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		tn := float64(spec.Trials)
		for t := 0; t < spec.Trials; t++ {
			x, y := sample(spec.M, spec.Noise, spec.Seed+uint64(t))
			dec, err := pop.Decompose(ctx, x, y, credlab.SGMDecompositionConfig{
				SGM: credlab.SGMConfig{Preset: p, Seed: 1000000*uint64(pi+1) + 1000*spec.Seed + uint64(t)}, Iters: iters})
			if err != nil {
				return nil, 0, 0, err
			}
			c.B, c.Eta, c.Passes = dec.Batch, dec.StepSize, dec.Passes
			for i := range iters {
				c.Total[i] += dec.Total[i] / tn
				c.Bias[i] += dec.Bias[i] / tn
				c.SampleVar[i] += dec.SampleVar[i] / tn
				c.CompVar[i] += dec.CompVar[i] / tn
				c.BatchGD[i] += dec.SampleTotal[i] / tn
			}
		}
		c.Time = time.Since(t0)
		fmt.Fprintf(w, "fig1: %-9s b=%3d eta=%.5f: %d trials in %.1f s\n", name, c.B, c.Eta, spec.Trials, c.Time.Seconds())
		curves = append(curves, c)
	}
	return curves, pop.Rank(), popTime, nil
}

// DecompositionOf returns the rows of an ErrorDecomposition frame for
// one preset as a viz.Decomposition (for viz.ErrorDecomposition), with the
// total error. For "batch" the computational variance is zero.
func DecompositionOf(df dataframe.DataFrame, preset string) (viz.Decomposition, error) {
	var d viz.Decomposition
	if err := frames.CheckFrame(df, "decomposition"); err != nil {
		return d, err
	}
	if err := frames.FindColumn(df, "preset", ""); err != nil {
		return d, fmt.Errorf("%w (pass the frame sgm.ErrorDecomposition returned)", err)
	}
	cols := map[string][]float64{}
	for _, c := range []string{"passes", "total", "bias", "sample_var", "comp_var"} {
		v, err := frames.Column(df, c)
		if err != nil {
			return d, err
		}
		cols[c] = v
	}
	for i, p := range df.Col("preset").Records() {
		if p != preset {
			continue
		}
		d.X = append(d.X, cols["passes"][i])
		d.Total = append(d.Total, cols["total"][i])
		d.Bias = append(d.Bias, cols["bias"][i])
		d.SampleVariance = append(d.SampleVariance, cols["sample_var"][i])
		d.ComputationalVariance = append(d.ComputationalVariance, cols["comp_var"][i])
	}
	if len(d.X) == 0 {
		return d, fmt.Errorf("papers: no rows for preset %q", preset)
	}
	return d, nil
}

// PassSpec configures PassErrors.
type PassSpec struct {
	// Target names the label column: -1/+1, or 0/1 (mapped to -1/+1).
	// Features and Exclude choose the inputs as in frames.Spec; they are
	// standardized with the training rows' means and deviations.
	Target            string
	Features, Exclude []string
	// Presets are the SGM variants (default minibatch, simple, batch) and
	// Passes the numbers of passes recorded (default PassGrid(1000, 13)).
	Presets []string
	Passes  []int
	// Splits is the number of seeded random train/test splits averaged
	// over (default 1) and TestShare the test share (default 0.3).
	Splits    int
	TestShare float64
	// Sigma is the Gaussian kernel's width; default the median distance
	// between training rows.
	Sigma float64
	Seed  uint64
}

// PassErrors runs Lin and Rosasco's Figure 2 protocol on a labeled
// frame: for each split and SGM variant, one run of credlab.SGM on the
// training rows with the paper's step sizes, and the classification error
// of sign(f) on the training and test rows after each recorded number of
// passes (the iterate ceil(passes m / b), which completes them). It
// returns one row per preset, split and number of passes: "preset", "b",
// "eta", "split", "passes", "sigma", "train_error", "test_error".
func PassErrors(df dataframe.DataFrame, spec PassSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := frames.CheckFrame(df, "input"); err != nil {
		return none, err
	}
	if spec.Target == "" {
		return none, &credlab.ParamError{Name: "PassSpec.Target", Value: `""`, Want: "the name of the target column"}
	}
	if len(spec.Presets) == 0 {
		spec.Presets = []string{"minibatch", "simple", "batch"}
	}
	if len(spec.Passes) == 0 {
		spec.Passes = PassGrid(1000, 13)
	}
	if spec.Splits <= 0 {
		spec.Splits = 1
	}
	if spec.TestShare == 0 {
		spec.TestShare = 0.3
	}
	passes := append([]int(nil), spec.Passes...)
	sort.Ints(passes)
	if passes[0] < 1 {
		return none, &credlab.ParamError{Name: "Passes", Value: passes[0], Want: "positive numbers of passes"}
	}
	feats, err := frames.FeatureColumns(df, frames.Spec{Target: spec.Target, Features: spec.Features, Exclude: spec.Exclude})
	if err != nil {
		return none, err
	}
	x, err := frames.ToMatrix(df, feats...)
	if err != nil {
		return none, fmt.Errorf("%w (sgm.PassErrors needs a frame without missing values)", err)
	}
	y, err := frames.Column(df, spec.Target)
	if err != nil {
		return none, err
	}
	runs, err := passErrors(context.Background(), x, y, spec, io.Discard)
	if err != nil {
		return none, err
	}
	var preset []string
	var bs, split []int
	var eta, ps, sig, trErr, teErr []float64
	for _, r := range runs {
		for i, p := range r.Nominal {
			preset = append(preset, r.Variant.Name)
			bs = append(bs, r.B)
			eta = append(eta, r.Eta)
			split = append(split, r.Split)
			ps = append(ps, float64(p))
			sig = append(sig, r.Sigma)
			trErr = append(trErr, r.Train[i])
			teErr = append(teErr, r.Test[i])
		}
	}
	return dataframe.New(series.New(preset, series.String, "preset"), series.New(bs, series.Int, "b"),
		series.New(eta, series.Float, "eta"), series.New(split, series.Int, "split"),
		series.New(ps, series.Float, "passes"), series.New(sig, series.Float, "sigma"),
		series.New(trErr, series.Float, "train_error"), series.New(teErr, series.Float, "test_error")), nil
}

// passRun is one variant's classification errors on one split (Figure 2)
// at the recorded passes.
type passRun struct {
	Variant     variant
	B           int
	Eta         float64
	Split       int
	Sigma       float64
	Nominal     []int
	Train, Test []float64
}

// passErrors is the engine of PassErrors and the reproduction's Figure
// 2: labels y are -1/+1 or 0/1 (mapped to -1/+1); spec has its defaults.
// Each split standardizes the training rows, takes the median heuristic
// for sigma unless spec.Sigma is set, and runs every preset once, keeping
// the iterates at the recorded passes.
func passErrors(ctx context.Context, x *mat.Dense, y []float64, spec PassSpec, w io.Writer) ([]passRun, error) {
	y = append([]float64(nil), y...)
	zeroOne := true
	for _, v := range y {
		switch v {
		case 0, 1:
		case -1:
			zeroOne = false
		default:
			return nil, fmt.Errorf("papers: target %v: SGM pass errors need -1/+1 or 0/1 labels", v)
		}
	}
	if zeroOne {
		for i := range y {
			y[i] = 2*y[i] - 1
		}
	}
	passes := append([]int(nil), spec.Passes...)
	sort.Ints(passes)
	n, _ := x.Dims()
	nt := int(math.Round(spec.TestShare * float64(n)))
	if nt < 1 || nt >= n-1 {
		return nil, fmt.Errorf("papers: a test share of %v of %d rows leaves an empty part", spec.TestShare, n)
	}
	var runs []passRun
	for s := 0; s < spec.Splits; s++ {
		perm := rand.New(rand.NewPCG(spec.Seed+uint64(s), 0x6263)).Perm(n)
		xt, yt, err := staged.Rows(x, y, perm[nt:])
		if err != nil {
			return nil, err
		}
		xs, ys, err := staged.Rows(x, y, perm[:nt])
		if err != nil {
			return nil, err
		}
		standardizeWith(xt, xs)
		sigma := spec.Sigma
		if sigma == 0 {
			sigma = credlab.MedianDistance(xt)
		}
		k := credlab.GaussianKernel{Sigma: sigma}
		kt, err := credlab.KernelMatrix(k, xt, nil)
		if err != nil {
			return nil, err
		}
		ks, err := credlab.KernelMatrix(k, xs, xt)
		if err != nil {
			return nil, err
		}
		m := n - nt
		for pi, name := range spec.Presets {
			pr, err := credlab.ParseSGMPreset(name)
			if err != nil {
				return nil, err
			}
			nominal, iters := passIters(passes, m, batchOf(pr, m))
			fit, err := credlab.SGM(ctx, xt, yt, credlab.SGMConfig{Kernel: k, Preset: pr,
				Iter: iters[len(iters)-1], Keep: iters, Seed: 1000000*uint64(pi+1) + 1000*spec.Seed + uint64(s)})
			if err != nil {
				return nil, err
			}
			r := passRun{Variant: variant{Name: name, Preset: pr}, B: fit.Batch, Eta: fit.StepSize, Split: s, Sigma: sigma, Nominal: nominal}
			for _, it := range iters {
				a := fit.Iterates[it]
				r.Train = append(r.Train, classError(kt, a, yt))
				r.Test = append(r.Test, classError(ks, a, ys))
			}
			runs = append(runs, r)
		}
		fmt.Fprintf(w, "fig2: split %d/%d done (sigma %.3g)\n", s+1, spec.Splits, sigma)
	}
	return runs, nil
}

// standardizeWith scales the columns of xt and xs by xt's mean and
// standard deviation (a constant column is only centred).
func standardizeWith(xt, xs *mat.Dense) {
	n, d := xt.Dims()
	ns, _ := xs.Dims()
	for j := 0; j < d; j++ {
		m, s := 0.0, 0.0
		for i := 0; i < n; i++ {
			m += xt.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			e := xt.At(i, j) - m
			s += e * e
		}
		s = math.Sqrt(s / float64(n))
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
