// Command credlab-bench times credlab on the tasks of bench/compare.sh.
//
//	credlab-bench -gen -dir DIR [-quick]     write the data and tasks.json
//	credlab-bench -dir DIR [-repeats R]      run the tasks in DIR/tasks.json
//
// A task is run R times, or fewer once its runs took -budget seconds.
// The data are SmoothRegression samples (d = 10, noise 0.2, seeded) written
// as little-endian float64 row-major files that bench/sklearn_bench.py reads
// too, so both sides fit identical data with identical parameters. Each task
// prints one JSON line: the median of R timed fits, every time, the
// validation RMSE (hold-out tasks), the test RMSE on a separate noisy test
// set, and Fit.Timing of the median run. Only the fit is timed; test
// predictions are not. Methods named "+nu" run the nu-method
// (IterConfig.Accelerated); iterative methods use credlab's default step,
// MaxIter and stopping threshold unless -maxiter is given.
//
// The tune task is model selection from scratch: -gen writes, for the
// synthetic problem and the real sets of -shared (cadata, cpusmall,
// abalone), a seeded train/test split as CSV files (the first n rows of a
// seeded permutation for training, a fixed test set), and credlab's
// default fit, frames.Fit with only Target (and OneHot for abalone's
// nominal column) set, is timed on them against GridSearchCV in
// sklearn_bench.py.
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

const (
	dim       = 10
	noise     = 0.2
	sigma     = 1.5 // Gaussian bandwidth; sklearn gamma = 1 / (2 sigma^2)
	trainSeed = 1
	testSeed  = 2
	nTest     = 5000
	splitSeed = 7   // credlab Holdout.Seed of the selection tasks
	valFrac   = 0.2 // credlab Holdout.Fraction; sklearn PredefinedSplit uses the same rows
	nySeed    = 3   // credlab Nyström center seed
	tuneSeed  = 11  // permutation of the tune task's train/test split
	tuneTest  = 2000
)

// tuneSigmaFactors and tuneLambdas are scikit-learn's grid in the tune
// task: gamma = 1/(2 sigma^2) for sigma = factor x the median distance
// between standardized training rows, alpha = lambda x the rows of a fit.
var (
	tuneSigmaFactors = []float64{0.25, 0.5, 1, 2, 4}
	tuneLambdas      = credlab.LogGrid(1e-8, 1, 20)
)

// Task is one benchmark, shared with sklearn_bench.py through tasks.json.
type Task struct {
	Name string `json:"name"` // krls_fit, nystrom_fit, select
	N    int    `json:"n"`
	M    int    `json:"m,omitempty"`
	// Lambda is credlab's lambda of fixed-lambda fits (sklearn alpha =
	// lambda * n); Grid the lambdas of selection tasks (sklearn alpha =
	// lambda * n_train).
	Lambda float64   `json:"lambda,omitempty"`
	Grid   []float64 `json:"grid,omitempty"`
	// ValFile lists the validation rows (int64) of a hold-out task; NTrain
	// is the number of training rows.
	ValFile string `json:"val_file,omitempty"`
	NTrain  int    `json:"n_train,omitempty"`
	// The tune task: data set, CSV files, target and one-hot columns, and
	// scikit-learn's grid.
	Set          string    `json:"set,omitempty"`
	TrainFile    string    `json:"train_file,omitempty"`
	TestFile     string    `json:"test_file,omitempty"`
	Target       string    `json:"target,omitempty"`
	OneHot       []string  `json:"one_hot,omitempty"`
	SigmaFactors []float64 `json:"sigma_factors,omitempty"`
}

// Spec is tasks.json.
type Spec struct {
	D       int     `json:"d"`
	Sigma   float64 `json:"sigma"`
	Gamma   float64 `json:"gamma"`
	Noise   float64 `json:"noise"`
	NTrain  int     `json:"n_rows"` // rows in train_x.f64; tasks use the first n
	NTest   int     `json:"n_test"`
	Quick   bool    `json:"quick"`
	Repeats int     `json:"repeats"`
	Tasks   []Task  `json:"tasks"`
}

