package credbeam

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// LCMDSpec configures LCMDSample: Budget new rows chosen by LCMD
// (credlab.MethodLCMD) in the feature space of a radial kernel (Kernel:
// the Gaussian one by default), whose distances it measures exactly,
// 2 (1 - k(a, b)), as credlab.BatchSelector does in memory, on the
// columns standardized by their standard deviations over M rows (or
// scaled by Scales), of bandwidth Sigma (0: credlab.MedianDistance of
// those standardized rows, as credlab select uses before any label); the
// M rows (default credlab.DefaultBatchM) are the pool rows of smallest
// RowHash(Seed, PurposeCenter, ...); Labeled lists the rows already
// labeled, which count as chosen; each shard proposes Candidates rows
// (default the rows LCMD chooses: Budget less the audit sample).
//
// Audit is the share of the batch drawn as an audit sample, as
// credlab.BatchSelector.Audit does in memory: a = min(round(Audit Budget),
// Budget/2) rows, the unlabeled rows of smallest RowHash(Seed,
// PurposeAudit, ...), a uniform sample without replacement of the U
// unlabeled rows, each with the audit weight U/a (Selected.Audit, the
// "audit" column of WriteSelected, which credlab fit reads to estimate
// the model's error on the pool). LCMD neither chooses nor sees them, nor
// the rows of Audited, earlier audit rows among Labeled. Zero means
// DefaultAuditShare, a negative share none; at most 0.5.
//
// LabeledValues, when set, holds each Labeled row's features (Labeled's
// order; Labeled.Values of ReadLabeled): a shard whose row differs from
// them fails with a *ShardError naming the line and column, since the
// labeled rows then come from other shards or other rows.
type LCMDSpec struct {
	Spec
	Budget int
	M      int
	// Kernel is the kernel's family: "" or "gaussian", "matern52",
	// "matern32" or "manhattan" (Sigma then required), as TuneKernel
	// chooses it.
	Kernel string
	Sigma  float64
	// Scales, when set, are the kernel's per-column scales on the raw
	// columns (credlab.GaussianKernel.Scales; Sigma then required), such
	// as TuneKernel learns from the labels, in place of the
	// standardization over the centers.
	Scales        []float64
	Seed          uint64
	Labeled       []RowID
	Candidates    int
	Block         int
	Audit         float64
	Audited       []RowID
	LabeledValues [][]float64
}

// AuditSize returns a, the rows of the batch's audit sample.
func (c LCMDSpec) AuditSize() int {
	share := c.Audit
	if share == 0 {
		share = DefaultAuditShare
	}
	if share < 0 {
		return 0
	}
	return min(int(math.Round(share*float64(c.Budget))), c.Budget/2)
}

// RowID names a pool row: its shard, as in the files collection, and its
// 1-based line.
type RowID struct {
	File string
	Line int
}

func (c LCMDSpec) centers() int {
	if c.M == 0 {
		return credlab.DefaultBatchM
	}
	return c.M
}

func (c LCMDSpec) candidates() int {
	if c.Candidates == 0 {
		return c.Budget - c.AuditSize()
	}
	return c.Candidates
}

