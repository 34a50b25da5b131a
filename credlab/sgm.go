package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/internal/sgd"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// SGMPreset is one of Lin and Rosasco's parameter choices for multi-pass
// SGM, giving the mini-batch size b and the step size eta from the number
// m of training rows and kappa^2 = max_i k(x_i, x_i). The constant 1/8 is
// the one of the paper's section 4.
type SGMPreset int

const (
	// SGMMiniBatch is b = ceil(sqrt(m)), eta = 1/(8 sqrt(m) kappa^2)
	// (Corollary 3.5), the default.
	SGMMiniBatch SGMPreset = iota
	// SGMSimple is simple SGM: b = 1, eta = 1/(8 m kappa^2) (Corollary 3.3).
	SGMSimple
	// SGMBatch is batch gradient descent, eta = 1/(8 kappa^2) (Corollary
	// 3.9): each step uses every training row once, deterministically. This
	// is the sample iteration (14), and equals EarlyStopping with StepSize
	// eta. (A Batch of m with another preset instead draws m rows with
	// replacement, the paper's "stochastic version of batch gradient
	// descent".)
	SGMBatch
)

func (p SGMPreset) String() string {
	switch p {
	case SGMMiniBatch:
		return "mini-batch SGM (b = sqrt(m), eta = 1/(8 sqrt(m)))"
	case SGMSimple:
		return "simple SGM (b = 1, eta = 1/(8 m))"
	case SGMBatch:
		return "batch GD (b = m, eta = 1/8)"
	}
	return fmt.Sprintf("SGMPreset(%d)", int(p))
}

// ParseSGMPreset maps a preset's name to it: "minibatch" (or "mini-batch",
// or ""), "simple" or "batch", in any case.
func ParseSGMPreset(name string) (SGMPreset, error) {
	switch strings.ToLower(name) {
	case "", "minibatch", "mini-batch":
		return SGMMiniBatch, nil
	case "simple":
		return SGMSimple, nil
	case "batch":
		return SGMBatch, nil
	}
	return 0, &ParamError{Name: "SGMConfig.Preset", Value: strconv.Quote(name), Want: "minibatch, simple or batch"}
}

// SGMConfig configures multi-pass mini-batch stochastic gradient descent
// (SGM). The zero value runs the SGMMiniBatch preset for at
// most 100 passes and picks the number of passes on a 20% hold-out split.
type SGMConfig struct {
	// Kernel is k; nil means GaussianKernel with Sigma = MedianDistance(x),
	// the median heuristic.
	Kernel Kernel
	// Preset gives b and eta when Batch and StepSize are zero.
	Preset SGMPreset
	// Batch, when positive, is the mini-batch size b (indices drawn with
	// replacement).
	Batch int
	// StepSize, when positive, is eta_1.
	StepSize float64
	// Decay is theta in eta_t = eta_1 t^-theta; default 0 (constant step).
	// Must be in [0, 1).
	Decay float64
	// Passes bounds the run at ceil(Passes m / b) iterations; default 100.
	Passes int
	// Iter, when positive, runs exactly T = Iter iterations on all rows,
	// with no validation.
	Iter int
	// Every, when positive, records the path every Every iterations;
	// default at the end of each pass (iteration ceil(k m / b) for pass
	// k), and always at the last iteration.
	Every int
	// Threshold is the stopping rule of a hold-out run: stop once the
	// validation RMSE at a recorded point exceeds (1 + Threshold) times its
	// best value. Default 0.05; negative runs all passes.
	Threshold float64
	Holdout   Holdout
	// Seed seeds the indices j_1, j_2, ...: they are drawn with
	// rand.New(rand.NewPCG(Seed, 0x73676d)).IntN(m), b per step in order.
	Seed uint64
	// CacheBytes bounds the cache of kernel rows K(x_j, X) for all training
	// rows j (m x (m + validation rows) values); default 256 MiB, negative
	// never caches. Without the cache rows are computed on the fly.
	CacheBytes int64
	// Keep lists iterations whose coefficients are returned in
	// Fit.Iterates.
	Keep []int
	// Progress, if not nil, is called at each recorded point with
	// (iteration, total iterations).
	Progress func(done, total int)
}

// SGMFit is the result of SGM: the Fit (Iter is the chosen iteration t,
// Path has one point per recorded iteration) and the parameters used.
type SGMFit struct {
	Fit
	Batch    int     // b (m for SGMBatch)
	StepSize float64 // eta_1
	Decay    float64 // theta
	// Passes is b Iter / m, the passes over the data at the chosen iterate;
	// PathPasses the same at each Path point.
	Passes     float64
	PathPasses []float64
}

