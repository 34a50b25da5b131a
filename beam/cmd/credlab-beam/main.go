// Command credlab-beam runs the credbeam pipelines on sharded CSV files
// (a glob; every shard starts with the same header row) on any Beam
// runner: Prism in-process by default, or Flink, Spark, Dataflow through
// Beam's --runner and --endpoint flags.
//
//	credlab-beam select -input 'pool/*.csv' -budget 1000 -D 200 -out selected.csv [beam flags]
//	credlab-beam stats  -input 'pool/*.csv' -target y -m 500 -out model.json [beam flags]
//	credlab-beam lcmd   -input 'pool/*.csv' -target y -budget 256 -labeled selected.csv -out next.csv [beam flags]
//	credlab-beam weights -input 'pool/*.csv' -target y -labeled labeled.csv -out weighted.csv [beam flags]
//
// select draws CRED importance labels (credbeam.CREDSample); stats fits a
// Nyström kernel regression from sufficient statistics
// (credbeam.NystromFit); lcmd continues labeled rows with LCMD, the batch
// loop's default method (credbeam.LCMDSample); weights writes the labeled
// rows with their pool weights (credbeam.PoolWeights), which credlab fit
// reads as it reads credlab select's. Run `credlab-beam select -h` for the
// flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // gs:// shards and outputs
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/credlab/credlab/beam"
	"github.com/credlab/credlab/credlab"
)

const usage = `usage: credlab-beam select|stats|lcmd|weights [flags] [beam flags such as --runner=prism]
  select  draw CRED importance labels from a sharded CSV pool
  stats   fit Nyström kernel regression (NKRLS or NYTRO) from sufficient statistics
  lcmd    choose the next batch by LCMD after the rows of -labeled (per-shard candidates, then one global pass)
  weights write the rows of -labeled with their pool weights, in the kernel tuned on their labels (one pass)
Run credlab-beam select -h or credlab-beam stats -h for the flags.`

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		// A runner starts the worker with flags only (--worker ...):
		// beam.Init runs it and does not return.
		flag.Parse()
		beam.Init()
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	cmd := os.Args[1]
	os.Args = append(os.Args[:1], os.Args[2:]...)
	var err error
	switch cmd {
	case "select":
		err = runSelect()
	case "stats":
		err = runStats()
	case "lcmd":
		err = runLCMD()
	case "weights":
		err = runWeights()
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "credlab-beam:", headline(err))
		if *verbose {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
}

// headline returns the credbeam message inside a runner's error (which
// wraps it in the failed bundle's plan), or the whole error.
func headline(err error) string {
	msg := err.Error()
	i := strings.LastIndex(msg, "credbeam: ")
	if i < 0 {
		return msg
	}
	if j := strings.IndexByte(msg[i:], '\n'); j >= 0 {
		return msg[i : i+j]
	}
	return msg[i:]
}

var (
	input    = flag.String("input", "", "glob of the CSV shards (local or gs://); required")
	features = flag.String("features", "", "comma-separated feature columns (default: every column but -target)")
	target   = flag.String("target", "", "response column (stats, weights: required; select, lcmd: excluded from the features)")
	out      = flag.String("out", "", "output file: the selected rows (select, lcmd: CSV), the model (stats: JSON) or the labeled rows with their pool weights (weights: CSV, not -labeled itself); required")
	sigma    = flag.Float64("sigma", 0, "Gaussian kernel bandwidth (0: median distance of 1000 rows of the first shard for select with random features, of the centers with Nyström)")
	seed     = flag.Uint64("seed", 1, "seed of the draw (select), of the centers and split (stats, lcmd), and of the folds of the kernel tuned on the labels (lcmd, weights)")
	block    = flag.Int("block", 0, "rows parsed at once (0: 4096)")
	verbose  = flag.Bool("v", false, "on failure, also print the runner's whole error")

	budget   = flag.Int("budget", 0, "select: number of rows (-design without) or of draws (-design replacement); lcmd: number of new rows; required")
	audit    = flag.Float64("audit", 0, "lcmd: share of the batch drawn uniformly from the unlabeled rows as an audit sample, with its weight 1/pi in an audit column that credlab fit reads (0: 0.1, negative: none, at most 0.5)")
	labeled  = flag.String("labeled", "", "lcmd, weights: CSV of the rows already labeled, with file and line columns (select and lcmd outputs); with their -target filled in, the kernel is tuned on them (lcmd: unless -sigma is set; weights: required)")
	design   = flag.String("design", "without", "select: without (exactly -budget distinct rows, without replacement in each shard, as credlab select) or replacement (-budget independent draws)")
	mapKind  = flag.String("map", "fourier", "select: feature map, fourier (-D random features) or nystrom (-m centers of smallest seeded hash)")
	dFeat    = flag.Int("D", 200, "select: number of random Fourier features")
	fseed    = flag.Uint64("feature-seed", 1, "select: seed of the random features or of the Nyström centers")
	lambdaQ  = flag.Float64("lambdaq", 1e-6, "select: lambda_q of the leverage scores")
	scoresTo = flag.String("scores", "", "select: also write every row's score to this CSV (one worker gathers them)")
	planTo   = flag.String("plan", "", "select: also write the sampling plan (per-shard masses and counts) as JSON")

	m       = flag.Int("m", 200, "stats and select with -map nystrom: number of Nyström centers; lcmd: rows (of smallest seeded hash) whose standard deviations standardize the columns and whose median distance is the bandwidth, when the kernel is not tuned on the labels")
	method  = flag.String("method", "nkrls", "stats: nkrls (ridge) or nytro (gradient steps)")
	lambda  = flag.Float64("lambda", 0, "stats: fixed lambda (0: chosen on the validation rows)")
	valFrac = flag.Float64("val", 0.2, "stats: fraction of rows held out for validation (0: none, with -lambda or -iter fixed)")
	iter    = flag.Int("iter", 0, "stats, nytro: fixed number of steps (0: stopped on validation)")
)

