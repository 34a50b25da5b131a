package distreg

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/credlab/distreg"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// This file holds the supervised entropy-learning benchmark of Szabó,
// Sriperumbudur, Póczos and Gretton ("Learning Theory for Distribution
// Regression", JMLR 2016), the synthetic task Mücke ("Stochastic Gradient
// Descent Meets Distribution Regression", AISTATS 2021) builds on.

// EntropyBags returns bags of the supervised entropy-learning task as a
// frame, one row per point: "bag" (0 ... bags-1), "x1", "x2", "y" (the
// bag's label) and "angle". Bag j holds points drawn from N(0, R(a_j) A
// A^T R(a_j)^T), with a random angle a_j ~ U[0, pi] and a fixed A with
// entries U[0, 1] drawn from problem; its label is the entropy of the first
// coordinate, 1/2 ln(2 pi e M_11) with M = R(a_j) A A^T R(a_j)^T. seed
// draws the bags; the same problem and seed give the same bags.
func EntropyBags(bags, points int, problem, seed uint64) (dataframe.DataFrame, error) {
	if bags <= 0 || points <= 0 {
		return dataframe.DataFrame{}, fmt.Errorf("papers: EntropyBags needs positive bags and points (got %d and %d)", bags, points)
	}
	b, angles := distreg.NewEntropyProblem(problem).Bags(bags, points, seed)
	rows := bags * points
	id := make([]int, 0, rows)
	x1, x2 := make([]float64, 0, rows), make([]float64, 0, rows)
	y, ang := make([]float64, 0, rows), make([]float64, 0, rows)
	for j, x := range b.X {
		for i := 0; i < points; i++ {
			id = append(id, j)
			x1 = append(x1, x.At(i, 0))
			x2 = append(x2, x.At(i, 1))
			y = append(y, b.Y[j])
			ang = append(ang, angles[j])
		}
	}
	return dataframe.New(series.New(id, series.Int, "bag"), series.New(x1, series.Float, "x1"),
		series.New(x2, series.Float, "x2"), series.New(y, series.Float, "y"),
		series.New(ang, series.Float, "angle")), nil
}

// EntropySpec configures EntropyBenchmark; zero fields take the defaults
// given.
type EntropySpec struct {
	// Points are the bag sizes N (default 10, 50, 200) and Bags the
	// numbers n of training bags (default 50); every pair is run. Each fit
	// also gets n validation bags (a seeded hold-out half of 2n bags).
	Points, Bags []int
	// Test is the number of test bags (default 100), Reps the number of
	// repetitions, each with a new A (default 1).
	Test, Reps int
	// Noise is the standard deviation of Gaussian noise added to the
	// training and validation labels (default 0); test labels are exact.
	Noise float64
	// Sigma is the inner Gaussian kernel's width (default 0.5).
	Sigma float64
	// Methods: "TwoStageKRR" and "TailSGD" (default both).
	Methods []string
	// MaxIter and Checkpoints bound TailSGD's hold-out run (defaults
	// 20000 steps and 30 checkpoints).
	MaxIter, Checkpoints int
	Seed                 uint64
}

// EntropyBenchmark compares distribution regression methods on the
// supervised entropy-learning task (EntropyBags): two-stage kernel ridge
// regression (distreg.TwoStageKRR, lambda chosen on the validation bags
// from LogGrid(1e-15, 1, 100)) and tail-averaged mini-batch SGD
// (distreg.TailSGD with Mücke's mini-batch schedule, the stopping time
// chosen on the validation bags), both on the exact mean embeddings of a
// Gaussian inner kernel with the linear outer kernel. It returns one row
// per method, bag size, number of training bags and repetition: "method",
// "N", "n", "rep", "test_rmse" (against the exact labels of Test fresh
// bags of size N), "lambda", "iter" and "seconds".
func EntropyBenchmark(spec EntropySpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if len(spec.Points) == 0 {
		spec.Points = []int{10, 50, 200}
	}
	if len(spec.Bags) == 0 {
		spec.Bags = []int{50}
	}
	if spec.Test == 0 {
		spec.Test = 100
	}
	if spec.Reps == 0 {
		spec.Reps = 1
	}
	if spec.Sigma == 0 {
		spec.Sigma = 0.5
	}
	if len(spec.Methods) == 0 {
		spec.Methods = []string{"TwoStageKRR", "TailSGD"}
	}
	if spec.MaxIter == 0 {
		spec.MaxIter = 20000
	}
	if spec.Checkpoints == 0 {
		spec.Checkpoints = 30
	}
	for _, v := range append(append([]int(nil), spec.Points...), spec.Bags...) {
		if v < 2 {
			return none, fmt.Errorf("papers: EntropySpec: bag sizes and bag counts must be at least 2 (got %d)", v)
		}
	}
	if spec.Test < 1 || spec.Reps < 1 || spec.Sigma < 0 || spec.Noise < 0 {
		return none, fmt.Errorf("papers: EntropySpec: Test and Reps must be positive, Sigma and Noise non-negative")
	}
	for i, m := range spec.Methods {
		switch strings.ToLower(m) {
		case "twostagekrr", "twostage":
			spec.Methods[i] = "TwoStageKRR"
		case "tailsgd":
			spec.Methods[i] = "TailSGD"
		default:
			return none, &credlab.ParamError{Name: "EntropySpec.Methods", Value: strconv.Quote(m), Want: "TwoStageKRR or TailSGD"}
		}
	}
	ctx := context.Background()
	var method []string
	var Ns, ns, reps, iters []int
	var rmse, lambda, secs []float64
	for rep := 0; rep < spec.Reps; rep++ {
		prob := distreg.NewEntropyProblem(spec.Seed + uint64(rep))
		for _, N := range spec.Points {
			for _, n := range spec.Bags {
				rs, err := fitEntropy(ctx, prob, entropyRun{N: N, NT: n, Test: spec.Test, Rep: rep, Noise: spec.Noise, Sigma: spec.Sigma,
					Seed: 1000 * (spec.Seed + uint64(rep)), Methods: spec.Methods, MaxIter: spec.MaxIter, Checkpoints: spec.Checkpoints})
				if err != nil {
					return none, err
				}
				for _, r := range rs {
					method = append(method, r.Method)
					Ns, ns, reps = append(Ns, N), append(ns, n), append(reps, rep)
					rmse, lambda = append(rmse, r.RMSE), append(lambda, r.Lambda)
					iters, secs = append(iters, r.Iter), append(secs, r.Time.Seconds())
				}
			}
		}
	}
	return dataframe.New(series.New(method, series.String, "method"), series.New(Ns, series.Int, "N"),
		series.New(ns, series.Int, "n"), series.New(reps, series.Int, "rep"),
		series.New(rmse, series.Float, "test_rmse"), series.New(lambda, series.Float, "lambda"),
		series.New(iters, series.Int, "iter"), series.New(secs, series.Float, "seconds")), nil
}

