package credlab_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// TestMeasureScores1M scores a 1,000,000 x 8 Gaussian pool once, by the
// method CREDLAB_SCORE1M names: "bless" (ApproxLeverageScores, Dict 400)
// or "rf" (FeatureLeverageScores with 400 random Fourier features). Run
// it in a compiled test binary under /usr/bin/time -v for the peak memory.
func TestMeasureScores1M(t *testing.T) {
	which := os.Getenv("CREDLAB_SCORE1M")
	if which == "" {
		t.Skip("set CREDLAB_SCORE1M=bless or rf")
	}
	const n, d = 1_000_000, 8
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(n, d, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	ctx := context.Background()
	k := credlab.GaussianKernel{Sigma: 3}
	t0 := time.Now()
	var s []float64
	var err error
	switch which {
	case "bless":
		s, err = credlab.ApproxLeverageScores(ctx, k, x, 1e-4, credlab.BLESSConfig{Dict: 400, Seed: 1})
	case "rf":
		rf, e := credlab.NewRandomFourier(d, 400, 3, 1)
		if e != nil {
			t.Fatal(e)
		}
		s, err = credlab.FeatureLeverageScores(ctx, rf, x, 1e-4, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	t.Logf("%s: %d rows scored in %v, d_eff %.1f", which, n, time.Since(t0), sum/n)
}