// start parses the flags, initializes Beam and reads the pool's shards
// and header (spec).
func start() (context.Context, []string, credbeam.Spec, error) {
	flag.Parse()
	beam.Init()
	ctx := context.Background()
	files, sp, err := spec(ctx)
	return ctx, files, sp, err
}

// spec expands the glob and reads the first shard's header on the driver.
func spec(ctx context.Context) ([]string, credbeam.Spec, error) {
	if *input == "" || *out == "" {
		return nil, credbeam.Spec{}, fmt.Errorf("-input and -out are required")
	}
	files, err := credbeam.ExpandShards(ctx, *input)
	if err != nil {
		return nil, credbeam.Spec{}, err
	}
	cols, err := credbeam.ReadHeader(ctx, files[0])
	if err != nil {
		return nil, credbeam.Spec{}, err
	}
	sp := credbeam.Spec{Columns: cols, Target: *target}
	if *features != "" {
		sp.Features = strings.Split(*features, ",")
	}
	_, err = sp.FeatureNames()
	return files, sp, err
}

func execute(ctx context.Context, p *beam.Pipeline, what string) error {
	start := time.Now()
	if err := beamx.Run(ctx, p); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "credlab-beam: %s done in %.1fs\n", what, time.Since(start).Seconds())
	return nil
}

func runSelect() error {
	ctx, files, sp, err := start()
	if err != nil {
		return err
	}
	sg := *sigma
	if sg == 0 && *mapKind != "nystrom" {
		x, err := credbeam.HeadRows(ctx, files[0], sp, 1000)
		if err != nil {
			return err
		}
		if sg = credlab.MedianDistance(x); !(sg > 0) {
			return fmt.Errorf("the median distance of the first rows of %s is %v: set -sigma", files[0], sg)
		}
	}
	cfg := credbeam.SelectSpec{Spec: sp, Map: *mapKind, D: *dFeat, M: *m, Sigma: sg, FeatureSeed: *fseed, LambdaQ: *lambdaQ, Budget: *budget, Seed: *seed, Design: *design, Block: *block}
	p, s := beam.NewPipelineWithRoot()
	res, err := credbeam.CREDSample(s, beam.CreateList(s, files), cfg)
	if err != nil {
		return err
	}
	credbeam.WriteSelected(s, res.Selected, *out, sp.Columns)
	if *scoresTo != "" {
		credbeam.WriteScores(s, res.Scores, *scoresTo)
	}
	if *planTo != "" {
		credbeam.WritePlan(s, res.Plan, *planTo)
	}
	fmt.Fprintf(os.Stderr, "credlab-beam: select %d of the rows of %d shards (%s), %s features (D = %d, m = %d), sigma = %g\n", *budget, len(files), designName(*design), *mapKind, *dFeat, *m, sg)
	return execute(ctx, p, "select")
}

// designName says what -design draws.
func designName(d string) string {
	if d == "replacement" {
		return "draws with replacement"
	}
	return "distinct rows, without replacement in each shard"
}

