package distreg

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/ridge"
	"github.com/credlab/credlab/internal/sgd"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Model predicts the label of a bag as f(mu) = sum_j Coef_j K(mu, mu_j)
// over the mean embeddings mu_j of the training bags (the centers).
type Model struct {
	Kernel Kernel
	// Centers holds a copy of the training bags (exact embeddings); nil when
	// Kernel.Features is set.
	Centers *Bags
	// Embeddings holds the centers' mean features when Kernel.Features is
	// set (n x D), else nil.
	Embeddings *mat.Dense
	// Norms holds ||mu_j||^2 of the centers, used by a Gaussian outer
	// kernel (nil for the linear one).
	Norms []float64
	Coef  []float64
}

// Fit is the result of a distribution regression estimator.
type Fit struct {
	Method string // "TailSGD" or "TwoStageKRR"
	Model  *Model
	// Lambda is the regularization parameter (TwoStageKRR); Iter the
	// stopping time T, Batch the mini-batch size b and StepSize eta
	// (TailSGD). Zero when unused.
	Lambda   float64
	Iter     int
	Batch    int
	StepSize float64
	// Path holds one point per lambda or checkpoint T examined, in order.
	Path []credlab.PathPoint
	// ValRMSE is the validation RMSE of the chosen parameter, NaN without
	// validation.
	ValRMSE float64
	Timing  credlab.Timing
}

// Predict returns f(mu) for each bag of bags (labels, if any, unused). It
// costs the embedding of the new bags plus O(n_new n_c) outer kernel
// evaluations: O(N_new N_c d) per pair with exact embeddings, O(D) with
// mean features. Memory is O(n_new n_c).
func (m *Model) Predict(bags *Bags) ([]float64, error) {
	return m.PredictContext(context.Background(), bags)
}

// PredictContext is Predict with cancellation.
func (m *Model) PredictContext(ctx context.Context, bags *Bags) ([]float64, error) {
	if m == nil || len(m.Coef) == 0 || (m.Centers == nil && m.Embeddings == nil) {
		return nil, emptyf("predict with an empty bag model (no coefficients or centers)")
	}
	if err := m.Kernel.Validate(); err != nil {
		return nil, err
	}
	if err := checkBags(bags, false); err != nil {
		return nil, err
	}
	c := &embedding{bags: m.Centers, feats: m.Embeddings, norms: m.Norms}
	if c.len() != len(m.Coef) {
		return nil, shapef("corrupt bag model: %d centers but %d coefficients", c.len(), len(m.Coef))
	}
	if _, lin := m.Kernel.outer().(LinearOuter); !lin && len(m.Norms) != len(m.Coef) {
		return nil, shapef("corrupt bag model: %d center norms for %d coefficients", len(m.Norms), len(m.Coef))
	}
	if m.Centers != nil && m.Embeddings == nil && bags.Dim() != m.Centers.Dim() {
		return nil, shapef("model bags have dimension %d, new bags %d", m.Centers.Dim(), bags.Dim())
	}
	e, err := m.Kernel.embed(ctx, bags, true)
	if err != nil {
		return nil, err
	}
	k, err := m.Kernel.gram(ctx, e, c)
	if err != nil {
		return nil, err
	}
	out := make([]float64, bags.Len())
	blas64.Gemv(blas.NoTrans, 1, k.RawMatrix(), vec(m.Coef), 0, vec(out))
	return out, nil
}

// bagSplit is a hold-out split of bags with the stacked outer Gram
// [K_tt; K_vt] ((nt + nv) x nt) and the centers' embedding.
type bagSplit struct {
	train, val *Bags
	centers    *embedding
	k          *mat.Dense // stacked
	ktt, kvt   *mat.Dense // views; kvt nil without validation
	nt, nv     int
	kernelTime time.Duration
}

