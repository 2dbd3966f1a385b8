package pipeline

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// scripted is a core tool whose next outcome the test sets.
type scripted struct{ next string }

func (s *scripted) Execute(ctx context.Context, _ *Request) (*Result, error) {
	switch s.next {
	case "ok":
		return &Result{Output: "ok"}, nil
	case "fail":
		return &Result{Output: "failed", IsError: true}, nil
	case "error":
		return nil, errors.New("crashed")
	case "confirm":
		return &Result{IsError: true, Confirm: &Confirmation{Reason: "ask"}}, nil
	case "canceled":
		return nil, context.Canceled
	}
	panic("unknown outcome " + s.next)
}

func TestBreakerScripts(t *testing.T) {
	lines, nums := readLines(t, "breaker.txt")
	type script struct {
		name  string
		steps [][]string
		nums  []int
	}
	var scripts []script
	for i, l := range lines {
		if len(l[0]) > 2 && l[0][:2] == "= " {
			scripts = append(scripts, script{name: l[0][2:]})
			continue
		}
		s := &scripts[len(scripts)-1]
		s.steps = append(s.steps, l)
		s.nums = append(s.nums, nums[i])
	}
	for _, s := range scripts {
		t.Run(s.name, func(t *testing.T) {
			clk := newClock()
			var b *Breaker
			core := &scripted{}
			var p *Pipeline
			for i, st := range s.steps {
				at := "line " + strconv.Itoa(s.nums[i])
				switch st[0] {
				case "options":
					n, _ := strconv.Atoi(st[1])
					cool, _ := time.ParseDuration(st[2])
					probe, _ := time.ParseDuration(st[3])
					b = NewBreaker(BreakerOptions{Failures: n, Cooldown: cool, ProbeTimeout: probe, Now: clk.Now})
					var err error
					if p, err = NewBuilder().Use(b.Middleware()).Core(core).Build(); err != nil {
						t.Fatal(err)
					}
				case "call":
					core.next = st[1]
					r, _ := p.Execute(context.Background(), bash("x", 1))
					refused := r != nil && r.Output == UnavailableMessage && r.IsError
					if refused != (st[2] == "refused") {
						t.Errorf("%s: call %s: result %+v, want %s", at, st[1], r, st[2])
					}
				case "advance":
					d, _ := time.ParseDuration(st[1])
					clk.Advance(d)
				case "state":
					if got := b.State("Bash").String(); got != st[1] {
						t.Errorf("%s: state %s, want %s", at, got, st[1])
					}
				case "allowed":
					if got := strconv.FormatBool(b.Allowed("Bash")); got != st[1] {
						t.Errorf("%s: Allowed %s, want %s", at, got, st[1])
					}
				default:
					t.Fatalf("%s: bad step %q", at, st[0])
				}
			}
		})
	}
}

// gate is a core tool that blocks until released, to hold calls in flight.
type gate struct {
	started chan struct{}
	release chan struct{}
	result  *Result
	runs    atomic.Int32
}

func newGate(r *Result) *gate {
	return &gate{started: make(chan struct{}, 100), release: make(chan struct{}), result: r}
}

func (g *gate) Execute(context.Context, *Request) (*Result, error) {
	g.runs.Add(1)
	g.started <- struct{}{}
	<-g.release
	r := *g.result
	return &r, nil
}

// openBreaker returns a breaker for "Bash" that is open, and its clock.
func openBreaker(t *testing.T, failures int) (*Breaker, *clock) {
	t.Helper()
	clk := newClock()
	b := NewBreaker(BreakerOptions{Failures: failures, Cooldown: time.Minute, ProbeTimeout: 10 * time.Second, Now: clk.Now})
	p, _ := NewBuilder().Use(b.Middleware()).Core(&scripted{next: "fail"}).Build()
	for range failures {
		p.Execute(context.Background(), bash("x", 1))
	}
	if b.State("Bash") != Open {
		t.Fatalf("breaker not open after %d failures", failures)
	}
	return b, clk
}

