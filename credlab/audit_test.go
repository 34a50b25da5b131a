package credlab

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// The 90% interval covers the pool's RMSE in about 90% of audit samples,
// for simple random samples and for unequal-probability (Poisson) samples
// weighted 1/pi, on residuals of uneven spread. With heavy tails (a tenth
// of the rows with three times the spread) it covers less: 0.77 with 100
// uniform audit rows, 0.83 with 300 (logged).
func TestEstimatePoolRMSECoverage(t *testing.T) {
	for _, heavy := range []bool{false, true} {
		coverage(t, heavy)
	}
}

func coverage(t *testing.T, heavy bool) {
	const N = 20000
	rng := rand.New(rand.NewPCG(1, 1))
	pool := make([]float64, N)
	size := make([]float64, N) // a size measure correlated with the residuals
	mse := 0.0
	for i := range pool {
		s := 0.5 + rng.Float64()
		if heavy && rng.Float64() < 0.1 {
			s *= 3 // a tenth of the rows with three times the spread
		}
		pool[i] = s * rng.NormFloat64()
		size[i] = 0.5 + s
		mse += pool[i] * pool[i] / N
	}
	truth := math.Sqrt(mse)
	for _, c := range []struct {
		name    string
		n       int
		unequal bool
	}{{"uniform 100", 100, false}, {"uniform 300", 300, false}, {"poisson 200", 200, true}} {
		cover, runs := 0, 1000
		for s := 0; s < runs; s++ {
			r := rand.New(rand.NewPCG(uint64(s), 7))
			var res, w []float64
			if c.unequal {
				tot := 0.0
				for _, v := range size {
					tot += v
				}
				for i, v := range size {
					pi := float64(c.n) * v / tot
					if r.Float64() < pi {
						res, w = append(res, pool[i]), append(w, 1/pi)
					}
				}
			} else {
				for _, i := range r.Perm(N)[:c.n] {
					res = append(res, pool[i])
				}
			}
			est, err := EstimatePoolRMSE(res, w, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			if est.Lo <= truth && truth <= est.Hi {
				cover++
			}
		}
		f := float64(cover) / float64(runs)
		t.Logf("heavy tails %v, %s: the 90%% interval covers in %.3f of samples", heavy, c.name, f)
		if !heavy && (f < 0.86 || f > 0.95) {
			t.Errorf("%s: the 90%% interval covers in %.3f of samples", c.name, f)
		}
	}
}

func TestEstimatePoolRMSE(t *testing.T) {
	est, err := EstimatePoolRMSE([]float64{1, -1, 2, -2}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	// MSE = 2.5, SE = sqrt(4/3 * (4*1.5^2)) / 4.
	if math.Abs(est.MSE-2.5) > 1e-12 || math.Abs(est.SE-math.Sqrt(4.0/3*9)/4) > 1e-12 || est.Level != 0.9 || !(est.Lo < est.RMSE && est.RMSE < est.Hi) {
		t.Errorf("%+v", est)
	}
	// Weights 1/pi: a row drawn with half the probability counts twice.
	a, _ := EstimatePoolRMSE([]float64{1, 3}, []float64{2, 1}, 0.9)
	b, _ := EstimatePoolRMSE([]float64{1, 1, 3}, nil, 0.9)
	if math.Abs(a.MSE-b.MSE) > 1e-12 {
		t.Errorf("weighted MSE %g, repeated rows %g", a.MSE, b.MSE)
	}
	var pe *ParamError
	var nf *NotFiniteError
	if _, err := EstimatePoolRMSE([]float64{1}, nil, 0.9); !errors.Is(err, ErrEmpty) {
		t.Errorf("one residual: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1, 2}, []float64{1, 0}, 0.9); !errors.As(err, &pe) {
		t.Errorf("zero weight: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1, math.NaN()}, nil, 0.9); !errors.As(err, &nf) || nf.Row != 1 {
		t.Errorf("NaN residual: %v", err)
	}
	if _, err := EstimatePoolRMSE([]float64{1, 2}, nil, 1.5); !errors.As(err, &pe) {
		t.Errorf("level 1.5: %v", err)
	}
}