func newBagSplit(ctx context.Context, bags *Bags, bk Kernel, h credlab.Holdout) (*bagSplit, error) {
	tr, va, err := h.Split(bags.Len())
	if err != nil {
		return nil, err
	}
	s := &bagSplit{train: bags.subset(tr), nt: len(tr), nv: len(va)}
	t0 := time.Now()
	if s.centers, err = bk.embed(ctx, s.train, false); err != nil {
		return nil, err
	}
	if err := checkAlloc("bag Gram matrix", s.nt+s.nv, s.nt); err != nil {
		return nil, err
	}
	ktt, err := bk.gram(ctx, s.centers, nil) // fills the centers' norms
	if err != nil {
		return nil, err
	}
	s.k = mat.NewDense(s.nt+s.nv, s.nt, nil)
	s.ktt = s.k.Slice(0, s.nt, 0, s.nt).(*mat.Dense)
	s.ktt.Copy(ktt)
	if s.nv > 0 {
		s.val = bags.subset(va)
		ev, err := bk.embed(ctx, s.val, true)
		if err != nil {
			return nil, err
		}
		kvt, err := bk.gram(ctx, ev, s.centers)
		if err != nil {
			return nil, err
		}
		s.kvt = s.k.Slice(s.nt, s.nt+s.nv, 0, s.nt).(*mat.Dense)
		s.kvt.Copy(kvt)
	}
	s.kernelTime = time.Since(t0)
	return s, nil
}

// model returns a Model on the training bags with coefficients coef.
func (s *bagSplit) model(bk Kernel, coef []float64) *Model {
	m := &Model{Kernel: bk, Embeddings: s.centers.feats, Norms: s.centers.norms, Coef: coef}
	if _, lin := bk.outer().(LinearOuter); lin {
		m.Norms = nil
	}
	if s.centers.feats == nil {
		m.Centers = s.train.clone()
	}
	return m
}

// TwoStageKRRConfig configures two-stage kernel ridge regression.
type TwoStageKRRConfig struct {
	Kernel Kernel
	// Lambda, when positive, fixes lambda and fits on all bags; otherwise
	// lambda is chosen from Lambdas (default credlab.LogGrid(1e-15, 1,
	// 100)) on a hold-out split of the bags.
	Lambda  float64
	Lambdas []float64
	Holdout credlab.Holdout
	// Progress, if not nil, is called after each lambda with (done, total).
	Progress func(done, total int)
}

