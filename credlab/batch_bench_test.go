package credlab

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkBatchSelector selects a batch of 256 from pools of 8 columns
// with 256 Nyström features, after 1024 labeled rows (seeded).
func BenchmarkBatchSelector(b *testing.B) {
	for _, n := range []int{5000, 20000, 50000} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		x := mat.NewDense(n, 8, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.NormFloat64()
		}
		prev := &Selection{Index: rng.Perm(n)[:1024]}
		for _, method := range BatchMethods {
			b.Run(fmt.Sprintf("n=%d/%s", n, method), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := (BatchSelector{Method: method, Previous: prev}).Select(context.Background(), x, 256, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