const (
	sgmCacheDefault = 256 << 20
	sgmBlockBytes   = 8 << 20 // kernel block computed on the fly
	// sgmGemmMin: rows on the fly go through a kernel block and a matrix
	// product only when both b and d reach it; otherwise each row sums its
	// kernel values directly.
	sgmGemmMin = 32
)

func (c SGMConfig) check() error {
	switch {
	case c.Preset < SGMMiniBatch || c.Preset > SGMBatch:
		return &ParamError{Name: "SGMConfig.Preset", Value: c.Preset, Want: "SGMMiniBatch, SGMSimple or SGMBatch"}
	case c.Batch < 0:
		return &ParamError{Name: "SGMConfig.Batch", Value: c.Batch, Want: "a positive mini-batch size b (or zero for the preset's)"}
	case c.Preset == SGMBatch && c.Batch != 0:
		return &ParamError{Name: "SGMConfig.Batch", Value: c.Batch, Want: "zero: the SGMBatch preset uses every row once per step (use another preset with Batch = m to draw m rows with replacement)"}
	case c.StepSize < 0 || math.IsNaN(c.StepSize) || math.IsInf(c.StepSize, 0):
		return &ParamError{Name: "SGMConfig.StepSize", Value: c.StepSize, Want: "a positive finite step size eta (or zero for the preset's)"}
	case !(c.Decay >= 0 && c.Decay < 1):
		return &ParamError{Name: "SGMConfig.Decay", Value: c.Decay, Want: "a step-size decay theta in [0, 1)"}
	case c.Passes < 0:
		return &ParamError{Name: "SGMConfig.Passes", Value: c.Passes, Want: "a positive number of passes (or zero for 100)"}
	case c.Iter < 0:
		return &ParamError{Name: "SGMConfig.Iter", Value: c.Iter, Want: "a positive number of steps (or zero to select the passes by hold-out)"}
	case c.Every < 0:
		return &ParamError{Name: "SGMConfig.Every", Value: c.Every, Want: "a positive number of steps between validations (or zero for once per pass)"}
	case math.IsNaN(c.Threshold):
		return &ParamError{Name: "SGMConfig.Threshold", Value: c.Threshold, Want: "a number (zero for 0.05, negative to run every pass)"}
	}
	return nil
}

func (c SGMConfig) holdout() Holdout {
	if c.Iter > 0 {
		return Holdout{None: true}
	}
	return c.Holdout
}

func (c SGMConfig) threshold() float64 {
	if c.Threshold == 0 {
		return 0.05
	}
	return c.Threshold
}

// params resolves b, eta and T for m training rows.
func (c SGMConfig) params(method string, m int, kappa2 float64) (sgd.Params, error) {
	if !(kappa2 > 0) || math.IsInf(kappa2, 0) {
		return sgd.Params{}, &DegenerateError{What: fmt.Sprintf("max_i k(x_i, x_i) = %v: the preset step size needs a positive finite kernel diagonal", kappa2)}
	}
	p := sgd.Params{Method: method, Theta: c.Decay, Seed: c.Seed}
	fm := float64(m)
	switch c.Preset {
	case SGMSimple:
		p.B, p.Eta = 1, 1/(8*fm*kappa2)
	case SGMBatch:
		p.B, p.Full, p.Eta = m, true, 1/(8*kappa2)
	default:
		p.B, p.Eta = int(math.Ceil(math.Sqrt(fm))), 1/(8*math.Sqrt(fm)*kappa2)
	}
	if c.Batch > 0 {
		p.B = c.Batch
	}
	if c.StepSize > 0 {
		p.Eta = c.StepSize
	}
	switch {
	case c.Iter > 0:
		p.T = c.Iter
	default:
		passes := c.Passes
		if passes == 0 {
			passes = 100
		}
		p.T = int(math.Ceil(float64(passes) * fm / float64(p.B)))
	}
	return p, nil
}

