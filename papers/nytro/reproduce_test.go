package nytro

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/credlab/credlab/papers/internal/papertest"
	"github.com/credlab/credlab/papers/internal/staged"
	"gonum.org/v1/gonum/mat"
)

// synthSplit is a small binary problem with 0/1 labels, like COIL 2000.
func synthSplit(nTrain, nTest, d int, seed uint64) *staged.TrainTest {
	rng := rand.New(rand.NewPCG(seed, 7))
	gen := func(n int) (*mat.Dense, []float64) {
		x := mat.NewDense(n, d, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < d; j++ {
				v := float64(rng.IntN(10))
				x.Set(i, j, v)
				s += v
			}
			if s/float64(d)+rng.NormFloat64() > 5 {
				y[i] = 1
			}
		}
		return x, y
	}
	s := &staged.TrainTest{}
	s.XTrain, s.YTrain = gen(nTrain)
	s.XTest, s.YTest = gen(nTest)
	return s
}

// TestTinyRun runs the whole pipeline on synthetic in-memory data: a
// small "InsuranceCompany" on which every method runs, an "Adult" above
// the exact-method threshold whose exact methods are estimated and
// skipped, and a small Figure 2.
func TestTinyRun(t *testing.T) {
	cfg := defaultConfig(false)
	cfg.command = "test"
	cfg.reps = 2
	cfg.exact = exactPolicy{checkAbove: 130, calibN: 60, budget: time.Nanosecond, memShare: 0.6}
	cfg.tstar = tstarConfig{steps: 300, esMaxRows: 130, esReps: 1}
	ins, err := prepare("InsuranceCompany", synthSplit(120, 50, 4, 1), 3, 30, 0)
	if err != nil {
		t.Fatal(err)
	}
	adult, err := prepare("Adult", synthSplit(150, 40, 3, 2), 2, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	fx := synthSplit(200, 1, 4, 3)
	cfg.fig2 = fig2Config{x: fx.XTrain, y: fx.YTrain, nTrain: 160, sigma: 0.5, ms: []int{10, 20, 40}, reps: 2}

	var log bytes.Buffer
	res, err := runAll(context.Background(), []*table2Case{ins, adult}, cfg, &log)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := writeResults(out, res, &log); err != nil {
		t.Fatal(err)
	}

	rows := papertest.ReadCSV(t, filepath.Join(out, "table2.csv"))
	// InsuranceCompany: KOLS once + 4 methods x 2 seeds; Adult: 3 skipped + 2 x 2.
	if got, want := len(rows)-1, 1+4*2+3+2*2; got != want {
		t.Fatalf("table2.csv has %d runs, want %d\n%s", got, want, log.String())
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	notRun := 0
	for _, r := range rows[1:] {
		if r[col["status"]] == "not run" {
			notRun++
			if r[col["dataset"]] != "Adult" || r[col["estimated_time_s"]] == "" || !strings.Contains(r[col["note"]], "not run") {
				t.Errorf("bad skipped row %v", r)
			}
			continue
		}
		rmse, err := strconv.ParseFloat(r[col["test_rmse"]], 64)
		if err != nil || !(rmse > 0) {
			t.Errorf("%s %s: test RMSE %q", r[col["dataset"]], r[col["method"]], r[col["test_rmse"]])
		}
		// KOLS interpolates; the others must beat predicting 0 (RMSE 1).
		if r[col["method"]] != methodKOLS && rmse >= 1 {
			t.Errorf("%s %s: test RMSE %v, not better than 0", r[col["dataset"]], r[col["method"]], rmse)
		}
	}
	if notRun != 3 {
		t.Errorf("%d skipped runs, want 3 (Adult KOLS, KRLS, EarlyStopping)", notRun)
	}

	fig := papertest.ReadCSV(t, filepath.Join(out, "fig2.csv"))
	if got, want := len(fig)-1, 3*2*2; got != want {
		t.Errorf("fig2.csv has %d rows, want %d", got, want)
	}
	for _, r := range fig[1:] {
		if r[1] == methodNYTRO && r[4] != "500" {
			t.Errorf("NYTRO ran %s steps in Figure 2, want all 500", r[4])
		}
	}
	// t*: EarlyStopping once on InsuranceCompany (120 rows), NYTRO per seed on both.
	ts := papertest.ReadCSV(t, filepath.Join(out, "tstar.csv"))
	if got, want := len(ts)-1, 1+2*2; got != want {
		t.Errorf("tstar.csv has %d runs, want %d", got, want)
	}
	for _, r := range ts[1:] {
		if r[3] != "300" {
			t.Errorf("t* study run %v: %s steps, want 300", r[:3], r[3])
		}
	}
	for _, name := range []string{"table2_summary.csv", "fig2_summary.csv", "paths.csv"} {
		if rows := papertest.ReadCSV(t, filepath.Join(out, name)); len(rows) < 2 {
			t.Errorf("%s is empty", name)
		}
	}
	papertest.CheckReport(t, filepath.Join(out, "reproductions-nytro.md"), "| InsuranceCompany", "| Adult", "not run", "est. ",
		"0.4651 ± 0.0003", "4360 ± 9.29", "**Figure 2**", "Fitted exponents", "1 (deterministic)",
		"**t* without the cap**", "| InsuranceCompany | EarlyStopping | 1 |")
	if !strings.Contains(log.String(), "Table 2 (ours | paper)") {
		t.Errorf("no table printed:\n%s", log.String())
	}
}

func TestPrepare(t *testing.T) {
	s := synthSplit(300, 20, 2, 4)
	c, err := prepare("x", s, 1, 1000, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.xTrain.Dims(); n != 100 || c.nFull != 300 || c.m != 333 {
		t.Errorf("quick subsample: n = %d, nFull = %d, m = %d", n, c.nFull, c.m)
	}
	for _, v := range append(append([]float64(nil), c.yTrain...), c.yTest...) {
		if v != -1 && v != 1 {
			t.Fatalf("label %v", v)
		}
	}
	if c.xTrain.At(0, 0) < -1 || c.xTrain.At(0, 0) > 1 {
		t.Errorf("scaled value %v outside [-1, 1]", c.xTrain.At(0, 0))
	}
	if _, err := plusMinusOne([]float64{0, 1, 2}); err == nil {
		t.Error("label 2 accepted")
	}
	if _, err := plusMinusOne([]float64{0, -1}); err == nil {
		t.Error("labels 0 and -1 mixed accepted")
	}
	y, err := plusMinusOne([]float64{-1, 1, 1})
	if err != nil || y[0] != -1 || y[1] != 1 {
		t.Errorf("-1/+1 labels changed: %v %v", y, err)
	}

	a := mat.NewDense(3, 2, []float64{0, 5, 5, 5, 10, 5})
	b := mat.NewDense(1, 2, []float64{20, 7})
	minMax(-1, 1, a, b)
	if a.At(0, 0) != -1 || a.At(1, 0) != 0 || a.At(2, 0) != 1 || b.At(0, 0) != 3 || a.At(0, 1) != 0 || b.At(0, 1) != 0 {
		t.Errorf("min-max scaling: %v %v", mat.Formatted(a), mat.Formatted(b))
	}
}

func TestSlope(t *testing.T) {
	x := []float64{100, 200, 400, 800}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3e-6 * v * v
	}
	if b := slope(x, y); math.Abs(b-2) > 1e-12 {
		t.Errorf("slope %v, want 2", b)
	}
	if b := slope(x[:1], y[:1]); !math.IsNaN(b) {
		t.Errorf("slope of one point %v, want NaN", b)
	}
	if m, sd := meanSD([]float64{1, 3}); m != 2 || math.Abs(sd-math.Sqrt2) > 1e-15 {
		t.Errorf("mean, sd = %v, %v", m, sd)
	}
}

// TestStagedData runs the real reproduction when NYTRO_REPRO_OUT
// names an output directory (NYTRO_REPRO_QUICK=1 for quick mode, and
// CREDLAB_DATA for the data, default ../shared/data from the repository
// root), for example
//
//	NYTRO_REPRO_OUT=/tmp/nytro NYTRO_REPRO_QUICK=1 go test -run StagedData -timeout 3h ./papers/nytro/
func TestStagedData(t *testing.T) {
	out := os.Getenv("NYTRO_REPRO_OUT")
	if out == "" {
		t.Skip("set NYTRO_REPRO_OUT to run the NYTRO reproduction on the staged data")
	}
	dir := os.Getenv("CREDLAB_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	if err := Reproduce(context.Background(), dir, out, os.Getenv("NYTRO_REPRO_QUICK") != "", os.Stdout); err != nil {
		t.Fatal(err)
	}
}

// TestStopRules checks the stopping rules of the t* study on short
// validation paths (iterations are 1-based).
func TestStopRules(t *testing.T) {
	for _, c := range []struct {
		name      string
		val       []float64
		th, eps   float64
		ratio, rl int
	}{
		{"falling", []float64{4, 3, 2, 1}, 0.05, 1e-3, 4, 4},
		{"rises 10% after the best", []float64{4, 2, 2.1, 2.3, 1}, 0.05, 1e-3, 2, 2},
		{"rises 4%, then falls", []float64{4, 2, 2.08, 1.5}, 0.05, 1e-3, 4, 2},
		{"slow tail", []float64{10, 5, 4.999, 4.99, 4.9}, 0.05, 1e-3, 5, 3},
		{"slow tail, finer rule", []float64{10, 5, 4.999, 4.99, 4.9}, 0.05, 1e-4, 5, 5},
		{"flat", []float64{1, 1, 1}, 0.05, 1e-3, 1, 1},
	} {
		if got := stopRatio(c.val, c.th); got != c.ratio {
			t.Errorf("%s: ratio rule %d, want %d", c.name, got, c.ratio)
		}
		if got := stopRelative(c.val, c.eps); got != c.rl {
			t.Errorf("%s: relative rule %d, want %d", c.name, got, c.rl)
		}
	}
}