// entropyRun is one setting of the entropy-learning experiment: bags of
// size N, NT training and NT validation bags, Test test bags.
type entropyRun struct {
	Exp                  string // the reproduction's series, "N" or "n"
	N, NT, Test, Rep     int
	Noise, Sigma         float64 // label noise sd; inner Gaussian kernel width
	Seed                 uint64
	Methods              []string // "TwoStageKRR", "TailSGD" (nil: both)
	MaxIter, Checkpoints int
	Population           bool // also KRLS on the angles with the population embedding kernel
}

// fitEntropy is the engine of EntropyBenchmark and the distribution
// regression reproduction: it draws 2 NT training bags (seed+1, labels with
// noise from seed+3) and Test exact test bags (seed+2), fits each method on
// the exact mean embeddings with the validation half (hold-out seed) and
// scores it on the test bags.
func fitEntropy(ctx context.Context, prob distreg.EntropyProblem, er entropyRun) ([]result, error) {
	nAll := 2 * er.NT
	seed := er.Seed
	train, angles := prob.Bags(nAll, er.N, seed+1)
	if er.Noise > 0 {
		addLabelNoise(train.Y, er.Noise, seed+3)
	}
	test, testAngles := prob.Bags(er.Test, er.N, seed+2)
	bk := distreg.Kernel{Inner: credlab.GaussianKernel{Sigma: er.Sigma}}
	h := credlab.Holdout{Fraction: 0.5, Seed: seed}
	methods := er.Methods
	if len(methods) == 0 {
		methods = []string{"TwoStageKRR", "TailSGD"}
	}
	var out []result
	for _, m := range methods {
		t0 := time.Now()
		r := result{Exp: er.Exp, Method: m, N: er.N, NT: er.NT, Noise: er.Noise, Rep: er.Rep, Lambda: math.NaN()}
		var fit *distreg.Fit
		var err error
		switch m {
		case "TwoStageKRR":
			fit, err = distreg.TwoStageKRR(ctx, train, distreg.TwoStageKRRConfig{Kernel: bk, Holdout: h})
			if err == nil {
				r.Lambda, r.Param = fit.Lambda, fmt.Sprintf("lambda=%.3g", fit.Lambda)
			}
		case "TailSGD":
			fit, err = distreg.TailSGD(ctx, train, distreg.TailSGDConfig{Kernel: bk, Holdout: h, Seed: seed,
				MaxIter: er.MaxIter, Checkpoints: er.Checkpoints})
			if err == nil {
				r.Iter, r.Param = fit.Iter, fmt.Sprintf("T=%d b=%d eta=%.3g", fit.Iter, fit.Batch, fit.StepSize)
			}
		default:
			return nil, fmt.Errorf("papers: unknown distribution regression method %q", m)
		}
		if err != nil {
			return nil, fmt.Errorf("papers: %s with N = %d, n = %d: %w", m, er.N, er.NT, err)
		}
		p, err := fit.Model.PredictContext(ctx, test)
		if err != nil {
			return nil, err
		}
		r.RMSE, r.Time = credlab.RMSE(p, test.Y), time.Since(t0)
		out = append(out, r)
	}
	if er.Population {
		// N = infinity: KRLS on the angles with the population embedding
		// kernel, on the same bags and split.
		t0 := time.Now()
		xa := mat.NewDense(nAll, 1, angles)
		fit, err := credlab.KRLS(ctx, xa, train.Y, credlab.KRLSConfig{Kernel: popKernel{prob, er.Sigma}, Holdout: h})
		if err != nil {
			return nil, err
		}
		p, err := fit.Model.PredictContext(ctx, mat.NewDense(er.Test, 1, testAngles))
		if err != nil {
			return nil, err
		}
		out = append(out, result{Exp: er.Exp, Method: "KRR-population", N: er.N, NT: er.NT, Noise: er.Noise, Rep: er.Rep, RMSE: credlab.RMSE(p, test.Y),
			Param: fmt.Sprintf("lambda=%.3g", fit.Lambda), Lambda: fit.Lambda, Time: time.Since(t0)})
	}
	return out, nil
}
