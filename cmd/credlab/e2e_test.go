package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/credlab/credlab/frames"
	"gonum.org/v1/gonum/mat"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

// TestMain removes the built binary's directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binary builds the command once for all end-to-end tests.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "credlab-e2e"); buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "credlab")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building credlab: %v", buildErr)
	}
	return binPath
}

// runBin runs the built command and returns its stdout, stderr and exit
// status.
func runBin(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running credlab %q: %v", args, err)
	}
	return out.String(), errb.String(), code
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runBin(t, args...)
	if code != 0 {
		t.Fatalf("credlab %q: exit %d\n%s", args, code, errs)
	}
	return out
}

// readCSV reads a CSV file as a header and records.
func readCSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: %v", path, err)
	}
	return recs[0], recs[1:]
}

// column returns a CSV column as floats.
func column(t *testing.T, head []string, recs [][]string, name string) []float64 {
	t.Helper()
	j := -1
	for i, h := range head {
		if h == name {
			j = i
		}
	}
	if j < 0 {
		t.Fatalf("no column %q in %v", name, head)
	}
	out := make([]float64, len(recs))
	for i, r := range recs {
		v, err := strconv.ParseFloat(r[j], 64)
		if err != nil {
			t.Fatalf("column %s row %d: %v", name, i, err)
		}
		out[i] = v
	}
	return out
}

// TestSelectFrequencies draws from a 20-row pool over several seeds and
// checks the draw counts against the probabilities Select reports with a
// chi-square test (fixed seeds: deterministic).
func TestSelectFrequencies(t *testing.T) {
	dir := t.TempDir()
	const pool, seeds, budget = 20, 8, 1000
	for _, method := range []string{"cred", "uniform"} {
		counts := make([]float64, pool)
		prob := make([]float64, pool)
		for s := 1; s <= seeds; s++ {
			out := filepath.Join(dir, method+strconv.Itoa(s)+".csv")
			mustRun(t, "select", "-pool", "testdata/pool.csv", "-budget", strconv.Itoa(budget), "-method", method,
				"-seed", strconv.Itoa(s), "-exclude", "id", "-lambda", "0.01", "-design", "replacement", "-quiet", "-out", out)
			head, recs := readCSV(t, out)
			if len(recs) != budget {
				t.Fatalf("%s seed %d: %d rows, want %d", method, s, len(recs), budget)
			}
			if want := "id,x1,x2,row,prob,weight"; strings.Join(head, ",") != want {
				t.Fatalf("%s: header %v, want %s", method, head, want)
			}
			rows, ids := column(t, head, recs, "row"), column(t, head, recs, "id")
			p, w := column(t, head, recs, "prob"), column(t, head, recs, "weight")
			for i, r := range rows {
				if ids[i] != r {
					t.Fatalf("%s: row %v carries the pool's row %v", method, r, ids[i])
				}
				if q := prob[int(r)]; q != 0 && q != p[i] {
					t.Fatalf("%s: row %v has prob %v and %v", method, r, q, p[i])
				}
				if math.Abs(w[i]*pool*p[i]-1) > 1e-9 {
					t.Fatalf("%s: weight %v is not 1/(N prob) for prob %v", method, w[i], p[i])
				}
				prob[int(r)] = p[i]
				counts[int(r)]++
			}
		}
		total, sum, chi2 := float64(seeds*budget), 0.0, 0.0
		for i := range counts {
			if prob[i] == 0 {
				t.Fatalf("%s: row %d never drawn in %v draws", method, i, total)
			}
			sum += prob[i]
			e := total * prob[i]
			chi2 += (counts[i] - e) * (counts[i] - e) / e
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: probabilities sum to %v", method, sum)
		}
		// 19 degrees of freedom: P(chi2 > 43.8) = 0.001.
		if chi2 > 43.8 {
			t.Errorf("%s: chi-square %v over %v draws: frequencies do not match the probabilities\ncounts %v\nprob %v",
				method, chi2, total, counts, prob)
		}
		for i := 0; i < 3; i++ {
			if method == "cred" && !(prob[i] > 1.5/pool) {
				t.Errorf("cred: the outlying row %d is not favoured: prob %v", i, prob[i])
			}
			if method == "uniform" && math.Abs(prob[i]-1.0/pool) > 1e-12 {
				t.Errorf("uniform: row %d has prob %v", i, prob[i])
			}
		}
	}
}

