package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestForVisitsEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 50} {
		seen := make([]int32, 1000)
		if err := For(context.Background(), workers, len(seen), func(i int) error {
			atomic.AddInt32(&seen[i], 1)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("workers %d: index %d visited %d times", workers, i, c)
			}
		}
	}
	if err := For(context.Background(), 4, 0, func(int) error { return errors.New("called") }); err != nil {
		t.Errorf("no units: %v", err)
	}
}

func TestForReportsTheSmallestFailedIndex(t *testing.T) {
	// units 5 and 7 fail; on one worker 7 never runs, on several it may: 5 is reported
	for _, workers := range []int{1, 4} {
		err := For(context.Background(), workers, 100, func(i int) error {
			if i == 5 || i == 7 {
				return fmt.Errorf("unit %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "unit 5" {
			t.Errorf("workers %d: %v", workers, err)
		}
	}
}

// TestForStopsWhenCancelled: after cancel no new unit starts (a unit takes 1 ms here:
// an empty one could start several while cancel itself runs).
func TestForStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := For(ctx, 2, 1000, func(i int) error {
		if ran.Add(1) == 10 {
			cancel()
		}
		time.Sleep(time.Millisecond)
		return nil
	})
	if !errors.Is(err, context.Canceled) || ran.Load() > 12 {
		t.Errorf("err %v after %d units", err, ran.Load())
	}
}
