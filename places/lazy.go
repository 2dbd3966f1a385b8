package places

import "sync"

// lazy is a value built on first use: package places does no work at
// program start (a hook process that never asks pays nothing), and a
// lazy needs no allocation at initialisation.
type lazy[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

// get returns the value, building it the first time.
func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}
