// Package sgd is the engine of mini-batch stochastic gradient descent in
// a reproducing kernel Hilbert space, the recursion (4) of Lin and Rosasco
// (multi-pass SGM) that Mücke's tail-averaged SGD for distribution
// regression runs on bags: from alpha = 0,
//
//	f_{t+1} = f_t - eta_t (1/b) sum_{i=b(t-1)+1}^{bt} (f_t(x_{j_i}) - y_{j_i}) k(x_{j_i}, .),
//
// with j_1, j_2, ... drawn uniformly from the n_t training rows with
// replacement (or every row once per step, in order) and eta_t = eta_1
// t^-theta. f_t is kept as coefficients alpha on the training rows, and
// the predictions p = K(X_all, X_t) alpha on the training rows and any
// evaluation rows after them are kept up to date, so that a path of
// training and validation errors costs no further kernel work.
//
// Package credlab's SGM and its error decomposition and package
// credlab/distreg's TailSGD share it: Engine.Run is the one loop, over
// kernel columns cached as rows (Rows) or computed on the fly by the
// caller (Columns).
package sgd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/credlab/credlab/internal/errs"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

const (
	// Stream is the PCG stream of the index draws: they are
	// rand.New(rand.NewPCG(Params.Seed, Stream)).IntN(n_t), b per step in
	// order.
	Stream = 0x73676d
	// Diverge is the divergence check: a drawn residual that is not finite
	// or exceeds Diverge max_i |y_i| stops the run.
	Diverge = 1e3
)

// Params are the resolved parameters of one run of the recursion.
type Params struct {
	Method string  // the estimator, named in a *errs.DivergedError
	B      int     // draws per step (the training rows when Full)
	Full   bool    // every training row once per step, in order
	Eta    float64 // eta_1
	Theta  float64 // eta_t = eta_1 t^-theta
	T      int     // iterations
	Seed   uint64  // seeds the draws (Stream)
}

// Step returns eta_t = eta_1 t^-theta.
func (p Params) Step(t int) float64 {
	if p.Theta == 0 {
		return p.Eta
	}
	return p.Eta * math.Pow(float64(t), -p.Theta)
}

// Passes returns b t / m, the passes over m training rows after t steps.
func (p Params) Passes(t, m int) float64 { return float64(p.B) * float64(t) / float64(m) }

// Records reports whether iteration t is recorded: every `every`
// iterations, or where a pass over m rows ends (b t crosses a multiple of
// m), and at T.
func (p Params) Records(t, m, every int) bool {
	if t == p.T {
		return true
	}
	if every > 0 {
		return t%every == 0
	}
	b := int64(p.B)
	return b*int64(t)/int64(m) > b*int64(t-1)/int64(m)
}

// diverged is the error for residual r at training row j, detected at
// iteration t.
func (p Params) diverged(t, m int, r float64, j int, limit float64) error {
	b := p.B
	if p.Full {
		b = m
	}
	return &errs.DivergedError{Method: p.Method, Iter: t, Step: p.Step(t),
		Detail: fmt.Sprintf("%.4g passes, b = %d: residual %.3g at training row %d exceeds %g max|y| = %.3g", p.Passes(t, m), b, r, j, Diverge, limit)}
}

// Columns adds kernel columns of training rows to the predictions.
type Columns interface {
	// Add sets p += sum_i delta_i K(X_all, x_{idx_i}) for the n_all rows
	// of X_all; full means idx is 0, ..., n_t-1 in order.
	Add(idx []int, delta, p []float64, full bool)
}

// Rows is the cache of kernel rows, the n_t x n_all matrix of
// K(x_j, X_all); Add costs O(b n_all).
type Rows struct{ m blas64.General }

// NewRows uses m (n_t x n_all, not copied) as the cache.
func NewRows(m *mat.Dense) Rows { return Rows{m.RawMatrix()} }

// Add sets p += sum_i delta_i K(X_all, x_{idx_i}): one matrix-vector
// product when full, else one axpy per drawn row.
func (r Rows) Add(idx []int, delta, p []float64, full bool) {
	if full {
		blas64.Gemv(blas.Trans, 1, r.m, vec(delta), 1, vec(p))
		return
	}
	for i, j := range idx {
		blas64.Axpy(delta[i], vec(r.m.Data[j*r.m.Stride:j*r.m.Stride+r.m.Cols]), vec(p))
	}
}

// Engine runs the recursion on NT training rows with labels YT, keeping
// the predictions on all NAll rows (the training rows first, then
// evaluation rows).
type Engine struct {
	NT, NAll int
	YT       []float64
	Cols     Columns
}

// NewGram returns the engine on cached kernel rows (n_t x n_all, not
// copied) and the training labels yt.
func NewGram(rows *mat.Dense, yt []float64) *Engine {
	r, c := rows.Dims()
	return &Engine{NT: r, NAll: c, YT: yt, Cols: NewRows(rows)}
}

// Run performs par.T iterations from alpha = 0, calling after(t, alpha, p)
// after each (alpha the coefficients, p the predictions on all rows; both
// owned by Run); after may stop the run. done, if not nil, is called with
// the final coefficients. A drawn residual that is not finite or exceeds
// Diverge max_i |y_i|, or any training residual after the last step, stops
// the run with a *errs.DivergedError naming the iteration. Each step costs
// O(b) plus Cols.Add; memory is O(n_t + n_all).
func (e *Engine) Run(ctx context.Context, par Params, after func(t int, alpha, p []float64) (bool, error), done func(alpha []float64)) error {
	alpha := make([]float64, e.NT)
	p := make([]float64, e.NAll)
	scale := 0.0
	for _, v := range e.YT {
		scale = math.Max(scale, math.Abs(v))
	}
	limit := Diverge * scale
	b := par.B
	if par.Full {
		b = e.NT
	}
	idx := make([]int, b)
	delta := make([]float64, b)
	if par.Full {
		for i := range idx {
			idx[i] = i
		}
	}
	rng := rand.New(rand.NewPCG(par.Seed, Stream))
	last := 0
	for t := 1; t <= par.T; t++ {
		last = t
		if err := ctx.Err(); err != nil {
			return err
		}
		if !par.Full {
			for i := range idx {
				idx[i] = rng.IntN(e.NT)
			}
		}
		c := -par.Step(t) / float64(b)
		for i, j := range idx {
			r := p[j] - e.YT[j]
			if !(math.Abs(r) <= limit) {
				return par.diverged(t, e.NT, r, j, limit)
			}
			delta[i] = c * r
		}
		for i, j := range idx {
			alpha[j] += delta[i]
		}
		e.Cols.Add(idx, delta, p, par.Full)
		stop, err := after(t, alpha, p)
		if err != nil {
			return err
		}
		if stop {
			break
		}
	}
	// The last update is checked on every training row.
	for j := 0; j < e.NT && last > 0; j++ {
		if r := p[j] - e.YT[j]; !(math.Abs(r) <= limit) {
			return par.diverged(last, e.NT, r, j, limit)
		}
	}
	if done != nil {
		done(alpha)
	}
	return nil
}

func vec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }
