// Package netguard judges network addresses after DNS: the post-DNS half
// of the tool-executor framework's SSRF defence ("all resolved socket addresses are checked
// against private, loopback, link-local, and unspecified ranges, including
// IPv4-mapped IPv6"), widened to every special-purpose block of the IANA
// registries (RFC 6890 and its updates) and to every IPv6 form that
// carries an IPv4 address.
//
// [Check] refuses an address that is not globally reachable unicast:
//
//   - IPv4: 0.0.0.0/8 (this network, unspecified), 10/8, 172.16/12,
//     192.168/16 (private, RFC 1918), 100.64/10 (CGNAT, RFC 6598), 127/8
//     (loopback), 169.254/16 (link-local, where cloud metadata answers),
//     192.0.0/24 (IETF protocol assignments), 192.0.2/24, 198.51.100/24,
//     203.0.113/24 (documentation, RFC 5737), 198.18/15 (benchmarking),
//     192.88.99/24 (6to4 relay anycast), 224/4 (multicast), 240/4
//     (reserved) and 255.255.255.255 (broadcast);
//   - IPv6: :: (unspecified), ::1 (loopback), fc00::/7 (unique local),
//     fe80::/10 (link-local), fec0::/10 (site-local), ff00::/8
//     (multicast), 2001:db8::/32 and 3fff::/20 (documentation), 100::/64
//     (discard-only), 2001:2::/48 (benchmarking), 2001:10::/28 and
//     2001:20::/28 (ORCHID), and anything outside 2000::/3 (not global
//     unicast);
//   - IPv6 forms that carry IPv4: IPv4-mapped ::ffff:a.b.c.d and
//     IPv4-translated ::ffff:0:a.b.c.d are judged as the IPv4 address;
//     IPv4-compatible ::a.b.c.d (deprecated, RFC 4291) is always refused;
//     NAT64 64:ff9b::/96 and local-use 64:ff9b:1::/48 (RFC 6052, 8215),
//     6to4 2002::/16 (RFC 3056) and Teredo 2001::/32 (RFC 4380, server
//     and client) are refused when the IPv4 address inside is;
//   - cloud metadata endpoints outside those blocks (Azure's WireServer
//     168.63.129.16);
//   - addresses with a zone (fe80::1%eth0) and the invalid zero address.
//
// A [Policy] can allow prefixes an operator vouches for (an internal
// service, a test server on 127.0.0.2): an address in Allow passes, and
// so does its IPv4-mapped form, nothing else.
//
// [BlockedName] is the pre-DNS name blocklist of the tool-executor framework: localhost,
// *.localhost, *.internal, *.local, and other intranet suffixes.
//
// The gate reads URLs before DNS with package places (places.ParseURL:
// a host in every spelling); the fetch executor uses that to refuse a
// disguised host, and this package for the addresses it connects to.
package netguard