// Result is one output line.
type Result struct {
	Side     string    `json:"side"`
	Method   string    `json:"method"`
	Task     string    `json:"task"`
	Set      string    `json:"set,omitempty"`
	N        int       `json:"n"`
	M        int       `json:"m,omitempty"`
	Seconds  float64   `json:"seconds"`
	All      []float64 `json:"all"`
	CPU      float64   `json:"cpu_s"` // user+system CPU seconds of the median run
	Load     float64   `json:"load1"` // 1-minute load average before the task
	ValRMSE  *float64  `json:"val_rmse,omitempty"`
	TestRMSE float64   `json:"test_rmse"`
	Lambda   float64   `json:"lambda,omitempty"`
	Iter     int       `json:"iter,omitempty"`
	Steps    int       `json:"steps,omitempty"`
	Kernel   float64   `json:"kernel_s"`
	Solve    float64   `json:"solve_s"`
	Select   float64   `json:"select_s"`
	Sigma    float64   `json:"sigma,omitempty"`
	Choice   string    `json:"choice,omitempty"`
	Warnings []string  `json:"warnings,omitempty"`
	BLAS     string    `json:"blas"`
	CoreType string    `json:"openblas_coretype"`
	Procs    int       `json:"gomaxprocs"`
}

func main() {
	gen := flag.Bool("gen", false, "write the data and tasks.json to -dir and exit")
	dir := flag.String("dir", "", "data directory")
	quick := flag.Bool("quick", false, "small sizes (with -gen)")
	shared := flag.String("shared", "", "directory of the staged real data sets (cadata, cpusmall, abalone) for the tune task (with -gen; empty: synthetic only)")
	tuneSizes := flag.String("tune-sizes", "", "comma-separated training sizes of the tune task (with -gen; default 5000,10000, or 1000 with -quick)")
	tuneSets := flag.String("tune-sets", "", "comma-separated data sets of the tune task (with -gen; default synthetic,cadata,cpusmall,abalone)")
	repeats := flag.Int("repeats", 0, "timed fits per task (default from tasks.json)")
	only := flag.String("only", "", "comma-separated methods to run (default all)")
	tasks := flag.String("task", "", "comma-separated tasks to run: krls_fit, nystrom_fit, select, tune (default all)")
	maxIter := flag.Int("maxiter", 0, "MaxIter of NYTRO and EarlyStopping (0: credlab's default)")
	budget := flag.Float64("budget", 120, "stop repeating a task once its runs took this many seconds")
	flag.Parse()
	if *dir == "" {
		fail(fmt.Errorf("-dir is required"))
	}
	if *gen {
		fail(generate(*dir, *quick, *shared, *tuneSizes, *tuneSets))
		return
	}
	fail(run(*dir, *repeats, *only, *tasks, *maxIter, *budget))
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "credlab-bench:", err)
		os.Exit(1)
	}
}

