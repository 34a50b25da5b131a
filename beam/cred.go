package credbeam

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
)

// SelectSpec configures CREDSample: features of the Gaussian kernel of
// bandwidth Sigma, leverage scores at LambdaQ, and Budget rows drawn with
// Design, seeded by Seed. Map "fourier" (the default) uses D random
// Fourier features drawn with FeatureSeed, rebuilt identically on every
// worker; Map "nystrom" uses the Nyström features of M centers, the rows
// of smallest RowHash(FeatureSeed, PurposeCenter, ...), with Sigma 0
// meaning the median distance of the centers.
type SelectSpec struct {
	Spec
	Map         string
	D           int
	M           int
	Sigma       float64
	FeatureSeed uint64
	// LambdaQ is lambda_q, default 1e-6 (as credlab.CREDSelector).
	LambdaQ float64
	Budget  int
	Seed    uint64
	// Design is "" or "without" (the default, as credlab select's):
	// exactly Budget distinct rows, a sample without replacement in each
	// shard of the size NewPlan allocates it; or "replacement": Budget
	// independent draws from q.
	Design string
	// Block is the number of rows parsed and scored at once (default 4096).
	Block int
}

// withReplacement reports whether design names draws with replacement,
// and checks it.
func withReplacement(design string) (bool, error) {
	switch design {
	case "", "without":
		return false, nil
	case "replacement":
		return true, nil
	}
	return false, fmt.Errorf("credbeam: SelectSpec.Design = %q: want \"without\" (the default) or \"replacement\"", design)
}

func (c SelectSpec) lambdaQ() float64 {
	if c.LambdaQ == 0 {
		return 1e-6
	}
	return c.LambdaQ
}

func (c SelectSpec) check() error {
	if _, err := c.layout(); err != nil {
		return err
	}
	nystrom := c.Map == "nystrom"
	switch {
	case c.Map != "" && c.Map != "fourier" && !nystrom:
		return fmt.Errorf("credbeam: SelectSpec.Map = %q: want \"fourier\" or \"nystrom\"", c.Map)
	case !nystrom && c.D <= 0:
		return fmt.Errorf("credbeam: SelectSpec.D = %d: want a positive number of random features", c.D)
	case nystrom && c.M <= 0:
		return fmt.Errorf("credbeam: SelectSpec.M = %d: want a positive number of Nyström centers", c.M)
	case !nystrom && !(c.Sigma > 0) || c.Sigma < 0 || math.IsNaN(c.Sigma) || math.IsInf(c.Sigma, 0):
		return fmt.Errorf("credbeam: SelectSpec.Sigma = %v: want a positive bandwidth (0: the centers' median distance, with Nyström features)", c.Sigma)
	case c.LambdaQ < 0 || math.IsNaN(c.LambdaQ):
		return fmt.Errorf("credbeam: SelectSpec.LambdaQ = %v: want lambda_q > 0 (0 means 1e-6)", c.LambdaQ)
	case c.Budget <= 0:
		return fmt.Errorf("credbeam: SelectSpec.Budget = %d: want a positive number of rows", c.Budget)
	case c.Block < 0:
		return fmt.Errorf("credbeam: SelectSpec.Block = %d: want a positive block (0 means 4096)", c.Block)
	}
	_, err := withReplacement(c.Design)
	return err
}

// FeatureParams is the feature map of CREDSample, which every worker
// rebuilds: Kind "fourier", D random Fourier features of Inputs columns
// with bandwidth Sigma drawn with Seed (O(d D)), or Kind "nystrom", the
// map of Nystrom (O(M^2 d + M^3/3)).
type FeatureParams struct {
	Kind    string
	Inputs  int
	D       int
	Sigma   float64
	Seed    uint64
	Nystrom NystromParams
}

// Map rebuilds the feature map and returns it with its dimension.
func (f FeatureParams) Map() (credlab.FeatureMap, int, error) {
	if f.Kind == "nystrom" {
		ny, err := f.Nystrom.Map()
		if err != nil {
			return nil, 0, err
		}
		return ny, ny.Rank(), nil
	}
	rf, err := credlab.NewRandomFourier(f.Inputs, f.D, f.Sigma, f.Seed)
	return rf, f.D, err
}

func nystromFeatures(ny NystromParams) FeatureParams {
	return FeatureParams{Kind: "nystrom", Inputs: len(ny.Centers[0]), D: ny.Rank, Sigma: ny.Sigma, Nystrom: ny}
}