func (c LCMDSpec) check() error {
	if _, err := c.layout(); err != nil {
		return err
	}
	switch {
	case c.Budget <= 0:
		return fmt.Errorf("credbeam: LCMDSpec.Budget = %d: want a positive number of rows", c.Budget)
	case c.M < 0:
		return fmt.Errorf("credbeam: LCMDSpec.M = %d: want a positive number of centers (0: %d)", c.M, credlab.DefaultBatchM)
	case c.Candidates < 0:
		return fmt.Errorf("credbeam: LCMDSpec.Candidates = %d: want a positive number of rows per shard (0: the budget less the audit sample)", c.Candidates)
	case !(c.Sigma >= 0) || c.Sigma > 1e300:
		return fmt.Errorf("credbeam: LCMDSpec.Sigma = %v: want a positive bandwidth (0: median distance of the centers)", c.Sigma)
	case c.Block < 0:
		return fmt.Errorf("credbeam: LCMDSpec.Block = %d: want a positive block (0 means 4096)", c.Block)
	case !(c.Audit <= 0.5):
		return fmt.Errorf("credbeam: LCMDSpec.Audit = %v: want a share of the batch up to 0.5 (0: %g, negative: none)", c.Audit, DefaultAuditShare)
	case c.Kernel != "" && c.Kernel != "gaussian" && c.Sigma == 0:
		return fmt.Errorf("credbeam: LCMDSpec.Kernel %q without Sigma: want the bandwidth that goes with it", c.Kernel)
	case c.Scales != nil && c.Sigma == 0:
		return fmt.Errorf("credbeam: LCMDSpec.Scales set without Sigma: want the bandwidth that goes with them")
	}
	if _, err := kernelOf(c.Kernel, 1, nil); err != nil {
		return err
	}
	if names, _ := c.FeatureNames(); c.Scales != nil && len(c.Scales) != len(names) {
		return fmt.Errorf("credbeam: LCMDSpec.Scales has %d values for %d feature columns", len(c.Scales), len(names))
	}
	if c.LabeledValues != nil {
		names, _ := c.FeatureNames()
		if err := checkLabeledValues("LCMDSpec", c.LabeledValues, len(c.Labeled), len(names)); err != nil {
			return err
		}
	}
	seen := make(map[RowID]bool, len(c.Labeled))
	for _, r := range c.Labeled {
		if seen[r] {
			return fmt.Errorf("credbeam: labeled row %s line %d is listed twice", r.File, r.Line)
		}
		seen[r] = true
	}
	for _, r := range c.Audited {
		if !seen[r] {
			return fmt.Errorf("credbeam: audit row %s line %d is not among the labeled rows", r.File, r.Line)
		}
	}
	return nil
}

// Candidate is a pool row, its feature columns X and its record.
type Candidate struct {
	File    string
	Line    int
	Row     int // 0-based data row of the shard
	X       []float64
	Record  []string
	Labeled bool
}

// Candidates holds the rows the shards propose and their labeled rows.
type Candidates struct {
	Items []Candidate
	// Shards counts the shards read; zero when every shard failed.
	Shards int
}

// LCMDSample adds the batch active-learning method LCMD, the default
// method of credlab's batch loop (docs/labeling.md), on the pool whose
// shards are the file names in files, in two stages, after a pass that
// draws the audit sample (LCMDSpec.Audit) and counts the rows:
//
//  1. a pass keeps the M rows of smallest hash, on which one element
//     computes the columns' standard deviations and the median-distance
//     bandwidth (M d floats);
//  2. each shard runs LCMD on its rows, its own labeled rows counting as
//     chosen, to propose Candidates rows (O(n d (Candidates + L)) for L
//     labeled rows); the proposals and the labeled rows (d floats and the
//     record each) meet in one element, which runs LCMD on them with
//     every labeled row counting as chosen and emits Budget rows.
//
// The second stage sees only the proposals: the result is credlab's LCMD
// on the whole pool when the pool is one shard, and an approximation
// otherwise (docs/scale.md). Selected rows carry Draw (their rank, the
// audit rows last), Prob and Weight 1 (not a probability sample), and
// Audit. A shard's rows must fit a worker: n d floats.
func LCMDSample(s beam.Scope, files beam.PCollection, cfg LCMDSpec) (beam.PCollection, error) {
	if err := cfg.check(); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("credbeam.LCMDSample")
	files = beam.Reshuffle(s, files)
	spec := nystromCenters(s, files, centerFn{Spec: cfg.Spec, M: cfg.centers(), Seed: cfg.Seed, Block: cfg.Block},
		nystromParamsFn{Kernel: cfg.Kernel, M: cfg.centers(), Sigma: cfg.Sigma, Scales: cfg.Scales, Standardize: cfg.Scales == nil})
	audit := beam.Create(s, AuditRows{})
	if a := cfg.AuditSize(); a > 0 {
		audit = beam.Combine(s, &auditCombine{A: a}, beam.ParDo(s, &auditFn{Spec: cfg.Spec, A: a, Seed: cfg.Seed, Block: cfg.Block, Labeled: cfg.Labeled}, files))
	}
	props := beam.ParDo(s, &lcmdShardFn{Cfg: cfg}, files, beam.SideInput{Input: spec}, beam.SideInput{Input: audit})
	all := beam.Combine(s, &candidateCombine{}, props)
	global := cfg
	global.LabeledValues = nil // the shards check them; the job graph carries them once
	return beam.ParDo(s, &lcmdGlobalFn{Cfg: global}, all, beam.SideInput{Input: spec}, beam.SideInput{Input: audit}), nil
}

