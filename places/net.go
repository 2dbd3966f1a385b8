package places

import (
	"net/netip"
)

// Network says what kind of network a host or address belongs to, as far
// as it can be told before DNS. Networks are ordered by severity: a URL
// whose parsers disagree is judged by the most severe one any of them
// sees.
type Network uint8

// Networks, least severe first.
const (
	// Public is a globally routable address or an ordinary public name.
	Public Network = iota
	// Reserved is non-routable space that is neither private nor loopback:
	// documentation and benchmarking nets, multicast, broadcast, 240/4,
	// discard-only and deprecated IPv6 relay prefixes (RFC 6890).
	Reserved
	// Private is an address or name of an internal network: RFC 1918,
	// CGNAT 100.64/10 (RFC 6598), link-local 169.254/16 and fe80::/10,
	// unique-local fc00::/7, site-local fec0::/10, and intranet names
	// (*.internal, *.local, *.lan, *.home.arpa, single-label names, ...).
	Private
	// Loopback is this machine: 127/8, ::1, the unspecified address
	// 0.0.0.0/8 and :: (which Linux routes to the local host), localhost
	// and *.localhost (RFC 6761).
	Loopback
	// Metadata is a cloud instance metadata endpoint, which hands out the
	// machine's cloud credentials (AWS, GCP, Azure, Alibaba, Oracle, ECS).
	Metadata
)

// String returns the lower-case network name.
func (n Network) String() string {
	switch n {
	case Public:
		return "public"
	case Reserved:
		return "reserved"
	case Private:
		return "private"
	case Loopback:
		return "loopback"
	case Metadata:
		return "metadata"
	}
	return "network?"
}

// Metadata endpoints by address. Sources: AWS IMDS (169.254.169.254,
// fd00:ec2::254), AWS ECS task metadata (169.254.170.2), Alibaba Cloud
// (100.100.100.200), Oracle Cloud legacy (192.0.0.192), GCP IPv6
// (fd20:ce::254), Azure WireServer (168.63.129.16: VM extension
// settings and certificates).
var metadataAddrs = lazy[[]netip.Addr]{build: func() []netip.Addr {
	return []netip.Addr{
		netip.MustParseAddr("169.254.169.254"),
		netip.MustParseAddr("169.254.170.2"),
		netip.MustParseAddr("100.100.100.200"),
		netip.MustParseAddr("192.0.0.192"),
		netip.MustParseAddr("fd00:ec2::254"),
		netip.MustParseAddr("fd20:ce::254"),
		netip.MustParseAddr("168.63.129.16"),
	}
}}

type prefixNetwork struct {
	p netip.Prefix
	n Network
}

// v4Ranges lists the special-purpose IPv4 blocks of RFC 6890 and its
// updates, with the class each gets.
var v4Ranges = lazy[[]prefixNetwork]{build: func() []prefixNetwork {
	return []prefixNetwork{
		{netip.MustParsePrefix("0.0.0.0/8"), Loopback},
		{netip.MustParsePrefix("127.0.0.0/8"), Loopback},
		{netip.MustParsePrefix("10.0.0.0/8"), Private},
		{netip.MustParsePrefix("100.64.0.0/10"), Private},
		{netip.MustParsePrefix("169.254.0.0/16"), Private},
		{netip.MustParsePrefix("172.16.0.0/12"), Private},
		{netip.MustParsePrefix("192.168.0.0/16"), Private},
		{netip.MustParsePrefix("192.0.0.0/24"), Reserved},
		{netip.MustParsePrefix("192.0.2.0/24"), Reserved},
		{netip.MustParsePrefix("192.88.99.0/24"), Reserved},
		{netip.MustParsePrefix("198.18.0.0/15"), Reserved},
		{netip.MustParsePrefix("198.51.100.0/24"), Reserved},
		{netip.MustParsePrefix("203.0.113.0/24"), Reserved},
		{netip.MustParsePrefix("224.0.0.0/4"), Reserved},
		{netip.MustParsePrefix("240.0.0.0/4"), Reserved},
	}
}}

// v6Ranges lists the special-purpose IPv6 blocks (RFC 6890, RFC 4291)
// that do not embed an IPv4 address.
var v6Ranges = lazy[[]prefixNetwork]{build: func() []prefixNetwork {
	return []prefixNetwork{
		{netip.MustParsePrefix("::/128"), Loopback},
		{netip.MustParsePrefix("::1/128"), Loopback},
		{netip.MustParsePrefix("fc00::/7"), Private},
		{netip.MustParsePrefix("fe80::/10"), Private},
		{netip.MustParsePrefix("fec0::/10"), Private},
		{netip.MustParsePrefix("100::/64"), Reserved},
		{netip.MustParsePrefix("2001:db8::/32"), Reserved},
		{netip.MustParsePrefix("2001:2::/48"), Reserved},
		{netip.MustParsePrefix("ff00::/8"), Reserved},
	}
}}

// Prefixes of IPv6 addresses that carry an IPv4 address inside them.
var embedPrefixes = lazy[[6]netip.Prefix]{build: func() [6]netip.Prefix {
	return [6]netip.Prefix{
		netip.MustParsePrefix("64:ff9b::/96"),    // RFC 6052 NAT64: last 32 bits
		netip.MustParsePrefix("64:ff9b:1::/48"),  // RFC 8215 local-use NAT64, commonly a /96: last 32 bits
		netip.MustParsePrefix("::ffff:0:0:0/96"), // RFC 2765 IPv4-translated (SIIT): last 32 bits
		netip.MustParsePrefix("::/96"),           // RFC 4291 IPv4-compatible (deprecated): last 32 bits
		netip.MustParsePrefix("2002::/16"),       // RFC 3056 6to4: bits 16–47
		netip.MustParsePrefix("2001::/32"),       // RFC 4380 Teredo: client is the last 32 bits inverted
	}
}}

// Embedded returns the IPv4 address an IPv6 address carries: IPv4-mapped
// (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible
// (::a.b.c.d), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48),
// 6to4 (2002::/16) or Teredo (2001::/32, client address). ok is false for
// IPv4 addresses and IPv6 addresses of none of these forms.
func Embedded(a netip.Addr) (v4 netip.Addr, ok bool) {
	if !a.Is6() {
		return netip.Addr{}, false
	}
	a = a.WithZone("")
	b := a.As16()
	pre := embedPrefixes.get()
	nat64Prefix, localNAT64, translated, compatV4, sixToFour, teredo := pre[0], pre[1], pre[2], pre[3], pre[4], pre[5]
	switch {
	case a.Is4In6():
		return a.Unmap(), true
	case nat64Prefix.Contains(a), localNAT64.Contains(a), translated.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case compatV4.Contains(a) && a != netip.IPv6Unspecified() && a != netip.IPv6Loopback():
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	case teredo.Contains(a):
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}

// NetworkOf returns the network of an address. An IPv6 address that
// embeds an IPv4 address (see [Embedded]) gets the network of the
// embedded one; a zone is ignored. The invalid zero Addr is Reserved.
func NetworkOf(a netip.Addr) Network {
	if !a.IsValid() {
		return Reserved
	}
	a = a.WithZone("")
	for _, m := range metadataAddrs.get() {
		if a == m {
			return Metadata
		}
	}
	if v4, ok := Embedded(a); ok {
		return NetworkOf(v4)
	}
	ranges := v6Ranges.get()
	if a.Is4() {
		if a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
			return Reserved
		}
		ranges = v4Ranges.get()
	}
	for _, r := range ranges {
		if r.p.Contains(a) {
			return r.n
		}
	}
	return Public
}
