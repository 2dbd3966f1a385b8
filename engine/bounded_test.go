package engine

import (
	"context"
	"testing"
	"time"
)

// TestBounded: a context without a deadline gets DefaultTimeout (the
// library bounds every call); a caller's own deadline is kept.
func TestBounded(t *testing.T) {
	ctx, cancel := bounded(context.Background())
	defer cancel()
	d, ok := ctx.Deadline()
	if !ok || time.Until(d) > DefaultTimeout || time.Until(d) < DefaultTimeout-time.Second {
		t.Errorf("no deadline given: got %v (ok %v), want about %v from now", time.Until(d), ok, DefaultTimeout)
	}
	mine, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	ctx, cancel = bounded(mine)
	defer cancel()
	if d2, _ := ctx.Deadline(); !d2.Equal(func() time.Time { d, _ := mine.Deadline(); return d }()) {
		t.Errorf("the caller's deadline was replaced: %v", d2)
	}
}
