package cred

import (
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
)

// The opt-in methods of the labeling benchmark: CRED with distinct labels
// (batches without replacement), the paper's draws until n distinct labels,
// and GSx report a finite RMSE per budget and
// noise level that grows with the noise on the linear task.
func TestLabelingBenchmarkBudgetMethods(t *testing.T) {
	pool, test := benchPool(400, 100)
	df, err := LabelingBenchmark(pool, test, BenchmarkSpec{Ns: []int{20, 40}, NoiseVars: []float64{1e-4, 1},
		Methods: []string{"CRED", "cred-distinct", "cred-draws", "gsx"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 4*2*2 {
		t.Fatalf("%d rows, want 16", df.Nrow())
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
	for _, m := range []string{BenchCREDDistinct, BenchCREDDraws, BenchGSx} {
		for _, nn := range []float64{20, 40} {
			lo, hi := rmse[key{m, nn, 1e-4}], rmse[key{m, nn, 1}]
			if !(lo > 0 && lo < hi) {
				t.Errorf("%s n=%v: RMSE %v at noise 1e-4, %v at noise 1", m, nn, lo, hi)
			}
		}
	}
}

// CRED-draws at a budget of n distinct labels is the fit on the paper's
// draws up to the n-th distinct row: its count weights give the same
// weighted sums as those draws with weights 1/(N q), and the rows of each
// budget extend the last.
func TestDistinctDraws(t *testing.T) {
	const N = 60
	q := make([]float64, N)
	f := make([]float64, N)
	s := 0.0
	for j := range q {
		q[j] = 1 + float64(j%7)*float64(j%7)
		f[j] = math.Cos(float64(j))
		s += q[j]
	}
	for j := range q {
		q[j] /= s
	}
	ns := []int{5, 20, 45}
	lab, err := distinctDraws(q, ns, 9)
	if err != nil {
		t.Fatal(err)
	}
	all, err := credlab.DrawSelection(q, 64*N, 9)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range ns {
		seen, b := map[int]bool{}, 0
		for len(seen) < n {
			seen[all.Index[b]] = true
			b++
		}
		want := 0.0
		for _, j := range all.Index[:b] {
			want += f[j] / (N * q[j])
		}
		want /= float64(b)
		got := 0.0
		for i, j := range lab.Idx[:n] {
			if !seen[j] {
				t.Fatalf("n = %d: row %d was not drawn in the first %d draws", n, j, b)
			}
			got += lab.Wn[k][i] * f[j]
		}
		got /= float64(n)
		if len(lab.Wn[k]) != n || math.Abs(got-want) > 1e-12 {
			t.Errorf("n = %d (%d draws): weighted mean %v over %d weights, want %v", n, b, got, len(lab.Wn[k]), want)
		}
	}
	if _, err := distinctDraws(q, []int{N + 1}, 9); err == nil {
		t.Error("a budget above the pool's rows: no error")
	}
}