// featureCache rebuilds a DoFn's feature map once: the side input is one
// value for the whole pipeline.
type featureCache struct {
	fm  credlab.FeatureMap
	dim int
}

func (c *featureCache) get(fs FeatureParams) (credlab.FeatureMap, int, error) {
	if c.fm == nil {
		fm, dim, err := fs.Map()
		if err != nil {
			return nil, 0, fmt.Errorf("credbeam: feature map: %w", err)
		}
		c.fm, c.dim = fm, dim
	}
	return c.fm, c.dim, nil
}

// ShardScores are the leverage scores of one shard's rows, in file order,
// and their sum (added in that order).
type ShardScores struct {
	File   string
	Scores []float64
	Sum    float64
}

// ShardMass is a shard's number of rows and sum of scores, and for a
// plan without replacement Top, its scores of q_j >= 1/(2 budget) in
// decreasing order (topFn): the only rows whose inclusion probability can
// reach 1, since c <= 2 budget in pi_j = min(1, c q_j) (the uniform half
// of q keeps the capped rows' mass Q below 1/2 + r/(2 budget) for r of
// them, and c = (budget - r)/(1 - Q)), and at most 2 budget rows of the
// pool.
type ShardMass struct {
	File string
	Rows int
	Sum  float64
	Top  []float64
}

// Plan is the sampling plan of CREDSample: the shards sorted by name with
// their rows, score sums, probability masses Mass_k = sum of q_j over the
// shard and number of draws (or distinct rows, without replacement)
// Counts_k; N rows in all and the total score S (summed over the sorted
// shards). q_j = (s_j + S/N) / (2 S) is row j's probability of each draw
// with replacement.
type Plan struct {
	Files       []string
	Rows        []int
	Sums        []float64
	Mass        []float64
	Counts      []int
	N           int
	S           float64
	Budget      int
	Replacement bool
	// Shares are the expected counts without replacement, sum_j pi_j
	// over each shard.
	Shares []float64
}

// Selected is one chosen row: row Row (0-based data row) at line Line of
// File, its Features and its whole CSV Record, its probability Prob and
// importance weight Weight: with replacement q_j and 1/(N q_j), without
// it the inclusion probability pi_j in its shard's sample and
// Budget/(N pi_j). Draw numbers the shard's draws (without replacement
// its rows in rank order).
// Audit is an audit row's weight 1/pi (LCMDSpec.Audit), zero for the
// other rows.
type Selected struct {
	File     string
	Line     int
	Row      int
	Draw     int
	Prob     float64
	Weight   float64
	Audit    float64
	Features []float64
	Record   []string
}

// SelectOutput holds the PCollections of CREDSample.
type SelectOutput struct {
	Features beam.PCollection // one FeatureParams
	Pool     beam.PCollection // one credlab.GramStats: Phi^T Phi of the pool
	Factor   beam.PCollection // one credlab.LeverageFactor
	Scores   beam.PCollection // ShardScores, one per shard
	Plan     beam.PCollection // one Plan
	Selected beam.PCollection // Selected, Budget of them
}

