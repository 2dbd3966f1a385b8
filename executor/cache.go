package executor

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// CacheOptions configure [NewCache].
type CacheOptions struct {
	// Cacheable is the whitelist of tools whose results may be cached:
	// deterministic tools that change nothing (the tool-executor framework's is_cacheable).
	// Empty caches nothing. A call is cached only when the inner executor
	// also calls it Speculatable (read-only, no confirmation).
	Cacheable []string
	// TTL is how long an entry serves (default 5 minutes).
	TTL time.Duration
	// Capacity bounds the entries; the least recently used goes first
	// (default 256).
	Capacity int
	// Now is the clock (default time.Now); tests set it.
	Now func() time.Time
}

// CacheStats counts lookups.
type CacheStats struct {
	Hits, Misses uint64
	Entries      int
}

// Cache is the result cache of the tool-executor framework (ToolResultCache) as an executor
// wrapper. Build one per session: the key does not hold the session.
type Cache struct {
	inner     Executor
	opts      CacheOptions
	cacheable map[string]bool
	hits      atomic.Uint64
	misses    atomic.Uint64

	mu    sync.Mutex
	lru   *list.List // of *cacheEntry, most recent first
	byKey map[Key]*list.Element
}

type cacheEntry struct {
	key     Key
	expires time.Time
	out     Output
}

// NewCache wraps inner with a result cache. A call is served from cache
// when its tool is on the whitelist, inner.Speculatable(call) is true, its
// input has a canonical key ([CallKey]) and a live entry exists; the
// stored result is a successful Output (not IsError, not Wrote, no
// Confirm). A hit returns a copy with Cached set.
func NewCache(inner Executor, opts CacheOptions) *Cache {
	if opts.TTL <= 0 {
		opts.TTL = 5 * time.Minute
	}
	if opts.Capacity <= 0 {
		opts.Capacity = 256
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c := &Cache{inner: inner, opts: opts, cacheable: map[string]bool{}, lru: list.New(), byKey: map[Key]*list.Element{}}
	for _, t := range opts.Cacheable {
		c.cacheable[t] = true
	}
	return c
}

// Stats returns the hit and miss counts (calls that may be cached only)
// and the live entry count.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	n := c.lru.Len()
	c.mu.Unlock()
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Entries: n}
}

// Definitions returns inner's.
func (c *Cache) Definitions() []Definition { return c.inner.Definitions() }

// Execute serves a live entry or runs the call on inner and keeps what
// may be kept.
func (c *Cache) Execute(ctx context.Context, req *Request) (*Output, error) {
	if !c.cacheable[req.Call.Tool] || req.Exec != nil || !c.inner.Speculatable(req.Call) {
		return c.inner.Execute(ctx, req)
	}
	key, ok := CallKey(req.Call.Tool, req.Call.Input)
	if !ok {
		return c.inner.Execute(ctx, req)
	}
	if out, ok := c.get(key); ok {
		c.hits.Add(1)
		return out, nil
	}
	c.misses.Add(1)
	out, err := c.inner.Execute(ctx, req)
	if err == nil && out != nil && !out.IsError && !out.Wrote && out.Confirm == nil {
		c.put(key, *out)
	}
	return out, err
}

// Confirmation returns inner's.
func (c *Cache) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	return c.inner.Confirmation(ctx, call)
}

// Speculatable returns inner's.
func (c *Cache) Speculatable(call toolwall.Call) bool { return c.inner.Speculatable(call) }

func (c *Cache) get(key Key) (*Output, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !c.opts.Now().Before(e.expires) {
		c.lru.Remove(el)
		delete(c.byKey, key)
		return nil, false
	}
	c.lru.MoveToFront(el)
	out := e.out
	out.Cached = true
	return &out, true
}

func (c *Cache) put(key Key, out Output) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out.Cached, out.Speculative = false, false
	e := &cacheEntry{key: key, expires: c.opts.Now().Add(c.opts.TTL), out: out}
	if el, ok := c.byKey[key]; ok {
		el.Value = e
		c.lru.MoveToFront(el)
		return
	}
	c.byKey[key] = c.lru.PushFront(e)
	for c.lru.Len() > c.opts.Capacity {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}
