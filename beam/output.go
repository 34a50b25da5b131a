package credbeam

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"gonum.org/v1/gonum/mat"
)

// create opens path for writing on its filesystem and calls fn.
func create(ctx context.Context, path string, fn func(w io.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("credbeam: output %s: %w", path, err)
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("credbeam: output %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(wc, 1<<20)
	err = fn(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("credbeam: output %s: %w", path, err)
	}
	return nil
}

// WriteSelected writes the draws to one CSV file at path, sorted by shard
// and draw: the columns file, line, row, draw, prob, weight, audit (only
// when a row has an audit weight: LCMDSample's audit sample), then the
// shard's columns (header). All draws go to one worker: O(budget) memory.
func WriteSelected(s beam.Scope, sel beam.PCollection, path string, header []string) {
	s = s.Scope("credbeam.WriteSelected")
	g := beam.GroupByKey(s, beam.AddFixedKey(s, sel))
	beam.ParDo0(s, &selectedWriter{Path: path, Header: header}, g)
}

type selectedWriter struct {
	Path   string
	Header []string
}

func (w *selectedWriter) ProcessElement(ctx context.Context, _ int, it func(*Selected) bool) error {
	var all []Selected
	var v Selected
	for it(&v) {
		all = append(all, v)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].File != all[j].File {
			return all[i].File < all[j].File
		}
		return all[i].Draw < all[j].Draw
	})
	audit := slices.ContainsFunc(all, func(v Selected) bool { return v.Audit > 0 })
	return create(ctx, w.Path, func(out io.Writer) error {
		cw := csv.NewWriter(out)
		head := []string{"file", "line", "row", "draw", "prob", "weight"}
		if audit {
			head = append(head, "audit")
		}
		cw.Write(append(head, w.Header...))
		for _, v := range all {
			rec := []string{v.File, strconv.Itoa(v.Line), strconv.Itoa(v.Row), strconv.Itoa(v.Draw),
				strconv.FormatFloat(v.Prob, 'g', -1, 64), strconv.FormatFloat(v.Weight, 'g', -1, 64)}
			if audit {
				rec = append(rec, strconv.FormatFloat(v.Audit, 'g', -1, 64))
			}
			cw.Write(append(rec, v.Record...))
		}
		cw.Flush()
		return cw.Error()
	})
}

// Labeled holds the rows already labeled of a CSV file such as
// WriteSelected writes (columns file and line, and the pool's columns):
// Rows each once (a draw with replacement can list a row twice), and, when
// every row's target is filled in, X (their features under the Spec) and
// Y (nil otherwise).
//
// Audited lists the rows with a positive weight in an "audit" column (an
// audit sample's rows, LCMDSpec.Audited). Values holds each row's
// features as the file has them, in Rows' order, when it has every
// feature column (nil otherwise): LCMDSpec.LabeledValues, which the
// shards check against the pool's rows.
type Labeled struct {
	Rows    []RowID
	Audited []RowID
	Values  [][]float64
	X       *mat.Dense
	Y       []float64
	// Weighted reports rows whose selection "weight" is not 1: importance
	// weights of a CRED draw, not a batch method's rows.
	Weighted bool
}