// CREDSample adds the CRED selection of cfg.Budget rows of the pool whose
// shards are the file names in files (a PCollection of strings; see
// ExpandShards):
//
//  1. pass 1 maps every row to random features phi (O(d D) per row) and
//     adds Phi^T Phi per shard (O(D^2) per row), combined over shards
//     with GramStats.Merge (D^2 floats per shard move);
//  2. one element makes the factor of Phi^T Phi/N + lambda_q I (O(D^3/3))
//     broadcast as a side input;
//  3. pass 2 scores every row, s_j = ||L^-1 phi_j||^2 (O(d D + D^2) per
//     row), keeping one float per row;
//  4. the shards' sums give the plan (NewPlan): each shard's number of
//     rows, Budget times its mass q_k rounded systematically, or with
//     replacement Budget categorical draws over the masses;
//  5. each shard draws its count from q restricted to it (DrawShard,
//     seeded by Seed and the shard's base name) and reads its file again
//     for the chosen records.
//
// By default (Design "without") the selection is exactly Budget distinct
// rows, a sample stratified by shard: in each, the credlab.
// WithoutReplacement design of its count on q_j = (s_j + mean s)/(2 sum
// s), as credlab.CREDDistribution, restricted to the shard, with
// inclusion probabilities pi_j = min(1, c_k q_j) summing to the count;
// the Horvitz-Thompson weights Budget/(N pi_j) estimate pool means
// without bias, and pi_j is within one row's rounding of the whole pool's
// min(1, c q_j) of credlab select. With Design "replacement" the draws
// are exactly q with replacement. Any shard that is empty, has other
// columns, or holds a value that does not parse or is not finite fails the
// pipeline with an error naming the shard, line and column; a budget over
// the rows with positive probability fails it too. The stages after a
// failed one emit nothing, so that the shard's error is the pipeline's; an
// empty files collection therefore gives empty outputs, not an error: list
// the shards with ExpandShards, which refuses a pattern matching nothing.
func CREDSample(s beam.Scope, files beam.PCollection, cfg SelectSpec) (SelectOutput, error) {
	if err := cfg.check(); err != nil {
		return SelectOutput{}, err
	}
	s = s.Scope("credbeam.CREDSample")
	files = beam.Reshuffle(s, files) // spread the shards over the workers (no fusion with their source)
	var out SelectOutput
	if cfg.Map == "nystrom" {
		ny := nystromCenters(s, files, centerFn{Spec: cfg.Spec, M: cfg.M, Seed: cfg.FeatureSeed, Block: cfg.Block}, nystromParamsFn{M: cfg.M, Sigma: cfg.Sigma})
		out.Features = beam.ParDo(s, nystromFeatures, ny)
	} else {
		lay, _ := cfg.layout()
		out.Features = beam.Create(s, FeatureParams{Kind: "fourier", Inputs: len(lay.x), D: cfg.D, Sigma: cfg.Sigma, Seed: cfg.FeatureSeed})
	}
	fs := beam.SideInput{Input: out.Features}
	stats := beam.ParDo(s, &gramFn{Cfg: cfg}, files, fs)
	out.Pool = beam.Combine(s, &gramCombine{}, stats)
	out.Factor = beam.ParDo(s, &factorFn{LambdaQ: cfg.lambdaQ()}, out.Pool)
	out.Scores = beam.ParDo(s, &scoreFn{Cfg: cfg}, files, beam.SideInput{Input: out.Factor}, fs)
	repl, _ := withReplacement(cfg.Design)
	all := beam.Combine(s, &massCombine{}, beam.ParDo(s, toMass, out.Scores))
	if !repl {
		all = beam.Combine(s, &massCombine{}, beam.ParDo(s, &topFn{Budget: cfg.Budget}, out.Scores, beam.SideInput{Input: all}))
	}
	out.Plan = beam.ParDo(s, &planFn{Budget: cfg.Budget, Replacement: repl, Seed: cfg.Seed}, all)
	out.Selected = beam.ParDo(s, &drawFn{Cfg: cfg}, out.Scores, beam.SideInput{Input: out.Plan})
	return out, nil
}

// gramFn adds Phi^T Phi of one shard: O(n (d D + D^2)).
type gramFn struct {
	Cfg SelectSpec
	fc  featureCache
	lay layout
}

func (f *gramFn) Setup() error {
	var err error
	f.lay, err = f.Cfg.layout()
	return err
}

func (f *gramFn) ProcessElement(ctx context.Context, file string, fsIt func(*FeatureParams) bool, emit func(credlab.GramStats)) error {
	var fs FeatureParams
	if !fsIt(&fs) {
		return nil // an upstream stage failed; its error is the pipeline's
	}
	fm, dim, err := f.fc.get(fs)
	if err != nil {
		return err
	}
	g, err := credlab.NewGramStats(dim)
	if err != nil {
		return err
	}
	err = readShard(ctx, file, f.Cfg.Spec, f.lay, f.Cfg.Block, func(b *block) error {
		if err := g.AddRows(ctx, fm, b.x, nil, nil); err != nil {
			return &ShardError{File: file, Line: b.lines[0], Err: err}
		}
		return nil
	}, nil)
	if err != nil {
		return err
	}
	emit(*g)
	return nil
}

// gramCombine merges Gram statistics (GramStats.Merge, O(D^2)); the zero
// GramStats is the empty accumulator.
type gramCombine struct{}

func (gramCombine) MergeAccumulators(a, b credlab.GramStats) (credlab.GramStats, error) {
	switch {
	case b.Dim == 0:
		return a, nil
	case a.Dim == 0:
		return b, nil
	}
	if err := a.Merge(&b); err != nil {
		return a, fmt.Errorf("credbeam: combining Gram statistics: %w", err)
	}
	return a, nil
}

// factorFn factors the pool's statistics: O(D^3/3).
type factorFn struct{ LambdaQ float64 }

