// Package ssrf judges URLs before a fetch, without DNS: the pre-DNS half
// of seed 003's "SSRF Protection in WebScrapeExecutor" (scheme check and
// host blocklist), with the host read the way real URL parsers read it.
//
// [Check] is the policy for fetch tools (WebFetch, MCP fetch servers);
// [CheckCommandURL] is the narrower policy for URLs in shell commands
// (only cloud metadata is refused there). [Analyzer] runs Check on
// WebFetch calls. [IsBlockedAddr] is the post-DNS half: a fetch executor
// calls it on every resolved address and redirect hop.
//
// How a host is read ([Parse]):
//
//   - tabs and newlines are dropped and surrounding controls trimmed, as
//     WHATWG parsers do;
//   - the authority is read both the RFC 3986 way and the WHATWG way
//     ("\" is "/", any run of slashes after "http:"); the most severe
//     reading wins;
//   - userinfo is dropped (the last "@" ends it), the port is dropped;
//   - the host is percent-decoded, lower-cased, and Unicode look-alikes
//     (fullwidth, circled, mathematical digits, ideographic full stop)
//     are folded to ASCII;
//   - a host ending in a number is read with [ParseIPv4] (inet_aton
//     rules: decimal, hex, octal, 1–4 parts); a bracketed host with
//     net/netip, and an IPv4 address embedded in IPv6 (mapped,
//     translated, compatible, NAT64 and local-use NAT64, 6to4, Teredo)
//     is classed by that IPv4 address;
//   - a host with control bytes after percent-decoding (%00, %09) is
//     malformed; a dotted quad with leading zeros is also read as plain
//     decimal (some parsers do), and an authority with several "@" is
//     read after each of them;
//   - names are classed by fixed lists: metadata names
//     (metadata.google.internal, ...), loopback names (localhost,
//     *.localhost, lvh.me, vcap.me, ...), wildcard-DNS names that spell
//     an address (10.0.0.1.nip.io), DNS-rebinding services (rbndr.us,
//     1u.ms), intranet suffixes (.internal, .local, .lan, .home.arpa,
//     ...) and single-label names.
//
// Limits: the Unicode folding is a subset of IDNA (UTS #46); a public
// name whose DNS points inside (DNS rebinding) is only caught by the
// executor's post-DNS check with IsBlockedAddr.
package ssrf
