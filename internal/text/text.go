// Package text formats numbers and durations for people; both front ends and the
// widgets use it, so it imports nothing of the project.
package text

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration formats a duration for people: 45 s, 3 min 20 s, 1 h 5 min.
func Duration(d time.Duration) string {
	s := int(d.Seconds() + 0.5)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %d min", s/3600, (s%3600)/60)
}

// Thousands formats n with commas between groups of three digits: 1999000 -> 1,999,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