func (f *factorFn) ProcessElement(g credlab.GramStats, emit func(credlab.LeverageFactor)) error {
	if g.Dim == 0 {
		return nil // no shard's statistics: a shard failed, and its error is the pipeline's
	}
	lf, err := credlab.NewLeverageFactor(&g, f.LambdaQ)
	if err != nil {
		return fmt.Errorf("credbeam: leverage factor of the pool's %d rows: %w", g.Rows, err)
	}
	emit(*lf)
	return nil
}

// scoreFn scores one shard's rows against the factor: O(n (d D + D^2)).
type scoreFn struct {
	Cfg SelectSpec
	fc  featureCache
	lay layout
}

func (f *scoreFn) Setup() error {
	var err error
	f.lay, err = f.Cfg.layout()
	return err
}

func (f *scoreFn) ProcessElement(ctx context.Context, file string, lfIt func(*credlab.LeverageFactor) bool, fsIt func(*FeatureParams) bool, emit func(ShardScores)) error {
	var lf credlab.LeverageFactor
	var fs FeatureParams
	if !lfIt(&lf) || !fsIt(&fs) {
		return nil // an upstream stage failed; its error is the pipeline's
	}
	fm, _, err := f.fc.get(fs)
	if err != nil {
		return err
	}
	out := ShardScores{File: file}
	err = readShard(ctx, file, f.Cfg.Spec, f.lay, f.Cfg.Block, func(b *block) error {
		s, err := lf.Scores(ctx, fm, b.x, 0)
		if err != nil {
			return &ShardError{File: file, Line: b.lines[0], Err: err}
		}
		out.Scores = append(out.Scores, s...)
		return nil
	}, nil)
	if err != nil {
		return err
	}
	for _, v := range out.Scores {
		out.Sum += v
	}
	emit(out)
	return nil
}

func toMass(s ShardScores) ShardMass {
	return ShardMass{File: s.File, Rows: len(s.Scores), Sum: s.Sum}
}

// topFn adds to a shard's ShardMass its Top scores, those of q_j >=
// 1/(2 Budget) given the pool's masses: O(rows + t log t) for t of them.
type topFn struct{ Budget int }

func (f *topFn) ProcessElement(sc ShardScores, mIt func(*Masses) bool) ShardMass {
	m := toMass(sc)
	var all Masses
	if !mIt(&all) {
		return m // an upstream stage failed; its error is the pipeline's
	}
	n, sum := 0, 0.0
	for _, sh := range all.Shards {
		n, sum = n+sh.Rows, sum+sh.Sum
	}
	// s_j + S/N >= S/B: q_j >= 1/(2B), less a margin for the rounding of
	// S, whose exact sum NewPlan makes over the sorted shards.
	least := (sum/float64(f.Budget) - sum/float64(n)) * (1 - 1e-9)
	for _, v := range sc.Scores {
		if v >= least {
			m.Top = append(m.Top, v)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(m.Top)))
	return m
}

// Masses collects the shards' ShardMass, sorted by file on output.
type Masses struct {
	Shards []ShardMass
}

// massCombine gathers the shards' masses: O(shards log shards).
type massCombine struct{}

func (massCombine) CreateAccumulator() Masses { return Masses{} }
func (massCombine) AddInput(a Masses, m ShardMass) Masses {
	a.Shards = append(a.Shards, m)
	return a
}
func (massCombine) MergeAccumulators(a, b Masses) Masses {
	a.Shards = append(a.Shards, b.Shards...)
	return a
}
func (massCombine) ExtractOutput(a Masses) Masses {
	sort.Slice(a.Shards, func(i, j int) bool { return a.Shards[i].File < a.Shards[j].File })
	return a
}

// planFn computes q's shard masses and draws the per-shard counts.
type planFn struct {
	Budget      int
	Replacement bool
	Seed        uint64
}

func (f *planFn) ProcessElement(m Masses, emit func(Plan)) error {
	if len(m.Shards) == 0 {
		return nil // no shard was scored: a stage before failed, and its error is the pipeline's
	}
	p, err := NewPlan(m.Shards, f.Budget, f.Replacement, f.Seed)
	if err != nil {
		return err
	}
	emit(*p)
	return nil
}

