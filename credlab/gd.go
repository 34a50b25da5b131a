package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"math/rand/v2"
	"time"

	lapackgo "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// IterConfig holds the settings shared by the gradient-descent methods,
// EarlyStopping and NYTRO.
type IterConfig struct {
	// StepSize is gamma; default 0.95/s, where s estimates the norm of the
	// step's operator (||W^1/2 K W^1/2||/n for EarlyStopping, ||A^T W A||/n
	// for NYTRO and LinearGD) by 30 Lanczos steps: the largest step whose
	// spectral filter is monotone in every direction, which the nu-method
	// needs (plain descent converges up to 2/s but overshoots and oscillates
	// above 1/s), less a 5% margin for the estimate. It costs about 30
	// gradient steps once. The NYTRO paper's rule, 1/max_i w_i k(x_i, x_i)
	// (the papers' experiments set it here), is smaller by the factor
	// n max k / ||K||, often by orders of magnitude. A user step is checked
	// against the same estimate and refused if it would diverge.
	StepSize float64
	// Iter, when positive, runs exactly Iter steps on all rows, with no
	// validation.
	Iter int
	// MaxIter bounds the steps of a hold-out run; default 500.
	MaxIter int
	// Threshold is the stopping rule: a hold-out run stops once the
	// validation RMSE exceeds (1 + Threshold) times its best value; the best
	// iterate is returned. Default 0.05; negative runs all MaxIter steps.
	// When the best iterate is among the last 5% of the steps allowed,
	// Fit.AtCap is set: the validation error was still falling, and MaxIter
	// should be raised.
	Threshold float64
	Holdout   Holdout
	// Plain runs plain gradient descent (Landweber iteration, the papers'
	// algorithm) instead of the default nu-method (Brakhage; Engl, Hanke
	// and Neubauer 1996, section 6.3) with nu = 1: a spectral filter of the
	// same early-stopping family whose iterate t regularizes like about t^2
	// plain steps, so the path reaches small effective lambdas in far fewer
	// iterations. The nu-method requires gamma ||K||/n <= 1, which the
	// default step satisfies.
	Plain bool
	// Keep lists iterations whose coefficients are returned in
	// Fit.Iterates.
	Keep []int
	// Progress, if not nil, is called after each step with (done, MaxIter).
	Progress func(done, total int)
}

func (c IterConfig) check() error {
	if c.StepSize < 0 || math.IsNaN(c.StepSize) || math.IsInf(c.StepSize, 0) {
		return checkPositive("step size", c.StepSize)
	}
	if c.Iter < 0 {
		return &ParamError{Name: "IterConfig.Iter", Value: c.Iter, Want: "a positive number of iterations (or zero to select it by hold-out)"}
	}
	if c.MaxIter < 0 {
		return &ParamError{Name: "IterConfig.MaxIter", Value: c.MaxIter, Want: "a positive number of iterations (or zero for 500)"}
	}
	if math.IsNaN(c.Threshold) {
		return &ParamError{Name: "IterConfig.Threshold", Value: c.Threshold, Want: "a number (zero for 0.05, negative to run every step)"}
	}
	return nil
}

func (c IterConfig) holdout() Holdout {
	if c.Iter > 0 {
		return Holdout{None: true}
	}
	return c.Holdout
}

func (c IterConfig) steps() int {
	switch {
	case c.Iter > 0:
		return c.Iter
	case c.MaxIter > 0:
		return c.MaxIter
	}
	return 500
}

func (c IterConfig) threshold() float64 {
	if c.Threshold == 0 {
		return 0.05
	}
	return c.Threshold
}

// gdStepper is one gradient-descent method.
type gdStepper interface {
	// step adds scale times one gradient step, taken at the current state,
	// to every state vector.
	step(scale float64)
	// state returns the live vectors that are linear in the parameters, the
	// parameters first; the nu-method extrapolates them all.
	state() [][]float64
	// rmse returns the (weighted) training and validation RMSE of the
	// current state; validation is NaN without a validation set.
	rmse() (train, val float64)
	coef() []float64 // model coefficients (a copy)
}

