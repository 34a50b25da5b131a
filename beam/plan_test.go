package credbeam

import (
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
)

// masses returns the ShardMass of each shard's scores for a plan of
// budget rows, as CREDSample's stages make them.
func masses(scores map[string][]float64, budget int, replacement bool) []ShardMass {
	var sc []ShardScores
	var all Masses
	for file, s := range scores {
		sum := 0.0
		for _, v := range s {
			sum += v
		}
		sc = append(sc, ShardScores{File: file, Scores: s, Sum: sum})
		all.Shards = append(all.Shards, toMass(sc[len(sc)-1]))
	}
	if replacement {
		return all.Shards
	}
	var out []ShardMass
	f := topFn{Budget: budget}
	for _, s := range sc {
		out = append(out, f.ProcessElement(s, func(m *Masses) bool { *m = all; return true }))
	}
	return out
}

// TestPlanDeterministic checks that the plan and the per-shard draws
// depend on the seed only, not on the order shards arrive in, and that
// the counts add up to the budget, with and without replacement.
func TestPlanDeterministic(t *testing.T) {
	scores := map[string][]float64{"c": {0.1, 0.5, 0.2, 0.3, 0.9}, "a": {0.4, 0.3, 0.3}, "b": {0.1, 0.2, 0.1, 0.1}}
	for _, repl := range []bool{true, false} {
		sh := masses(scores, 8, repl)
		p1, err := NewPlan(sh, 8, repl, 42)
		if err != nil {
			t.Fatal(err)
		}
		p2, _ := NewPlan([]ShardMass{sh[2], sh[0], sh[1]}, 8, repl, 42)
		total := 0
		for k := range p1.Counts {
			if p1.Counts[k] != p2.Counts[k] || p1.Files[k] != p2.Files[k] {
				t.Fatalf("replacement %v: plans differ with the shards' order: %v vs %v", repl, p1, p2)
			}
			total += p1.Counts[k]
		}
		if total != 8 {
			t.Fatalf("replacement %v: counts %v add to %d, want 8", repl, p1.Counts, total)
		}
		mass := 0.0
		for _, m := range p1.Mass {
			mass += m
		}
		if mass < 1-1e-12 || mass > 1+1e-12 {
			t.Fatalf("masses %v add to %v, want 1", p1.Mass, mass)
		}
		k := 2 // "c"
		r1, prob, weight, err := DrawShard(scores["c"], *p1, k, 7)
		if err != nil {
			t.Fatal(err)
		}
		r2, _, _, _ := DrawShard(scores["c"], *p1, k, 7)
		if len(r1) != p1.Counts[k] || len(prob) != len(r1) || len(weight) != len(r1) {
			t.Fatalf("replacement %v: %d draws, %d probabilities and %d weights, want %d", repl, len(r1), len(prob), len(weight), p1.Counts[k])
		}
		for i := range r1 {
			if r1[i] != r2[i] {
				t.Fatal("DrawShard is not deterministic")
			}
		}
	}
}

// TestPlanWithout checks the plan without replacement against the whole
// pool's inclusion probabilities (credlab.InclusionProbabilities): each
// shard's share is the sum of its rows' pi, also where some rows' pi is
// capped at 1; each count is the share rounded down or up, its mean over
// seeds the share; and the draw: distinct rows with the inclusion
// probabilities of the shard's sample and weights Budget/(N pi).
func TestPlanWithout(t *testing.T) {
	scores := map[string][]float64{}
	files := []string{"a", "b", "c", "d"}
	var all []float64
	var shardOf []int
	for k, f := range files {
		for j := range 10 + 15*k {
			v := 0.01 * float64(1+(j*7+k)%13)
			if f == "b" && j < 4 {
				v = 3 // rows whose pi is capped at 1 at the budgets below
			}
			scores[f] = append(scores[f], v)
			all = append(all, v)
			shardOf = append(shardOf, k)
		}
	}
	q, err := credlab.CREDDistribution(all)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{5, 37, 100} {
		pi, err := credlab.InclusionProbabilities(q, budget)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, len(files))
		for j, k := range shardOf {
			want[k] += pi[j]
		}
		sh := masses(scores, budget, false)
		const seeds = 2000
		mean := make([]float64, len(files))
		for seed := range uint64(seeds) {
			p, err := NewPlan(sh, budget, false, seed)
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for k, c := range p.Counts {
				if math.Abs(p.Shares[k]-want[k]) > 1e-9*float64(budget) {
					t.Fatalf("budget %d: shard %s's share %v, the sum of its pi %v", budget, files[k], p.Shares[k], want[k])
				}
				if c != int(math.Floor(want[k]+1e-9)) && c != int(math.Ceil(want[k]-1e-9)) {
					t.Fatalf("budget %d, seed %d: shard %s has %d rows, its share %.3f", budget, seed, files[k], c, want[k])
				}
				mean[k] += float64(c) / seeds
				total += c
			}
			if total != budget {
				t.Fatalf("budget %d, seed %d: counts %v add to %d", budget, seed, p.Counts, total)
			}
		}
		for k := range mean {
			if math.Abs(mean[k]-want[k]) > 0.04 {
				t.Errorf("budget %d: shard %s's mean count %.3f over %d seeds, its share %.3f", budget, files[k], mean[k], seeds, want[k])
			}
		}
		p, _ := NewPlan(sh, budget, false, 3)
		const k = 1 // "b"
		rows, prob, weight, err := DrawShard(scores["b"], *p, k, 5)
		if err != nil {
			t.Fatal(err)
		}
		qk := make([]float64, len(scores["b"]))
		for j, v := range scores["b"] {
			qk[j] = (v + p.S/float64(p.N)) / (2 * p.S) / p.Mass[k]
		}
		pk, err := credlab.InclusionProbabilities(qk, p.Counts[k])
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for i, j := range rows {
			if seen[j] {
				t.Fatalf("budget %d: row %d drawn twice", budget, j)
			}
			seen[j] = true
			if math.Abs(prob[i]-pk[j]) > 1e-12 || math.Abs(weight[i]*float64(p.N)*pk[j]-float64(budget)) > 1e-9 {
				t.Fatalf("budget %d: row %d: prob %v, weight %v; want pi %v, weight %v", budget, j, prob[i], weight[i], pk[j], float64(budget)/(float64(p.N)*pk[j]))
			}
		}
		if len(rows) != p.Counts[k] {
			t.Fatalf("budget %d: %d rows, want %d", budget, len(rows), p.Counts[k])
		}
		if budget == 100 && (pk[0] != 1 || !seen[0]) {
			t.Errorf("budget 100: the first row of b, pi %v in the whole pool, has %v in its shard, chosen %v", pi[10], pk[0], seen[0])
		}
	}
}
