package credlab_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"gonum.org/v1/gonum/mat"
)

// TestMeasureLeverageCenters compares Nyström KRLS with leverage-score and
// uniform centers on real data sets. It runs only with
// CREDLAB_DATA=/path/to/shared/data (go test ./credlab -run
// TestMeasureLeverageCenters -v): 3000 training and 1000 test rows of each
// set, standardized; exact KRLS picks lambda on a hold-out split (sigma:
// the median distance); NKRLS uses that lambda.
func TestMeasureLeverageCenters(t *testing.T) {
	dir := os.Getenv("CREDLAB_DATA")
	if dir == "" {
		t.Skip("set CREDLAB_DATA to the shared data directory")
	}
	ctx := context.Background()
	sets := []struct{ name, file, target string }{
		{"cadata", "cadata/cal_housing.arff", ""},
		{"cpusmall", "cpusmall/cpu_small.arff", ""},
		{"abalone", "abalone/abalone.data", ""},
	}
	ms := []int{25, 50, 100, 200, 400, 800}
	for _, s := range sets {
		x, y := loadSet(t, filepath.Join(dir, s.file))
		n, _ := x.Dims()
		perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
		tr, te := perm[:3000], perm[3000:4000]
		xt, _ := credlab.GatherRows(x, tr)
		xv, _ := credlab.GatherRows(x, te)
		yt, yv := pickRows(y, tr), pickRows(y, te)
		k := credlab.GaussianKernel{Sigma: medianDist(xt)}
		exact, err := credlab.KRLS(ctx, xt, yt, credlab.KRLSConfig{Kernel: k})
		if err != nil {
			t.Fatal(err)
		}
		ex := rmse(t, exact.Model, xv, yv)
		lam := exact.Lambda
		t.Logf("%s: sigma %.3g, lambda %.3g, exact KRLS test RMSE %.4f", s.name, k.Sigma, lam, ex)
		need := map[string]int{}
		for _, m := range ms {
			line := ""
			for _, sm := range []struct {
				name string
				s    credlab.CenterSampler
			}{{"uniform", credlab.UniformCenters{}}, {"leverage", credlab.LeverageCenters{Kernel: k, Lambda: lam}}, {"leverage-auto", credlab.LeverageCenters{Kernel: k}}} {
				acc := 0.0
				for seed := uint64(1); seed <= 3; seed++ {
					f, err := credlab.NKRLS(ctx, xt, yt, credlab.NKRLSConfig{Kernel: k, Lambda: lam,
						Nystrom: credlab.NystromConfig{M: m, Sampler: sm.s, Seed: seed}})
					if err != nil {
						t.Fatal(err)
					}
					acc += rmse(t, f.Model, xv, yv) / 3
				}
				if acc <= 1.01*ex && need[sm.name] == 0 {
					need[sm.name] = m
				}
				line += "  " + sm.name + " " + ftoa(acc)
			}
			t.Logf("%s m=%d:%s", s.name, m, line)
		}
		t.Logf("%s: m within 1%% of exact: uniform %d, leverage at the fit's lambda %d, leverage at d_eff = m/2 %d (0: not within %d)", s.name, need["uniform"], need["leverage"], need["leverage-auto"], ms[len(ms)-1])
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

func fmtSscan(s string, f *float64) (int, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	*f = v
	return 1, err
}

func loadSet(t *testing.T, path string) (*mat.Dense, []float64) {
	var rows [][]float64
	if strings.HasSuffix(path, ".arff") {
		df, err := frames.LoadARFF(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range df.Records()[1:] {
			var v []float64
			for _, c := range r {
				var f float64
				_, err := fmtSscan(c, &f)
				if err != nil {
					t.Fatal(err)
				}
				v = append(v, f)
			}
			rows = append(rows, v)
		}
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var v []float64
			for _, c := range strings.Split(line, ",")[1:] { // the nominal sex column is left out
				var f float64
				if _, err := fmtSscan(c, &f); err != nil {
					t.Fatal(err)
				}
				v = append(v, f)
			}
			rows = append(rows, v)
		}
	}
	n, d := len(rows), len(rows[0])-1
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i, r := range rows {
		copy(x.RawRowView(i), r[:d])
		y[i] = r[d]
	}
	standardize(x.RawMatrix().Data, n, d)
	standardize(y, n, 1)
	return x, y
}

func standardize(v []float64, n, d int) {
	for j := 0; j < d; j++ {
		m, s := 0.0, 0.0
		for i := 0; i < n; i++ {
			m += v[i*d+j] / float64(n)
		}
		for i := 0; i < n; i++ {
			s += (v[i*d+j] - m) * (v[i*d+j] - m) / float64(n)
		}
		s = math.Sqrt(s)
		if s == 0 {
			s = 1
		}
		for i := 0; i < n; i++ {
			v[i*d+j] = (v[i*d+j] - m) / s
		}
	}
}

func medianDist(x *mat.Dense) float64 {
	n, _ := x.Dims()
	var d []float64
	for i := 0; i < min(n, 500); i++ {
		for j := 0; j < i; j++ {
			s := 0.0
			for k, v := range x.RawRowView(i) {
				s += (v - x.At(j, k)) * (v - x.At(j, k))
			}
			d = append(d, math.Sqrt(s))
		}
	}
	sort.Float64s(d)
	return d[len(d)/2]
}

func pickRows(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = v[j]
	}
	return out
}

func rmse(t *testing.T, m *credlab.Model, x *mat.Dense, y []float64) float64 {
	p, err := m.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	s := 0.0
	for i, v := range p {
		s += (v - y[i]) * (v - y[i])
	}
	return math.Sqrt(s / float64(len(y)))
}
