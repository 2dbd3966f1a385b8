package server

import (
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"sync"
)

// Defaults of the server's bounds on work in progress. A request over a
// bound is answered at once with 503 and Retry-After (a client reads it
// as a deny) instead of waiting: a queue of requests holds their bodies
// and makes every answer late.
const (
	// DefaultMemoryLimit is the Go runtime's soft memory limit toolwall
	// serve sets when $GOMEMLIMIT is not set (192 MiB): with the body
	// budget it keeps the process within 256 MiB of RSS whatever the
	// clients send.
	DefaultMemoryLimit = 192 << 20
	// DefaultBodyBudget bounds the memory the requests in progress may
	// hold for their bodies (64 MiB), counted as BodyCost times each
	// body's size.
	DefaultBodyBudget = 64 << 20
	// BodyCost is what a request is taken to hold in memory per byte of
	// its body while it is decoded and decided: the bytes read, the
	// decoded input, and what the analysis keeps of it.
	BodyCost = 3
	// RetryAfter is the Retry-After of a request turned away (seconds).
	RetryAfter = 1
)

// DefaultMaxInFlight is the default bound on requests decided at once:
// 8 per processor, at least 16 — twice the server's decision workers, so
// that one tenant's share (half, when there are several) keeps them all
// busy and an admitted request waits for a worker at most one decision.
func DefaultMaxInFlight() int { return max(16, 8*runtime.GOMAXPROCS(0)) }

// admission counts the requests in progress and the body memory they
// hold, in all and per tenant.
type admission struct {
	mu                 sync.Mutex
	inFlight, bytes    int64
	maxInFlight, maxB  int64
	tenantN, tenantB   int64 // per-tenant bounds
	byTenant           map[string]*load
	unknownBodyReserve int64 // what a body of unknown length reserves
}

type load struct{ n, b int64 }

// newAdmission bounds work in progress by opts; a server with one tenant
// gives it the whole of each bound.
func newAdmission(opts Options, tenants int) *admission {
	a := &admission{maxInFlight: int64(opts.MaxInFlight), maxB: opts.BodyBudget, byTenant: map[string]*load{}}
	a.tenantN, a.tenantB = a.maxInFlight, a.maxB
	if tenants > 1 {
		a.tenantN, a.tenantB = max(1, a.maxInFlight/2), a.maxB/2
	}
	if opts.MaxInFlightPerTenant > 0 {
		a.tenantN = int64(opts.MaxInFlightPerTenant)
	}
	if opts.BodyBudgetPerTenant > 0 {
		a.tenantB = opts.BodyBudgetPerTenant
	}
	a.unknownBodyReserve = opts.MaxBody * BodyCost
	return a
}

// admit reserves room for a request of tenant with a body of size bytes
// (-1: unknown, so the largest allowed). It returns the release of the
// reservation, or why the request is turned away.
func (a *admission) admit(tenant string, size int64) (release func(), busy string) {
	cost := a.unknownBodyReserve
	if size >= 0 {
		cost = size * BodyCost
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.byTenant[tenant]
	if t == nil {
		t = &load{}
	}
	switch {
	case a.inFlight >= a.maxInFlight:
		return nil, fmt.Sprintf("the server is deciding %d requests, its most at once", a.maxInFlight)
	case t.n >= a.tenantN:
		return nil, fmt.Sprintf("this tenant has %d requests in progress, its most at once", a.tenantN)
	case cost > a.tenantB || cost > a.maxB:
		// Larger than a whole budget: it could never be admitted.
		// Refuse it as busy once nothing else is in progress neither;
		// MaxBody bounds what a client may send.
		if a.inFlight > 0 {
			return nil, "the bodies of the requests in progress fill the server's memory budget"
		}
	case a.bytes+cost > a.maxB:
		return nil, "the bodies of the requests in progress fill the server's memory budget"
	case t.b+cost > a.tenantB:
		return nil, "the bodies of this tenant's requests in progress fill its memory budget"
	}
	a.inFlight++
	a.bytes += cost
	t.n++
	t.b += cost
	a.byTenant[tenant] = t
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.inFlight--
		a.bytes -= cost
		t.n--
		t.b -= cost
		if t.n == 0 {
			delete(a.byTenant, tenant)
		}
	}, ""
}

// busy answers a request turned away: 503 with Retry-After.
func (s *Server) busy(w http.ResponseWriter, why string) {
	w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
	s.fail(w, http.StatusServiceUnavailable, "busy", "toolwall is busy ("+why+"); the call is not decided. Retry after "+strconv.Itoa(RetryAfter)+" s.")
}