// TwoStageKRR is the distribution regression baseline of Szabó,
// Sriperumbudur, Póczos and Gretton (JMLR 2016): kernel ridge regression on
// the empirical mean embeddings, alpha = (K + lambda n I)^-1 y with
// K_ij = K(mu_i, mu_j), minimising
// (1/n) sum_j (f(mu_j) - y_j)^2 + lambda ||f||^2_{H_K}. Bags play the role
// of points in credlab.KRLS, which it matches on the same Gram matrix (it
// runs KRLS's solver).
//
// Cost: the Gram matrix (see Kernel.Gram: O(n^2 N^2 d) exact, O(n N D d +
// n^2 D) with mean features), then KRLS's solve: O(n^3/3) per lambda (one
// O(10/3 n^3) reduction for grids of 30 or more); memory O(n^2).
func TwoStageKRR(ctx context.Context, bags *Bags, cfg TwoStageKRRConfig) (*Fit, error) {
	if err := checkBags(bags, true); err != nil {
		return nil, err
	}
	if err := cfg.Kernel.Validate(); err != nil {
		return nil, err
	}
	h, grid, err := credlab.LambdaGrid("TwoStageKRR", cfg.Lambda, cfg.Lambdas, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	s, err := newBagSplit(ctx, bags, cfg.Kernel, h)
	if err != nil {
		return nil, err
	}
	fit := &Fit{Method: "TwoStageKRR"}
	fit.Timing.Kernel = s.kernelTime
	var yv []float64
	if s.val != nil {
		yv = s.val.Y
	}
	sol, err := ridge.Path(ctx, ridge.Problem{Method: "TwoStageKRR", K: s.ktt, Y: s.train.Y, KV: s.kvt, YV: yv,
		Grid: grid, Progress: cfg.Progress})
	if err != nil {
		return nil, err
	}
	fit.Lambda, fit.ValRMSE = sol.Lambda, sol.ValRMSE
	fit.Path = make([]credlab.PathPoint, len(sol.Path))
	for i, p := range sol.Path {
		fit.Path[i] = credlab.PathPoint{Lambda: p.Lambda, TrainRMSE: p.TrainRMSE, ValRMSE: p.ValRMSE}
	}
	fit.Timing.Solve, fit.Timing.Select = sol.Solve, sol.Select
	fit.Model = s.model(cfg.Kernel, sol.Coef)
	return fit, nil
}

// TailSGDSchedule is one of the parameter choices (b, eta, T) of Mücke's
// Corollaries 3.5-3.7, all with R = M = 1, n training bags, source r and
// capacity nu (TailSGDConfig.Source and Capacity), eta_0 = Eta0 and, in
// the hard case, L = n / log^2 n (the corollary's log^K n with K = 2).
//
//	                         TailOnePass            TailMiniBatch               TailBatchGD
//	r >= 1/2 (Cor. 3.5)      b=1, eta=eta_0 n^-a,   b=n^a, eta_0,               b=n (every bag), eta_0,
//	                         T=n                    T=n^(1/(2r+nu))             T=n^(1/(2r+nu))
//	r < 1/2 < r+nu/2 (3.6)   -                      b=sqrt(n), eta_0,           b=n (every bag), eta_0,
//	                                                T=n^(1/(2r+nu))             T=n^(1/(2r+nu))
//	2r+nu <= 1 (3.7)         b=1, eta=L^-(2r+nu),   b=L^(2r+nu), eta_0, T=L     b=L, eta_0, T=L
//	                         T=L^(2r+nu+1)
//
// with a = (2r+nu-1)/(2r+nu). b is rounded to the nearest integer >= 1
// and T up to an integer >= 2.
type TailSGDSchedule int

const (
	// TailMiniBatch is the mini-batch choice with a constant step, the
	// default.
	TailMiniBatch TailSGDSchedule = iota
	// TailOnePass is one pass of simple SGD (b = 1) with a small step.
	TailOnePass
	// TailBatchGD is tail-averaged gradient descent on all bags when b = n
	// (deterministic, every bag once per step).
	TailBatchGD
)

func (s TailSGDSchedule) String() string {
	switch s {
	case TailMiniBatch:
		return "mini-batch"
	case TailOnePass:
		return "one-pass"
	case TailBatchGD:
		return "batch GD"
	}
	return fmt.Sprintf("TailSGDSchedule(%d)", int(s))
}

// TailSGDConfig configures tail-averaged mini-batch SGD for distribution
// regression. The zero value (with a Kernel) runs the TailMiniBatch
// schedule for r = 1/2 and nu = 1 (b = sqrt(n), eta = 1/(5 kappa^2)) and
// chooses the stopping time T on a 20% hold-out split of the bags.
type TailSGDConfig struct {
	Kernel   Kernel
	Schedule TailSGDSchedule
	// Source is r > 0 and Capacity is nu in (0, 1], the assumptions the
	// schedule is tuned for; defaults 1/2 and 1.
	Source, Capacity float64
	// Eta0 is eta_0; default 1/(5 kappa^2) with kappa^2 = max_j K(mu_j, mu_j),
	// inside the theorem's eta < 1/(4 kappa^2).
	Eta0 float64
	// Batch and StepSize, when positive, override the schedule's b and eta.
	Batch    int
	StepSize float64
	// Iter, when positive, fixes the stopping time T (at least 2) and fits
	// on all bags with no validation. With Holdout.None and Iter zero, T is
	// the schedule's.
	Iter int
	// MaxIter bounds a hold-out run; default 100 passes, ceil(100 n / b).
	// T is chosen among Checkpoints (default 30) values spread
	// geometrically over [2, MaxIter], rounded to even numbers.
	MaxIter     int
	Checkpoints int
	Holdout     credlab.Holdout
	// Seed seeds the bag indices, drawn as in credlab.SGMConfig.Seed.
	Seed     uint64
	Progress func(done, total int)
}

func (c TailSGDConfig) check() error {
	switch {
	case c.Schedule < TailMiniBatch || c.Schedule > TailBatchGD:
		return &credlab.ParamError{Name: "TailSGDConfig.Schedule", Value: c.Schedule, Want: "TailMiniBatch, TailOnePass or TailBatchGD"}
	case c.Batch < 0:
		return &credlab.ParamError{Name: "TailSGDConfig.Batch", Value: c.Batch, Want: "a positive mini-batch size b (or zero for the schedule's)"}
	case c.StepSize < 0 || math.IsNaN(c.StepSize) || math.IsInf(c.StepSize, 0):
		return &credlab.ParamError{Name: "TailSGDConfig.StepSize", Value: c.StepSize, Want: "a positive finite step size eta (or zero for the schedule's)"}
	case c.Eta0 < 0 || math.IsNaN(c.Eta0) || math.IsInf(c.Eta0, 0):
		return &credlab.ParamError{Name: "TailSGDConfig.Eta0", Value: c.Eta0, Want: "a positive finite eta_0 (or zero for 1/(5 kappa^2))"}
	case c.Source < 0 || math.IsNaN(c.Source) || math.IsInf(c.Source, 0):
		return &credlab.ParamError{Name: "TailSGDConfig.Source", Value: c.Source, Want: "a positive finite source condition r (or zero for 1/2)"}
	case c.Capacity < 0 || c.Capacity > 1 || math.IsNaN(c.Capacity):
		return &credlab.ParamError{Name: "TailSGDConfig.Capacity", Value: c.Capacity, Want: "a capacity nu in (0, 1] (or zero for 1)"}
	case c.Iter < 0 || c.Iter == 1:
		return &credlab.ParamError{Name: "TailSGDConfig.Iter", Value: c.Iter, Want: "a stopping time T >= 2, since tail averaging averages the iterates t > T/2 (or zero for the hold-out's or the schedule's)"}
	case c.MaxIter < 0 || c.MaxIter == 1:
		return &credlab.ParamError{Name: "TailSGDConfig.MaxIter", Value: c.MaxIter, Want: "at least 2 for tail averaging (or zero for 100 passes)"}
	case c.Checkpoints < 0:
		return &credlab.ParamError{Name: "TailSGDConfig.Checkpoints", Value: c.Checkpoints, Want: "a positive number of checkpoints (or zero for 30)"}
	}
	return nil
}

// params resolves b, eta and T (the schedule's, or Iter) for n bags.
func (c TailSGDConfig) params(n int, kappa2 float64) (sgd.Params, error) {
	if !(kappa2 > 0) || math.IsInf(kappa2, 0) {
		return sgd.Params{}, &credlab.DegenerateError{What: fmt.Sprintf("max_j K(mu_j, mu_j) = %v: the step size needs a positive finite kernel diagonal", kappa2)}
	}
	r, nu, eta0 := c.Source, c.Capacity, c.Eta0
	if r == 0 {
		r = 0.5
	}
	if nu == 0 {
		nu = 1
	}
	if eta0 == 0 {
		eta0 = 1 / (5 * kappa2)
	}
	fn := float64(n)
	s := 2*r + nu
	p := sgd.Params{Method: "TailSGD", Seed: c.Seed, Eta: eta0}
	var b, T float64
	switch {
	case r >= 0.5: // Corollary 3.5
		a := (s - 1) / s
		switch c.Schedule {
		case TailOnePass:
			b, T, p.Eta = 1, fn, eta0*math.Pow(fn, -a)
		case TailMiniBatch:
			b, T = math.Pow(fn, a), math.Pow(fn, 1/s)
		default:
			p.Full, T = true, math.Pow(fn, 1/s)
		}
	case s > 1: // Corollary 3.6
		switch c.Schedule {
		case TailOnePass:
			return sgd.Params{}, &credlab.ParamError{Name: "TailSGDConfig.Schedule", Value: c.Schedule,
				Want: fmt.Sprintf("TailMiniBatch or TailBatchGD: Mücke's Corollary 3.6 (r = %g < 1/2, 2r+nu = %g > 1) has no one-pass (b = 1) choice", r, s)}
		case TailMiniBatch:
			b, T = math.Sqrt(fn), math.Pow(fn, 1/s)
		default:
			p.Full, T = true, math.Pow(fn, 1/s)
		}
	default: // Corollary 3.7, the hard case
		l := fn / math.Pow(math.Max(math.Log(fn), 1), 2)
		switch c.Schedule {
		case TailOnePass:
			b, T, p.Eta = 1, math.Pow(l, s+1), math.Pow(l, -s)
		case TailMiniBatch:
			b, T = math.Pow(l, s), l
		default:
			b, T = l, l
		}
	}
	if p.Full {
		if c.Batch != 0 {
			return sgd.Params{}, &credlab.ParamError{Name: "TailSGDConfig.Batch", Value: c.Batch, Want: "zero: the TailBatchGD schedule uses every bag once per step"}
		}
		p.B = n
	} else {
		p.B = max(1, int(math.Round(b)))
	}
	p.T = max(2, int(math.Ceil(T-1e-9)))
	if c.Batch > 0 {
		p.B = c.Batch
	}
	if c.StepSize > 0 {
		p.Eta = c.StepSize
	}
	if c.Iter > 0 {
		p.T = c.Iter
	}
	return p, nil
}

// TailSGD runs mini-batch SGD on the mean embeddings of the bags (Mücke,
// AISTATS 2021, section 2.3), from h_0 = 0:
//
//	h_{t+1} = h_t - eta (1/b) sum_{i=b(t-1)+1}^{bt} (h_t(mu_{j_i}) - y_{j_i}) K(mu_{j_i}, .),
//
// with bag indices j_i drawn uniformly with replacement, and returns the
// tail average, eq. (3),
//
//	h_bar_T = (1/(T - floor(T/2))) sum_{t=floor(T/2)+1}^T h_t,
//
// which is (2/T) sum_{t>T/2} h_t for even T. With hold-out validation T is
// chosen among checkpoints: the tail averages at every checkpoint come from
// prefix sums of the iterates saved at T_k and floor(T_k/2), so one run
// gives the whole path. The iteration is credlab.SGM's (same engine, same
// divergence check, reported with its iteration).
//
// Cost: the Gram matrix [K_tt; K_vt] once (see Kernel.Gram), then
// O(b n_a + n_t + n_a) per step for n_a training and validation bags, and
// O(checkpoints (n_t + n_a)) memory for the saved sums.
func TailSGD(ctx context.Context, bags *Bags, cfg TailSGDConfig) (*Fit, error) {
	if err := checkBags(bags, true); err != nil {
		return nil, err
	}
	if err := cfg.Kernel.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	h := cfg.Holdout
	if cfg.Iter > 0 {
		h = credlab.Holdout{None: true}
	}
	s, err := newBagSplit(ctx, bags, cfg.Kernel, h)
	if err != nil {
		return nil, err
	}
	kappa2 := 0.0
	for j := 0; j < s.nt; j++ {
		kappa2 = math.Max(kappa2, s.ktt.At(j, j))
	}
	par, err := cfg.params(s.nt, kappa2)
	if err != nil {
		return nil, err
	}
	var yv []float64
	if s.val != nil {
		yv = s.val.Y
	}
	checks := []int{par.T}
	if s.nv > 0 {
		maxIter := cfg.MaxIter
		if maxIter == 0 {
			maxIter = max(2, int(math.Ceil(100*float64(s.nt)/float64(par.B))))
		}
		nc := cfg.Checkpoints
		if nc == 0 {
			nc = 30
		}
		checks = tailCheckpoints(maxIter, nc)
		par.T = maxIter
	}
	fit := &Fit{Method: "TailSGD", Batch: par.B, StepSize: par.Eta}
	fit.Timing.Kernel = s.kernelTime
	t0 := time.Now()
	// rows[j] = K(mu_j, all bags): the transpose of the stacked Gram.
	rows := mat.NewDense(s.nt, s.nt+s.nv, nil)
	rows.Copy(s.k.T())
	eng := sgd.NewGram(rows, s.train.Y)
	coef, err := runTail(ctx, eng, par, checks, yv, fit, cfg.Progress)
	fit.Timing.Solve = time.Since(t0)
	if err != nil {
		return nil, err
	}
	fit.Model = s.model(cfg.Kernel, coef)
	return fit, nil
}

// tailCheckpoints returns up to k even stopping times spread geometrically
// over [2, maxIter], ending at maxIter.
func tailCheckpoints(maxIter, k int) []int {
	var out []int
	for i := 0; i < k; i++ {
		v := maxIter
		if k > 1 && i < k-1 {
			v = 2 * int(math.Round(math.Pow(float64(maxIter)/2, float64(i)/float64(k-1))))
		}
		v = min(max(v, 2), maxIter)
		if len(out) == 0 || v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// runTail runs the engine to par.T, keeping prefix sums of the
// coefficients and predictions at every checkpoint T_k and floor(T_k/2),
// records the tail-averaged path and returns the chosen coefficients.
func runTail(ctx context.Context, eng *sgd.Engine, par sgd.Params, checks []int, yv []float64, fit *Fit, progress func(int, int)) ([]float64, error) {
	nt, na := eng.NT, eng.NAll
	need := map[int]bool{}
	for _, t := range checks {
		need[t], need[t/2] = true, true
	}
	type snap struct{ a, p []float64 }
	saved := map[int]snap{0: {make([]float64, nt), make([]float64, na)}}
	sa, sp := make([]float64, nt), make([]float64, na)
	first := checks[0] / 2 // sums are needed from iteration first+1 on
	err := eng.Run(ctx, par, func(t int, alpha, p []float64) (bool, error) {
		if t <= first {
			return false, nil
		}
		for i, v := range alpha {
			sa[i] += v
		}
		for i, v := range p {
			sp[i] += v
		}
		if need[t] {
			saved[t] = snap{append([]float64(nil), sa...), append([]float64(nil), sp...)}
			if progress != nil {
				progress(t, par.T)
			}
		}
		return false, nil
	}, nil)
	if err != nil {
		return nil, err
	}
	if first > 0 {
		saved[first] = saved[0] // sums start after first
	}
	fit.ValRMSE = math.Inf(1)
	var best []float64
	pbar := make([]float64, na)
	for _, T := range checks {
		lo, hi := saved[T/2], saved[T]
		c := 1 / float64(T-T/2)
		for i := range pbar {
			pbar[i] = c * (hi.p[i] - lo.p[i])
		}
		pt := credlab.PathPoint{Iter: T, TrainRMSE: credlab.RMSE(pbar[:nt], eng.YT), ValRMSE: math.NaN()}
		if len(yv) > 0 {
			pt.ValRMSE = credlab.RMSE(pbar[nt:], yv)
		}
		fit.Path = append(fit.Path, pt)
		if len(yv) == 0 || pt.ValRMSE < fit.ValRMSE {
			fit.ValRMSE, fit.Iter = pt.ValRMSE, T
			best = make([]float64, nt)
			for i := range best {
				best[i] = c * (hi.a[i] - lo.a[i])
			}
		}
	}
	return best, nil
}

// vec views v as a BLAS vector.
func vec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }
