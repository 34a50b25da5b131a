package credbeam

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestCREDSamplePrism scores a 200,000-row pool in 16 shards on Prism and
// compares the scores with the in-memory credlab.CREDSelector, then tests
// the draws with replacement against q with chi-square tests by shard and
// by bins of q.
func TestCREDSamplePrism(t *testing.T) {
	n, d, k, budget := 200_000, 5, 16, 20_000
	if testing.Short() {
		n, budget = 20_000, 4000
	}
	dir := t.TempDir()
	p := writePool(t, dir, n, d, k, 1)
	cfg := SelectSpec{Spec: Spec{Columns: p.cols, Target: "y"}, D: 50, Sigma: 1.5, FeatureSeed: 3, LambdaQ: 1e-4, Budget: budget, Seed: 11, Design: "replacement"}

	pipe, s := beam.NewPipelineWithRoot()
	out, err := CREDSample(s, beam.CreateList(s, p.files), cfg)
	if err != nil {
		t.Fatal(err)
	}
	WriteScores(s, out.Scores, filepath.Join(dir, "scores.csv"))
	WriteSelected(s, out.Selected, filepath.Join(dir, "selected.csv"), p.cols)
	WritePlan(s, out.Plan, filepath.Join(dir, "plan.json"))
	if err := run(t, pipe); err != nil {
		t.Fatal(err)
	}

	// In memory: the same random features, the whole pool at once.
	rf, err := credlab.NewRandomFourier(d, cfg.D, cfg.Sigma, cfg.FeatureSeed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := credlab.CREDSelector{Features: rf, LambdaQ: cfg.LambdaQ}.Scores(context.Background(), p.x)
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, filepath.Join(dir, "scores.csv"))[1:]
	if len(recs) != n {
		t.Fatalf("%d scores, want %d", len(recs), n)
	}
	worst := 0.0
	for i, r := range recs {
		if r[0] != p.file[i] || r[1] != strconv.Itoa(p.line[i]-2) {
			t.Fatalf("score %d is of %s row %s, want %s row %d", i, r[0], r[1], p.file[i], p.line[i]-2)
		}
		got := mustFloat(t, r[2])
		worst = max(worst, math.Abs(got-want[i])/math.Abs(want[i]))
	}
	t.Logf("scores: max relative difference %.3g", worst)
	if worst > 1e-9 {
		t.Errorf("scores differ from the in-memory ones by %.3g relative, want <= 1e-9", worst)
	}

	q, err := credlab.CREDDistribution(want)
	if err != nil {
		t.Fatal(err)
	}
	sel := readCSV(t, filepath.Join(dir, "selected.csv"))[1:]
	if len(sel) != budget {
		t.Fatalf("%d draws, want %d", len(sel), budget)
	}
	index := map[string]int{} // file/line -> pool row
	for i := range p.file {
		index[p.file[i]+"\x00"+strconv.Itoa(p.line[i])] = i
	}
	rows := make([]int, len(sel))
	for i, r := range sel {
		j, ok := index[r[0]+"\x00"+r[1]]
		if !ok {
			t.Fatalf("draw %v is not a pool row", r[:4])
		}
		rows[i] = j
		if prob := mustFloat(t, r[4]); math.Abs(prob-q[j]) > 1e-9*q[j] {
			t.Fatalf("draw of row %d: prob %v, want q = %v", j, prob, q[j])
		}
		if w := mustFloat(t, r[5]); math.Abs(w*float64(n)*q[j]-1) > 1e-9 {
			t.Fatalf("draw of row %d: weight %v, want 1/(N q) = %v", j, w, 1/(float64(n)*q[j]))
		}
		if v := mustFloat(t, r[6]); v != p.x.At(j, 0) {
			t.Fatalf("draw of row %d: x0 = %v, want %v", j, v, p.x.At(j, 0))
		}
	}

	// Chi-square by shard.
	shardOf := map[string]int{}
	for i, f := range p.files {
		shardOf[f] = i
	}
	obs, exp := make([]float64, k), make([]float64, k)
	for i, j := range rows {
		_ = i
		obs[shardOf[p.file[j]]]++
	}
	for j := range q {
		exp[shardOf[p.file[j]]] += float64(budget) * q[j]
	}
	chiSquare(t, "by shard", obs, exp)

	// Chi-square by 20 bins of q, of equal probability mass.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return q[order[a]] < q[order[b]] })
	bins := 20
	bin := make([]int, n)
	obs, exp = make([]float64, bins), make([]float64, bins)
	cum := 0.0
	for _, j := range order {
		b := min(int(cum*float64(bins)), bins-1)
		bin[j] = b
		exp[b] += float64(budget) * q[j]
		cum += q[j]
	}
	for _, j := range rows {
		obs[bin[j]]++
	}
	chiSquare(t, "by bins of q", obs, exp)

	if _, err := os.Stat(filepath.Join(dir, "plan.json")); err != nil {
		t.Error(err)
	}
}

// chiSquare fails t when the counts obs are unlikely (p < 0.001) under
// the expected counts exp.
func chiSquare(t *testing.T, what string, obs, exp []float64) {
	t.Helper()
	stat := 0.0
	for i := range obs {
		stat += (obs[i] - exp[i]) * (obs[i] - exp[i]) / exp[i]
	}
	pv := distuv.ChiSquared{K: float64(len(obs) - 1)}.Survival(stat)
	t.Logf("chi-square %s: %.2f on %d degrees of freedom, p = %.3g", what, stat, len(obs)-1, pv)
	if pv < 1e-3 {
		t.Errorf("chi-square %s: %.2f on %d degrees of freedom, p = %.3g: the draw does not follow q", what, stat, len(obs)-1, pv)
	}
}

// TestCREDSampleWithoutPrism draws the default design on Prism: exactly
// Budget distinct rows, each shard's count its share of the budget
// rounded, each row's probability the inclusion probability of its
// shard's sample (within one row's rounding of the whole pool's, as
// credlab select draws) and its weight Budget/(N pi).
func TestCREDSampleWithoutPrism(t *testing.T) {
	n, d, k, budget := 20_000, 3, 8, 3000
	dir := t.TempDir()
	p := writePool(t, dir, n, d, k, 4)
	cfg := SelectSpec{Spec: Spec{Columns: p.cols, Target: "y"}, D: 40, Sigma: 1.2, FeatureSeed: 5, LambdaQ: 1e-4, Budget: budget, Seed: 6}
	pipe, s := beam.NewPipelineWithRoot()
	out, err := CREDSample(s, beam.CreateList(s, p.files), cfg)
	if err != nil {
		t.Fatal(err)
	}
	WriteSelected(s, out.Selected, filepath.Join(dir, "selected.csv"), p.cols)
	WritePlan(s, out.Plan, filepath.Join(dir, "plan.json"))
	if err := run(t, pipe); err != nil {
		t.Fatal(err)
	}
	rf, err := credlab.NewRandomFourier(d, cfg.D, cfg.Sigma, cfg.FeatureSeed)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := credlab.CREDSelector{Features: rf, LambdaQ: cfg.LambdaQ}.Scores(context.Background(), p.x)
	if err != nil {
		t.Fatal(err)
	}
	q, err := credlab.CREDDistribution(scores)
	if err != nil {
		t.Fatal(err)
	}
	global, err := credlab.InclusionProbabilities(q, budget)
	if err != nil {
		t.Fatal(err)
	}
	var plan Plan
	b, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatal(err)
	}
	// Each shard's pi from its count, in memory.
	pi := make([]float64, n)
	shardRows := map[string][]int{}
	for i, f := range p.file {
		shardRows[f] = append(shardRows[f], i)
	}
	for kk, f := range plan.Files {
		rows := shardRows[f]
		share := 0.0
		for _, j := range rows {
			share += global[j]
		}
		if math.Abs(plan.Shares[kk]-share) > 1e-9*share || math.Abs(float64(plan.Counts[kk])-share) >= 1 {
			t.Errorf("shard %s: %d rows for a share of %.2f, the sum of its pi %.2f", f, plan.Counts[kk], plan.Shares[kk], share)
		}
		qk := make([]float64, len(rows))
		for i, j := range rows {
			qk[i] = q[j] / plan.Mass[kk]
		}
		pk, err := credlab.InclusionProbabilities(qk, plan.Counts[kk])
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range rows {
			pi[j] = pk[i]
		}
		if r := pk[0] / global[rows[0]]; math.Abs(r-1) > 1/(share-1) {
			t.Errorf("shard %s: pi %v against the whole pool's %v", f, pk[0], global[rows[0]])
		}
	}
	index := map[string]int{}
	for i := range p.file {
		index[p.file[i]+"\x00"+strconv.Itoa(p.line[i])] = i
	}
	sel := readCSV(t, filepath.Join(dir, "selected.csv"))[1:]
	if len(sel) != budget {
		t.Fatalf("%d rows, want %d", len(sel), budget)
	}
	seen := map[int]bool{}
	for _, r := range sel {
		j, ok := index[r[0]+"\x00"+r[1]]
		if !ok || seen[j] {
			t.Fatalf("row %v: not a pool row, or chosen twice", r[:4])
		}
		seen[j] = true
		if prob := mustFloat(t, r[4]); math.Abs(prob-pi[j]) > 1e-9*pi[j] {
			t.Fatalf("row %d: prob %v, want pi = %v", j, prob, pi[j])
		}
		if w := mustFloat(t, r[5]); math.Abs(w*float64(n)*pi[j]/float64(budget)-1) > 1e-9 {
			t.Fatalf("row %d: weight %v, want Budget/(N pi) = %v", j, w, float64(budget)/(float64(n)*pi[j]))
		}
	}
}

// TestCREDNystromPrism scores a pool with Nyström features (M centers of
// smallest hash) on Prism and compares with credlab.CREDSelector on the
// same Nyström map in memory.
func TestCREDNystromPrism(t *testing.T) {
	n, d, k, m := 30_000, 4, 8, 60
	dir := t.TempDir()
	p := writePool(t, dir, n, d, k, 3)
	cfg := SelectSpec{Spec: Spec{Columns: p.cols, Target: "y"}, Map: "nystrom", M: m, Sigma: 1.1, FeatureSeed: 8, LambdaQ: 1e-5, Budget: 500, Seed: 2}
	pipe, s := beam.NewPipelineWithRoot()
	out, err := CREDSample(s, beam.CreateList(s, p.files), cfg)
	if err != nil {
		t.Fatal(err)
	}
	WriteScores(s, out.Scores, filepath.Join(dir, "scores.csv"))
	WriteSelected(s, out.Selected, filepath.Join(dir, "selected.csv"), p.cols)
	if err := run(t, pipe); err != nil {
		t.Fatal(err)
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	h := func(i int) uint64 { return RowHash(cfg.FeatureSeed, PurposeCenter, p.file[i], p.line[i]) }
	sort.Slice(rows, func(a, b int) bool { return h(rows[a]) < h(rows[b]) })
	ny, err := credlab.NewNystrom(credlab.GaussianKernel{Sigma: cfg.Sigma}, p.x, rows[:m], 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := credlab.CREDSelector{Features: ny, LambdaQ: cfg.LambdaQ}.Scores(context.Background(), p.x)
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, filepath.Join(dir, "scores.csv"))[1:]
	if len(recs) != n {
		t.Fatalf("%d scores, want %d", len(recs), n)
	}
	worst := 0.0
	for i, r := range recs {
		worst = max(worst, math.Abs(mustFloat(t, r[2])-want[i])/math.Abs(want[i]))
	}
	t.Logf("Nyström scores: max relative difference %.3g", worst)
	if worst > 1e-9 {
		t.Errorf("Nyström scores differ from the in-memory ones by %.3g relative, want <= 1e-9", worst)
	}
	if sel := readCSV(t, filepath.Join(dir, "selected.csv"))[1:]; len(sel) != cfg.Budget {
		t.Errorf("%d draws, want %d", len(sel), cfg.Budget)
	}
}
