package sgm

import (
	"math"

	"github.com/credlab/credlab/credlab"
)

// passGridLog returns the distinct values of round(maxPass^(i/(k-1))), i = 0
// ... k-1: about k integers log-spaced from 1 to maxPass, increasing.
func passGridLog(maxPass, k int) []int {
	var out []int
	for i := 0; i < k; i++ {
		v := int(math.Round(math.Pow(float64(maxPass), float64(i)/float64(max(k-1, 1)))))
		if len(out) == 0 || v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// passIters returns, for increasing numbers of passes over m rows with
// mini-batches of b, the iteration that completes each, ceil(p m / b),
// dropping a pass count whose iteration repeats the previous one; nominal
// holds the pass counts kept.
func passIters(passes []int, m, b int) (nominal, iters []int) {
	for _, p := range passes {
		it := int(math.Ceil(float64(p) * float64(m) / float64(b)))
		if len(iters) == 0 || it > iters[len(iters)-1] {
			nominal = append(nominal, p)
			iters = append(iters, it)
		}
	}
	return nominal, iters
}

// batchOf returns the mini-batch size of an SGM preset on m rows: 1 for
// SGMSimple, m for SGMBatch, ceil(sqrt(m)) for SGMMiniBatch.
func batchOf(p credlab.SGMPreset, m int) int {
	switch p {
	case credlab.SGMSimple:
		return 1
	case credlab.SGMBatch:
		return m
	}
	return int(math.Ceil(math.Sqrt(float64(m))))
}
