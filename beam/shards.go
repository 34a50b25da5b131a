package credbeam

import (
	"context"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"gonum.org/v1/gonum/mat"
)

// Sentinels wrapped by ShardError, for errors.Is on the driver side. A
// pipeline run on a runner returns the failed DoFn's message only (its
// type does not cross the runner), so every message names its shard, line
// and column in words as well.
var (
	// ErrColumns: a shard's header differs from the pool's columns.
	ErrColumns = errors.New("columns differ from the pool's")
	// ErrEmptyShard: a shard has no header or no data rows.
	ErrEmptyShard = errors.New("empty shard")
	// ErrNotFinite: a value parses to NaN or an infinity.
	ErrNotFinite = errors.New("value is not finite")
	// ErrParse: a record cannot be read or a value is not a number.
	ErrParse = errors.New("cannot parse")
	// ErrBudget: more draws than rows with positive probability.
	ErrBudget = errors.New("budget larger than the rows with positive probability")
	// ErrNoShards: a glob that matches no file.
	ErrNoShards = errors.New("no shard matches")
)

// ShardError locates a failure in a shard: File is the shard, Line the
// 1-based line of the file (0 when the whole shard is concerned) and
// Column the column's name ("" when none).
type ShardError struct {
	File   string
	Line   int
	Column string
	Err    error
}

func (e *ShardError) Error() string {
	var b strings.Builder
	b.WriteString("credbeam: shard ")
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ", column %q", e.Column)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *ShardError) Unwrap() error { return e.Err }

// Spec describes the pool's CSV shards: every shard starts with the header
// Columns; Features are the input columns (default: every column but
// Target) and Target the response column ("" when there is none, as for
// selection).
type Spec struct {
	Columns  []string
	Features []string
	Target   string
}

// layout is a Spec resolved to column indices.
type layout struct {
	x []int
	y int // -1 without target
}

func (s Spec) layout() (layout, error) {
	if len(s.Columns) == 0 {
		return layout{}, fmt.Errorf("credbeam: Spec.Columns is empty: want the pool's header")
	}
	idx := map[string]int{}
	for i, c := range s.Columns {
		if _, dup := idx[c]; dup {
			return layout{}, fmt.Errorf("credbeam: column %q appears twice in the header", c)
		}
		idx[c] = i
	}
	l := layout{y: -1}
	if s.Target != "" {
		i, ok := idx[s.Target]
		if !ok {
			return layout{}, fmt.Errorf("credbeam: target column %q is not in the header %v", s.Target, s.Columns)
		}
		l.y = i
	}
	feats := s.Features
	if len(feats) == 0 {
		for _, c := range s.Columns {
			if c != s.Target {
				feats = append(feats, c)
			}
		}
	}
	for _, c := range feats {
		i, ok := idx[c]
		if !ok {
			return layout{}, fmt.Errorf("credbeam: feature column %q is not in the header %v", c, s.Columns)
		}
		if i == l.y {
			return layout{}, fmt.Errorf("credbeam: column %q is both a feature and the target", c)
		}
		l.x = append(l.x, i)
	}
	if len(l.x) == 0 {
		return layout{}, fmt.Errorf("credbeam: no feature columns")
	}
	return l, nil
}

// FeatureNames returns the feature columns the Spec resolves to.
func (s Spec) FeatureNames() ([]string, error) {
	l, err := s.layout()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(l.x))
	for i, j := range l.x {
		out[i] = s.Columns[j]
	}
	return out, nil
}