// NewPlan returns the sampling plan of budget rows over shards (sorted by
// file here), with a PCG generator seeded by seed: the masses Mass_k =
// (Sum_k + Rows_k S/N) / (2 S), and the counts. Without replacement each
// shard's count is its share of the whole pool's inclusion probabilities
// pi_j = min(1, c q_j) (sum budget; credlab.InclusionProbabilities), found
// from the shards' Top scores (which must hold every row of q_j >=
// 1/(2 budget), as topFn's do), a_k = (rows capped at 1) + c (Mass_k - their
// q), rounded systematically: with one uniform start u, shard k gets
// floor(A_k + u) - floor(A_{k-1} + u) for the cumulative shares A, so the
// counts add to budget, each is a_k rounded down or up, and its mean is a_k:
// O(T log T) for the T <= 2 budget top scores. With replacement the counts
// are budget independent categorical draws over the masses: O(budget log
// shards). It fails when a file repeats, when the scores sum to zero, and
// when budget exceeds the rows with positive probability (all N rows when
// S > 0).
func NewPlan(shards []ShardMass, budget int, replacement bool, seed uint64) (*Plan, error) {
	sh := append([]ShardMass(nil), shards...)
	sort.Slice(sh, func(i, j int) bool { return sh[i].File < sh[j].File })
	p := &Plan{Budget: budget, Replacement: replacement}
	for i, m := range sh {
		if i > 0 && sh[i-1].File == m.File {
			return nil, &ShardError{File: m.File, Err: fmt.Errorf("the shard appears twice in the pool")}
		}
		if m.Rows == 0 {
			return nil, &ShardError{File: m.File, Err: fmt.Errorf("%w: no rows scored", ErrEmptyShard)}
		}
		p.Files = append(p.Files, m.File)
		p.Rows = append(p.Rows, m.Rows)
		p.Sums = append(p.Sums, m.Sum)
		p.N += m.Rows
		p.S += m.Sum
	}
	if p.N == 0 {
		return nil, fmt.Errorf("credbeam: %w: a pool of no shards", ErrEmptyShard)
	}
	if !(p.S > 0) || math.IsInf(p.S, 0) {
		return nil, fmt.Errorf("credbeam: the leverage scores of the pool's %d rows sum to %v: want a positive, finite sum", p.N, p.S)
	}
	if budget <= 0 || budget > p.N {
		return nil, fmt.Errorf("credbeam: %w: budget %d, but the pool's %d shards hold %d rows with positive probability", ErrBudget, budget, len(p.Files), p.N)
	}
	mean := p.S / float64(p.N)
	cum := make([]float64, len(p.Files))
	total := 0.0
	for k := range p.Files {
		p.Mass = append(p.Mass, (p.Sums[k]+float64(p.Rows[k])*mean)/(2*p.S))
		total += p.Mass[k]
		cum[k] = total
	}
	p.Counts = make([]int, len(p.Files))
	rng := rand.New(rand.NewPCG(seed, 0x73686172))
	if !replacement {
		if err := p.allocate(sh, rng.Float64()); err != nil {
			return nil, err
		}
		return p, nil
	}
	for range budget {
		u := rng.Float64() * total
		k := min(sort.SearchFloat64s(cum, u), len(cum)-1)
		for cum[k] <= u && k < len(cum)-1 { // SearchFloat64s finds cum[k] >= u
			k++
		}
		p.Counts[k]++
	}
	return p, nil
}

// allocate sets the shares and counts of a plan without replacement
// from the shards' Top scores and the start u in [0, 1) (NewPlan).
func (p *Plan) allocate(sh []ShardMass, u float64) error {
	type top struct {
		q float64
		k int
	}
	mean := p.S / float64(p.N)
	var tops []top
	for k, m := range sh {
		for _, v := range m.Top {
			tops = append(tops, top{(v + mean) / (2 * p.S), k})
		}
	}
	sort.SliceStable(tops, func(i, j int) bool { return tops[i].q > tops[j].q })
	// The r largest q are capped while c = (budget - r) / (1 - their sum)
	// makes c q_r >= 1; fewer than budget rows are capped, and none
	// beyond the tops (c <= 2 budget: ShardMass).
	r, capped := 0, 0.0
	c := float64(p.Budget)
	for r < len(tops) && r < p.Budget-1 && c*tops[r].q >= 1 {
		capped += tops[r].q
		r++
		c = float64(p.Budget-r) / (1 - capped)
	}
	p.Shares = make([]float64, len(p.Files))
	for k, m := range p.Mass {
		p.Shares[k] = c * m
	}
	for _, t := range tops[:r] {
		p.Shares[t.k] += 1 - c*t.q
	}
	cum, prev := 0.0, 0
	for k, a := range p.Shares {
		cum += a
		next := min(int(math.Floor(cum+u)), p.Budget)
		if k == len(p.Shares)-1 {
			next = p.Budget // cum is budget up to rounding
		}
		p.Counts[k] = min(next-prev, p.Rows[k]) // a share is at most the rows: only rounding reaches them
		prev += p.Counts[k]
	}
	if prev != p.Budget {
		return fmt.Errorf("credbeam: the plan without replacement allocates %d of the budget's %d rows", prev, p.Budget)
	}
	return nil
}

