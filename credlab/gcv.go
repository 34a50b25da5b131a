package credlab

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// lambdaScore is the criterion at one lambda of a path.
type lambdaScore struct {
	lambda float64
	score  float64 // mean squared error estimate; NaN when the solve failed
	train  float64 // training RMSE
}

// scorePath evaluates crit at every lambda of grid on the reduced problem
// rp of pr, with extraDF degrees of freedom outside G (1 for the
// intercept). With mu = lambda n, n = pr.n:
//
//	GCV(lambda) = n SSE / (n - extraDF - tr H)^2,   tr H = sum_k ev_k/(ev_k+mu),
//
// SSE = pr.sse(||z||^2, z.b, mu), all O(p) per lambda. The hold-out score is
// the weighted mean squared error of pr.w z on pr.yv, O(nv p) per lambda
// once pr.w holds w Q (rp.rightQ). Leave-one-out (exact KRLS, rp built with
// vectors, G = V E V^T) uses the residual W^1/2 (y - f) = mu z of KRLS and
// 1 - H_ii = mu D_ii, D = (G + mu I)^-1, so that the left-out residual is
// z_i / D_ii with D_ii = sum_k V_ik^2 / (ev_k + mu): O(p^2) per lambda.
func (pr ridgeProblem) scorePath(rp *ridgePath, grid []float64, crit Criterion, extraDF float64) []lambdaScore {
	p := rp.p
	n := float64(pr.n)
	zh := make([]float64, p)
	out := make([]lambdaScore, len(grid))
	var vbuf, z, s, diag []float64
	var v2 blas64.General
	if crit == CriterionHoldout {
		vbuf = make([]float64, len(pr.yv))
	}
	if crit == CriterionLOO {
		z, s, diag = make([]float64, p), make([]float64, p), make([]float64, p)
		v2 = blas64.General{Rows: p, Cols: p, Stride: p, Data: make([]float64, p*p)}
		for i, v := range rp.refl {
			v2.Data[i] = v * v
		}
	}
	for i, l := range grid {
		mu := l * n
		ls := lambdaScore{lambda: l, score: math.NaN(), train: math.NaN()}
		if rp.solve(mu, zh) {
			sse := math.Max(pr.sse(dot(zh, zh), dot(zh, rp.qb), mu), 0)
			ls.train = math.Sqrt(sse / n)
			switch crit {
			case CriterionHoldout:
				blas64.Gemv(blas.NoTrans, 1, pr.w.RawMatrix(), vec(zh), 0, vec(vbuf))
				r := wrmse(vbuf, pr.yv, pr.wv)
				ls.score = r * r
			case CriterionLOO:
				blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: p, Cols: p, Stride: p, Data: rp.refl}, vec(zh), 0, vec(z))
				for k, e := range rp.ev {
					s[k] = 1 / (e + mu)
				}
				blas64.Gemv(blas.NoTrans, 1, v2, vec(s), 0, vec(diag))
				acc := 0.0
				for k, d := range diag {
					r := z[k] / d
					acc += r * r
				}
				ls.score = acc / n
			default:
				den := n - extraDF - rp.df(mu)
				if den > 0 {
					ls.score = n * sse / (den * den)
				}
			}
			if math.IsInf(ls.score, 0) {
				ls.score = math.NaN()
			}
		}
		out[i] = ls
	}
	return out
}
