package credbeam

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// NystromSpec configures NystromFit: M centers, the training rows with
// the M smallest RowHash(Seed, PurposeCenter, ...); a Gaussian kernel of
// bandwidth Sigma (0: credlab.MedianDistance of the centers); rows held
// out for validation when RowHash(Seed, PurposeSplit, ...) falls in the
// first ValFraction (default 0.2; negative: none) of its range; Method "nkrls" (default:
// ridge, lambda fixed by Lambda or chosen on the validation statistics
// from Lambdas) or "nytro" (gradient steps, stopped on the validation
// statistics, or exactly Iter steps).
type NystromSpec struct {
	Spec
	M           int
	Sigma       float64
	Seed        uint64
	ValFraction float64
	Method      string
	Lambda      float64
	Lambdas     []float64
	// NYTRO: StepSize (0: credlab's default), Iter > 0 fixes the number of
	// steps, MaxIter bounds them otherwise.
	StepSize float64
	Iter     int
	MaxIter  int
	// Tol is the Nyström pivot tolerance (0: credlab.DefaultNystromTol).
	Tol   float64
	Block int
}

func (c NystromSpec) valFraction() float64 {
	switch {
	case c.ValFraction == 0:
		return 0.2
	case c.ValFraction < 0:
		return 0 // no validation rows
	}
	return c.ValFraction
}

func (c NystromSpec) check() error {
	if c.Target == "" {
		return fmt.Errorf("credbeam: NystromSpec.Target is empty: want the response column")
	}
	if _, err := c.layout(); err != nil {
		return err
	}
	switch {
	case c.M <= 0:
		return fmt.Errorf("credbeam: NystromSpec.M = %d: want a positive number of centers", c.M)
	case c.Sigma < 0 || math.IsNaN(c.Sigma) || math.IsInf(c.Sigma, 0):
		return fmt.Errorf("credbeam: NystromSpec.Sigma = %v: want a positive bandwidth (0: median distance of the centers)", c.Sigma)
	case !(c.ValFraction < 1) || math.IsInf(c.ValFraction, -1):
		return fmt.Errorf("credbeam: NystromSpec.ValFraction = %v: want a fraction below 1 (0 means 0.2, a negative value no validation rows)", c.ValFraction)
	case c.Method != "" && c.Method != "nkrls" && c.Method != "nytro":
		return fmt.Errorf("credbeam: NystromSpec.Method = %q: want \"nkrls\" or \"nytro\"", c.Method)
	case c.Lambda < 0 || math.IsNaN(c.Lambda):
		return fmt.Errorf("credbeam: NystromSpec.Lambda = %v: want lambda >= 0 (0: chosen on validation)", c.Lambda)
	case c.Block < 0:
		return fmt.Errorf("credbeam: NystromSpec.Block = %d: want a positive block (0 means 4096)", c.Block)
	}
	return nil
}

// Center is a candidate Nyström center: a training row and its hash.
type Center struct {
	Hash uint64
	File string
	Line int
	X    []float64
}

// hashLess orders rows by hash, then shard and line: the order of the
// rows of smallest hash (centers, audit rows) whatever order they arrive in.
func hashLess(ha uint64, fa string, la int, hb uint64, fb string, lb int) bool {
	if ha != hb {
		return ha < hb
	}
	if fa != fb {
		return fa < fb
	}
	return la < lb
}

func centerLess(a, b Center) bool { return hashLess(a.Hash, a.File, a.Line, b.Hash, b.File, b.Line) }

// Centers holds up to M candidate centers, sorted by hash.
type Centers struct {
	Items []Center
	// Shards counts the shards read; zero when every shard failed (the
	// empty accumulator).
	Shards int
}

// keepSmallest sorts c and keeps its m smallest: the result does not
// depend on the order candidates arrive in.
func keepSmallest(c []Center, m int) []Center {
	sort.Slice(c, func(i, j int) bool { return centerLess(c[i], c[j]) })
	return c[:min(len(c), m)]
}

// NystromParams is the Nyström map every worker rebuilds: the kernel of
// family Kernel ("" or "gaussian": credlab.GaussianKernel; "matern52",
// "matern32": credlab.MaternKernel; "manhattan": credlab.ManhattanKernel)
// and bandwidth Sigma on Centers (in
// hash order; CenterFiles and CenterLines locate them), factored by
// credlab.NewNystrom with tolerance Tol to rank Rank.
type NystromParams struct {
	Kernel string
	Sigma  float64
	// Scales, when set, are per-column scales of the kernel
	// (credlab.GaussianKernel.Scales): LCMDSample's 1/standard deviation of
	// each column over the centers, which standardizes the columns.
	Scales      []float64
	Centers     [][]float64
	CenterFiles []string
	CenterLines []int
	Tol         float64
	Rank        int
}

