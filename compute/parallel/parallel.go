// Package parallel runs independent units of work on several goroutines.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) for every i in [0, n) on workers goroutines (workers <= 0: GOMAXPROCS),
// handing out the indices in ascending order. It stops handing out units once ctx is
// done or a unit has failed, and returns the error of the failed unit with the smallest
// index, so the message never depends on scheduling; else ctx's error. f must write only
// its own slots, or lock what it shares.
func For(ctx context.Context, workers, n int, f func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	errs := make([]error, n)
	var failed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil || failed.Load() {
					return
				}
				if errs[i] = f(i); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