// lcmdShardFn proposes a shard's candidates.
type lcmdShardFn struct {
	Cfg     LCMDSpec
	lay     layout
	names   []string
	kernel  credlab.Kernel
	labeled map[RowID]bool
	values  map[RowID][]float64 // LabeledValues by row
	hidden  map[RowID]bool      // earlier and new audit rows
}

func (f *lcmdShardFn) Setup() error {
	var err error
	if f.lay, err = f.Cfg.layout(); err != nil {
		return err
	}
	if f.names, err = f.Cfg.FeatureNames(); err != nil {
		return err
	}
	f.labeled = make(map[RowID]bool, len(f.Cfg.Labeled))
	f.values = make(map[RowID][]float64, len(f.Cfg.LabeledValues))
	for i, r := range f.Cfg.Labeled {
		f.labeled[r] = true
		if f.Cfg.LabeledValues != nil {
			f.values[r] = f.Cfg.LabeledValues[i]
		}
	}
	return nil
}

// checkLabeled returns a *ShardError when row, the pool's features of the
// labeled row at line of file, differs from the labeled file's values.
func (f *lcmdShardFn) checkLabeled(file string, line int, row []float64) error {
	want, ok := f.values[RowID{file, line}]
	if !ok {
		return nil
	}
	return labeledMismatch(f.names, file, line, row, want)
}

// checkLabeledValues checks values, the features of n labeled rows (a
// config's LabeledValues, what names it): one row each, d finite values.
func checkLabeledValues(what string, values [][]float64, n, d int) error {
	if len(values) != n {
		return fmt.Errorf("credbeam: %s.LabeledValues has %d rows for %d labeled rows", what, len(values), n)
	}
	for i, v := range values {
		if len(v) != d {
			return fmt.Errorf("credbeam: %s.LabeledValues[%d] has %d values for %d feature columns", what, i, len(v), d)
		}
		for j, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("credbeam: %s.LabeledValues[%d][%d] = %v: want a finite feature value", what, i, j, x)
			}
		}
	}
	return nil
}

// labeledMismatch returns a *ShardError when row, a shard's features at
// line of file, differs from want, the labeled file's values of that row
// (within a relative 1e-9).
func labeledMismatch(names []string, file string, line int, row, want []float64) error {
	for j, v := range row {
		if w := want[j]; v != w && !(math.Abs(v-w) <= 1e-9*math.Max(math.Abs(v), math.Abs(w))) {
			return &ShardError{File: file, Line: line, Column: names[j],
				Err: fmt.Errorf("a labeled row holds %v in the labeled file but %v in the pool: the labeled rows do not come from these shards", w, v)}
		}
	}
	return nil
}

