package cred

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/papers/internal/papertest"
	"gonum.org/v1/gonum/mat"
)

// synthImages returns n sparse non-negative "images" of d pixels; the
// last pixels are rarely on, which gives the covariance small eigenvalues
// and CRED something to find, as the corner pixels of real images do.
func synthImages(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			p := 0.6
			if j >= d-4 {
				p = 0.03
			}
			if rng.Float64() < p {
				x.Set(i, j, rng.Float64())
			}
		}
	}
	return x
}

func tinyConfig() config {
	c := defaultConfig(true)
	c.Toy = toyConfig{Pool: 3000, Shown: 20, PoolShown: 50, Trials: 40, Labels: 3, Reps: 2, Noise: 0.01,
		LambdaQ: 1e-6, LambdaQs: []float64{1e-2}, Seed: 3}
	c.Fig3 = fig3Config{Ns: []int{40, 80}, Noises: []float64{1e-6, 1}, Reps: 2,
		LambdaQs: []float64{1e-9, 1e-6, 1e-3}, Lambdas: []float64{1e-9, 1e-6, 1e-3}, Labelings: 3, SGrid: 3,
		Floor: 1e-10, Widths: []int{24, 24}, Check: true, Seed: 4, Methods: allMethods()}
	c.Load = func() ([]*imageSet, error) {
		return []*imageSet{
			{Name: "synthA", Pool: synthImages(300, 16, 1), Test: synthImages(120, 16, 2), Description: "synthetic A"},
			{Name: "synthB", Pool: synthImages(200, 9, 3), Test: synthImages(60, 9, 4), Description: "synthetic B"},
		}, nil
	}
	c.Command = "test"
	return c
}

func TestTinyRun(t *testing.T) {
	ctx := context.Background()
	cfg := tinyConfig()
	out := t.TempDir()
	var log bytes.Buffer
	if err := reproduce(ctx, out, cfg, &log); err != nil {
		t.Fatal(err)
	}
	f1 := papertest.ReadCSV(t, filepath.Join(out, "fig1_points.csv"))
	if len(f1) != 1+50+2*20 {
		t.Fatalf("fig1_points.csv has %d rows, want %d", len(f1), 1+50+40)
	}
	f2 := papertest.ReadCSV(t, filepath.Join(out, "fig2_coefficients.csv"))
	if nv := len(cfg.Toy.variants()); len(f2) != 1+nv*40 {
		t.Fatalf("fig2_coefficients.csv has %d rows, want %d", len(f2), 1+nv*40)
	}
	f3 := papertest.ReadCSV(t, filepath.Join(out, "fig3.csv"))
	want := 1 + 2*2*len(allMethods())*2*2*2
	if len(f3) != want {
		t.Fatalf("fig3.csv has %d rows, want %d", len(f3), want)
	}
	// CRED searches lambda over a superset of CRED(lambda=lambda_q)'s
	// choices on the same labelings, so it is never worse.
	byKey := map[string]float64{}
	for _, r := range f3[1:] {
		v, err := strconv.ParseFloat(r[6], 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			t.Fatalf("row %v: RMSE %q", r, r[6])
		}
		byKey[strings.Join([]string{r[0], r[1], r[2], r[3], r[5], r[4]}, "|")] = v
	}
	for k, v := range byKey {
		if strings.HasSuffix(k, "|"+BenchCREDTied) {
			base := strings.TrimSuffix(k, BenchCREDTied) + BenchCRED
			if byKey[base] > v*(1+1e-12) {
				t.Fatalf("%s: CRED %v worse than the tied variant %v", k, byKey[base], v)
			}
		}
	}
	papertest.CheckReport(t, filepath.Join(out, "reproductions-cred.md"),
		"Figures 1 and 2", "Figure 3", "synthA, linear task", "synthB, nonlinear task", "KRR/CRED", "quick",
		"synthA, linear task, budgets of distinct labels", "CRED-distinct is no worse than uniform in")
	if !strings.Contains(log.String(), "repetition 2/2") {
		t.Fatalf("progress log: %s", log.String())
	}
}

// The fast path (shared Gram matrices, eigen-based scores) must agree with
// the package's estimators on the same labeled rows.
func TestFastPathMatchesPackage(t *testing.T) {
	ctx := context.Background()
	cfg := tinyConfig()
	sets, _ := cfg.Load()
	_, infos, err := runFig3(ctx, sets, cfg.Fig3, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if len(in.Checks) != 5 {
			t.Fatalf("%s/%s: %d checks ran, want 5: %v", in.Dataset, in.Task, len(in.Checks), in.Checks)
		}
		for k, v := range in.Checks {
			if !(v < 1e-6) {
				t.Fatalf("%s/%s: %s differs by %g", in.Dataset, in.Task, k, v)
			}
		}
	}
}