// Map rebuilds the Nyström map: O(m^2 d + m^3/3).
func (s NystromParams) Map() (*credlab.Nystrom, error) {
	if len(s.Centers) == 0 {
		return nil, fmt.Errorf("credbeam: Nyström parameters without centers")
	}
	d := len(s.Centers[0])
	c := mat.NewDense(len(s.Centers), d, nil)
	idx := make([]int, len(s.Centers))
	for i, r := range s.Centers {
		if len(r) != d {
			return nil, fmt.Errorf("credbeam: Nyström center %d has %d values, want %d", i, len(r), d)
		}
		c.SetRow(i, r)
		idx[i] = i
	}
	k, err := s.kernel()
	if err != nil {
		return nil, err
	}
	return credlab.NewNystrom(k, c, idx, s.Tol)
}

// kernel returns the kernel of the family, bandwidth and column scales.
func (s NystromParams) kernel() (credlab.Kernel, error) {
	return kernelOf(s.Kernel, s.Sigma, s.Scales)
}

// kernelOf returns the kernel of a family name ("" is "gaussian").
func kernelOf(family string, sigma float64, scales []float64) (credlab.Kernel, error) {
	switch family {
	case "", "gaussian":
		return credlab.GaussianKernel{Sigma: sigma, Scales: scales}, nil
	case "matern52":
		return credlab.MaternKernel{Nu: 2.5, Sigma: sigma, Scales: scales}, nil
	case "matern32":
		return credlab.MaternKernel{Nu: 1.5, Sigma: sigma, Scales: scales}, nil
	case "manhattan":
		return credlab.ManhattanKernel{Sigma: sigma, Scales: scales}, nil
	}
	return nil, fmt.Errorf("credbeam: kernel %q: want gaussian, matern52, matern32 or manhattan", family)
}

// familyOf names a kernel's family as kernelOf takes it.
func familyOf(k credlab.Kernel) string {
	switch k := k.(type) {
	case credlab.MaternKernel:
		if k.Nu == 1.5 {
			return "matern32"
		}
		return "matern52"
	case credlab.ManhattanKernel:
		return "manhattan"
	}
	return "gaussian"
}

// TrainVal are the Gram statistics of the training and validation rows.
type TrainVal struct {
	Train, Val credlab.GramStats
}

// NystromOutput holds the PCollections of NystromFit.
type NystromOutput struct {
	Params beam.PCollection // one NystromParams
	Stats  beam.PCollection // one TrainVal
	Model  beam.PCollection // one string: the model as JSON (ModelFile)
}

// NystromFit adds the Nyström kernel regression of the pool whose shards
// are the file names in files:
//
//  1. pass 1 keeps, per shard, the M training rows of smallest hash, and
//     one element keeps the M smallest of all (M d floats per shard move);
//  2. one element builds the Nyström factor on them (O(M^2 d + M^3/3)),
//     broadcast as a side input (M d floats);
//  3. pass 2 maps every row to its Nyström features (O(M d + M^2) per row)
//     and adds the training and validation Gram statistics per shard,
//     combined over shards (2 M^2 floats per shard move);
//  4. one element solves for the model with credlab.RidgeGram (NKRLS) or
//     credlab.GradientGram (NYTRO): O(M^3) at most, whatever the rows.
//
// No machine holds the rows: the model is trained on statistics alone,
// and equals credlab.NKRLS on the training rows with the same centers,
// kernel and lambda. As in CREDSample, the stages after a failed one emit
// nothing, and an empty files collection gives no model and no error.
func NystromFit(s beam.Scope, files beam.PCollection, cfg NystromSpec) (NystromOutput, error) {
	if err := cfg.check(); err != nil {
		return NystromOutput{}, err
	}
	s = s.Scope("credbeam.NystromFit")
	files = beam.Reshuffle(s, files) // spread the shards over the workers (no fusion with their source)
	var out NystromOutput
	out.Params = nystromCenters(s, files, centerFn{Spec: cfg.Spec, M: cfg.M, Seed: cfg.Seed, Val: cfg.valFraction(), Block: cfg.Block}, nystromParamsFn{M: cfg.M, Sigma: cfg.Sigma, Tol: cfg.Tol})
	stats := beam.ParDo(s, &splitStatsFn{Cfg: cfg}, files, beam.SideInput{Input: out.Params})
	out.Stats = beam.Combine(s, &trainValCombine{}, stats)
	out.Model = beam.ParDo(s, &fitFn{Cfg: cfg}, out.Stats, beam.SideInput{Input: out.Params})
	return out, nil
}

