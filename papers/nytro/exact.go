package nytro

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Exact runs exact methods of the NYTRO reproduction's Table 2 (KOLS,
// KRLS, EarlyStopping) on Adult, read from dataDir, which the full
// reproduction skips when one run is estimated over its 10-minute budget:
// once (seed 1), with a budget of two hours and 90% of physical memory
// (bench/cmd/credlab-nytro-exact). It writes one line per run to out as
// each method ends (status, test RMSE, the selected parameter, rank and
// times) and progress to w.
func Exact(ctx context.Context, dataDir string, methods []string, out, w io.Writer) error {
	cfg := defaultConfig(false)
	cfg.reps = 1
	cfg.exact.budget = 2 * time.Hour
	cfg.exact.memShare = 0.9
	cases, err := loadTable2(dataDir, cfg)
	if err != nil {
		return err
	}
	for _, meth := range methods {
		runs, err := runMethod(ctx, cases[1], meth, cfg, w)
		if err != nil {
			return err
		}
		for _, r := range runs {
			if _, err := fmt.Fprintf(out, "%s %s: %s, test RMSE %.4f, %s, rank %d, %.1f s (kernel %.1f, solve %.1f, select %.1f)%s\n", r.dataset, r.method, r.status,
				r.testRMSE, paramString(r), r.rank, r.timing.Total().Seconds(), r.timing.Kernel.Seconds(), r.timing.Solve.Seconds(),
				r.timing.Select.Seconds(), r.note); err != nil {
				return err
			}
		}
	}
	return nil
}
