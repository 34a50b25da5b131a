package papers

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/papers/cred"
	"github.com/credlab/credlab/papers/distreg"
	"github.com/credlab/credlab/papers/nytro"
	"github.com/credlab/credlab/papers/sgm"
)

// reproductions maps each paper to its reproduction.
var reproductions = map[string]func(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error{
	"cred":    cred.Reproduce,
	"sgm":     sgm.Reproduce,
	"distreg": distreg.Reproduce,
	"nytro":   nytro.Reproduce,
}

// Reproductions lists the papers Reproduce knows: "cred", "distreg",
// "nytro" and "sgm", the names of their packages.
func Reproductions() []string { return []string{"cred", "distreg", "nytro", "sgm"} }

// Reproduce runs one paper's reproduction (`credlab reproduce PAPER`), the
// function Reproduce of the paper's package: every experiment of the paper
// at its full size (quick: small sizes that finish in about a minute),
// reading the staged data sets from dataDir. It writes the CSV files of
// each figure or table and the report reproductions-PAPER.md to outDir and
// its progress to w.
func Reproduce(ctx context.Context, paper, dataDir, outDir string, quick bool, w io.Writer) error {
	run, ok := reproductions[strings.ToLower(paper)]
	if !ok {
		return &credlab.ParamError{Name: "paper", Value: strconv.Quote(paper), Want: "one of " + strings.Join(Reproductions(), ", ")}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	return run(ctx, dataDir, outDir, quick, w)
}