// SGM runs the b-minibatch stochastic gradient method of Lin and Rosasco
// (Algorithm 1, eq. 4) in the RKHS of the kernel: omega_1 = 0 and
//
//	omega_{t+1} = omega_t - eta_t (1/b) sum_{i=b(t-1)+1}^{bt} (omega_t(x_{j_i}) - y_{j_i}) k(x_{j_i}, .),
//
// with j_1, j_2, ... drawn uniformly from the m training rows with
// replacement and eta_t = eta_1 t^-theta. After t iterations the data have
// been passed over b t / m times. The iterate is kept as coefficients on
// the training rows, so step t adds -eta_t (f(x_j) - y_j) / b to alpha_j
// for each drawn j.
//
// SGM keeps the predictions on all training and validation rows up to date,
// adding the kernel columns of the drawn rows at each step; the path (one
// point per pass by default) and the hold-out choice of the number of
// passes, as in the paper's discussion of Corollary 3.5, come without
// further kernel evaluations. Each step checks the drawn residuals and
// reports a diverging step size with the iteration at which it happened.
//
// Cost: with n_a = m + n_v rows in all, a step costs O(b n_a d) kernel work
// when rows are computed on the fly (in parallel over the n_a rows), so a
// pass costs O(m n_a d) whatever b, with O(n_a d) memory (plus an 8 MiB
// kernel block when b and d are both at least 32). When the m x n_a row
// cache fits CacheBytes it is filled once, O(m n_a d), and a pass then
// costs O(m n_a) flops with O(m n_a) memory.
func SGM(ctx context.Context, x *mat.Dense, y []float64, cfg SGMConfig) (*SGMFit, error) {
	cfg.Kernel = defaultKernel(cfg.Kernel, x)
	if err := CheckData(x, y); err != nil {
		return nil, err
	}
	if err := checkKernelOn(cfg.Kernel, x); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	tr, va, err := cfg.holdout().Split(len(y))
	if err != nil {
		return nil, err
	}
	xt, yt := gatherRows(x, tr), gather(y, tr)
	var xv *mat.Dense
	var yv []float64
	if len(va) > 0 {
		xv, yv = gatherRows(x, va), gather(y, va)
	}
	nt := len(tr)
	par, err := cfg.params("SGM", nt, maxKernelDiag(cfg.Kernel, xt, nil))
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	eng, err := newPointEngine(cfg.Kernel, xt, yt, xv, cfg.CacheBytes)
	if err != nil {
		return nil, err
	}
	fit := &SGMFit{Fit: Fit{Method: "SGM", Rank: nt, Model: &Model{Kernel: cfg.Kernel, Centers: xt}},
		Batch: par.B, StepSize: par.Eta, Decay: par.Theta}
	fit.Timing.Kernel = time.Since(t0)
	t0 = time.Now()
	err = runSGMPath(ctx, eng, par, yv, cfg, fit)
	fit.Timing.Solve = time.Since(t0)
	if err != nil {
		return nil, err
	}
	return fit, nil
}

// runSGMPath runs the engine, records the path at pass ends (or every
// cfg.Every iterations), applies the stopping rule and fills fit.
func runSGMPath(ctx context.Context, eng *sgd.Engine, par sgd.Params, yv []float64, cfg SGMConfig, fit *SGMFit) error {
	nt := eng.NT
	keep := map[int]bool{}
	for _, k := range cfg.Keep {
		keep[k] = true
	}
	thr := cfg.threshold()
	fit.ValRMSE = math.Inf(1)
	var best []float64
	err := eng.Run(ctx, par, func(t int, alpha, p []float64) (bool, error) {
		if keep[t] {
			if fit.Iterates == nil {
				fit.Iterates = map[int][]float64{}
			}
			fit.Iterates[t] = append([]float64(nil), alpha...)
		}
		if !par.Records(t, nt, cfg.Every) {
			return false, nil
		}
		pt := PathPoint{Iter: t, TrainRMSE: rmse(p[:nt], eng.YT), ValRMSE: math.NaN()}
		if len(yv) > 0 {
			pt.ValRMSE = rmse(p[nt:], yv)
		}
		fit.Path = append(fit.Path, pt)
		fit.PathPasses = append(fit.PathPasses, par.Passes(t, nt))
		if cfg.Progress != nil {
			cfg.Progress(t, par.T)
		}
		if len(yv) == 0 {
			return false, nil
		}
		if pt.ValRMSE < fit.ValRMSE {
			fit.ValRMSE, fit.Iter = pt.ValRMSE, t
			best = append(best[:0], alpha...)
		} else if thr >= 0 && pt.ValRMSE > (1+thr)*fit.ValRMSE {
			return true, nil
		}
		return false, nil
	}, func(alpha []float64) {
		if len(yv) == 0 {
			best = append(best[:0], alpha...)
		}
	})
	if err != nil {
		return err
	}
	if len(yv) == 0 {
		fit.ValRMSE, fit.Iter = math.NaN(), fit.Path[len(fit.Path)-1].Iter
	}
	fit.Model.Coef = best
	fit.Passes = par.Passes(fit.Iter, nt)
	return nil
}

// pointColumns computes the kernel columns K(X_all, x_j) of the training
// rows x_j on the fly, for SGM without a row cache.
type pointColumns struct {
	k     Kernel
	xt    *mat.Dense
	xall  *mat.Dense
	tsq   []float64 // ||x_j||^2 of the training rows
	allsq []float64
	xb    []float64   // gathered batch rows
	blk   []float64   // kernel block
	rowsB [][]float64 // batch rows (direct path)
}

