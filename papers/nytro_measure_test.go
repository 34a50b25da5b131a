package papers

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMeasureNYTROExact runs the exact methods of Table 2 on Adult, which
// the full reproduction skips when one run is estimated over its 10-minute
// budget, once (seed 1) with a budget of two hours, and logs each run. It
// runs only with CREDLAB_DATA=/path/to/shared/data and
// CREDLAB_NYTRO_EXACT=KRLS (a comma-separated list of KOLS, KRLS,
// EarlyStopping); run it under /usr/bin/time -v for the peak memory.
func TestMeasureNYTROExact(t *testing.T) {
	dir, methods := os.Getenv("CREDLAB_DATA"), os.Getenv("CREDLAB_NYTRO_EXACT")
	if dir == "" || methods == "" {
		t.Skip("set CREDLAB_DATA and CREDLAB_NYTRO_EXACT=KOLS,KRLS,EarlyStopping")
	}
	cfg := nytDefaults(false)
	cfg.reps = 1
	cfg.exact.budget = 2 * time.Hour
	cfg.exact.memShare = 0.9
	cases, err := nytLoadTable2(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, meth := range strings.Split(methods, ",") {
		runs, err := nytRunMethod(context.Background(), cases[1], meth, cfg, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			t.Logf("%s %s: %s, test RMSE %.4f, %s, rank %d, %.1f s (kernel %.1f, solve %.1f, select %.1f)%s", r.dataset, r.method, r.status,
				r.testRMSE, nytParamString(r), r.rank, r.timing.Total().Seconds(), r.timing.Kernel.Seconds(), r.timing.Solve.Seconds(),
				r.timing.Select.Seconds(), r.note)
		}
	}
}