// ReadLabeled reads the labeled rows of path under spec (the pool's
// columns need not be in the file when no target is filled in).
func ReadLabeled(ctx context.Context, path string, spec Spec) (*Labeled, error) {
	out := &Labeled{}
	seen := map[RowID]bool{}
	var xs, ys []float64
	labels := true
	err := withShard(ctx, path, func(r *csv.Reader) error {
		h, err := r.Read()
		if err != nil {
			return fmt.Errorf("credbeam: labeled rows %s: header: %w", path, err)
		}
		h = slices.Clone(h) // the reader reuses its record
		fi, li, ai, wi := slices.Index(h, "file"), slices.Index(h, "line"), slices.Index(h, "audit"), slices.Index(h, "weight")
		if !(wi > 0 && h[wi-1] == "prob") { // WriteSelected's prob, weight
			wi = -1
		}
		if fi < 0 || li < 0 {
			return fmt.Errorf("credbeam: labeled rows %s: header %v has no file and line columns", path, h)
		}
		var cols []int
		ti := -1
		// The pool's columns follow WriteSelected's own (file, line, row,
		// draw, prob, weight, audit): a pool column of the same name is
		// the last.
		if names, err := spec.FeatureNames(); err == nil {
			for _, n := range names {
				cols = append(cols, lastIndex(h, n))
			}
			if spec.Target != "" {
				ti = lastIndex(h, spec.Target)
			}
		}
		features := cols != nil && !slices.Contains(cols, -1)
		if ti < 0 || !features {
			labels = false
		}
		r.FieldsPerRecord = len(h)
		for {
			rec, err := r.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("credbeam: labeled rows %s: %w", path, err)
			}
			line, _ := r.FieldPos(li)
			l, err := strconv.Atoi(rec[li])
			if err != nil || l < 2 {
				return fmt.Errorf("credbeam: labeled rows %s line %d: line %q is not a data line number", path, line, rec[li])
			}
			id := RowID{File: rec[fi], Line: l}
			if wi >= 0 {
				if v, err := strconv.ParseFloat(strings.TrimSpace(rec[wi]), 64); err == nil && v != 1 {
					out.Weighted = true
				}
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			out.Rows = append(out.Rows, id)
			if ai >= 0 && strings.TrimSpace(rec[ai]) != "" {
				a, err := strconv.ParseFloat(strings.TrimSpace(rec[ai]), 64)
				if err != nil || !(a >= 0) || math.IsInf(a, 0) {
					return fmt.Errorf("credbeam: labeled rows %s line %d: audit weight %q: want 0, or 1/pi for an audit row", path, line, rec[ai])
				}
				if a > 0 {
					out.Audited = append(out.Audited, id)
				}
			}
			if !features {
				continue
			}
			row := make([]float64, len(cols)+1)
			if err := parseInto(row, rec, cols, path, line, h); err != nil {
				return err
			}
			out.Values = append(out.Values, row[:len(cols)])
			if !labels {
				continue
			}
			if strings.TrimSpace(rec[ti]) == "" {
				labels = false
				continue
			}
			if err := parseInto(row[len(cols):], rec, []int{ti}, path, line, h); err != nil {
				return err
			}
			xs, ys = append(xs, row[:len(cols)]...), append(ys, row[len(cols)])
		}
	})
	if err != nil {
		return nil, err
	}
	if labels && len(ys) > 0 {
		out.X, out.Y = mat.NewDense(len(ys), len(xs)/len(ys), xs), ys
	}
	return out, nil
}

// lastIndex returns the index of the last s in h, -1 when none.
func lastIndex(h []string, s string) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i] == s {
			return i
		}
	}
	return -1
}

// WriteScores writes every row's leverage score to a CSV file at path
// (file, row, score), sorted by shard and row. All scores go to one
// worker: use it for pools that fit one machine (tests, inspection).
func WriteScores(s beam.Scope, scores beam.PCollection, path string) {
	s = s.Scope("credbeam.WriteScores")
	g := beam.GroupByKey(s, beam.AddFixedKey(s, scores))
	beam.ParDo0(s, &scoresWriter{Path: path}, g)
}

type scoresWriter struct{ Path string }

func (w *scoresWriter) ProcessElement(ctx context.Context, _ int, it func(*ShardScores) bool) error {
	var all []ShardScores
	var v ShardScores
	for it(&v) {
		all = append(all, v)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].File < all[j].File })
	return create(ctx, w.Path, func(out io.Writer) error {
		if _, err := io.WriteString(out, "file,row,score\n"); err != nil {
			return err
		}
		var b []byte
		for _, sc := range all {
			for j, x := range sc.Scores {
				b = b[:0]
				b = append(b, sc.File...)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(j), 10)
				b = append(b, ',')
				b = strconv.AppendFloat(b, x, 'g', -1, 64)
				b = append(b, '\n')
				if _, err := out.Write(b); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// WritePlan writes the single Plan as JSON to path.
func WritePlan(s beam.Scope, plan beam.PCollection, path string) {
	beam.ParDo0(s.Scope("credbeam.WritePlan"), &planWriter{Path: path}, plan)
}

type planWriter struct{ Path string }

func (w *planWriter) ProcessElement(ctx context.Context, p Plan) error {
	return create(ctx, w.Path, func(out io.Writer) error {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	})
}

// WriteText writes the single string of a PCollection (such as
// NystromFit's model JSON) to path.
func WriteText(s beam.Scope, col beam.PCollection, path string) {
	beam.ParDo0(s.Scope("credbeam.WriteText"), &textWriter{Path: path}, col)
}

type textWriter struct{ Path string }

func (w *textWriter) ProcessElement(ctx context.Context, text string) error {
	return create(ctx, w.Path, func(out io.Writer) error {
		_, err := io.WriteString(out, text)
		return err
	})
}
