// Command credlab-centers compares Nyström KRLS with leverage-score and
// uniform centers on real data sets (docs/budget.md).
//
//	go run ./bench/cmd/credlab-centers -data ../shared/data
//
// For each of cadata, cpusmall and abalone (its nominal sex column left
// out), read from -data: 3000 training and 1000 test rows of a seeded
// permutation, features and target standardized over the whole set; exact
// KRLS with a Gaussian kernel at the median distance picks lambda on a
// hold-out split; NKRLS at that lambda with m = 25 ... 800 centers drawn
// uniformly, by leverage scores at that lambda (LeverageCenters) and by
// leverage scores at the lambda where d_eff = m/2, its test RMSE averaged
// over 3 seeds. It prints the exact fit, one line per m and the smallest m
// within 1% of the exact test RMSE.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"gonum.org/v1/gonum/mat"
)

func main() {
	data := flag.String("data", "../shared/data", "directory of the staged datasets")
	flag.Parse()
	if err := run(*data); err != nil {
		fmt.Fprintln(os.Stderr, "credlab-centers:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	ctx := context.Background()
	sets := []struct{ name, file string }{
		{"cadata", "cadata/cal_housing.arff"},
		{"cpusmall", "cpusmall/cpu_small.arff"},
		{"abalone", "abalone/abalone.data"},
	}
	ms := []int{25, 50, 100, 200, 400, 800}
	for _, s := range sets {
		x, y, err := loadSet(filepath.Join(dir, s.file))
		if err != nil {
			return err
		}
		n, _ := x.Dims()
		perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
		tr, te := perm[:3000], perm[3000:4000]
		xt, _ := credlab.GatherRows(x, tr)
		xv, _ := credlab.GatherRows(x, te)
		yt, yv := pickRows(y, tr), pickRows(y, te)
		k := credlab.GaussianKernel{Sigma: medianDist(xt)}
		exact, err := credlab.KRLS(ctx, xt, yt, credlab.KRLSConfig{Kernel: k})
		if err != nil {
			return err
		}
		ex, err := rmse(exact.Model, xv, yv)
		if err != nil {
			return err
		}
		lam := exact.Lambda
		fmt.Printf("%s: sigma %.3g, lambda %.3g, exact KRLS test RMSE %.4f\n", s.name, k.Sigma, lam, ex)
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
						return err
					}
					e, err := rmse(f.Model, xv, yv)
					if err != nil {
						return err
					}
					acc += e / 3
				}
				if acc <= 1.01*ex && need[sm.name] == 0 {
					need[sm.name] = m
				}
				line += "  " + sm.name + " " + strconv.FormatFloat(acc, 'f', 4, 64)
			}
			fmt.Printf("%s m=%d:%s\n", s.name, m, line)
		}
		fmt.Printf("%s: m within 1%% of exact: uniform %d, leverage at the fit's lambda %d, leverage at d_eff = m/2 %d (0: not within %d)\n", s.name, need["uniform"], need["leverage"], need["leverage-auto"], ms[len(ms)-1])
	}
	return nil
}

// loadSet reads an ARFF file (every column numeric, the target last) or
// abalone.data (CSV; the first, nominal column is left out) and returns the
// features and target, each column standardized.
func loadSet(path string) (*mat.Dense, []float64, error) {
	var rows [][]float64
	if strings.HasSuffix(path, ".arff") {
		df, err := frames.LoadARFF(path)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range df.Records()[1:] {
			v, err := parseFloats(r)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			rows = append(rows, v)
		}
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			v, err := parseFloats(strings.Split(line, ",")[1:]) // the nominal sex column is left out
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			rows = append(rows, v)
		}
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no rows", path)
	}
	n, d := len(rows), len(rows[0])-1
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i, r := range rows {
		if len(r) != d+1 {
			return nil, nil, fmt.Errorf("%s: row %d has %d columns, want %d", path, i+1, len(r), d+1)
		}
		copy(x.RawRowView(i), r[:d])
		y[i] = r[d]
	}
	standardize(x.RawMatrix().Data, n, d)
	standardize(y, n, 1)
	return x, y, nil
}

func parseFloats(fields []string) ([]float64, error) {
	v := make([]float64, len(fields))
	for i, c := range fields {
		f, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
		if err != nil {
			return nil, err
		}
		v[i] = f
	}
	return v, nil
}

// standardize scales each of the d columns of the n x d row-major v to
// mean 0 and (population) standard deviation 1.
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

// medianDist is the median distance between pairs of the first 500 rows
// (credlab.MedianDistance takes 256 rows spread over x; the measured
// numbers in docs/budget.md use this one).
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

func rmse(m *credlab.Model, x *mat.Dense, y []float64) (float64, error) {
	p, err := m.Predict(x)
	if err != nil {
		return 0, err
	}
	s := 0.0
	for i, v := range p {
		s += (v - y[i]) * (v - y[i])
	}
	return math.Sqrt(s / float64(len(y))), nil
}