func generate(dir string, quick bool, shared, tuneSizes, tuneSets string) error {
	spec := Spec{D: dim, Sigma: sigma, Gamma: 1 / (2 * sigma * sigma), Noise: noise, NTest: nTest, Quick: quick}
	grid := credlab.LogGrid(1e-9, 1e-1, 20)
	lam := 1e-6
	var krlsN []int
	var nyN, nyM, selN, selM int
	if quick {
		krlsN, nyN, nyM, selN, selM = []int{1000, 2000}, 10000, 200, 1000, 200
		spec.Repeats = 3
	} else {
		krlsN, nyN, nyM, selN, selM = []int{5000, 10000}, 100000, 1000, 5000, 1000
		spec.Repeats = 3
	}
	for _, n := range krlsN {
		spec.Tasks = append(spec.Tasks, Task{Name: "krls_fit", N: n, Lambda: lam})
	}
	spec.Tasks = append(spec.Tasks, Task{Name: "nystrom_fit", N: nyN, M: nyM, Lambda: lam})
	val, err := splitRows(selN)
	if err != nil {
		return err
	}
	valFile := fmt.Sprintf("val_n%d.i64", selN)
	spec.Tasks = append(spec.Tasks, Task{Name: "select", N: selN, M: selM, Grid: grid, ValFile: valFile, NTrain: selN - len(val)})
	spec.NTrain = max(slices.Max(krlsN), nyN, selN)

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// SmoothRegression draws rows in sequence, so the first n rows of the
	// largest sample are the sample of size n.
	x, y, _ := credlab.SmoothRegression(spec.NTrain, dim, noise, trainSeed)
	xt, yt, _ := credlab.SmoothRegression(nTest, dim, noise, testSeed)
	for name, v := range map[string][]float64{
		"train_x.f64": x.RawMatrix().Data, "train_y.f64": y,
		"test_x.f64": xt.RawMatrix().Data, "test_y.f64": yt,
	} {
		if err := writeF64(filepath.Join(dir, name), v); err != nil {
			return err
		}
	}
	iv := make([]int64, len(val))
	for i, v := range val {
		iv[i] = int64(v)
	}
	if err := writeLE(filepath.Join(dir, valFile), iv); err != nil {
		return err
	}
	sizes := []int{5000, 10000}
	if quick {
		sizes = []int{500}
	}
	if tuneSizes != "" {
		sizes = nil
		for _, f := range strings.Split(tuneSizes, ",") {
			var n int
			if _, err := fmt.Sscan(f, &n); err != nil || n < 10 {
				return fmt.Errorf("-tune-sizes: %q is not a size of at least 10", f)
			}
			sizes = append(sizes, n)
		}
	}
	sets := tuneSets
	if sets == "" {
		sets = "synthetic,cadata,cpusmall,abalone"
	}
	for _, name := range strings.Split(sets, ",") {
		ts, err := tuneData(dir, shared, name, sizes)
		if err != nil {
			return err
		}
		spec.Tasks = append(spec.Tasks, ts...)
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "tasks.json"), append(b, '\n'), 0o644)
}

// tuneSet reads a data set of the tune task: the frame, its target and its
// string columns.
func tuneSet(shared, name string, rows int) (dataframe.DataFrame, string, []string, error) {
	var df dataframe.DataFrame
	var err error
	need := func() error {
		if shared == "" {
			return fmt.Errorf("tune set %s needs -shared, the staged data directory", name)
		}
		return nil
	}
	switch name {
	case "synthetic":
		x, y, _ := credlab.SmoothRegression(rows, dim, noise, trainSeed)
		if df, err = frames.FromMatrix(x); err == nil {
			df = df.Mutate(series.New(y, series.Float, "y"))
		}
		return df, "y", nil, err
	case "cadata":
		if err := need(); err != nil {
			return df, "", nil, err
		}
		df, err = frames.LoadARFF(filepath.Join(shared, "cadata", "cal_housing.arff"))
		return df, "medianHouseValue", nil, err
	case "cpusmall":
		if err := need(); err != nil {
			return df, "", nil, err
		}
		df, err = frames.LoadARFF(filepath.Join(shared, "cpusmall", "cpu_small.arff"))
		return df, "usr", nil, err
	case "abalone":
		if err := need(); err != nil {
			return df, "", nil, err
		}
		df, err = frames.LoadCSV(filepath.Join(shared, "abalone", "abalone.data"), frames.CSVOptions{
			Names: []string{"sex", "length", "diameter", "height", "whole", "shucked", "viscera", "shell", "rings"}})
		return df, "rings", []string{"sex"}, err
	}
	return df, "", nil, fmt.Errorf("unknown tune set %q: choose synthetic, cadata, cpusmall or abalone", name)
}

