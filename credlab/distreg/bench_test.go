package distreg

// The benchmark of the distribution regression Gram. Run it with
//
//	go test -run '^$' -bench 'BagGram' -benchtime 1x ./credlab/distreg/
//
// BagGram times the 1000 x 1000 Gram of bags of 100 points in 2-D, exact
// (O(n^2 N^2 d)) and with random Fourier mean embeddings (O(n N D d +
// n^2 D)), and reports the RMS difference of the Gram entries and of the
// test RMSE of two-stage KRR built on them.

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/vecmath"

	"gonum.org/v1/gonum/mat"
)

var (
	benchBagOnce  sync.Once
	benchBags     *Bags
	benchBagExact *mat.Dense
)

const benchBagSigma = 0.5

func benchBagSetup(b *testing.B) {
	benchBagOnce.Do(func() {
		benchBags, _ = NewEntropyProblem(1).Bags(1000, 100, 1)
		var err error
		benchBagExact, err = EmbeddingGram(context.Background(), credlab.GaussianKernel{Sigma: benchBagSigma}, benchBags, nil)
		if err != nil {
			b.Fatal(err)
		}
	})
}

// benchKRRFromGram fits KRR with the linear outer kernel on bags 0..699,
// picks lambda on 700..799 and returns the test RMSE on 800..999.
func benchKRRFromGram(g *mat.Dense, y []float64) float64 {
	sub := func(r0, r1, c0, c1 int) *mat.Dense { return mat.DenseCopyOf(g.Slice(r0, r1, c0, c1)) }
	ktt, kvt, kst := sub(0, 700, 0, 700), sub(700, 800, 0, 700), sub(800, 1000, 0, 700)
	bestVal := math.Inf(1)
	var bestAlpha []float64
	for _, l := range credlab.LogGrid(1e-10, 1e-1, 19) {
		work := mat.DenseCopyOf(ktt)
		alpha, ok := credlab.CholeskySolve(work, l*700, y[:700])
		if !ok {
			continue
		}
		pv := make([]float64, 100)
		for i := range pv {
			pv[i] = vecmath.Dot(kvt.RawRowView(i), alpha)
		}
		if v := credlab.RMSE(pv, y[700:800]); v < bestVal {
			bestVal, bestAlpha = v, alpha
		}
	}
	ps := make([]float64, 200)
	for i := range ps {
		ps[i] = vecmath.Dot(kst.RawRowView(i), bestAlpha)
	}
	return credlab.RMSE(ps, y[800:])
}

func BenchmarkBagGram(b *testing.B) {
	b.Run("exact/n=1000/N=100", func(b *testing.B) {
		bags, _ := NewEntropyProblem(1).Bags(1000, 100, 1)
		var g *mat.Dense
		var err error
		for i := 0; i < b.N; i++ {
			if g, err = EmbeddingGram(context.Background(), credlab.GaussianKernel{Sigma: benchBagSigma}, bags, nil); err != nil {
				b.Fatal(err)
			}
		}
		benchBagOnce.Do(func() { benchBags, benchBagExact = bags, g }) // reused below
		b.ReportMetric(1000*1001/2*1e4*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mkernel/s")
	})
	for _, D := range []int{100, 1000} {
		b.Run(fmt.Sprintf("rff/n=1000/N=100/D=%d", D), func(b *testing.B) {
			benchBagSetup(b)
			rf, err := credlab.NewRandomFourier(2, D, benchBagSigma, 7)
			if err != nil {
				b.Fatal(err)
			}
			bk := Kernel{Features: rf}
			var g *mat.Dense
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if g, err = bk.Gram(context.Background(), benchBags, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(drRMSDiff(g, benchBagExact), "gram-rmse")
			exact := benchKRRFromGram(benchBagExact, benchBags.Y)
			approx := benchKRRFromGram(g, benchBags.Y)
			b.ReportMetric(exact, "krr-test-rmse-exact")
			b.ReportMetric(approx, "krr-test-rmse-rff")
			b.ReportMetric(approx-exact, "krr-test-rmse-diff")
		})
	}
}
