package papers

import (
	"math"
	"testing"
)

// The opt-in methods of the labeling benchmark: CRED with distinct labels
// (batches without replacement) and GSx report a finite RMSE per budget and
// noise level that grows with the noise on the linear task.
func TestLabelingBenchmarkBudgetMethods(t *testing.T) {
	pool, test := benchPool(400, 100)
	df, err := LabelingBenchmark(pool, test, BenchmarkSpec{Ns: []int{20, 40}, NoiseVars: []float64{1e-4, 1},
		Methods: []string{"CRED", "cred-distinct", "gsx"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 3*2*2 {
		t.Fatalf("%d rows, want 12", df.Nrow())
	}
	type key struct {
		m     string
		n     float64
		noise float64
	}
	rmse := map[key]float64{}
	method, n, noise, v := df.Col("method").Records(), df.Col("n").Float(), df.Col("noise_var").Float(), df.Col("test_rmse").Float()
	for i := range v {
		if math.IsNaN(v[i]) || v[i] < 0 {
			t.Fatalf("%s n=%v noise %v: RMSE %v", method[i], n[i], noise[i], v[i])
		}
		rmse[key{method[i], n[i], noise[i]}] = v[i]
	}
	for _, m := range []string{BenchCREDDistinct, BenchGSx} {
		for _, nn := range []float64{20, 40} {
			lo, hi := rmse[key{m, nn, 1e-4}], rmse[key{m, nn, 1}]
			if !(lo > 0 && lo < hi) {
				t.Errorf("%s n=%v: RMSE %v at noise 1e-4, %v at noise 1", m, nn, lo, hi)
			}
		}
	}
}