// newPointEngine stacks [X_t; X_v] and caches the kernel rows when they fit
// cacheBytes (default 256 MiB, negative never); otherwise the engine
// computes them on the fly (pointColumns).
func newPointEngine(k Kernel, xt *mat.Dense, yt []float64, xv *mat.Dense, cacheBytes int64) (*sgd.Engine, error) {
	nt, d := xt.Dims()
	nall := nt
	if xv != nil {
		nall += xv.RawMatrix().Rows
	}
	c := &pointColumns{k: k, xt: xt}
	if xv == nil {
		c.xall = xt
	} else {
		c.xall = mat.NewDense(nall, d, nil)
		c.xall.Slice(0, nt, 0, d).(*mat.Dense).Copy(xt)
		c.xall.Slice(nt, nall, 0, d).(*mat.Dense).Copy(xv)
	}
	if cacheBytes == 0 {
		cacheBytes = sgmCacheDefault
	}
	if cacheBytes > 0 && float64(nt)*float64(nall)*8 <= float64(cacheBytes) {
		if err := checkAlloc("SGM kernel row cache", nt, nall); err == nil {
			rows := mat.NewDense(nt, nall, nil)
			kernelBlock(rows, k, xt, c.xall, nil, nil)
			return sgd.NewGram(rows, yt), nil
		}
	}
	c.tsq = rowSqNorms(xt)
	if xv == nil {
		c.allsq = c.tsq
	} else {
		c.allsq = rowSqNorms(c.xall)
	}
	return &sgd.Engine{NT: nt, NAll: nall, YT: yt, Cols: c}, nil
}

// Add sets p += sum_i delta_i K(X_all, x_{idx_i}); full means idx is
// 0..nt-1 in order. With b and d both at least sgmGemmMin the kernel
// values come in blocks of at most sgmBlockBytes and one matrix-vector
// product each; otherwise addDirect.
func (e *pointColumns) Add(idx []int, delta, p []float64, full bool) {
	nall := e.xall.RawMatrix().Rows
	b := len(idx)
	_, d := e.xt.Dims()
	if b < sgmGemmMin || d < sgmGemmMin {
		e.addDirect(idx, delta, p)
		return
	}
	xb, bsq := e.xt, e.tsq
	if !full {
		if len(e.xb) < b*d {
			e.xb = make([]float64, b*d)
		}
		xb = mat.NewDense(b, d, e.xb[:b*d])
		bsq = make([]float64, b)
		for i, j := range idx {
			copy(xb.RawRowView(i), e.xt.RawRowView(j))
			bsq[i] = e.tsq[j]
		}
	}
	per := max(1, min(nall, sgmBlockBytes/8/b))
	if len(e.blk) < per*b {
		e.blk = make([]float64, per*b)
	}
	for lo := 0; lo < nall; lo += per {
		hi := min(lo+per, nall)
		blk := mat.NewDense(hi-lo, b, e.blk[:(hi-lo)*b])
		kernelBlock(blk, e.k, e.xall.Slice(lo, hi, 0, d).(*mat.Dense), xb, e.allsq[lo:hi], bsq)
		blas64.Gemv(blas.NoTrans, 1, blk.RawMatrix(), vec(delta), 1, vec(p[lo:hi]))
	}
}

// addDirect is Add for small batches or dimensions: each row i of X_all
// gets sum_j delta_j k(x_i, x_{idx_j}), summed in batch order from direct
// squared distances (or dot products), rows in parallel. It allocates
// nothing proportional to the rows.
func (e *pointColumns) addDirect(idx []int, delta, p []float64) {
	if cap(e.rowsB) < len(idx) {
		e.rowsB = make([][]float64, len(idx))
	}
	rb := e.rowsB[:len(idx)]
	for i, j := range idx {
		rb[i] = e.xt.RawRowView(j)
	}
	xr := e.xall.RawMatrix()
	var kv func(a, b []float64) float64
	k := e.k
	if Lengthscales(k) != nil {
		k = evalOnly{k} // per-column scales: pairwise Eval
	}
	switch kk := k.(type) {
	case GaussianKernel:
		c := -1 / (2 * kk.Sigma * kk.Sigma)
		kv = func(a, b []float64) float64 { return math.Exp(c * vecmath.SqDist(a, b)) }
	case distKernel:
		kv = func(a, b []float64) float64 { return kk.fromSqDist(vecmath.SqDist(a, b)) }
	case dotKernel:
		kv = func(a, b []float64) float64 { return kk.fromDot(vecmath.Dot(a, b)) }
	default:
		kv = e.k.Eval
	}
	parallel.Rows(xr.Rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := xr.Data[i*xr.Stride : i*xr.Stride+xr.Cols]
			s := 0.0
			for j, xb := range rb {
				s += delta[j] * kv(xi, xb)
			}
			p[i] += s
		}
	})
}