// TestFitSavePredict checks that the model fitted and saved by fit and
// applied by predict gives the predictions of the same fit in memory.
func TestFitSavePredict(t *testing.T) {
	dir := t.TempDir()
	train, err := frames.LoadCSV("testdata/train.csv")
	if err != nil {
		t.Fatal(err)
	}
	test, err := frames.LoadCSV("testdata/test.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		spec frames.Spec
		want string
	}{
		{[]string{"-method", "krls"}, frames.Spec{Method: "krls"}, "lambda="},
		{[]string{"-method", "nytro", "-m", "20", "-seed", "3"}, frames.Spec{Method: "nytro", M: 20, Seed: 3}, "iterations="},
		{[]string{"-method", "gd", "-iters", "30", "-validation", "0", "-kernel", "laplacian", "-sigma", "1.5"},
			frames.Spec{Method: "gd", Iters: 30, Kernel: "laplacian", Sigma: 1.5}, "iterations=30"},
	} {
		model, out := filepath.Join(dir, "model.json"), filepath.Join(dir, "pred.csv")
		stdout := mustRun(t, append([]string{"fit", "-data", "testdata/train.csv", "-target", "y", "-out", model, "-quiet"}, c.args...)...)
		if !strings.Contains(stdout, c.want) || !strings.Contains(stdout, "validation RMSE") {
			t.Errorf("fit %v printed %q, want %q and the validation RMSE", c.args, stdout, c.want)
		}
		mustRun(t, "predict", "-model", model, "-data", "testdata/test.csv", "-out", out)
		head, recs := readCSV(t, out)
		if strings.Join(head, ",") != "x1,x2,y,prediction" {
			t.Fatalf("predict header %v", head)
		}
		got := column(t, head, recs, "prediction")
		if x1 := column(t, head, recs, "x1"); x1[0] != test.Col("x1").Float()[0] {
			t.Errorf("predict changed the input columns")
		}
		spec := c.spec
		spec.Target = "y"
		if spec.Seed == 0 {
			spec.Seed = 1
		}
		m, err := frames.Fit(train, spec)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.PredictValues(test)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("%v: prediction %d = %v from the file, %v in memory", c.args, i, got[i], want[i])
			}
		}
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	out, svg := filepath.Join(dir, "sweep.csv"), filepath.Join(dir, "sweep.svg")
	stdout := mustRun(t, "sweep", "-data", "testdata/train.csv", "-target", "y", "-method", "krls",
		"-sigma", "0.5,1", "-lambda", "1e-6,1e-4,1e-2", "-out", out, "-svg", svg, "-quiet")
	head, recs := readCSV(t, out)
	if len(recs) != 6 {
		t.Errorf("sweep: %d rows, want 2 sigmas x 3 lambdas", len(recs))
	}
	if !strings.Contains(strings.Join(head, ","), "val_rmse") || !strings.Contains(stdout, "best:") {
		t.Errorf("sweep: header %v, stdout %q", head, stdout)
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("sweep -svg: %v", err)
	}
	// Without -quiet and with stderr not a terminal: only the final summary.
	_, errs, code := runBin(t, "sweep", "-data", "testdata/train.csv", "-target", "y", "-method", "gd", "-iters", "20",
		"-out", out, "-svg", svg)
	if code != 0 || !strings.HasPrefix(errs, "sweep: 20 rows written to") || strings.Count(errs, "\n") != 1 {
		t.Errorf("sweep: exit %d, stderr %q: want one summary line", code, errs)
	}
}

