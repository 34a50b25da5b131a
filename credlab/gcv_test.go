package credlab

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refScores returns GCV, LOO and hold-out scores of the ridge problem with
// fitted training values f = H b for a dense hat matrix H computed by one
// explicit inverse per lambda: GCV = n ||b - H b||^2 / (n - extra - tr H)^2,
// LOO = mean ((b - H b)_i / (1 - H_ii))^2, hold-out = mean wv (V z - yv)^2.
func refScores(t *testing.T, hat func(mu float64) (h *mat.Dense, z []float64), b []float64, vmap *mat.Dense, yv, wv []float64, mu, extra float64) (gcv, loo, hold float64) {
	n := len(b)
	h, z := hat(mu)
	f := matVec(h, b)
	sse, tr := 0.0, 0.0
	for i := range b {
		r := b[i] - f[i]
		sse += r * r
		tr += h.At(i, i)
		lr := r / (1 - h.At(i, i))
		loo += lr * lr
	}
	gcv = float64(n) * sse / math.Pow(float64(n)-extra-tr, 2)
	loo /= float64(n)
	if vmap != nil {
		p := matVec(vmap, z)
		for i := range yv {
			w := 1.0
			if wv != nil {
				w = wv[i]
			}
			hold += w * (p[i] - yv[i]) * (p[i] - yv[i])
		}
		hold /= float64(len(yv))
	}
	return gcv, loo, hold
}

func inverse(t *testing.T, a *mat.Dense) *mat.Dense {
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		t.Fatalf("reference inverse: %v", err)
	}
	return &inv
}

// TestScorePath checks the GCV, LOO and hold-out score of every lambda of
// the tridiagonal path of KRLS and NKRLS against explicit dense solves.
func TestScorePath(t *testing.T) {
	grid := []float64{1e-7, 1e-5, 1e-3, 1e-2, 0.1, 1}
	for _, tc := range []struct {
		name     string
		nystrom  int // 0: exact KRLS
		weighted bool
	}{
		{"KRLS", 0, false},
		{"KRLS weighted", 0, true},
		{"NKRLS", 25, false},
		{"NKRLS weighted", 25, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := newRNG(11)
			nt, nv := 70, 20
			xt, xv := randData(rng, nt, 2, 1.5), randData(rng, nv, 2, 1.5)
			yt, yv := smoothTargets(rng, xt, 0.2), smoothTargets(rng, xv, 0.2)
			var wt, wv []float64
			if tc.weighted {
				wt, wv = crWeights(rng, nt, 0.3, 3), crWeights(rng, nv, 0.3, 3)
			}
			ref := refGaussian(0.8)
			sq := make([]float64, nt)
			for i := range sq {
				sq[i] = 1
				if wt != nil {
					sq[i] = math.Sqrt(wt[i])
				}
			}
			b := make([]float64, nt)
			for i := range b {
				b[i] = sq[i] * yt[i]
			}
			// The problem in its own basis: KRLS G = W^1/2 K W^1/2, NKRLS
			// G = A^T A with A = W^1/2 K_nm R.
			var pr ridgeProblem
			var hat func(mu float64) (*mat.Dense, []float64)
			var vmap *mat.Dense
			kvt := refMatrix(ref, xv, xt)
			if tc.nystrom == 0 {
				g := refMatrix(ref, xt, xt)
				for i := 0; i < nt; i++ {
					for j := 0; j < nt; j++ {
						g.Set(i, j, g.At(i, j)*sq[i]*sq[j])
					}
				}
				vmap = mat.NewDense(nv, nt, nil)
				for i := 0; i < nv; i++ {
					for j := 0; j < nt; j++ {
						vmap.Set(i, j, kvt.At(i, j)*sq[j])
					}
				}
				pr = ridgeProblem{g: g, b: b, n: nt, sse: func(zz, _, mu float64) float64 { return mu * mu * zz }}
				hat = func(mu float64) (*mat.Dense, []float64) {
					inv := inverse(t, addDiag(g, mu))
					return mul(g, inv), matVec(inv, b)
				}
			} else {
				idx := []int{}
				for i := 0; i < tc.nystrom; i++ {
					idx = append(idx, i*nt/tc.nystrom)
				}
				cm := rowsOf(xt, idx)
				kmm := refMatrix(ref, cm, cm)
				// A = K_nm L^-T with K_mm = L L^T.
				var ch mat.Cholesky
				if !ch.Factorize(mat.NewSymDense(len(idx), kmm.RawMatrix().Data)) {
					t.Fatal("reference Cholesky of K_mm failed")
				}
				var l mat.TriDense
				ch.LTo(&l)
				var linv mat.TriDense
				if err := linv.InverseTri(&l); err != nil {
					t.Fatal(err)
				}
				a := mul(refMatrix(ref, xt, cm), linv.T())
				for i := 0; i < nt; i++ {
					for j := 0; j < len(idx); j++ {
						a.Set(i, j, a.At(i, j)*sq[i])
					}
				}
				vmap = mul(refMatrix(ref, xv, cm), linv.T())
				g := mul(a.T(), a)
				atb := matVec(a.T(), b)
				yy := refDot(b, b)
				pr = ridgeProblem{g: g, b: atb, n: nt, sse: func(zz, zb, mu float64) float64 { return yy - zb - mu*zz }}
				hat = func(mu float64) (*mat.Dense, []float64) {
					inv := inverse(t, addDiag(g, mu))
					return mul(a, mul(inv, a.T())), matVec(inv, atb)
				}
			}
			for _, crit := range []Criterion{CriterionGCV, CriterionHoldout, CriterionLOO} {
				if crit == CriterionLOO && tc.nystrom > 0 {
					continue
				}
				prc := pr
				rp := newRidgePath(prc.g, prc.b, crit == CriterionLOO)
				if crit == CriterionHoldout {
					prc.w, prc.yv, prc.wv = mat.DenseCopyOf(vmap), yv, wv
					rp.rightQ(prc.w)
				}
				got := prc.scorePath(rp, grid, crit, 1)
				for i, l := range grid {
					gcv, loo, hold := refScores(t, hat, b, vmap, yv, wv, l*float64(nt), 1)
					want := map[Criterion]float64{CriterionGCV: gcv, CriterionLOO: loo, CriterionHoldout: hold}[crit]
					if !relClose(got[i].score, want, 1e-6) {
						t.Errorf("%s lambda %g: score %.10g, want %.10g", crit, l, got[i].score, want)
					}
				}
			}
		})
	}
}

// TestRidgePathCoef checks the path's coefficients at each lambda against
// KRLS with that lambda fixed.
func TestRidgePathCoef(t *testing.T) {
	rng := newRNG(5)
	x := randData(rng, 50, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	k := GaussianKernel{Sigma: 0.9}
	g, _ := KernelMatrix(k, x, nil)
	for _, vectors := range []bool{false, true} {
		rp := newRidgePath(g, y, vectors)
		zh := make([]float64, 50)
		for _, l := range []float64{1e-6, 1e-3, 0.1} {
			fit, err := KRLS(t.Context(), x, y, KRLSConfig{Kernel: k, Lambda: l})
			if err != nil {
				t.Fatal(err)
			}
			if !rp.solve(l*50, zh) {
				t.Fatalf("path solve failed at %g", l)
			}
			if d := relDiff(rp.toZ(zh), fit.Model.Coef); d > 1e-8 {
				t.Errorf("vectors=%v lambda %g: coefficients differ from KRLS by %.2g", vectors, l, d)
			}
		}
	}
}
