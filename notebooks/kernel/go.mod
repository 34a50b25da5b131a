module github.com/credlab/credlab/notebooks/kernel

go 1.24

// gomacro predates go/types aliases; keep them off in the kernel.
godebug gotypesalias=0

require (
	github.com/gopherdata/gophernotes v0.7.5
	golang.org/x/mod v0.23.0
)

require (
	github.com/cosmos72/gomacro v0.0.0-20220530072503-c719ab5c40fc // indirect
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/go-zeromq/zmq4 v0.14.1 // indirect
	github.com/gofrs/uuid v4.2.0+incompatible // indirect
	github.com/mattn/go-runewidth v0.0.13 // indirect
	github.com/peterh/liner v1.2.1 // indirect
	github.com/rivo/uniseg v0.2.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)