func runStats() error {
	ctx, files, sp, err := start()
	if err != nil {
		return err
	}
	vf := *valFrac
	if vf == 0 {
		vf = -1 // -val 0: no validation rows (0 means the default in the config)
	}
	cfg := credbeam.NystromSpec{Spec: sp, M: *m, Sigma: *sigma, Seed: *seed, ValFraction: vf, Method: *method,
		Lambda: *lambda, Iter: *iter, Block: *block}
	p, s := beam.NewPipelineWithRoot()
	res, err := credbeam.NystromFit(s, beam.CreateList(s, files), cfg)
	if err != nil {
		return err
	}
	credbeam.WriteText(s, res.Model, *out)
	fmt.Fprintf(os.Stderr, "credlab-beam: stats on %d shards, m = %d, %s\n", len(files), *m, *method)
	return execute(ctx, p, "stats")
}

func runLCMD() error {
	ctx, files, sp, err := start()
	if err != nil {
		return err
	}
	cfg := credbeam.LCMDSpec{Spec: sp, Budget: *budget, M: *m, Sigma: *sigma, Seed: *seed, Block: *block, Audit: *audit}
	how := fmt.Sprintf("gaussian on the columns standardized over the centers, sigma %s", map[bool]string{true: "the median distance of the centers", false: fmt.Sprint(*sigma)}[*sigma == 0])
	if *labeled != "" {
		lab, err := credbeam.ReadLabeled(ctx, *labeled, sp)
		if err != nil {
			return err
		}
		cfg.Labeled, cfg.Audited, cfg.LabeledValues = lab.Rows, lab.Audited, lab.Values
		if lab.Y != nil && *sigma == 0 {
			k, err := credbeam.TuneKernel(ctx, lab, *seed)
			if err != nil {
				return err
			}
			cfg.Kernel, cfg.Sigma, cfg.Scales, how = k.Kernel, k.Sigma, k.Scales, k.Report
		}
	}
	p, s := beam.NewPipelineWithRoot()
	sel, err := credbeam.LCMDSample(s, beam.CreateList(s, files), cfg)
	if err != nil {
		return err
	}
	credbeam.WriteSelected(s, sel, *out, sp.Columns)
	fmt.Fprintf(os.Stderr, "credlab-beam: lcmd %d rows of %d shards after %d labeled, kernel %s%s\n", *budget, len(files), len(cfg.Labeled), how, auditNote(cfg))
	return execute(ctx, p, "lcmd")
}

func runWeights() error {
	ctx, files, sp, err := start()
	if err != nil {
		return err
	}
	if *labeled == "" || sp.Target == "" {
		return fmt.Errorf("weights needs -labeled and -target: the labeled rows, their labels filled in")
	}
	if *out == *labeled {
		return fmt.Errorf("weights: -out is -labeled: write the weighted rows to another file")
	}
	lab, err := credbeam.ReadLabeled(ctx, *labeled, sp)
	if err != nil {
		return err
	}
	if lab.Weighted {
		fmt.Fprintf(os.Stderr, "credlab-beam: warning: rows of %s carry importance weights other than 1 (a CRED draw): credlab fit on the output weighs them by their pool weights instead; pool weights are for the rows of batch methods such as lcmd\n", *labeled)
	}
	if lab.Y == nil {
		return fmt.Errorf("labeled rows %s: the -target %q is not filled in on every row (or a feature column is missing): the distance's column scales are tuned on the labels", *labeled, sp.Target)
	}
	k, err := credbeam.TuneKernel(ctx, lab, *seed)
	if err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	counts, err := credbeam.PoolWeights(s, beam.CreateList(s, files), credbeam.PoolWeightsSpec{Spec: sp, Labeled: lab.Rows, LabeledValues: lab.Values, Scales: k.Scales, Block: *block})
	if err != nil {
		return err
	}
	credbeam.WritePoolWeights(s, counts, *labeled, *out, lab.Rows)
	fmt.Fprintf(os.Stderr, "credlab-beam: pool weights of %d labeled rows over %d shards, distance in the columns of %s\n", len(lab.Rows), len(files), k.Report)
	return execute(ctx, p, "weights")
}

// auditNote says how many of the batch's rows are the audit sample.
func auditNote(cfg credbeam.LCMDSpec) string {
	a := cfg.AuditSize()
	if a == 0 {
		return "; no audit sample"
	}
	return fmt.Sprintf("; %d of the rows are a uniform audit sample (column audit, weight 1/pi), the rest LCMD's", a)
}
