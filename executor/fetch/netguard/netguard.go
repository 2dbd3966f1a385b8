package netguard

import (
	"fmt"
	"net/netip"
	"strings"
	"sync"
)

// BlockedError says why an address is refused.
type BlockedError struct {
	// Addr is the address judged.
	Addr netip.Addr
	// Embedded is the IPv4 address Addr carries, when that decided.
	Embedded netip.Addr
	// Range names the block ("loopback 127.0.0.0/8", ...).
	Range string
}

// Error names the address and its block.
func (e *BlockedError) Error() string {
	if e.Embedded.IsValid() {
		return fmt.Sprintf("%s carries %s (%s)", e.Addr, e.Embedded, e.Range)
	}
	return fmt.Sprintf("%s is in %s", e.Addr, e.Range)
}

type block struct {
	p    netip.Prefix
	name string
}

// tables are built on first use, never at init.
var tables = sync.OnceValue(func() (t struct{ v4, v6 []block }) {
	mk := func(s, name string) block { return block{netip.MustParsePrefix(s), name + " " + s} }
	t.v4 = []block{
		mk("0.0.0.0/8", "this network (unspecified)"),
		mk("10.0.0.0/8", "private"),
		mk("100.64.0.0/10", "carrier-grade NAT"),
		mk("127.0.0.0/8", "loopback"),
		mk("169.254.0.0/16", "link-local (cloud metadata)"),
		mk("172.16.0.0/12", "private"),
		mk("192.0.0.0/24", "IETF protocol assignments"),
		mk("192.0.2.0/24", "documentation"),
		mk("192.88.99.0/24", "6to4 relay anycast"),
		mk("192.168.0.0/16", "private"),
		mk("198.18.0.0/15", "benchmarking"),
		mk("198.51.100.0/24", "documentation"),
		mk("203.0.113.0/24", "documentation"),
		mk("224.0.0.0/4", "multicast"),
		mk("255.255.255.255/32", "broadcast"),
		mk("240.0.0.0/4", "reserved"),
		mk("168.63.129.16/32", "cloud metadata (Azure WireServer)"),
	}
	t.v6 = []block{
		mk("::/128", "unspecified"),
		mk("::1/128", "loopback"),
		mk("100::/64", "discard-only"),
		mk("2001:2::/48", "benchmarking"),
		mk("2001:10::/28", "ORCHID"),
		mk("2001:20::/28", "ORCHIDv2"),
		mk("2001:db8::/32", "documentation"),
		mk("3fff::/20", "documentation"),
		mk("fc00::/7", "unique local"),
		mk("fe80::/10", "link-local"),
		mk("fec0::/10", "site-local"),
		mk("ff00::/8", "multicast"),
	}
	return t
})

// Prefixes of IPv6 forms that carry an IPv4 address.
var (
	translated = netip.MustParsePrefix("::ffff:0:0:0/96")
	compat     = netip.MustParsePrefix("::/96")
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	localNAT64 = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	teredo     = netip.MustParsePrefix("2001::/32")
	global6    = netip.MustParsePrefix("2000::/3")
)

// Policy is an address policy: [Check] with operator exceptions.
type Policy struct {
	// Allow lists prefixes an operator vouches for; an address in one
	// (or the IPv4-mapped form of one) passes.
	Allow []netip.Prefix
}

// Check refuses addresses that are not globally reachable unicast (see
// the package doc), with a *BlockedError.
func Check(a netip.Addr) error { return Policy{}.Check(a) }

// Check is the package Check with p's exceptions.
func (p Policy) Check(a netip.Addr) error {
	if !a.IsValid() {
		return &BlockedError{Addr: a, Range: "an invalid address"}
	}
	if a.Zone() != "" {
		return &BlockedError{Addr: a, Range: "a zoned (interface-scoped) address"}
	}
	for _, pre := range p.Allow {
		if pre.Contains(a) || a.Is4In6() && pre.Contains(a.Unmap()) {
			return nil
		}
	}
	t := tables()
	if a.Is4In6() {
		if err := p.Check(a.Unmap()); err != nil {
			return &BlockedError{Addr: a, Embedded: a.Unmap(), Range: "IPv4-mapped, " + rangeOf(err)}
		}
		return nil
	}
	if a.Is4() {
		for _, b := range t.v4 {
			if b.p.Contains(a) {
				return &BlockedError{Addr: a, Range: b.name}
			}
		}
		return nil
	}
	b16 := a.As16()
	v4 := func(b []byte) netip.Addr { return netip.AddrFrom4([4]byte(b)) }
	switch {
	case a == netip.IPv6Unspecified() || a == netip.IPv6Loopback():
		// judged by the table below
	case translated.Contains(a):
		return embedded(a, v4(b16[12:16]), "IPv4-translated")
	case compat.Contains(a):
		return &BlockedError{Addr: a, Embedded: v4(b16[12:16]), Range: "IPv4-compatible ::/96 (deprecated)"}
	case nat64.Contains(a), localNAT64.Contains(a):
		return embedded(a, v4(b16[12:16]), "NAT64")
	case sixToFour.Contains(a):
		return embedded(a, v4(b16[2:6]), "6to4")
	case teredo.Contains(a):
		if err := embedded(a, v4(b16[4:8]), "Teredo server"); err != nil {
			return err
		}
		client := [4]byte{^b16[12], ^b16[13], ^b16[14], ^b16[15]}
		return embedded(a, netip.AddrFrom4(client), "Teredo client")
	}
	for _, b := range t.v6 {
		if b.p.Contains(a) {
			return &BlockedError{Addr: a, Range: b.name}
		}
	}
	if !global6.Contains(a) {
		return &BlockedError{Addr: a, Range: "outside global unicast 2000::/3"}
	}
	return nil
}

// embedded judges the IPv4 address v4 that a carries, without p's
// exceptions: a translated form reaches something other than the address
// an operator vouched for (a NAT64 gateway, a relay).
func embedded(a, v4 netip.Addr, form string) error {
	if err := Check(v4); err != nil {
		return &BlockedError{Addr: a, Embedded: v4, Range: form + ", " + rangeOf(err)}
	}
	return nil
}

func rangeOf(err error) string {
	if b, ok := err.(*BlockedError); ok {
		return b.Range
	}
	return err.Error()
}

// BlockedName reports whether host (a DNS name, any case, with or without
// a trailing dot) is refused before DNS, and why: localhost and
// *.localhost (RFC 6761), and intranet suffixes *.internal, *.local
// (mDNS), *.localdomain, *.lan, *.home.arpa (RFC 8375), *.intranet,
// *.corp, *.home. Single-label names are refused too: the resolver's
// search list makes them intranet names.
func BlockedName(host string) (reason string, blocked bool) {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "" {
		return "an empty host", true
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "a loopback name (localhost)", true
	}
	for _, s := range []string{"internal", "local", "localdomain", "lan", "home.arpa", "intranet", "corp", "home"} {
		if h == s || strings.HasSuffix(h, "."+s) {
			return "an intranet name (*." + s + ")", true
		}
	}
	if !strings.Contains(h, ".") {
		return "a single-label (intranet) name", true
	}
	return "", false
}