// tuneData writes a tune set's split and returns its tasks: the test set
// is min(2000, N/5) rows of a seeded permutation, and the training file of
// size n the first n of the other rows (all of them when fewer).
func tuneData(dir, shared, name string, sizes []int) ([]Task, error) {
	df, target, oneHot, err := tuneSet(shared, name, tuneTest+slices.Max(sizes))
	if err != nil {
		return nil, fmt.Errorf("tune set %s: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	n := df.Nrow()
	perm := rand.New(rand.NewPCG(tuneSeed, 0)).Perm(n)
	nTest := min(tuneTest, n/5)
	write := func(file string, rows []int) error {
		f, err := os.Create(filepath.Join(dir, file))
		if err != nil {
			return err
		}
		if err := frames.WriteCSV(f, df.Subset(rows)); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	testFile := name + "_test.csv"
	if err := write(testFile, perm[:nTest]); err != nil {
		return nil, err
	}
	pool := perm[nTest:]
	var tasks []Task
	done := map[int]bool{}
	for _, size := range sizes {
		m := min(size, len(pool))
		if done[m] {
			continue
		}
		done[m] = true
		file := fmt.Sprintf("%s_n%d_train.csv", name, m)
		if err := write(file, pool[:m]); err != nil {
			return nil, err
		}
		tasks = append(tasks, Task{Name: "tune", N: m, Set: name, TrainFile: file, TestFile: testFile, Target: target,
			OneHot: oneHot, SigmaFactors: tuneSigmaFactors, Grid: tuneLambdas})
	}
	return tasks, nil
}

// splitRows returns the validation rows credlab's Holdout{Fraction: valFrac,
// Seed: splitSeed} sets aside among the first n rows. credlab does not
// export its split, so it is read back from a cheap fit: an exact method's
// model centers are the training rows, in order; every other row is a
// validation row. The training rows are found by matching row contents.
func splitRows(n int) ([]int, error) {
	x, y, _ := credlab.SmoothRegression(n, dim, noise, trainSeed)
	fit, err := credlab.EarlyStopping(context.Background(), x, y, credlab.EarlyStoppingConfig{
		Kernel:     credlab.GaussianKernel{Sigma: sigma},
		IterConfig: credlab.IterConfig{MaxIter: 1, Holdout: credlab.Holdout{Fraction: valFrac, Seed: splitSeed}},
	})
	if err != nil {
		return nil, err
	}
	key := func(r []float64) string { return fmt.Sprint(r) }
	rows := map[string][]int{}
	for i := 0; i < n; i++ {
		k := key(x.RawRowView(i))
		rows[k] = append(rows[k], i)
	}
	train := make([]bool, n)
	c := fit.Model.Centers
	nt, _ := c.Dims()
	for i := 0; i < nt; i++ {
		k := key(c.RawRowView(i))
		if len(rows[k]) == 0 {
			return nil, fmt.Errorf("training center %d is not a data row", i)
		}
		train[rows[k][0]] = true
		rows[k] = rows[k][1:]
	}
	var val []int
	for i, t := range train {
		if !t {
			val = append(val, i)
		}
	}
	return val, nil
}

func writeF64(path string, v []float64) error { return writeLE(path, v) }

func writeLE(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := binary.Write(w, binary.LittleEndian, v); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readF64(path string, n int) ([]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 8*n {
		return nil, fmt.Errorf("%s: %d bytes, need %d", path, len(b), 8*n)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}

func run(dir string, repeats int, only, tasks string, maxIter int, budget float64) error {
	b, err := os.ReadFile(filepath.Join(dir, "tasks.json"))
	if err != nil {
		return fmt.Errorf("%w (run with -gen first)", err)
	}
	var spec Spec
	if err := json.Unmarshal(b, &spec); err != nil {
		return err
	}
	if repeats <= 0 {
		repeats = spec.Repeats
	}
	xs, err := readF64(filepath.Join(dir, "train_x.f64"), spec.NTrain*spec.D)
	if err != nil {
		return err
	}
	ys, err := readF64(filepath.Join(dir, "train_y.f64"), spec.NTrain)
	if err != nil {
		return err
	}
	txs, err := readF64(filepath.Join(dir, "test_x.f64"), spec.NTest*spec.D)
	if err != nil {
		return err
	}
	tys, err := readF64(filepath.Join(dir, "test_y.f64"), spec.NTest)
	if err != nil {
		return err
	}
	xtest := mat.NewDense(spec.NTest, spec.D, txs)
	want, wantTask := set(only), set(tasks)
	k := credlab.GaussianKernel{Sigma: spec.Sigma}
	ctx := context.Background()
	enc := json.NewEncoder(os.Stdout)
	for _, t := range spec.Tasks {
		if len(wantTask) > 0 && !wantTask[t.Name] {
			continue
		}
		if t.Name == "tune" {
			if err := runTune(ctx, dir, t, repeats, budget, enc); err != nil {
				return fmt.Errorf("tune %s n=%d: %w", t.Set, t.N, err)
			}
			continue
		}
		x := mat.NewDense(t.N, spec.D, xs[:t.N*spec.D])
		y := ys[:t.N]
		type method struct {
			name string
			fit  func() (*credlab.Fit, error)
		}
		var ms []method
		it := credlab.IterConfig{MaxIter: maxIter, Holdout: credlab.Holdout{Fraction: valFrac, Seed: splitSeed}}
		itNu := it
		itNu.Accelerated = true // the nu-method
		nyc := credlab.NystromConfig{M: t.M, Seed: nySeed}
		switch t.Name {
		case "krls_fit":
			ms = []method{{"KRLS", func() (*credlab.Fit, error) {
				return credlab.KRLS(ctx, x, y, credlab.KRLSConfig{Kernel: k, Lambda: t.Lambda})
			}}}
		case "nystrom_fit":
			ms = []method{
				{"NKRLS", func() (*credlab.Fit, error) {
					return credlab.NKRLS(ctx, x, y, credlab.NKRLSConfig{Kernel: k, Nystrom: nyc, Lambda: t.Lambda})
				}},
				{"NYTRO", func() (*credlab.Fit, error) {
					return credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: nyc, IterConfig: it})
				}},
				{"NYTRO+nu", func() (*credlab.Fit, error) {
					return credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: nyc, IterConfig: itNu})
				}},
			}
		case "select":
			h := credlab.Holdout{Fraction: valFrac, Seed: splitSeed}
			ms = []method{
				{"KRLS", func() (*credlab.Fit, error) {
					return credlab.KRLS(ctx, x, y, credlab.KRLSConfig{Kernel: k, Lambdas: t.Grid, Holdout: h})
				}},
				{"NKRLS", func() (*credlab.Fit, error) {
					return credlab.NKRLS(ctx, x, y, credlab.NKRLSConfig{Kernel: k, Nystrom: nyc, Lambdas: t.Grid, Holdout: h})
				}},
				{"NYTRO", func() (*credlab.Fit, error) {
					return credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: nyc, IterConfig: it})
				}},
				{"NYTRO+nu", func() (*credlab.Fit, error) {
					return credlab.NYTRO(ctx, x, y, credlab.NYTROConfig{Kernel: k, Nystrom: nyc, IterConfig: itNu})
				}},
				{"EarlyStopping", func() (*credlab.Fit, error) {
					return credlab.EarlyStopping(ctx, x, y, credlab.EarlyStoppingConfig{Kernel: k, IterConfig: it})
				}},
				{"EarlyStopping+nu", func() (*credlab.Fit, error) {
					return credlab.EarlyStopping(ctx, x, y, credlab.EarlyStoppingConfig{Kernel: k, IterConfig: itNu})
				}},
			}
		default:
			return fmt.Errorf("unknown task %q", t.Name)
		}
		for _, m := range ms {
			if len(want) > 0 && !want[m.name] {
				continue
			}
			r := Result{Side: "credlab", Method: m.name, Task: t.Name, N: t.N, M: t.M,
				BLAS: credlab.BLASBackend, CoreType: os.Getenv("OPENBLAS_CORETYPE"), Procs: runtime.GOMAXPROCS(0)}
			r.Load = loadAvg()
			var fits []*credlab.Fit
			var cpus []float64
			spent := 0.0
			for i := 0; i < repeats && spent < budget; i++ {
				runtime.GC()
				c0 := cpuSeconds()
				t0 := time.Now()
				fit, err := m.fit()
				sec := time.Since(t0).Seconds()
				cpus = append(cpus, cpuSeconds()-c0)
				if err != nil {
					return fmt.Errorf("%s %s n=%d: %w", m.name, t.Name, t.N, err)
				}
				r.All = append(r.All, sec)
				spent += sec
				fits = append(fits, fit)
			}
			med := medianIndex(r.All)
			r.Seconds, r.CPU = r.All[med], cpus[med]
			fit := fits[med]
			fits = nil
			if !math.IsNaN(fit.ValRMSE) {
				v := fit.ValRMSE
				r.ValRMSE = &v
			}
			r.Lambda, r.Iter, r.Steps = fit.Lambda, fit.Iter, len(fit.Path)
			if t.Name == "krls_fit" || m.name == "NKRLS" && t.Name == "nystrom_fit" {
				r.Steps = 0
			}
			r.Kernel, r.Solve, r.Select = fit.Timing.Kernel.Seconds(), fit.Timing.Solve.Seconds(), fit.Timing.Select.Seconds()
			pred, err := fit.Model.Predict(xtest)
			if err != nil {
				return err
			}
			r.TestRMSE = credlab.RMSE(pred, tys)
			if err := enc.Encode(r); err != nil {
				return err
			}
			fit = nil
			runtime.GC()
		}
	}
	return nil
}