// nystromCenters adds the choice of the Nyström centers (the rows of
// smallest RowHash(Seed, PurposeCenter, ...) among the rows cf keeps) and
// the map's parameters on them.
func nystromCenters(s beam.Scope, files beam.PCollection, cf centerFn, sf nystromParamsFn) beam.PCollection {
	cands := beam.ParDo(s, &cf, files)
	all := beam.Combine(s, &centerCombine{M: cf.M}, cands)
	sf.Split = cf.Val > 0
	return beam.ParDo(s, &sf, all)
}

// centerFn keeps a shard's M rows of smallest hash, among its training
// rows when Val > 0 (the validation fraction): O(n log M).
type centerFn struct {
	Spec  Spec
	M     int
	Seed  uint64
	Val   float64
	Block int
	lay   layout
}

func (f *centerFn) Setup() error {
	var err error
	f.lay, err = f.Spec.layout()
	return err
}

func (f *centerFn) ProcessElement(ctx context.Context, file string, emit func(Centers)) error {
	m := f.M
	var keep []Center
	// thresh is the m-th smallest hash of keep when it was last sorted: a
	// row above it cannot be among the shard's m smallest.
	thresh := uint64(math.MaxUint64)
	err := readShard(ctx, file, f.Spec, f.lay, f.Block, func(b *block) error {
		r, _ := b.x.Dims()
		for i := range r {
			if f.Val > 0 && IsValidation(f.Seed, f.Val, file, b.lines[i]) {
				continue
			}
			h := RowHash(f.Seed, PurposeCenter, file, b.lines[i])
			if h > thresh {
				continue
			}
			keep = append(keep, Center{Hash: h, File: file, Line: b.lines[i], X: append([]float64(nil), b.x.RawRowView(i)...)})
			if len(keep) >= 4*m {
				keep = keepSmallest(keep, 2*m)
				thresh = keep[m-1].Hash
			}
		}
		return nil
	}, nil)
	if err != nil {
		return err
	}
	emit(Centers{Items: keepSmallest(keep, m), Shards: 1})
	return nil
}

// centerCombine keeps the M smallest candidates of all shards.
type centerCombine struct{ M int }

func (c *centerCombine) MergeAccumulators(a, b Centers) Centers {
	return Centers{Items: keepSmallest(append(append([]Center(nil), a.Items...), b.Items...), c.M), Shards: a.Shards + b.Shards}
}

// nystromParamsFn builds the Nyström map on the centers.
// With Standardize the kernel scales each column by 1/(its standard
// deviation over the centers), a uniform sample of the pool; Scales, when
// set, are the kernel's scales instead.
type nystromParamsFn struct {
	Kernel      string
	M           int
	Sigma       float64
	Scales      []float64
	Tol         float64
	Split       bool
	Standardize bool
}

func (f *nystromParamsFn) ProcessElement(c Centers, emit func(NystromParams)) error {
	if c.Shards == 0 {
		return nil // no shard was read: a shard failed, and its error is the pipeline's
	}
	if len(c.Items) < f.M {
		rows := "rows"
		if f.Split {
			rows = "training rows"
		}
		return fmt.Errorf("credbeam: the pool has %d %s, fewer than the M = %d Nyström centers", len(c.Items), rows, f.M)
	}
	spec := NystromParams{Kernel: f.Kernel, Sigma: f.Sigma, Tol: f.Tol}
	for _, it := range c.Items {
		spec.Centers = append(spec.Centers, it.X)
		spec.CenterFiles = append(spec.CenterFiles, it.File)
		spec.CenterLines = append(spec.CenterLines, it.Line)
	}
	cm := mat.NewDense(len(spec.Centers), len(spec.Centers[0]), nil)
	for i, r := range spec.Centers {
		cm.SetRow(i, r)
	}
	spec.Scales = f.Scales
	if f.Standardize {
		spec.Scales = make([]float64, len(spec.Centers[0]))
		for j := range spec.Scales {
			col := mat.Col(nil, j, cm)
			if sd := stat.StdDev(col, nil); sd > 0 {
				spec.Scales[j] = 1 / sd
			}
			for i, v := range col {
				cm.Set(i, j, v*spec.Scales[j])
			}
		}
	}
	if spec.Sigma == 0 {
		spec.Sigma = credlab.MedianDistance(cm)
		if !(spec.Sigma > 0) {
			return fmt.Errorf("credbeam: the median distance of the %d Nyström centers is %v: set the bandwidth Sigma", len(spec.Centers), spec.Sigma)
		}
	}
	ny, err := spec.Map()
	if err != nil {
		return fmt.Errorf("credbeam: Nyström map on %d centers: %w", len(spec.Centers), err)
	}
	spec.Rank = ny.Rank()
	emit(spec)
	return nil
}

