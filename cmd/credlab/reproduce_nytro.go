package main

import (
	"context"
	"errors"
	"io"
)

// reproduceNYTRO is wired to internal/repro once it lands.
func reproduceNYTRO(ctx context.Context, data, out string, quick bool, w io.Writer) error {
	return errors.New("reproduce nytro: not available in this build")
}