// predictions are the stacked predictions pv = [training; validation] of
// a gradient-descent state, which the pv-based steppers update in place.
type predictions struct {
	pv, r          []float64
	yt, yv, wt, wv []float64
}

func newPredictions(yt, yv, wt, wv []float64) predictions {
	return predictions{pv: make([]float64, len(yt)+len(yv)), r: make([]float64, len(yt)),
		yt: yt, yv: yv, wt: wt, wv: wv}
}

// residual returns r = W (p - y) on the training rows.
func (p *predictions) residual() []float64 {
	for i, y := range p.yt {
		p.r[i] = p.pv[i] - y
	}
	for i, w := range p.wt {
		p.r[i] *= w
	}
	return p.r
}

func (p *predictions) rmse() (train, val float64) {
	nt := len(p.yt)
	val = math.NaN()
	if len(p.yv) > 0 {
		val = wrmse(p.pv[nt:], p.yv, p.wv)
	}
	return wrmse(p.pv[:nt], p.yt, p.wt), val
}

// nuMethod returns the nu-method's momentum mu_t and step weight omega_t
// for nu = 1 (Engl, Hanke and Neubauer, eq. 6.24).
func nuMethod(t int) (mu, omega float64) {
	const nu = 1.0
	if t == 1 {
		return 0, (4*nu + 2) / (4*nu + 1)
	}
	k := float64(t)
	mu = (k - 1) * (2*k - 3) * (2*k + 2*nu - 1) / ((k + 2*nu - 1) * (2*k + 4*nu - 1) * (2*k + 2*nu - 3))
	omega = 4 * (2*k + 2*nu - 1) * (k + nu - 1) / ((k + 2*nu - 1) * (2*k + 4*nu - 1))
	return mu, omega
}

// runGD runs the steps, records the path and applies the stopping rule.
func runGD(ctx context.Context, st gdStepper, cfg IterConfig, fit *Fit) error {
	r0, v0 := st.rmse()
	validate := !math.IsNaN(v0) // a validation set exists
	T := cfg.steps()
	thr := cfg.threshold()
	keep := map[int]bool{}
	for _, k := range cfg.Keep {
		keep[k] = true
	}
	fit.ValRMSE = math.Inf(1)
	var prev, cur [][]float64 // nu-method state
	if !cfg.Plain {
		for _, v := range st.state() {
			prev, cur = append(prev, make([]float64, len(v))), append(cur, make([]float64, len(v)))
		}
	}
	t0 := time.Now()
	for t := 1; t <= T; t++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !cfg.Plain {
			// x_t = x_{t-1} + mu_t (x_{t-1} - x_{t-2}) + omega_t step(x_{t-1}),
			// for the parameters and, by linearity, the other state vectors.
			mu, omega := nuMethod(t)
			state := st.state()
			for k, v := range state {
				copy(cur[k], v)
			}
			st.step(omega)
			for k, v := range state {
				for i := range v {
					v[i] += mu * (cur[k][i] - prev[k][i])
				}
			}
			prev, cur = cur, prev
		} else {
			st.step(1)
		}
		pt := PathPoint{Iter: t}
		pt.TrainRMSE, pt.ValRMSE = st.rmse()
		if math.IsNaN(pt.TrainRMSE) || math.IsInf(pt.TrainRMSE, 0) || pt.TrainRMSE > 1e3*math.Max(r0, 1e-300) {
			return &DivergedError{Method: fit.Method, Iter: t,
				Detail: fmt.Sprintf("training RMSE %g from %g at the start", pt.TrainRMSE, r0)}
		}
		fit.Path = append(fit.Path, pt)
		if keep[t] {
			if fit.Iterates == nil {
				fit.Iterates = map[int][]float64{}
			}
			fit.Iterates[t] = st.coef()
		}
		if cfg.Progress != nil {
			cfg.Progress(t, T)
		}
		if !validate {
			continue
		}
		if pt.ValRMSE < fit.ValRMSE {
			fit.ValRMSE, fit.Iter = pt.ValRMSE, t
			fit.Model.Coef = st.coef()
		} else if thr >= 0 && pt.ValRMSE > (1+thr)*fit.ValRMSE {
			break
		}
	}
	if !validate {
		fit.ValRMSE, fit.Iter = math.NaN(), T
		fit.Model.Coef = st.coef()
	}
	fit.AtCap = validate && float64(fit.Iter) >= atCapFrac*float64(T)
	fit.Timing.Solve = time.Since(t0)
	return nil
}

