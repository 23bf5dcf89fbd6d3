package score

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach calls f(i) for i in [0, n) on all cores. It stops handing out units once ctx
// is done or a unit fails, and returns the error of the failed unit with the smallest
// index (so the message never depends on scheduling), else ctx's error. f must only
// write its own slots, or lock what it shares.
func forEach(ctx context.Context, n int, f func(i int) error) error {
	errs := make([]error, n)
	var failed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
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
