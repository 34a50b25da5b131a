package distreg

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/credlab/credlab/credlab/distreg"
	"github.com/credlab/credlab/papers/internal/papertest"
)

func TestDataGenerator(t *testing.T) {
	p := distreg.NewEntropyProblem(3)
	b, angles := p.Bags(40, 400, 7)
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	// The sample variance of the first coordinate matches M_11, and the
	// label is the Gaussian entropy of that variance.
	worst := 0.0
	for j, x := range b.X {
		m11, _, _ := p.Cov(angles[j])
		s := 0.0
		for i := 0; i < 400; i++ {
			s += x.At(i, 0) * x.At(i, 0) / 400
		}
		worst = math.Max(worst, math.Abs(s/m11-1))
		if want := 0.5 * math.Log(2*math.Pi*math.E*m11); math.Abs(b.Y[j]-want) > 1e-12 {
			t.Fatalf("label %g, want %g", b.Y[j], want)
		}
		if angles[j] < 0 || angles[j] > math.Pi {
			t.Fatalf("angle %g outside [0, pi]", angles[j])
		}
	}
	if worst > 0.35 {
		t.Errorf("sample variance off by %.0f%% from M_11", 100*worst)
	}
	// Bags of a smaller N are prefixes of those of a larger N.
	small, _ := p.Bags(5, 10, 7)
	for j := range small.X {
		for i := 0; i < 10; i++ {
			if small.X[j].At(i, 1) != b.X[j].At(i, 1) {
				t.Fatal("bags are not nested in N")
			}
		}
	}
	// The population kernel is E exp(-||x-x'||^2/(2 s^2)) by Monte Carlo.
	k := popKernel{p, 0.7}
	rng := rand.New(rand.NewPCG(1, 1))
	la, lb := p.Rotated(0.3), p.Rotated(2.1)
	mc := 0.0
	const n = 200000
	for i := 0; i < n; i++ {
		z0, z1, w0, w1 := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		d0 := la[0]*z0 + la[1]*z1 - lb[0]*w0 - lb[1]*w1
		d1 := la[2]*z0 + la[3]*z1 - lb[2]*w0 - lb[3]*w1
		mc += math.Exp(-(d0*d0+d1*d1)/(2*0.49)) / n
	}
	if got := k.Eval([]float64{0.3}, []float64{2.1}); math.Abs(got-mc) > 0.01 {
		t.Errorf("population kernel %g, Monte Carlo %g", got, mc)
	}
}

func TestReproductionSmall(t *testing.T) {
	cfg := defaultConfig(true)
	cfg.Reps, cfg.Test, cfg.Ns, cfg.Series, cfg.Ns2, cfg.NFixed = 1, 20, []int{3, 12, 40}, []curveSpec{{6, 0}, {12, 0.1}}, []int{8, 16}, 6
	cfg.MaxIter, cfg.Checkpoints, cfg.Command = 2000, 10, "test"
	out := t.TempDir()
	if err := reproduce(context.Background(), out, cfg, io.Discard); err != nil {
		t.Fatal(err)
	}
	rows := papertest.ReadCSV(t, filepath.Join(out, "distreg_vs_N.csv"))
	// Two methods per N and n, plus the population reference once per n.
	if len(rows) != 1+2*(2*3+1) {
		t.Fatalf("vs-N CSV has %d rows", len(rows))
	}
	rows = papertest.ReadCSV(t, filepath.Join(out, "distreg_vs_n.csv"))
	if len(rows) != 1+3*2 {
		t.Fatalf("vs-n CSV has %d rows", len(rows))
	}
	papertest.CheckReport(t, filepath.Join(out, "reproductions-distreg.md"), "MISR", "TailSGD", "TwoStageKRR", "against the bag size N", "entropy of the first coordinate")
}