func (f *lcmdShardFn) ProcessElement(ctx context.Context, file string, specIt func(*NystromParams) bool, auditIt func(*AuditRows) bool, emit func(Candidates)) error {
	var spec NystromParams
	var audit AuditRows
	if !specIt(&spec) || !auditIt(&audit) || f.Cfg.AuditSize() > 0 && audit.Shards == 0 {
		return nil // an upstream stage failed; its error is the pipeline's
	}
	if f.hidden == nil {
		f.hidden = make(map[RowID]bool, len(f.Cfg.Audited)+len(audit.Items))
		for _, r := range f.Cfg.Audited {
			f.hidden[r] = true
		}
		for _, r := range audit.Items {
			f.hidden[RowID{r.File, r.Line}] = true
		}
	}
	if f.kernel == nil {
		k, err := spec.kernel()
		if err != nil {
			return err
		}
		f.kernel = k
	}
	d := len(f.lay.x)
	var xs []float64
	var lines []int
	var records [][]string
	var rows []int // 0-based data rows of the shard the method sees
	err := readShard(ctx, file, f.Cfg.Spec, f.lay, f.Cfg.Block, func(b *block) error {
		n, _ := b.x.Dims()
		for i := range n {
			if err := f.checkLabeled(file, b.lines[i], b.x.RawRowView(i)); err != nil {
				return err
			}
			if f.hidden[RowID{file, b.lines[i]}] {
				continue
			}
			xs = append(xs, b.x.RawRowView(i)...)
			lines = append(lines, b.lines[i])
			rows = append(rows, b.first+i)
		}
		return nil
	}, func(_, line int, record []string) error {
		if !f.hidden[RowID{file, line}] {
			records = append(records, slices.Clone(record))
		}
		return nil
	})
	if err != nil {
		return err
	}
	n := len(lines)
	if n == 0 {
		emit(Candidates{Shards: 1})
		return nil
	}
	x := mat.NewDense(n, d, xs)
	var start []int
	for i, l := range lines {
		if f.labeled[RowID{file, l}] {
			start = append(start, i)
		}
	}
	k := min(f.Cfg.candidates(), n-len(start))
	out := Candidates{Shards: 1}
	add := func(i int, labeled bool) {
		out.Items = append(out.Items, Candidate{File: file, Line: lines[i], Row: rows[i], X: x.RawRowView(i), Record: records[i], Labeled: labeled})
	}
	for _, i := range start {
		add(i, true)
	}
	if k > 0 {
		sel, err := credlab.BatchSelector{Method: credlab.MethodLCMD, Kernel: f.kernel, Previous: &credlab.Selection{Index: start}}.Select(ctx, x, k, f.Cfg.Seed)
		if err != nil {
			return &ShardError{File: file, Err: err}
		}
		for _, i := range sel.Index[len(start):] {
			add(i, false)
		}
	}
	emit(out)
	return nil
}

// candidateCombine gathers the proposals, sorted by shard and line so
// that the result does not depend on the order they arrive in.
type candidateCombine struct{}

func (candidateCombine) MergeAccumulators(a, b Candidates) Candidates {
	items := append(append([]Candidate(nil), a.Items...), b.Items...)
	sort.Slice(items, func(i, j int) bool {
		if items[i].File != items[j].File {
			return items[i].File < items[j].File
		}
		return items[i].Line < items[j].Line
	})
	return Candidates{Items: items, Shards: a.Shards + b.Shards}
}

// lcmdGlobalFn runs LCMD on the proposals, every labeled row counting as
// chosen.
type lcmdGlobalFn struct{ Cfg LCMDSpec }

