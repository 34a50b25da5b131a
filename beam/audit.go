package credbeam

import (
	"context"
	"math"
	"slices"
	"sort"
)

// DefaultAuditShare is the share of each LCMDSample batch drawn as an audit
// sample when LCMDSpec.Audit is zero, as credlab select does
// (frames.DefaultAuditShare).
const DefaultAuditShare = 0.1

// AuditRow is a pool row drawn for the audit sample, with its record.
type AuditRow struct {
	Hash   uint64
	File   string
	Line   int
	Row    int // 0-based data row of the shard
	Record []string
}

// AuditRows holds the audit rows drawn so far and the rows counted.
type AuditRows struct {
	Items []AuditRow
	// Rows counts the pool's rows, Shards the shards read (zero when
	// every shard failed).
	Rows, Shards int
}

// keepSmallestAudit sorts c by hashLess and keeps its a smallest.
func keepSmallestAudit(c []AuditRow, a int) []AuditRow {
	sort.Slice(c, func(i, j int) bool {
		return hashLess(c[i].Hash, c[i].File, c[i].Line, c[j].Hash, c[j].File, c[j].Line)
	})
	return c[:min(len(c), a)]
}

// auditFn keeps a shard's A unlabeled rows of smallest
// RowHash(Seed, PurposeAudit, ...) and counts its rows: O(n log A).
type auditFn struct {
	Spec    Spec
	A       int
	Seed    uint64
	Block   int
	Labeled []RowID
	lay     layout
	labeled map[RowID]bool
}

func (f *auditFn) Setup() error {
	var err error
	f.lay, err = f.Spec.layout()
	f.labeled = make(map[RowID]bool, len(f.Labeled))
	for _, r := range f.Labeled {
		f.labeled[r] = true
	}
	return err
}

func (f *auditFn) ProcessElement(ctx context.Context, file string, emit func(AuditRows)) error {
	var keep []AuditRow
	thresh := uint64(math.MaxUint64)
	rows := 0
	err := readShard(ctx, file, f.Spec, f.lay, f.Block, func(*block) error { return nil }, func(row, line int, record []string) error {
		rows++
		if f.labeled[RowID{file, line}] {
			return nil
		}
		h := RowHash(f.Seed, PurposeAudit, file, line)
		if h > thresh {
			return nil
		}
		keep = append(keep, AuditRow{Hash: h, File: file, Line: line, Row: row, Record: slices.Clone(record)})
		if len(keep) >= 4*f.A {
			keep = keepSmallestAudit(keep, 2*f.A)
			thresh = keep[f.A-1].Hash
		}
		return nil
	})
	if err != nil {
		return err
	}
	emit(AuditRows{Items: keepSmallestAudit(keep, f.A), Rows: rows, Shards: 1})
	return nil
}

// auditCombine keeps the A smallest candidates of all shards and sums
// their rows.
type auditCombine struct{ A int }

func (c *auditCombine) MergeAccumulators(a, b AuditRows) AuditRows {
	return AuditRows{Items: keepSmallestAudit(append(append([]AuditRow(nil), a.Items...), b.Items...), c.A),
		Rows: a.Rows + b.Rows, Shards: a.Shards + b.Shards}
}
