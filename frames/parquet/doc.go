// Package parquet reads and writes Parquet files as gota data frames, with
// Apache Arrow's Go module (pqarrow). It is a package of its own so that
// programs importing frames do not link Arrow (and its gRPC, protobuf and
// golang.org/x dependencies); importing it also registers the format with
// frames.LoadData:
//
//	import _ "github.com/credlab/credlab/frames/parquet"
//
// lets frames.LoadData read ".parquet" and ".parq" files and Format
// "parquet". Read, Load and Write are in parquet.go.
package parquet