// splitStatsFn adds a shard's training and validation statistics in the
// Nyström features: O(n (M d + M^2)).
type splitStatsFn struct {
	Cfg NystromSpec
	lay layout
	ny  *credlab.Nystrom
}

func (f *splitStatsFn) Setup() error {
	var err error
	f.lay, err = f.Cfg.layout()
	return err
}

func (f *splitStatsFn) ProcessElement(ctx context.Context, file string, specIt func(*NystromParams) bool, emit func(TrainVal)) error {
	var spec NystromParams
	if !specIt(&spec) {
		return nil // an upstream stage failed; its error is the pipeline's
	}
	if f.ny == nil { // the side input is one value for the whole pipeline
		ny, err := spec.Map()
		if err != nil {
			return err
		}
		f.ny = ny
	}
	r := f.ny.Rank()
	tr, err := credlab.NewGramStats(r)
	if err != nil {
		return err
	}
	va, _ := credlab.NewGramStats(r)
	frac := f.Cfg.valFraction()
	d := len(f.lay.x)
	err = readShard(ctx, file, f.Cfg.Spec, f.lay, f.Cfg.Block, func(b *block) error {
		n, _ := b.x.Dims()
		var ti, vi []int
		for i := range n {
			if IsValidation(f.Cfg.Seed, frac, file, b.lines[i]) {
				vi = append(vi, i)
			} else {
				ti = append(ti, i)
			}
		}
		for _, part := range []struct {
			g   *credlab.GramStats
			idx []int
		}{{tr, ti}, {va, vi}} {
			if len(part.idx) == 0 {
				continue
			}
			x := mat.NewDense(len(part.idx), d, nil)
			y := make([]float64, len(part.idx))
			for k, i := range part.idx {
				x.SetRow(k, b.x.RawRowView(i))
				y[k] = b.y[i]
			}
			if err := part.g.AddRows(ctx, f.ny, x, y, nil); err != nil {
				return &ShardError{File: file, Line: b.lines[0], Err: err}
			}
		}
		return nil
	}, nil)
	if err != nil {
		return err
	}
	emit(TrainVal{Train: *tr, Val: *va})
	return nil
}

// trainValCombine merges training and validation statistics.
type trainValCombine struct{}

func (trainValCombine) MergeAccumulators(a, b TrainVal) (TrainVal, error) {
	var err error
	var g gramCombine
	if a.Train, err = g.MergeAccumulators(a.Train, b.Train); err != nil {
		return a, err
	}
	a.Val, err = g.MergeAccumulators(a.Val, b.Val)
	return a, err
}

// fitFn solves for the model on the combined statistics.
type fitFn struct{ Cfg NystromSpec }

func (f *fitFn) ProcessElement(ctx context.Context, tv TrainVal, specIt func(*NystromParams) bool, emit func(string)) error {
	var spec NystromParams
	if tv.Train.Dim == 0 || !specIt(&spec) {
		return nil // a stage before failed, and its error is the pipeline's
	}
	ny, err := spec.Map()
	if err != nil {
		return err
	}
	fit, err := FitStats(ctx, f.Cfg, &tv, ny)
	if err != nil {
		return err
	}
	m, err := NewModelFile(f.Cfg, spec, fit, &tv)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	emit(string(b) + "\n")
	return nil
}

// FitStats fits the model of cfg's method on the combined statistics with
// the Nyström map ny: credlab.RidgeGram or credlab.GradientGram, with the
// validation statistics when they hold rows.
func FitStats(ctx context.Context, cfg NystromSpec, tv *TrainVal, ny *credlab.Nystrom) (*credlab.Fit, error) {
	if tv.Train.Dim == 0 || tv.Train.Rows == 0 {
		return nil, fmt.Errorf("credbeam: no training rows")
	}
	val := &tv.Val
	if val.Dim == 0 || val.Rows == 0 {
		val = nil
	}
	gc := credlab.GramFitConfig{Features: ny, Lambda: cfg.Lambda, Lambdas: cfg.Lambdas}
	var fit *credlab.Fit
	var err error
	if cfg.Method == "nytro" {
		gc.Iter = credlab.IterConfig{StepSize: cfg.StepSize, Iter: cfg.Iter, MaxIter: cfg.MaxIter}
		fit, err = credlab.GradientGram(ctx, &tv.Train, val, gc)
	} else {
		fit, err = credlab.RidgeGram(ctx, &tv.Train, val, gc)
	}
	if err != nil {
		return nil, fmt.Errorf("credbeam: fit on the statistics of %d training rows: %w", tv.Train.Rows, err)
	}
	return fit, nil
}
