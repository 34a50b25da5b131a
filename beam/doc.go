// Package credbeam runs credlab's CRED importance labeling, LCMD batch
// selection and Nyström kernel regression as Apache Beam pipelines over
// pools of sharded CSV files too large for one machine. It lives in its own module
// (github.com/credlab/credlab/beam) so that the library and the notebook
// kernel do not carry Beam's dependencies.
//
// Map of the package:
//
//   - shards.go: Spec (the header every shard must have, the feature and
//     target columns), ExpandShards and ReadHeader on the driver, the CSV
//     reader every pass shares (blocks of parsed rows; ShardError naming
//     shard, line and column for an empty shard, a different header, a
//     value that does not parse or is not finite), and RowHash, the seeded
//     hash of (shard base name, line) that splits and picks centers
//     whatever worker reads the row.
//   - cred.go: CREDSample, the CRED selection in two passes (Gram
//     statistics combined over shards, then leverage scores against the
//     broadcast factor) with random Fourier or Nyström features
//     (FeatureParams), the per-shard masses and the plan (NewPlan: each
//     shard's share of the pool's inclusion probabilities, rounded, or
//     with replacement a multinomial) and the exact per-shard draw
//     (DrawShard).
//   - nystrom.go: NystromFit, Nyström centers by smallest hash, the
//     training and validation Gram statistics combined over shards, and a
//     model solved from them alone (FitStats: credlab.RidgeGram or
//     credlab.GradientGram).
//   - lcmd.go: LCMDSample, the batch loop's default method (LCMD) on a
//     sharded pool in the kernel's exact feature distances: the columns
//     standardized over the rows NystromFit takes as centers, per-shard
//     LCMD candidates after the shard's labeled rows, then one global LCMD
//     pass over the candidates after every labeled row.
//   - audit.go: the audit sample beside LCMD (LCMDSpec.Audit): the
//     unlabeled rows of smallest audit hash, with their weight 1/pi.
//   - poolweights.go: PoolWeights, the labeled rows' pool weights
//     (credlab.NearestCounts per shard, summed), and WritePoolWeights,
//     the labeled file with its pool_weight column.
//   - model.go: ModelFile, the JSON model NystromFit writes.
//   - output.go: WriteSelected, WriteScores, WritePlan, WriteText.
//   - cmd/credlab-beam: the command (select, stats, lcmd, weights) on any
//     Beam runner.
//   - internal/gendata, internal/memscore: the synthetic pools and the
//     in-memory baseline of docs/scale.md.
//
// Costs, for N rows of d inputs, D random features or M centers: CRED
// reads the pool three times (statistics, scores, chosen records) and
// computes O(N (d D + D^2)); only D^2 floats per shard, one float per row
// (the scores) and the draws cross the network. NystromFit reads it twice,
// computes O(N (M d + M^2)) and moves M d + 2 M^2 floats per shard.
//
// Errors in a pipeline reach the driver as the failed DoFn's message
// (Beam does not carry the error's type across the runner): every message
// names the shard, and the line and column where they apply, and the
// sentinels (ErrColumns, ErrEmptyShard, ErrNotFinite, ErrParse,
// ErrBudget) can be matched with errors.Is on values returned in-process,
// such as by NewPlan or ReadHeader.
//
// Determinism: centers, split and draws depend on the seeds and the rows'
// (shard base name, line) only. Gram statistics are summed by the
// runner's combine tree, whose order is not fixed: results agree across
// runs and worker counts to floating-point rounding of those sums (about
// 1e-14 relative in the probabilities; the same rows are drawn unless a
// uniform draw falls that close to a boundary of q's cumulative sums).
//
// Names, as in package frames: a Spec (SelectSpec, NystromSpec, LCMDSpec,
// PoolWeightsSpec, each embedding the shards' Spec of columns) says what a
// pipeline computes on named columns; the Params types (FeatureParams,
// NystromParams) are the feature maps the pipelines broadcast for every
// worker to rebuild; credlab's Config structs are the algorithms' settings
// underneath. A zero field means the documented default.
//
// The shard list is reshuffled first (beam.Reshuffle) so that runners
// spread the shards over workers; a shard is the unit of parallelism, so
// pools should have a few shards per core.
package credbeam
