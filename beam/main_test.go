package credbeam

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"gonum.org/v1/gonum/mat"
)

func TestMain(m *testing.M) {
	beam.Init()
	if os.Getenv("CREDBEAM_LOG") == "" { // prism logs every failed bundle: keep the expected failures quiet
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(m.Run())
}

// pool is a synthetic pool written as CSV shards.
type pool struct {
	files []string // sorted
	cols  []string
	x     *mat.Dense // all rows, shard by shard in file order
	y     []float64
	file  []string // shard of each row
	line  []int    // its line
}

// writePool writes n rows of d inputs and a target y over k shards named
// shard-00.csv ... in dir. Inputs come from a mixture of a dense cluster
// and a wide one, so that leverage scores vary.
func writePool(t testing.TB, dir string, n, d, k int, seed uint64) *pool {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	p := &pool{x: mat.NewDense(n, d, nil), y: make([]float64, n)}
	for j := range d {
		p.cols = append(p.cols, fmt.Sprintf("x%d", j))
	}
	p.cols = append(p.cols, "y")
	for i := range n {
		scale := 0.3
		if rng.Float64() < 0.1 {
			scale = 2
		}
		s := 0.0
		for j := range d {
			v := scale * rng.NormFloat64()
			p.x.Set(i, j, v)
			s += v
		}
		p.y[i] = math.Sin(s) + 0.1*rng.NormFloat64()
	}
	row := 0
	for sh := range k {
		name := filepath.Join(dir, fmt.Sprintf("shard-%02d.csv", sh))
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		w.Write(p.cols)
		rows := n / k
		if sh < n%k {
			rows++
		}
		rec := make([]string, d+1)
		for r := range rows {
			for j := range d {
				rec[j] = strconv.FormatFloat(p.x.At(row, j), 'g', -1, 64)
			}
			rec[d] = strconv.FormatFloat(p.y[row], 'g', -1, 64)
			w.Write(rec)
			p.file = append(p.file, name)
			p.line = append(p.line, r+2)
			row++
		}
		w.Flush()
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		p.files = append(p.files, name)
	}
	return p
}

// run executes p on Prism.
func run(t testing.TB, p *beam.Pipeline) error {
	t.Helper()
	_, err := prism.Execute(context.Background(), p)
	return err
}

// readCSV reads a whole CSV file written by a Write* transform.
func readCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func mustFloat(t testing.TB, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// wantErr checks that err mentions every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error does not mention %q:\n%v", p, err)
		}
	}
}