func TestConcurrentProbesExactlyOneRuns(t *testing.T) {
	b, clk := openBreaker(t, 3)
	clk.Advance(time.Minute)
	g := newGate(&Result{Output: "ok"})
	p, _ := NewBuilder().Use(b.Middleware()).Core(g).Build()
	const n = 16
	var wg sync.WaitGroup
	var refused atomic.Int32
	results := make(chan *Result, n)
	for range n {
		wg.Go(func() {
			r, _ := p.Execute(context.Background(), bash("x", 1))
			results <- r
		})
	}
	<-g.started // the one probe is in flight
	// every other call is refused while the probe holds its lease
	for range n - 1 {
		if r := <-results; r.Output == UnavailableMessage {
			refused.Add(1)
		}
	}
	if b.Allowed("Bash") {
		t.Error("Allowed while the probe is in flight")
	}
	close(g.release)
	wg.Wait()
	if got := g.runs.Load(); got != 1 || refused.Load() != n-1 {
		t.Fatalf("%d probes ran, %d refused; want 1 and %d", got, refused.Load(), n-1)
	}
	if b.State("Bash") != Closed {
		t.Errorf("state %s after a successful probe", b.State("Bash"))
	}
}

func TestAllowedNeverTakesTheProbe(t *testing.T) {
	b, clk := openBreaker(t, 2)
	clk.Advance(time.Minute)
	for range 5 {
		if !b.Allowed("Bash") {
			t.Fatal("Allowed false after the cooldown")
		}
	}
	if b.State("Bash") != Open {
		t.Errorf("Allowed moved the state to %s", b.State("Bash"))
	}
	g := newGate(&Result{Output: "ok"})
	p, _ := NewBuilder().Use(b.Middleware()).Core(g).Build()
	go p.Execute(context.Background(), bash("x", 1))
	<-g.started
	if b.Allowed("Bash") {
		t.Error("Allowed true while the probe holds its lease")
	}
	close(g.release)
}

func TestLateSuccessWhileOpenIsIgnored(t *testing.T) {
	clk := newClock()
	b := NewBreaker(BreakerOptions{Failures: 2, Cooldown: time.Minute, ProbeTimeout: time.Second, Now: clk.Now})
	slow := newGate(&Result{Output: "ok"})
	fast := &scripted{next: "fail"}
	slowP, _ := NewBuilder().Use(b.Middleware()).Core(slow).Build()
	fastP, _ := NewBuilder().Use(b.Middleware()).Core(fast).Build()
	done := make(chan struct{})
	go func() {
		slowP.Execute(context.Background(), bash("slow", 1))
		close(done)
	}()
	<-slow.started // admitted while Closed
	fastP.Execute(context.Background(), bash("x", 1))
	fastP.Execute(context.Background(), bash("x", 1))
	if b.State("Bash") != Open {
		t.Fatal("not open")
	}
	close(slow.release)
	<-done
	if b.State("Bash") != Open {
		t.Errorf("a late success moved an open breaker to %s", b.State("Bash"))
	}
}

func TestProbeLeaseExpires(t *testing.T) {
	b, clk := openBreaker(t, 1)
	clk.Advance(time.Minute)
	stuck := newGate(&Result{Output: "ok"})
	p, _ := NewBuilder().Use(b.Middleware()).Core(stuck).Build()
	done := make(chan struct{})
	go func() {
		p.Execute(context.Background(), bash("x", 1))
		close(done)
	}()
	<-stuck.started
	clk.Advance(10 * time.Second) // the lease has run out
	if !b.Allowed("Bash") {
		t.Fatal("a stuck probe still blocks after its lease")
	}
	failing, _ := NewBuilder().Use(b.Middleware()).Core(&scripted{next: "fail"}).Build()
	if r, _ := failing.Execute(context.Background(), bash("x", 1)); r.Output == UnavailableMessage {
		t.Fatal("second probe refused after the lease ran out")
	}
	if b.State("Bash") != Open {
		t.Fatalf("failed second probe: state %s", b.State("Bash"))
	}
	close(stuck.release) // the first probe's late success is ignored
	<-done
	if b.State("Bash") != Open {
		t.Errorf("an expired probe's late success moved the state to %s", b.State("Bash"))
	}
}

func TestBreakerIsPerTool(t *testing.T) {
	b, _ := openBreaker(t, 1)
	if !b.Allowed("Write") || b.State("Write") != Closed {
		t.Error("another tool is affected")
	}
}

func TestBreakerPanicCountsAsFailure(t *testing.T) {
	b := NewBreaker(BreakerOptions{Failures: 1})
	p, _ := NewBuilder().Use(b.Middleware()).Core(ToolFunc(func(context.Context, *Request) (*Result, error) {
		panic("tool bug")
	})).Build()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("panic swallowed")
			}
		}()
		p.Execute(context.Background(), bash("x", 1))
	}()
	if b.State("Bash") != Open {
		t.Errorf("state %s after a panic", b.State("Bash"))
	}
}

