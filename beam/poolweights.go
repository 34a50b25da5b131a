package credbeam

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// PoolWeightColumn is the column WritePoolWeights adds: credlab fit reads
// it as credlab select's pool weights (frames.PoolWeightColumn).
const PoolWeightColumn = "pool_weight"

// PoolWeightsSpec configures PoolWeights: the Labeled rows of the pool
// with their features (LabeledValues, in Labeled's order, as ReadLabeled
// gives them in Labeled.Values), and the columns' Scales of the distance
// (raw columns times Scales: TuneKernel's, each column's inverse standard
// deviation times its learned scale).
type PoolWeightsSpec struct {
	Spec
	Labeled       []RowID
	LabeledValues [][]float64
	Scales        []float64
	Block         int
}

func (c PoolWeightsSpec) check() error {
	names, err := c.FeatureNames()
	if err != nil {
		return err
	}
	switch {
	case len(c.Labeled) == 0:
		return fmt.Errorf("credbeam: PoolWeightsSpec.Labeled is empty: want the labeled rows to weigh")
	case len(c.Scales) != len(names):
		return fmt.Errorf("credbeam: PoolWeightsSpec.Scales has %d values for %d feature columns", len(c.Scales), len(names))
	case c.Block < 0:
		return fmt.Errorf("credbeam: PoolWeightsSpec.Block = %d: want a positive block (0 means 4096)", c.Block)
	}
	for j, s := range c.Scales {
		if !(s >= 0) || math.IsInf(s, 0) {
			return fmt.Errorf("credbeam: PoolWeightsSpec.Scales[%d] = %v: want a finite scale, 0 or more", j, s)
		}
	}
	return checkLabeledValues("PoolWeightsSpec", c.LabeledValues, len(c.Labeled), len(names))
}

// Counts holds credlab.NearestCounts of the labeled rows summed over the
// shards, with the pool's rows, the labeled rows found among them and the
// shards read.
type Counts struct {
	C                   []int
	Rows, Found, Shards int
}

// PoolWeights counts, in one pass over the shards, the pool rows whose
// nearest labeled row is each labeled row (credlab.NearestCounts in the
// scaled columns, O(n L d) for a shard of n rows and L labeled rows), and
// sums the counts: the Counts that give credlab.PoolWeights of the whole
// pool (credlab.PoolWeightsFromCounts), as credlab select writes them for
// the rows a batch method chose. WritePoolWeights writes them beside the
// labeled file's rows. A shard's rows must fit a worker: n d floats.
func PoolWeights(s beam.Scope, files beam.PCollection, cfg PoolWeightsSpec) (beam.PCollection, error) {
	if err := cfg.check(); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("credbeam.PoolWeights")
	counts := beam.ParDo(s, &nearestFn{Cfg: cfg}, beam.Reshuffle(s, files))
	return beam.Combine(s, &countsCombine{}, counts), nil
}

// nearestFn counts a shard's rows by nearest labeled row, and checks the
// labeled rows it holds against the labeled file's values.
type nearestFn struct {
	Cfg    PoolWeightsSpec
	lay    layout
	names  []string
	lab    *mat.Dense
	k      credlab.Kernel
	values map[RowID][]float64
}

func (f *nearestFn) Setup() error {
	var err error
	if f.lay, err = f.Cfg.layout(); err != nil {
		return err
	}
	if f.names, err = f.Cfg.FeatureNames(); err != nil {
		return err
	}
	f.values = make(map[RowID][]float64, len(f.Cfg.Labeled))
	for i, r := range f.Cfg.Labeled {
		f.values[r] = f.Cfg.LabeledValues[i]
	}
	d := len(f.Cfg.Scales)
	f.lab = mat.NewDense(len(f.Cfg.LabeledValues), d, nil)
	for i, v := range f.Cfg.LabeledValues {
		f.lab.SetRow(i, v)
	}
	f.k = credlab.GaussianKernel{Sigma: 1, Scales: f.Cfg.Scales}
	return nil
}

