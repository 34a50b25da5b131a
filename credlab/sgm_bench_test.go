package credlab

// Benchmarks of multi-pass SGM. Run them with
//
//	go test -run '^$' -bench 'SGMPass' -benchtime 1x ./credlab/
//
// SGM reports passes/s and kernel evaluations per second with kernel rows
// computed on the fly (CacheBytes < 0), so memory stays O(m d + 8 MiB)
// whatever m; at m = 100,000 a pass is 10^10 kernel evaluations, so the
// benchmark times a tenth of a pass. The distribution regression Gram's
// benchmark, BagGram, is in package credlab/distreg.

import (
	"context"
	"fmt"
	"math"
	"testing"
)

func BenchmarkSGMPass(b *testing.B) {
	for _, tc := range []struct {
		m, batch int
		frac     float64 // share of a pass timed
		cache    int64
	}{
		{5000, 71, 1, 0}, // cached rows (5000 x 5000 fits 256 MiB)
		{10000, 100, 1, -1},
		{10000, 1, 0.2, -1},
		{100000, 317, 0.1, -1},
	} {
		mode := "streamed"
		if tc.cache >= 0 {
			mode = "cached"
		}
		b.Run(fmt.Sprintf("%s/m=%d/b=%d", mode, tc.m, tc.batch), func(b *testing.B) {
			x, y, _ := SmoothRegression(tc.m, benchD, benchNoise, 1)
			iter := max(1, int(math.Round(tc.frac*float64(tc.m)/float64(tc.batch))))
			cfg := SGMConfig{Kernel: benchKernel(), Batch: tc.batch, Iter: iter, Every: iter, CacheBytes: tc.cache}
			b.ReportAllocs()
			b.ResetTimer()
			var kern, solve float64
			for i := 0; i < b.N; i++ {
				fit, err := SGM(context.Background(), x, y, cfg)
				if err != nil {
					b.Fatal(err)
				}
				kern += fit.Timing.Kernel.Seconds()
				solve += fit.Timing.Solve.Seconds()
			}
			passes := float64(iter*tc.batch) / float64(tc.m)
			n := float64(b.N)
			b.ReportMetric(passes*n/solve, "passes/s")
			b.ReportMetric(kern/n, "cache-fill-s/op")
			if tc.cache < 0 {
				b.ReportMetric(float64(iter*tc.batch)*float64(tc.m)*n/solve/1e6, "Mkernel/s")
			}
		})
	}
}