// TestErrors runs every error path and checks the exit status, the message
// and that no output file is left behind.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "-data", "testdata/train.csv", "-target", "y", "-out", model, "-quiet", "-method", "krls", "-lambda", "1e-3", "-validation", "0")
	sel := []string{"select", "-pool", "testdata/pool.csv", "-out", out}
	fit := []string{"fit", "-data", "testdata/train.csv", "-target", "y", "-out", out}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "no command"},
		{[]string{"frobnicate"}, 2, "frobnicate"},
		{[]string{"help", "frobnicate"}, 2, "frobnicate"},
		{[]string{"reproduce", "nosuchpaper"}, 2, "nosuchpaper"},
		{[]string{"demo", "-n", "x"}, 2, "-n"},
		{[]string{"demo", "extra"}, 2, "extra"},
		{append(sel, "-budget", "0"), 2, "-budget"},
		{append(sel, "-budget", "-3"), 2, "-budget"},
		{append(sel, "-budget", "5", "-method", "frob"), 2, "frob"},
		{append(sel, "-budget", "5", "-features", "frob"), 2, "-features"},
		{append(sel, "-budget", "5", "-kernel", "frob"), 2, "frob"},
		{append(sel, "-budget", "5", "-bogus"), 2, "bogus"},
		{[]string{"select", "-pool", "testdata/pool.csv", "-budget", "5"}, 2, "-out"},
		{[]string{"select", "-pool", "testdata/nosuch.csv", "-budget", "5", "-out", out}, 1, "nosuch.csv"},
		{append(sel, "-budget", "5", "-columns", "x1,zz"), 2, `"zz" (flag -columns)`},
		{append(sel, "-budget", "50", "-method", "uniform"), 2, "flag -budget 50"},
		{append(sel, "-budget", "50"), 2, "flag -budget 50"},
		{append(fit, "-method", "frob"), 2, "frob"},
		{append(fit, "-kernel", "frob"), 2, "frob"},
		{append(fit, "-method", "nkrls", "-m", "-3"), 2, "flag -m -3"},
		{append(fit, "-validation", "0"), 2, "-validation"},
		{append(fit, "-validation", "1.5"), 2, "-validation"},
		{append(fit, "-lambda", "-1"), 2, "flag -lambda -1: want a positive finite number, or 0"},
		{append(fit, "-selection", "aic"), 2, `-selection "aic"`},
		{append(fit, "-method", "krls", "-selection", "gcv"), 2, "applies to -method auto"},
		{append(fit, "-kernel", "polynomial"), 2, "name a -method"},
		{append(fit, "-iters", "x"), 2, "-iters"},
		{[]string{"fit", "-data", "testdata/train.csv", "-out", out}, 2, "-target"},
		{[]string{"fit", "-data", "testdata/train.csv", "-target", "zz", "-out", out}, 2, `"zz" (flag -target)`},
		{[]string{"fit", "-data", "testdata/train.csv", "-target", "Y", "-out", out}, 2, `did you mean "y"`},
		{[]string{"fit", "-data", "testdata/train.csv", "-target", "x3", "-out", out}, 2, `did you mean "x1"`},
		{[]string{"fit", "-data", "testdata/nosuch.csv", "-target", "y", "-out", out}, 1, "nosuch.csv"},
		{append(fit, "-weight", "ww"), 2, `"ww" (flag -weight)`},
		{[]string{"fit", "-data", "testdata/badvalue.csv", "-target", "y", "-columns", "x1,x2", "-out", out}, 1, `"x2"`},
		{[]string{"fit", "-data", "testdata/badvalue.csv", "-target", "x2", "-out", out}, 1, `"x2"`},
		{[]string{"select", "-pool", "testdata/badvalue.csv", "-columns", "x2", "-budget", "2", "-out", out}, 1, `"x2"`},
		{[]string{"predict", "-model", model, "-data", "testdata/nox2.csv", "-out", out}, 1, "x2"},
		{[]string{"predict", "-model", filepath.Join(dir, "nosuch.json"), "-data", "testdata/test.csv", "-out", out}, 1, "nosuch.json"},
		{[]string{"predict", "-model", "testdata/badmodel.json", "-data", "testdata/test.csv", "-out", out}, 1, "badmodel.json"},
		{[]string{"predict", "-model", model, "-data", "testdata/test.csv"}, 2, "-out"},
		{[]string{"sweep", "-data", "testdata/train.csv", "-target", "y", "-out", out, "-lambda", "0"}, 2, "-lambda"},
		{[]string{"sweep", "-data", "testdata/train.csv", "-target", "y", "-out", out, "-lambda-q", "1e-3"}, 2, "-budget"},
		{[]string{"sweep", "-data", "testdata/train.csv", "-target", "y", "-out", out, "-method", "frob"}, 2, "frob"},
	} {
		_, errs, code := runBin(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("credlab %q: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("credlab %q failed but left %s", c.args, out)
			os.Remove(out)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestFlagHelp checks that help describes every flag with its default.
func TestFlagHelp(t *testing.T) {
	for _, c := range []struct {
		cmd   string
		flags []string
	}{
		{"select", []string{"-pool", "-budget", "-method", "-seed", "-out", "-lambda", "-kernel", "-sigma", "-features", "-m", "-columns", "-quiet"}},
		{"fit", []string{"-data", "-target", "-method", "-out", "-kernel", "-lambda", "-sigma", "-m", "-iters", "-passes", "-batch", "-eta", "-weight", "-validation", "-seed", "-quiet"}},
		{"predict", []string{"-model", "-data", "-out"}},
		{"sweep", []string{"-data", "-target", "-method", "-out", "-svg"}},
		{"demo", []string{"-out"}},
	} {
		_, errs, code := runBin(t, c.cmd, "-h")
		out, _, code2 := runBin(t, "help", c.cmd)
		if code != 0 || code2 != 0 || out != errs {
			t.Errorf("%s -h: exit %d, help %s: exit %d; texts differ: %v", c.cmd, code, c.cmd, code2, out != errs)
		}
		for _, f := range c.flags {
			if !strings.Contains(errs, "  "+f+" ") && !strings.Contains(errs, "  "+f+"\n") {
				t.Errorf("%s -h does not describe %s:\n%s", c.cmd, f, errs)
			}
		}
	}
	_, errs, _ := runBin(t, "fit", "-h")
	for _, want := range []string{"(default 0.2)", `(default "auto")`, "gaussian, matern52, matern32", "-standardize=false", "-selection"} {
		if !strings.Contains(errs, want) {
			t.Errorf("fit -h lacks %s", want)
		}
	}
	out, _, code := runBin(t, "help")
	for _, cmd := range []string{"demo", "select", "fit", "predict", "sweep", "reproduce"} {
		if code != 0 || !strings.Contains(out, "credlab "+cmd) {
			t.Errorf("help does not list %s", cmd)
		}
	}
}

// writeRegression writes n rows of y = sin(3 x1) + x2^2 + noise with x1 on
// [0, 10] and x2 on [-0.01, 0.01] (very different scales), a constant
// column k and a two-level string column g, and returns x, y.
func writeRegression(t *testing.T, path string, n int, seed uint64) ([][2]float64, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("x1,x2,k,g,y\n")
	x := make([][2]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = [2]float64{10 * rng.Float64(), 0.02*rng.Float64() - 0.01}
		y[i] = math.Sin(x[i][0]) + 1e4*x[i][1]*x[i][1] + 3 + 0.1*rng.NormFloat64()
		g := "u"
		if i%2 == 1 {
			g = "v"
		}
		fmt.Fprintf(&b, "%v,%v,7,%s,%v\n", x[i][0], x[i][1], g, y[i])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return x, y
}

// oracleRMSE is an independent grid search: KRLS by dense solves on the
// columns standardized by hand, the target centered by hand, over a sigma
// x lambda grid, scored on the test rows themselves (an oracle, so a lower
// bound for any method that chooses without the test rows).
func oracleRMSE(x [][2]float64, y []float64, xt [][2]float64, yt []float64) float64 {
	n := len(x)
	var mean, sd [2]float64
	for _, r := range x {
		for j := range r {
			mean[j] += r[j] / float64(n)
		}
	}
	for _, r := range x {
		for j := range r {
			sd[j] += (r[j] - mean[j]) * (r[j] - mean[j]) / float64(n)
		}
	}
	std := func(r [2]float64) [2]float64 {
		return [2]float64{(r[0] - mean[0]) / math.Sqrt(sd[0]), (r[1] - mean[1]) / math.Sqrt(sd[1])}
	}
	ybar := 0.0
	for _, v := range y {
		ybar += v / float64(n)
	}
	yc := mat.NewVecDense(n, nil)
	for i, v := range y {
		yc.SetVec(i, v-ybar)
	}
	k := func(a, b [2]float64, s float64) float64 {
		a, b = std(a), std(b)
		d0, d1 := a[0]-b[0], a[1]-b[1]
		return math.Exp(-(d0*d0 + d1*d1) / (2 * s * s))
	}
	best := math.Inf(1)
	for _, s := range []float64{0.05, 0.1, 0.2, 0.4, 0.8, 1.6} {
		for _, l := range []float64{1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2} {
			a := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					v := k(x[i], x[j], s)
					if i == j {
						v += l * float64(n)
					}
					a.SetSym(i, j, v)
				}
			}
			var alpha mat.VecDense
			if err := alpha.SolveVec(a, yc); err != nil {
				continue
			}
			sse := 0.0
			for r, p := range xt {
				f := ybar
				for i := 0; i < n; i++ {
					f += alpha.AtVec(i) * k(p, x[i], s)
				}
				sse += (f - yt[r]) * (f - yt[r])
			}
			best = math.Min(best, math.Sqrt(sse/float64(len(xt))))
		}
	}
	return best
}

// TestFitDefault runs `credlab fit` with no flag but -data, -target and
// -out on data made here, and checks the printed choice, the warnings,
// the model file, and the test RMSE against an oracle grid search.
func TestFitDefault(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	x, y := writeRegression(t, train, 300, 1)
	xt, yt := writeRegression(t, test, 300, 2)
	model, pred := filepath.Join(dir, "model.json"), filepath.Join(dir, "pred.csv")
	out := mustRun(t, "fit", "-data", train, "-target", "y", "-out", model, "-quiet", "-exclude", "g")
	for _, want := range []string{"method krls (automatic: ", "selected kernel=gaussian sigma=", " lambda=", "criterion cv = ",
		"validation RMSE ", `features "x1", "x2" (2 design columns, standardized), intercept `,
		`warning: column "k" is constant (7) on the 300 training rows: left out of the features`} {
		if !strings.Contains(out, want) {
			t.Errorf("fit printed\n%s\nwithout %q", out, want)
		}
	}
	m, err := frames.LoadModelFile(model)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Choice
	if c == nil || !strings.Contains(out, "sigma="+strconv.FormatFloat(c.Sigma, 'g', 4, 64)) ||
		!strings.Contains(out, "lambda="+strconv.FormatFloat(c.Lambda, 'g', 4, 64)) ||
		!strings.Contains(out, "validation RMSE "+strconv.FormatFloat(c.ValRMSE, 'g', 6, 64)) {
		t.Errorf("printed choice differs from the model file's %+v:\n%s", c, out)
	}
	mustRun(t, "predict", "-model", model, "-data", test, "-out", pred)
	head, recs := readCSV(t, pred)
	p := column(t, head, recs, "prediction")
	sse := 0.0
	for i, v := range p {
		sse += (v - yt[i]) * (v - yt[i])
	}
	got, oracle := math.Sqrt(sse/float64(len(p))), oracleRMSE(x, y, xt, yt)
	t.Logf("test RMSE %.4f, oracle grid %.4f (noise 0.1)", got, oracle)
	if !(got < 1.1*oracle) {
		t.Errorf("test RMSE %v of the default fit, %v of the oracle grid search", got, oracle)
	}
	out = mustRun(t, "fit", "-data", train, "-target", "y", "-out", model, "-quiet", "-exclude", "g", "-standardize=false", "-intercept=false")
	if !strings.Contains(out, `"x1", "x2", "k" (3 design columns, unscaled), no intercept`) || strings.Contains(out, "is constant") {
		t.Errorf("-standardize=false -intercept=false printed\n%s", out)
	}
	for _, sel := range []string{"holdout", "loo"} {
		out = mustRun(t, "fit", "-data", train, "-target", "y", "-out", model, "-quiet", "-selection", sel, "-onehot")
		if !strings.Contains(out, "criterion "+sel+" = ") || !strings.Contains(out, `"g"`) {
			t.Errorf("-selection %s -onehot printed\n%s", sel, out)
		}
	}
	// sweep: one row per (sigma, lambda) with the criterion; the best row
	// is the choice of fit.
	sw := filepath.Join(dir, "sweep.csv")
	stdout := mustRun(t, "sweep", "-data", train, "-target", "y", "-out", sw, "-quiet", "-exclude", "g")
	head, recs = readCSV(t, sw)
	if !strings.Contains(strings.Join(head, ","), "criterion,score,stage,best") || len(recs) < 20 {
		t.Fatalf("sweep header %v, %d rows", head, len(recs))
	}
	mustRun(t, "fit", "-data", train, "-target", "y", "-out", model, "-quiet", "-exclude", "g")
	if m, err = frames.LoadModelFile(model); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "sigma="+strconv.FormatFloat(m.Choice.Sigma, 'g', 4, 64)) {
		t.Errorf("sweep best %q, fit chose sigma %v", stdout, m.Choice.Sigma)
	}
}