func (f *nearestFn) ProcessElement(ctx context.Context, file string, emit func(Counts)) error {
	var xs []float64
	n, found := 0, 0
	err := readShard(ctx, file, f.Cfg.Spec, f.lay, f.Cfg.Block, func(b *block) error {
		r, _ := b.x.Dims()
		for i := range r {
			row := b.x.RawRowView(i)
			if want, ok := f.values[RowID{file, b.lines[i]}]; ok {
				if err := labeledMismatch(f.names, file, b.lines[i], row, want); err != nil {
					return err
				}
				found++
			}
			xs = append(xs, row...)
		}
		n += r
		return nil
	}, nil)
	if err != nil {
		return err
	}
	c, err := credlab.NearestCounts(ctx, mat.NewDense(n, len(f.Cfg.Scales), xs), f.lab, f.k)
	if err != nil {
		return &ShardError{File: file, Err: err}
	}
	emit(Counts{C: c, Rows: n, Found: found, Shards: 1})
	return nil
}

// countsCombine sums the shards' counts.
type countsCombine struct{}

func (countsCombine) MergeAccumulators(a, b Counts) Counts {
	if a.C == nil {
		return b
	}
	if b.C == nil {
		return a
	}
	c := slices.Clone(a.C)
	for i, v := range b.C {
		c[i] += v
	}
	return Counts{C: c, Rows: a.Rows + b.Rows, Found: a.Found + b.Found, Shards: a.Shards + b.Shards}
}

// WritePoolWeights writes the labeled file at labeled to path with a
// PoolWeightColumn (replaced when the file has one): each row's
// credlab.PoolWeightsFromCounts of counts (PoolWeights's, for rows, the
// labeled rows in PoolWeightsSpec's order), found by its file and line.
func WritePoolWeights(s beam.Scope, counts beam.PCollection, labeled, path string, rows []RowID) {
	s = s.Scope("credbeam.WritePoolWeights")
	beam.ParDo0(s, &poolWeightsWriter{Labeled: labeled, Path: path, Rows: rows}, counts)
}

type poolWeightsWriter struct {
	Labeled, Path string
	Rows          []RowID
}

func (w *poolWeightsWriter) ProcessElement(ctx context.Context, c Counts) error {
	switch {
	case c.Shards == 0:
		return fmt.Errorf("credbeam: pool weights: no shard was read")
	case len(c.C) != len(w.Rows):
		return fmt.Errorf("credbeam: %d counts for %d labeled rows", len(c.C), len(w.Rows))
	case c.Found != len(w.Rows):
		return fmt.Errorf("credbeam: labeled rows %s: %d of the %d rows are not rows of the pool's shards (file and line)", w.Labeled, len(w.Rows)-c.Found, len(w.Rows))
	}
	pw, err := credlab.PoolWeightsFromCounts(c.C, c.Rows)
	if err != nil {
		return fmt.Errorf("credbeam: pool weights: %w", err)
	}
	byRow := make(map[RowID]float64, len(w.Rows))
	for i, r := range w.Rows {
		byRow[r] = pw[i]
	}
	var records [][]string
	err = withShard(ctx, w.Labeled, func(r *csv.Reader) error {
		r.ReuseRecord = false
		for {
			rec, err := r.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("credbeam: labeled rows %s: %w", w.Labeled, err)
			}
			records = append(records, rec)
		}
	})
	if err != nil {
		return err
	}
	if len(records) == 0 {
		return fmt.Errorf("credbeam: labeled rows %s: no header line", w.Labeled)
	}
	h := records[0]
	fi, li, wi := slices.Index(h, "file"), slices.Index(h, "line"), slices.Index(h, PoolWeightColumn)
	if fi < 0 || li < 0 {
		return fmt.Errorf("credbeam: labeled rows %s: header %v has no file and line columns", w.Labeled, h)
	}
	if wi < 0 {
		wi = len(h)
		h = append(h, PoolWeightColumn)
	}
	for k, rec := range records[1:] { // every row first: a failure writes nothing
		l, _ := strconv.Atoi(rec[li])
		v, ok := byRow[RowID{rec[fi], l}]
		if !ok {
			return fmt.Errorf("credbeam: labeled rows %s, line %d: %s line %s has no pool weight: the file changed since the pipeline read it", w.Labeled, k+2, rec[fi], rec[li])
		}
		if wi == len(rec) {
			rec = append(rec, "")
		}
		rec[wi] = strconv.FormatFloat(v, 'g', -1, 64)
		records[k+1] = rec
	}
	records[0] = h
	return create(ctx, w.Path, func(out io.Writer) error {
		cw := csv.NewWriter(out)
		cw.WriteAll(records)
		return cw.Error()
	})
}
