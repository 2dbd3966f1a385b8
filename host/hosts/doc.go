// Package hosts lists every agent host toolwall has an adapter for, finds
// one by name, and tells hosts apart by the shape of a payload when the
// command line does not name one (`toolwall hook` alone).
package hosts