func TestBreakerDefaults(t *testing.T) {
	o := DefaultBreakerOptions()
	if o.Failures != 3 || o.Cooldown != 30*time.Second || o.ProbeTimeout <= 0 {
		t.Errorf("defaults %+v", o)
	}
	b := NewBreaker(BreakerOptions{Failures: 3})
	if b.opts.Cooldown != DefaultCooldown || b.opts.ProbeTimeout != DefaultProbeTimeout || b.opts.Now == nil {
		t.Errorf("zero durations not defaulted: %+v", b.opts)
	}
}

// TestStaleReportsIgnored: a report from a call admitted under an earlier
// state must not move the current one. A slow call admitted while Closed
// fails after the breaker has gone Half-Open (it must not re-open it), and
// a probe whose lease was taken over succeeds while the new probe is in
// flight (it must not close it).
func TestStaleReportsIgnored(t *testing.T) {
	clk := newClock()
	b := NewBreaker(BreakerOptions{Failures: 1, Cooldown: time.Minute, ProbeTimeout: 10 * time.Second, Now: clk.Now})
	via := func(tool Tool) *Pipeline {
		p, _ := NewBuilder().Use(b.Middleware()).Core(tool).Build()
		return p
	}
	ctx := context.Background()
	slowFail := newGate(&Result{Output: "failed", IsError: true})
	slowDone := make(chan struct{})
	go func() { via(slowFail).Execute(ctx, bash("slow", 1)); close(slowDone) }()
	<-slowFail.started // admitted while Closed

	via(&scripted{next: "fail"}).Execute(ctx, bash("x", 1)) // opens
	clk.Advance(time.Minute)
	oldProbe := newGate(&Result{Output: "ok"})
	oldDone := make(chan struct{})
	go func() { via(oldProbe).Execute(ctx, bash("probe1", 1)); close(oldDone) }()
	<-oldProbe.started
	if b.State("Bash") != HalfOpen {
		t.Fatalf("state %s, want half-open", b.State("Bash"))
	}

	close(slowFail.release) // the stale failure from the Closed era
	<-slowDone
	if b.State("Bash") != HalfOpen {
		t.Fatalf("a stale failure moved half-open to %s", b.State("Bash"))
	}

	clk.Advance(10 * time.Second) // the first probe's lease runs out
	newProbe := newGate(&Result{Output: "failed", IsError: true})
	newDone := make(chan struct{})
	go func() { via(newProbe).Execute(ctx, bash("probe2", 1)); close(newDone) }()
	<-newProbe.started

	close(oldProbe.release) // the taken-over probe succeeds late
	<-oldDone
	if b.State("Bash") != HalfOpen {
		t.Fatalf("a taken-over probe's success moved the state to %s", b.State("Bash"))
	}
	close(newProbe.release)
	<-newDone
	if b.State("Bash") != Open {
		t.Errorf("the live probe's failure left the state %s, want open", b.State("Bash"))
	}
}

// TestBreakerBoundsTrackedTools: made-up tool names do not grow the
// breaker without end, and clean entries make room for new ones.
func TestBreakerBoundsTrackedTools(t *testing.T) {
	b := NewBreaker(DefaultBreakerOptions())
	ctx := context.Background()
	failing, _ := NewBuilder().Use(b.Middleware()).Core(&scripted{next: "fail"}).Build()
	healthy, _ := NewBuilder().Use(b.Middleware()).Core(&scripted{next: "ok"}).Build()
	call := func(p *Pipeline, tool string) {
		req := bash("x", 1)
		req.Call.Tool = tool
		p.Execute(ctx, req)
	}
	for i := range 2 * MaxTracked {
		call(failing, "made-up-"+strconv.Itoa(i))
	}
	if n := len(b.tools); n > MaxTracked {
		t.Fatalf("tracking %d tools, bound %d", n, MaxTracked)
	}
	b = NewBreaker(DefaultBreakerOptions())
	failing, _ = NewBuilder().Use(b.Middleware()).Core(&scripted{next: "fail"}).Build()
	healthy, _ = NewBuilder().Use(b.Middleware()).Core(&scripted{next: "ok"}).Build()
	for i := range MaxTracked {
		call(healthy, "ok-"+strconv.Itoa(i))
	}
	for range 3 {
		call(failing, "Bash")
	}
	if b.State("Bash") != Open {
		t.Errorf("a full table of clean entries kept Bash untracked: %s", b.State("Bash"))
	}
}