// drawFn draws a shard's rows from q restricted to it and reads them.
type drawFn struct {
	Cfg SelectSpec
	lay layout
}

func (f *drawFn) Setup() error {
	var err error
	f.lay, err = f.Cfg.layout()
	return err
}

func (f *drawFn) ProcessElement(ctx context.Context, sc ShardScores, pIt func(*Plan) bool, emit func(Selected)) error {
	var p Plan
	if !pIt(&p) {
		return nil // an upstream stage failed; its error is the pipeline's
	}
	k := sort.SearchStrings(p.Files, sc.File)
	if k == len(p.Files) || p.Files[k] != sc.File {
		return &ShardError{File: sc.File, Err: fmt.Errorf("the shard is not in the sampling plan")}
	}
	sel, prob, weight, err := DrawShard(sc.Scores, p, k, f.Cfg.Seed)
	if err != nil || sel == nil {
		return err
	}
	want := map[int][]int{} // row -> draws
	for d, j := range sel {
		want[j] = append(want[j], d)
	}
	recs := map[int][]string{}
	return readShard(ctx, sc.File, f.Cfg.Spec, f.lay, f.Cfg.Block, func(b *block) error {
		r, _ := b.x.Dims()
		for i := range r {
			j := b.first + i
			for _, d := range want[j] {
				emit(Selected{File: sc.File, Line: b.lines[i], Row: j, Draw: d, Prob: prob[d], Weight: weight[d],
					Features: append([]float64(nil), b.x.RawRowView(i)...), Record: recs[j]})
			}
			delete(recs, j)
		}
		return nil
	}, func(row, _ int, record []string) error {
		if _, ok := want[row]; ok {
			recs[row] = append([]string(nil), record...)
		}
		return nil
	})
}

// DrawShard draws plan.Counts[k] rows of shard k, whose scores are s, from
// q restricted to the shard, q_j / Mass_k with q_j = (s_j + S/N) / (2 S),
// seeded by RowHash(seed, PurposeDraw, file, 0): with replacement by
// credlab.DrawSelection, in draw order, each with its probability q_j and
// weight 1/(N q_j); without, by credlab.SampleDesign's WithoutReplacement
// design, in rank order, each with its inclusion probability pi_j in the
// shard's sample and weight Budget/(N pi_j). O(rows + count) with
// replacement, O(rows log rows) without. It returns nil rows when the
// shard has no draws.
func DrawShard(s []float64, p Plan, k int, seed uint64) (rows []int, prob, weight []float64, err error) {
	file := p.Files[k]
	if len(s) != p.Rows[k] {
		return nil, nil, nil, &ShardError{File: file, Err: fmt.Errorf("%d scores for the plan's %d rows: the shard changed between the passes", len(s), p.Rows[k])}
	}
	if p.Counts[k] == 0 {
		return nil, nil, nil, nil
	}
	mean := p.S / float64(p.N)
	q := make([]float64, len(s))
	qk := make([]float64, len(s))
	mass := 0.0
	for j, v := range s {
		q[j] = (v + mean) / (2 * p.S)
		mass += q[j]
	}
	for j, v := range q {
		qk[j] = v / mass
	}
	h := RowHash(seed, PurposeDraw, file, 0)
	nf := float64(p.N)
	if p.Replacement {
		sel, err := credlab.DrawSelection(qk, p.Counts[k], h)
		if err != nil {
			return nil, nil, nil, &ShardError{File: file, Err: err}
		}
		for _, j := range sel.Index {
			prob, weight = append(prob, q[j]), append(weight, 1/(nf*q[j]))
		}
		return sel.Index, prob, weight, nil
	}
	sel, err := credlab.SampleDesign(qk, nil, p.Counts[k], credlab.WithoutReplacement, nil, h)
	if err != nil {
		return nil, nil, nil, &ShardError{File: file, Err: err}
	}
	for _, pi := range sel.Prob {
		weight = append(weight, float64(p.Budget)/(nf*pi))
	}
	return sel.Index, sel.Prob, weight, nil
}