func (f *lcmdGlobalFn) ProcessElement(ctx context.Context, c Candidates, specIt func(*NystromParams) bool, auditIt func(*AuditRows) bool, emit func(Selected)) error {
	var spec NystromParams
	var audit AuditRows
	a := f.Cfg.AuditSize()
	if c.Shards == 0 || !specIt(&spec) || !auditIt(&audit) || a > 0 && audit.Shards == 0 {
		return nil // a shard failed, and its error is the pipeline's
	}
	k, err := spec.kernel()
	if err != nil {
		return err
	}
	var start, rest []int
	for i, it := range c.Items {
		if it.Labeled {
			start = append(start, i)
		} else {
			rest = append(rest, i)
		}
	}
	if len(start) != len(f.Cfg.Labeled)-len(f.Cfg.Audited) { // earlier audit rows are hidden
		found := make(map[RowID]bool, len(start)+len(f.Cfg.Audited))
		for _, i := range start {
			found[RowID{c.Items[i].File, c.Items[i].Line}] = true
		}
		for _, r := range f.Cfg.Audited {
			found[r] = true
		}
		for _, r := range f.Cfg.Labeled {
			if !found[r] {
				return fmt.Errorf("credbeam: labeled row %s line %d is not a row of the pool's shards", r.File, r.Line)
			}
		}
	}
	if a > 0 && audit.Rows-len(f.Cfg.Labeled) < f.Cfg.Budget {
		return fmt.Errorf("credbeam: budget %d: the pool has %d rows not yet labeled (%w)", f.Cfg.Budget, audit.Rows-len(f.Cfg.Labeled), ErrBudget)
	}
	if len(rest) < f.Cfg.Budget-a {
		return fmt.Errorf("credbeam: budget %d: the pool has %d rows not yet labeled (%w)", f.Cfg.Budget, len(rest), ErrBudget)
	}
	order := append(start, rest...)
	x := mat.NewDense(len(order), len(c.Items[0].X), nil)
	for r, i := range order {
		x.SetRow(r, c.Items[i].X)
	}
	prev := &credlab.Selection{Index: make([]int, len(start))}
	for i := range start {
		prev.Index[i] = i
	}
	sel, err := credlab.BatchSelector{Method: credlab.MethodLCMD, Kernel: k, Previous: prev}.Select(ctx, x, f.Cfg.Budget-a, f.Cfg.Seed)
	if err != nil {
		return fmt.Errorf("credbeam: LCMD on %d proposed rows: %w", len(rest), err)
	}
	for rank, r := range sel.Index[len(start):] {
		it := c.Items[order[r]]
		emit(Selected{File: it.File, Line: it.Line, Row: it.Row, Draw: rank, Prob: 1, Weight: 1, Record: it.Record})
	}
	for k, it := range audit.Items {
		w := float64(audit.Rows-len(f.Cfg.Labeled)) / float64(len(audit.Items))
		emit(Selected{File: it.File, Line: it.Line, Row: it.Row, Draw: f.Cfg.Budget - a + k, Prob: 1, Weight: 1, Audit: w, Record: it.Record})
	}
	return nil
}

// TunedKernel is the kernel TuneKernel chooses, in LCMDSpec's terms:
// Kernel (the family), Sigma and per-column Scales on the raw columns,
// and Report, a line saying what was chosen.
type TunedKernel struct {
	Kernel string
	Sigma  float64
	Scales []float64
	Report string
}

// TuneKernel chooses LCMDSample's kernel from labeled rows as credlab
// select does: credlab.Tune with its default configuration (Matérn 3/2
// unless the Gaussian, Matérn 5/2 or Manhattan kernel validates better; learned
// column scales included) on the rows' standardized columns, returned with the scales
// mapped back to the raw columns.
func TuneKernel(ctx context.Context, lab *Labeled, seed uint64) (*TunedKernel, error) {
	if lab == nil || lab.Y == nil {
		return nil, fmt.Errorf("credbeam: no labels to tune the kernel on")
	}
	n, d := lab.X.Dims()
	xs := mat.DenseCopyOf(lab.X)
	inv := make([]float64, d)
	for j := range d {
		col := mat.Col(nil, j, xs)
		if sd := stat.StdDev(col, nil); sd > 0 {
			inv[j] = 1 / sd
		}
		for i, v := range col {
			xs.Set(i, j, v*inv[j])
		}
	}
	// The shards use the kernel on their columns as they are: no
	// normal-score map.
	fit, err := credlab.Tune(ctx, xs, lab.Y, credlab.TuneConfig{Seed: seed, Transform: credlab.TransformOff})
	if err != nil {
		return nil, fmt.Errorf("credbeam: tuning the kernel on the %d labeled rows: %w", n, err)
	}
	ch := fit.Choice
	out := &TunedKernel{Kernel: familyOf(ch.Kernel), Sigma: ch.Sigma, Scales: make([]float64, d)}
	for j := range out.Scales {
		out.Scales[j] = inv[j]
		if ch.Scales != nil {
			out.Scales[j] *= ch.Scales[j]
		}
	}
	how := "one shared scale"
	if ch.Scales != nil {
		how = "column scales " + ch.ScalesFrom
	}
	out.Report = fmt.Sprintf("%s(sigma=%.4g) on the standardized columns, %s, tuned on the %d labeled rows (cross-validated RMSE %.4g)", out.Kernel, ch.Sigma, how, n, ch.ValRMSE)
	return out, nil
}
