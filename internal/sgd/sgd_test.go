package sgd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/credlab/credlab/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// gram returns a seeded n x nall matrix of Gaussian kernel values between
// n training points and nall points, the training points first, and the
// training labels.
func gram(n, nall int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	x := make([]float64, nall)
	for i := range x {
		x[i] = rng.Float64()
	}
	k := mat.NewDense(n, nall, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < nall; j++ {
			k.Set(i, j, math.Exp(-(x[i]-x[j])*(x[i]-x[j])/0.5))
		}
	}
	y := make([]float64, n)
	for i := range y {
		y[i] = math.Sin(3*x[i]) + 0.1*rng.NormFloat64()
	}
	return k, y
}

// TestRunMatchesHandLoop checks Run against the recursion written out,
// with the draws documented for Stream, a decaying step, every row per
// step, and a run stopped by after.
func TestRunMatchesHandLoop(t *testing.T) {
	const n, nall = 30, 42
	k, y := gram(n, nall, 1)
	for _, par := range []Params{
		{Method: "test", B: 4, Eta: 0.5, T: 25, Seed: 3},
		{Method: "test", B: 1, Eta: 0.8, Theta: 0.4, T: 60, Seed: 4},
		{Method: "test", B: n, Full: true, Eta: 0.5, T: 20},
	} {
		rng := rand.New(rand.NewPCG(par.Seed, Stream))
		alpha := make([]float64, n)
		var want [][]float64
		for it := 1; it <= par.T; it++ {
			idx := make([]int, par.B)
			for i := range idx {
				if par.Full {
					idx[i] = i
				} else {
					idx[i] = rng.IntN(n)
				}
			}
			f := make([]float64, nall)
			for i := 0; i < n; i++ {
				for j := 0; j < nall; j++ {
					f[j] += alpha[i] * k.At(i, j)
				}
			}
			delta := make([]float64, par.B)
			for i, j := range idx {
				delta[i] = -par.Step(it) / float64(par.B) * (f[j] - y[j])
			}
			for i, j := range idx {
				alpha[j] += delta[i]
			}
			want = append(want, append([]float64(nil), alpha...))
		}
		stop := par.T - 5
		var got [][]float64
		var final []float64
		err := NewGram(k, y).Run(context.Background(), par, func(it int, a, p []float64) (bool, error) {
			got = append(got, append([]float64(nil), a...))
			for j := 0; j < nall; j++ { // p = K^T alpha on all rows
				s := 0.0
				for i := 0; i < n; i++ {
					s += a[i] * k.At(i, j)
				}
				if math.Abs(p[j]-s) > 1e-12 {
					t.Fatalf("iteration %d: prediction %d = %g, want %g", it, j, p[j], s)
				}
			}
			return it == stop, nil
		}, func(a []float64) { final = append([]float64(nil), a...) })
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != stop {
			t.Fatalf("ran %d iterations, want %d (stopped by after)", len(got), stop)
		}
		for it := range got {
			for i := range got[it] {
				if math.Abs(got[it][i]-want[it][i]) > 1e-12 {
					t.Fatalf("%+v: iteration %d, alpha_%d = %g, want %g", par, it+1, i, got[it][i], want[it][i])
				}
			}
		}
		for i := range final {
			if final[i] != got[stop-1][i] {
				t.Fatal("done got coefficients other than the last iteration's")
			}
		}
	}
}

// TestRunDiverges checks the divergence error: the method, the iteration
// and the step.
func TestRunDiverges(t *testing.T) {
	k, y := gram(20, 20, 2)
	err := NewGram(k, y).Run(context.Background(), Params{Method: "test", B: 2, Eta: 500, T: 100, Seed: 1},
		func(int, []float64, []float64) (bool, error) { return false, nil }, nil)
	var de *errs.DivergedError
	if !errors.As(err, &de) || de.Method != "test" || de.Iter < 1 || de.Iter > 100 || de.Step != 500 {
		t.Fatalf("got %v (%T), want a *DivergedError of test with its iteration", err, err)
	}
}

func TestRecords(t *testing.T) {
	p := Params{B: 3, T: 10}
	var got []int
	for it := 1; it <= p.T; it++ {
		if p.Records(it, 7, 0) {
			got = append(got, it)
		}
	}
	// Passes over 7 rows end where b t crosses 7, 14, 21, 28 (t = 3, 5, 7,
	// 10), and T = 10 is recorded.
	want := []int{3, 5, 7, 10}
	if len(got) != len(want) {
		t.Fatalf("recorded %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("recorded %v, want %v", got, want)
		}
	}
	if !p.Records(4, 7, 2) || p.Records(5, 7, 2) || p.Passes(7, 7) != 3 {
		t.Error("every 2: 4 recorded, 5 not; passes b t / m")
	}
}