func idxBytes(magic uint32, n, rows, cols int, pix []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, [4]uint32{magic, uint32(n), uint32(rows), uint32(cols)})
	b.Write(pix)
	return b.Bytes()
}

func writeGz(t *testing.T, path string, data []byte) {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write(data)
	z.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadIDX(t *testing.T) {
	x, err := readIDX(bytes.NewReader(idxBytes(0x803, 2, 1, 3, []byte{0, 51, 255, 102, 0, 1})), "t")
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(2, 3, []float64{0, 0.2, 1, 0.4, 0, 1.0 / 255})
	if !mat.EqualApprox(x, want, 1e-15) {
		t.Fatalf("got %v", mat.Formatted(x))
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{idxBytes(0x801, 2, 1, 3, nil), "magic"},
		{idxBytes(0x803, 2, 1, 3, []byte{1, 2, 3, 4}), "image 2 of 2"},
		{idxBytes(0x803, 0, 1, 3, nil), "claims"},
		{[]byte{0, 0}, "header"},
	} {
		if _, err := readIDX(bytes.NewReader(c.data), "t"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("error %v, want %q", err, c.want)
		}
	}
	dir := t.TempDir()
	fm := filepath.Join(dir, "fashion-mnist")
	os.Mkdir(fm, 0o755)
	writeGz(t, filepath.Join(fm, "train-images-idx3-ubyte.gz"), idxBytes(0x803, 3, 2, 2, make([]byte, 12)))
	writeGz(t, filepath.Join(fm, "t10k-images-idx3-ubyte.gz"), idxBytes(0x803, 1, 2, 2, []byte{255, 0, 0, 255}))
	set, err := loadFashionMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := set.Pool.Dims(); r != 3 || c != 4 {
		t.Fatalf("pool %d x %d", r, c)
	}
	if set.Test.At(0, 0) != 1 || set.Test.At(0, 1) != 0 {
		t.Fatalf("test row %v", set.Test.RawRowView(0))
	}
	if _, err := loadFashionMNIST(t.TempDir()); err == nil {
		t.Fatalf("missing files: no error")
	}
}

func TestLoadUSPS(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "usps"), 0o755)
	line := func(label string, v float64) string {
		f := []string{label}
		for j := 0; j < 256; j++ {
			f = append(f, strconv.FormatFloat(v, 'f', 4, 64))
		}
		return strings.Join(f, " ") + "\n"
	}
	writeGz(t, filepath.Join(dir, "usps", "zip.train.gz"), []byte(line("6.0000", -1)+line("1.0000", 1)))
	writeGz(t, filepath.Join(dir, "usps", "zip.test.gz"), []byte(line("9", 0)))
	set, err := loadUSPS(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := set.Pool.Dims(); r != 2 || c != 256 {
		t.Fatalf("pool %d x %d", r, c)
	}
	if set.Pool.At(0, 5) != 0 || set.Pool.At(1, 5) != 1 || set.Test.At(0, 255) != 0.5 {
		t.Fatalf("pixels not mapped to [0, 1]: %v %v %v", set.Pool.At(0, 5), set.Pool.At(1, 5), set.Test.At(0, 255))
	}
	writeGz(t, filepath.Join(dir, "usps", "zip.test.gz"), []byte("9 0.5 0.5\n"))
	if _, err := loadUSPS(dir); err == nil || !strings.Contains(err.Error(), "256") {
		t.Fatalf("short rows: error %v", err)
	}
}

// The eigen-based CRED scores equal the package's FeatureLeverageScores.
func TestScoresMatchLeverage(t *testing.T) {
	ctx := context.Background()
	x := synthImages(150, 7, 9)
	phi, _ := credlab.RawFeatures{Bias: true}.Features(x)
	c := tinyConfig().Fig3
	task, err := newFig3Task(ctx, phi, phi, c)
	if err != nil {
		t.Fatal(err)
	}
	for k, lq := range c.LambdaQs {
		s, err := credlab.FeatureLeverageScores(ctx, credlab.RawFeatures{}, phi, lq*task.mean, 0)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := credlab.CREDDistribution(s)
		if d := maxRelDiff(task.q[k], q); d > 1e-9 {
			t.Fatalf("lambda_q %g: q differs by %g", lq, d)
		}
	}
}