// ExpandShards returns the files matching glob (local paths, or any
// filesystem registered with Beam's filesystem package, such as gs://),
// sorted. It fails when nothing matches or two shards share a base name
// (the seeded row hashes use the base name and line).
func ExpandShards(ctx context.Context, glob string) ([]string, error) {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("credbeam: shards %q: %w", glob, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("credbeam: shards %q: %w", glob, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("credbeam: %w %q", ErrNoShards, glob)
	}
	sort.Strings(files)
	seen := map[string]string{}
	for _, f := range files {
		b := path.Base(f)
		if o, ok := seen[b]; ok {
			return nil, fmt.Errorf("credbeam: shards %s and %s share the base name %q: rename one (rows are identified by base name and line)", o, f, b)
		}
		seen[b] = f
	}
	return files, nil
}

// ReadHeader returns the column names on the first line of a shard.
func ReadHeader(ctx context.Context, file string) ([]string, error) {
	var cols []string
	err := withShard(ctx, file, func(r *csv.Reader) error {
		h, err := readHeader(file, r)
		cols = h
		return err
	})
	return cols, err
}

func withShard(ctx context.Context, file string, fn func(*csv.Reader) error) error {
	fs, err := filesystem.New(ctx, file)
	if err != nil {
		return &ShardError{File: file, Err: err}
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, file)
	if err != nil {
		return &ShardError{File: file, Err: err}
	}
	defer rc.Close()
	r := csv.NewReader(rc)
	r.ReuseRecord = true
	return fn(r)
}

func readHeader(file string, r *csv.Reader) ([]string, error) {
	h, err := r.Read()
	if err == io.EOF {
		return nil, &ShardError{File: file, Err: fmt.Errorf("%w: no header line", ErrEmptyShard)}
	}
	if err != nil {
		return nil, &ShardError{File: file, Line: 1, Err: fmt.Errorf("%w: header: %v", ErrParse, err)}
	}
	return slices.Clone(h), nil // the reader reuses its record
}

// block is a block of parsed rows of one shard.
type block struct {
	first int        // index in the shard of the block's first row (0-based)
	x     *mat.Dense // rows x features
	y     []float64  // nil without target
	lines []int      // 1-based file line of each row
}

// defaultBlock is the number of rows parsed at once.
const defaultBlock = 4096

// readShard parses file under spec in blocks of rows and calls fn on each;
// rec, when not nil, also receives every record (valid during the call
// only). The header must equal spec.Columns. A shard with no data row, a
// record that does not parse and a value that is not finite are errors
// naming the shard, line and column. Memory O(rows per block x columns).
func readShard(ctx context.Context, file string, spec Spec, lay layout, rows int, fn func(*block) error, rec func(row, line int, record []string) error) error {
	if rows <= 0 {
		rows = defaultBlock
	}
	return withShard(ctx, file, func(r *csv.Reader) error {
		h, err := readHeader(file, r)
		if err != nil {
			return err
		}
		if !slices.Equal(h, spec.Columns) {
			return &ShardError{File: file, Line: 1, Err: fmt.Errorf("%w: header %v, the pool's %v", ErrColumns, h, spec.Columns)}
		}
		r.FieldsPerRecord = len(h)
		d := len(lay.x)
		buf := make([]float64, rows*d)
		var ybuf []float64
		if lay.y >= 0 {
			ybuf = make([]float64, rows)
		}
		lines := make([]int, rows)
		n, total := 0, 0
		flush := func() error {
			if n == 0 {
				return nil
			}
			b := &block{first: total - n, x: mat.NewDense(n, d, buf[:n*d]), lines: lines[:n]}
			if ybuf != nil {
				b.y = ybuf[:n]
			}
			n = 0
			return fn(b)
		}
		for {
			record, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				var pe *csv.ParseError
				line := 0
				if errors.As(err, &pe) {
					line = pe.Line
					err = pe.Err
				}
				return &ShardError{File: file, Line: line, Err: fmt.Errorf("%w: %v", ErrParse, err)}
			}
			line, _ := r.FieldPos(0)
			if err := parseInto(buf[n*d:(n+1)*d], record, lay.x, file, line, h); err != nil {
				return err
			}
			if ybuf != nil {
				if err := parseInto(ybuf[n:n+1], record, []int{lay.y}, file, line, h); err != nil {
					return err
				}
			}
			lines[n] = line
			if rec != nil {
				if err := rec(total, line, record); err != nil {
					return err
				}
			}
			n++
			total++
			if n == rows {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		if total == 0 {
			return &ShardError{File: file, Err: fmt.Errorf("%w: a header and no data rows", ErrEmptyShard)}
		}
		return nil
	})
}

func parseInto(dst []float64, record []string, cols []int, file string, line int, header []string) error {
	for k, c := range cols {
		v, err := strconv.ParseFloat(strings.TrimSpace(record[c]), 64)
		if err != nil {
			return &ShardError{File: file, Line: line, Column: header[c], Err: fmt.Errorf("%w %q as a number", ErrParse, record[c])}
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &ShardError{File: file, Line: line, Column: header[c], Err: fmt.Errorf("%w: %q", ErrNotFinite, record[c])}
		}
		dst[k] = v
	}
	return nil
}

// Purposes of RowHash.
const (
	PurposeSplit  uint64 = 1 // train/validation assignment
	PurposeCenter uint64 = 2 // Nyström center choice
	PurposeDraw   uint64 = 3 // per-shard sampling seed (line 0)
	PurposeAudit  uint64 = 4 // audit sample of LCMDSample
)

// RowHash is the seeded 64-bit hash of a row identified by its shard's base
// name and its line, for a purpose: FNV-1a then a SplitMix64 finalizer, so
// that it does not depend on which worker reads the row. O(len(file)).
func RowHash(seed, purpose uint64, file string, line int) uint64 {
	h := fnv.New64a()
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], seed)
	binary.LittleEndian.PutUint64(b[8:], purpose)
	binary.LittleEndian.PutUint64(b[16:], uint64(line))
	h.Write(b[:])
	h.Write([]byte(path.Base(file)))
	return mix64(h.Sum64())
}

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IsValidation reports whether the row (file, line) is held out for
// validation: RowHash(seed, PurposeSplit, ...) below fraction of 2^64.
func IsValidation(seed uint64, fraction float64, file string, line int) bool {
	return float64(RowHash(seed, PurposeSplit, file, line)) < fraction*math.Exp2(64)
}

var errStop = errors.New("stop")

// HeadRows returns up to n data rows of the features of a shard (its
// first rows), for driver-side defaults such as a median-distance
// bandwidth: O(n d).
func HeadRows(ctx context.Context, file string, spec Spec, n int) (*mat.Dense, error) {
	lay, err := spec.layout()
	if err != nil {
		return nil, err
	}
	var x *mat.Dense
	err = readShard(ctx, file, spec, lay, n, func(b *block) error {
		x = mat.DenseCopyOf(b.x)
		return errStop
	}, nil)
	if err == errStop {
		err = nil
	}
	return x, err
}