// atCapFrac: Fit.AtCap is set when the best iterate lies in the last 5%
// of the steps allowed (the nu-method's validation error wiggles, so the
// very last step need not be the best while the error still falls).
const atCapFrac = 0.95

// lanczosSteps is the number of Lanczos steps of operatorNorm.
const lanczosSteps = 30

// operatorNorm estimates the largest eigenvalue of a symmetric positive
// semi-definite operator of order n by min(n, 30) Lanczos steps with full
// reorthogonalization from a fixed pseudo-random start: the largest
// eigenvalue of the Lanczos tridiagonal matrix, which never exceeds the
// true value and converges far faster than power iteration (its error
// falls like exp(-4 k sqrt(gap)) in k steps). Cost: min(n, 30) products
// with the operator and O(30^2 n) more.
func operatorNorm(n int, apply func(dst, src []float64)) float64 {
	k := min(n, lanczosSteps)
	if k == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([][]float64, 0, k)
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	nv := math.Sqrt(vecmath.Dot(v, v))
	var alpha, beta []float64
	for j := 0; j < k; j++ {
		for i := range v {
			v[i] /= nv
		}
		q = append(q, v)
		w := make([]float64, n)
		apply(w, v)
		alpha = append(alpha, vecmath.Dot(w, v))
		for pass := 0; pass < 2; pass++ { // full reorthogonalization, twice
			for _, u := range q {
				c := vecmath.Dot(w, u)
				for i := range w {
					w[i] -= c * u[i]
				}
			}
		}
		nv = math.Sqrt(vecmath.Dot(w, w))
		if j == k-1 || !(nv > 1e-12*math.Abs(alpha[0])) {
			break // an invariant subspace: the Ritz values are exact
		}
		beta = append(beta, nv)
		v = w
	}
	d := alpha
	e := beta
	if !(lapackgo.Implementation{}).Dsterf(len(d), d, e) {
		return math.NaN()
	}
	return d[len(d)-1]
}

// checkStep refuses a user step size gamma with gamma * lmax / n >= 2,
// for which gradient descent diverges, or > 1 for the nu-method.
func checkStep(method string, gamma, lmax float64, n int, plain bool) error {
	limit, what := 1.0, "at most 1 for the nu-method (or set Plain for plain gradient descent, stable below 2)"
	if plain {
		limit, what = 2, "below 2"
	}
	if g := gamma * lmax / float64(n); g >= limit && !(!plain && g <= 1) {
		return &DivergedError{Method: method, Step: gamma, MaxStable: limit * float64(n) / lmax,
			Detail: fmt.Sprintf("gamma * ||K||/n = %.3g must be %s", g, what)}
	}
	return nil
}

// stepMargin is the default step as a fraction of 1/s, s the estimated
// norm of the step's operator: a 5% margin for the estimate.
const stepMargin = 0.95

// defaultStep returns the step gamma: the user's, checked against the
// norm lmax of the operator (n rows), or stepMargin n / lmax.
func (c IterConfig) defaultStep(method string, lmax float64, n int) (float64, error) {
	if c.StepSize > 0 {
		return c.StepSize, checkStep(method, c.StepSize, lmax, n, c.Plain)
	}
	if !(lmax > 0) || math.IsInf(lmax, 0) {
		return 0, &DegenerateError{Method: method, What: fmt.Sprintf("the norm of the step's operator is %v (every kernel value or feature vector zero?); the default step size needs a nonzero, finite operator", lmax)}
	}
	return stepMargin * float64(n) / lmax, nil
}

// maxKernelDiag returns max_i w_i k(x_i, x_i); w nil means 1.
func maxKernelDiag(k Kernel, x *mat.Dense, w []float64) float64 {
	raw := x.RawMatrix()
	m := 0.0
	for i := 0; i < raw.Rows; i++ {
		r := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		v := k.Eval(r, r)
		if w != nil {
			v *= w[i]
		}
		m = math.Max(m, v)
	}
	return m
}