// runTune times credlab's default fit (frames.Fit with only the target and
// the one-hot columns set) on a tune task's training file and reports its
// choice and the test RMSE. Loading the CSV files is not timed.
func runTune(ctx context.Context, dir string, t Task, repeats int, budget float64, enc *json.Encoder) error {
	train, err := frames.LoadCSV(filepath.Join(dir, t.TrainFile))
	if err != nil {
		return err
	}
	test, err := frames.LoadCSV(filepath.Join(dir, t.TestFile))
	if err != nil {
		return err
	}
	spec := frames.Spec{Target: t.Target, OneHot: len(t.OneHot) > 0}
	r := Result{Side: "credlab", Method: "credlab fit (default)", Task: t.Name, Set: t.Set, N: t.N,
		BLAS: credlab.BLASBackend, CoreType: os.Getenv("OPENBLAS_CORETYPE"), Procs: runtime.GOMAXPROCS(0), Load: loadAvg()}
	var models []*frames.Model
	var cpus []float64
	spent := 0.0
	for i := 0; i < repeats && spent < budget; i++ {
		runtime.GC()
		c0 := cpuSeconds()
		t0 := time.Now()
		m, err := frames.FitContext(ctx, train, spec)
		sec := time.Since(t0).Seconds()
		cpus = append(cpus, cpuSeconds()-c0)
		if err != nil {
			return err
		}
		r.All = append(r.All, sec)
		spent += sec
		models = append(models, m)
	}
	med := medianIndex(r.All)
	r.Seconds, r.CPU = r.All[med], cpus[med]
	m := models[med]
	if !math.IsNaN(m.ValRMSE) {
		v := m.ValRMSE
		r.ValRMSE = &v
	}
	r.Lambda, r.Sigma, r.M, r.Warnings = m.Lambda, m.Spec.Sigma, m.Spec.M, m.Warnings
	if m.Choice != nil {
		r.Choice = fmt.Sprintf("%s %s: %s", m.Spec.Method, m.Choice.Criterion, m.Choice.Reason)
	}
	if r.TestRMSE, err = m.RMSE(test); err != nil {
		return err
	}
	return enc.Encode(r)
}

// cpuSeconds returns the user and system CPU time of the process.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// loadAvg returns the 1-minute load average, NaN where unknown.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return math.NaN()
	}
	var l float64
	if _, err := fmt.Sscan(string(b), &l); err != nil {
		return math.NaN()
	}
	return l
}

func set(list string) map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if s != "" {
			m[s] = true
		}
	}
	return m
}

// medianIndex returns the index of the median of v (the lower one for an
// even count).
func medianIndex(v []float64) int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	return idx[(len(v)-1)/2]
}
