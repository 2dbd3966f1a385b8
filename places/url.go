package places

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrMalformed is wrapped by the error [ParseURL] returns when a URL's host
// cannot be read: a broken IPv6 literal, a host ending in a number that is
// no IPv4 address, a non-numeric port, characters no host may hold.
var ErrMalformed = errors.New("malformed URL host")

// maxURL bounds the text ParseURL looks at; longer URLs are malformed.
const maxURL = 8192

// URL is what a URL points at, as far as it can be read before DNS.
type URL struct {
	// Scheme is the lower-cased scheme, "" when the text had none (it is
	// then read as http).
	Scheme string
	// Host is the host as judged: percent-decoded, lower-cased, Unicode
	// look-alikes folded to ASCII, without brackets, zone or trailing dot.
	// It is "" for a URL without an authority (file:///x, mailto:).
	Host string
	// Addr is the address when Host is an IP literal in any spelling, else
	// the zero Addr.
	Addr netip.Addr
	// Network is the network of the host (see [NetworkOf]); names are
	// classed by the pre-DNS lists described at [ParseURL].
	Network Network
	// Odd says why the host is spelled in a way no one needs to spell a
	// host ("hex IPv4 spelling", "trailing dot", [OddUserinfo], ...); ""
	// for a plain spelling.
	Odd string
	// Internal names what a private name is when its list says more than
	// "intranet": [ClusterName] (the Kubernetes API, a cluster service,
	// Consul) or [RouterName] (a home router's admin page); "" otherwise.
	Internal string
}

// OddUserinfo is the Odd of a URL with userinfo before the host
// (user:pass@host, or a decoy name: google.com@127.0.0.1).
const OddUserinfo = "userinfo before the host"

// Kinds of [URL.Internal].
const (
	// ClusterName is a name only a cluster's DNS answers: the Kubernetes
	// API server (kubernetes.default and its longer forms), services
	// (*.svc, *.svc.cluster.local) and Consul (*.consul).
	ClusterName = "a cluster-internal service name"
	// RouterName is a name a home or office router answers with its own
	// admin page (routerlogin.net, fritz.box, tplinkwifi.net, ...).
	RouterName = "a home router's admin name"
)

// ParseURL reads raw as a URL and returns what it points at. It never
// resolves DNS. A text without a scheme ("example.com/x", "localhost:8080")
// is read as http. The host is read this way:
//
//   - tabs and newlines are dropped and surrounding controls trimmed, as
//     WHATWG parsers do;
//   - the authority is read both the RFC 3986 way and the WHATWG way
//     ("\" is "/", any run of slashes after "http:"); where URL parsers
//     disagree the most severe reading wins, with Odd set;
//   - userinfo is dropped (the last "@" ends it), the port is dropped;
//     an authority with several "@" is read after each of them;
//   - the host is percent-decoded, lower-cased, and Unicode look-alikes
//     (fullwidth, circled, mathematical digits, ideographic full stop)
//     are folded to ASCII (a narrow subset of IDNA, UTS #46);
//   - a host ending in a number is read with [ParseIPv4] (inet_aton
//     rules: decimal, hex, octal, 1–4 parts), and a dotted quad with
//     leading zeros also as plain decimal (some parsers do); a bracketed
//     host with net/netip, and an IPv4 address embedded in IPv6 is placed
//     by that IPv4 address ([Embedded]);
//   - a host with control bytes after percent-decoding (%00, %09) is
//     malformed;
//   - names are placed by fixed lists: metadata names
//     (metadata.google.internal, ...), loopback names (localhost,
//     *.localhost, lvh.me, vcap.me, ...), wildcard-DNS names that spell
//     an address (10.0.0.1.nip.io), DNS-rebinding services (rbndr.us,
//     1u.ms), intranet suffixes (.internal, .local, .lan, .home.arpa,
//     ...) and single-label names; cluster-internal names
//     (kubernetes.default, *.svc.cluster.local, *.consul) and home
//     routers' admin names (routerlogin.net, fritz.box) are private too,
//     with [URL.Internal] saying which.
//
// A public name whose DNS points inside (DNS rebinding) can only be
// caught after DNS, by checking every address with [NetworkOf]. The
// error wraps [ErrMalformed].
func ParseURL(raw string) (URL, error) {
	if len(raw) > maxURL {
		return URL{}, fmt.Errorf("places: URL longer than %d bytes: %w", maxURL, ErrMalformed)
	}
	s, odd := stripControls(raw)
	scheme, rest := splitScheme(s)
	t := URL{Scheme: scheme}
	special := scheme == "" || scheme == "http" || scheme == "https"
	var views []string
	if after, ok := strings.CutPrefix(rest, "//"); ok || scheme == "" {
		if !ok {
			after = rest
		}
		views = append(views, authority(after, "/?#"))
	}
	if special {
		w := strings.TrimLeft(rest, `/\`)
		if rest != "//"+w && scheme != "" {
			odd = firstOdd(odd, "unusual slashes after the scheme")
		}
		views = append(views, authority(w, `/\?#`))
	}
	if len(views) == 0 {
		return t, nil
	}
	for _, v := range append([]string(nil), views...) {
		// Several "@" in one authority is invalid (RFC 3986 userinfo
		// cannot hold one); parsers split at the first or the last.
		// Read the host after every "@" but the last too.
		segs := strings.Split(v, "@")
		for i := 1; i < len(segs)-1; i++ {
			views = append(views, segs[i])
		}
	}
	found := false
	for _, v := range views {
		c, err := readAuthority(v)
		if err != nil {
			if special {
				return t, fmt.Errorf("places: host of %s: %w", quote(raw), err)
			}
			continue
		}
		c.Scheme = scheme
		switch {
		case !found:
			t, found = c, true
		case c.Host != t.Host:
			odd = firstOdd(odd, "URL parsers disagree about the host")
			if c.Network > t.Network {
				t = c
			}
		}
	}
	if special && t.Host == "" {
		return t, fmt.Errorf("places: %s has no host: %w", quote(raw), ErrMalformed)
	}
	t.Odd = firstOdd(t.Odd, odd)
	return t, nil
}

// firstOdd returns the first of two reasons a spelling is odd, except
// that a userinfo gives way to any other: user:pass@ is also how
// credentials are written, and the reason that names a disguise of the
// host itself is the one a caller needs.
func firstOdd(a, b string) string {
	if a != "" && (a != OddUserinfo || b == "") {
		return a
	}
	return b
}

// stripControls removes what a WHATWG parser removes before parsing:
// leading and trailing C0 controls and spaces, and every tab and newline.
func stripControls(s string) (string, string) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if !strings.ContainsAny(s, "\t\n\r") {
		return s, ""
	}
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s), "tabs or newlines inside the URL"
}

// splitScheme splits "scheme:rest". "host:8080/..." is not a scheme.
func splitScheme(s string) (scheme, rest string) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", s
	}
	for j := 0; j < i; j++ {
		c := s[j]
		alpha := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !alpha && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", s
		}
	}
	after := s[i+1:]
	port := strings.TrimLeft(after, "0123456789")
	if len(port) < len(after) && (port == "" || strings.ContainsRune("/?#", rune(port[0]))) {
		return "", s
	}
	return strings.ToLower(s[:i]), after
}

// authority returns s up to the first byte of stop.
func authority(s, stop string) string {
	if i := strings.IndexAny(s, stop); i >= 0 {
		return s[:i]
	}
	return s
}

// readAuthority reads "userinfo@host:port" into a URL.
func readAuthority(a string) (URL, error) {
	var t URL
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		a = a[i+1:]
		t.Odd = OddUserinfo
	}
	host, port := a, ""
	if strings.HasPrefix(a, "[") {
		j := strings.IndexByte(a, ']')
		if j < 0 {
			return t, fmt.Errorf("unclosed '[': %w", ErrMalformed)
		}
		host, port = a[:j+1], a[j+1:]
		if port != "" && port[0] != ':' {
			return t, fmt.Errorf("text after ']': %w", ErrMalformed)
		}
	} else if j := strings.IndexByte(a, ':'); j >= 0 {
		host, port = a[:j], a[j:]
	}
	if port != "" && strings.Trim(port[1:], "0123456789") != "" {
		return t, fmt.Errorf("port %q is not a number: %w", port[1:], ErrMalformed)
	}
	if strings.Contains(host, "%") && !strings.HasPrefix(host, "[") {
		dec, ok := percentDecode(host)
		if !ok {
			return t, fmt.Errorf("bad percent-escape in host: %w", ErrMalformed)
		}
		host = dec
		t.Odd = firstOdd(t.Odd, "percent-encoded host")
	}
	if host == "" {
		return t, nil
	}
	if strings.HasPrefix(host, "[") {
		return readIPv6(t, host[1:len(host)-1])
	}
	folded, changed := fold(host)
	if !utf8.ValidString(host) {
		return t, fmt.Errorf("host is not UTF-8: %w", ErrMalformed)
	}
	if changed {
		t.Odd = firstOdd(t.Odd, "Unicode look-alike characters in the host")
	}
	host = folded
	if strings.HasSuffix(host, ".") {
		t.Odd = firstOdd(t.Odd, "trailing dot after the host")
	}
	if strings.ContainsAny(host, " #/:<>?@[\\]^|%\"'`{}") || strings.Contains(host, "..") || hasControl(host) {
		return t, fmt.Errorf("forbidden character in host %q: %w", host, ErrMalformed)
	}
	if endsInNumber(host) {
		addr, canonical, ok := ParseIPv4(host)
		if !ok {
			// "0169.254.169.254" is no inet_aton address (9 is not
			// octal), but a parser that ignores leading zeros reads it.
			// Malformed stays the answer unless that reading is worse.
			dec, decOK := decimalIPv4(host)
			if !decOK || NetworkOf(dec) == Public {
				return t, fmt.Errorf("host %q ends in a number but is no IPv4 address: %w", host, ErrMalformed)
			}
			addr, canonical = dec, false
		}
		if !canonical {
			t.Odd = firstOdd(t.Odd, "unusual IPv4 spelling (decimal, hex, octal or short form)")
		}
		// Parsers that ignore leading zeros (Python's ipaddress before
		// 3.9.5, CVE-2021-29921, and others) read "0127.0.0.1" as
		// 127.0.0.1 where inet_aton reads octal 87.0.0.1: the more
		// severe reading wins.
		if dec, ok := decimalIPv4(host); ok && NetworkOf(dec) > NetworkOf(addr) {
			addr = dec
			t.Odd = "IPv4 parts with leading zeros (octal to some parsers, decimal to others)"
		}
		t.Host, t.Addr, t.Network = addr.String(), addr, NetworkOf(addr)
		return t, nil
	}
	t.Host = strings.TrimSuffix(host, ".")
	var odd string
	t.Network, t.Addr, odd = classifyName(t.Host)
	t.Internal = internalName(t.Host)
	t.Odd = firstOdd(t.Odd, odd)
	return t, nil
}

func readIPv6(t URL, lit string) (URL, error) {
	addr, err := netip.ParseAddr(lit)
	if err != nil || !addr.Is6() {
		return t, fmt.Errorf("bad IPv6 literal [%s]: %w", lit, ErrMalformed)
	}
	plain := addr.WithZone("")
	t.Host, t.Addr, t.Network = plain.String(), plain, NetworkOf(plain)
	base, _, _ := strings.Cut(lit, "%")
	if _, ok := Embedded(plain); ok {
		t.Odd = firstOdd(t.Odd, "IPv4 address inside an IPv6 address")
	} else if !strings.EqualFold(base, t.Host) {
		t.Odd = firstOdd(t.Odd, "unusual IPv6 spelling")
	}
	return t, nil
}

// hasControl reports a C0 control, DEL or other byte no host may hold
// after percent-decoding (WHATWG "forbidden host code point"): some
// resolvers stop at a NUL, others trim a tab, and the host they reach is
// not the one the rest of the text names.
func hasControl(host string) bool {
	for i := 0; i < len(host); i++ {
		if host[i] < 0x21 || host[i] == 0x7f {
			return true
		}
	}
	return false
}

// decimalIPv4 reads a dotted quad whose parts may have leading zeros as
// plain decimal numbers; ok is false for any other text.
func decimalIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) != 4 {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i, p := range parts {
		if p == "" || len(p) > 8 || strings.Trim(p, "0123456789") != "" {
			return netip.Addr{}, false
		}
		n := 0
		for _, c := range p {
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return netip.Addr{}, false
		}
		b[i] = byte(n)
	}
	return netip.AddrFrom4(b), true
}

func percentDecode(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := digitValue(s[i+1])
		lo, ok2 := digitValue(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b.WriteByte(byte(hi<<4 | lo))
		i += 2
	}
	return b.String(), true
}

// fold lower-cases host and maps the Unicode look-alikes that IDNA
// (UTS #46, NFKC) turns into ASCII digits, letters and dots: fullwidth
// forms, ideographic and halfwidth full stops, circled and mathematical
// digits and letters, superscript and subscript digits; it deletes the
// code points UTS #46 ignores (soft hyphen, zero-width characters,
// variation selectors). changed reports a change beyond ASCII case. This
// is a narrow subset of IDNA mapping: other non-ASCII names are kept as
// they are and judged as public names.
func fold(host string) (string, bool) {
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(host), false
	}
	var b strings.Builder
	changed := false
	for _, r := range host {
		m, ok := foldRune(r)
		if ok {
			changed = true
			if m >= 0 {
				b.WriteRune(m)
			}
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String(), changed
}

// foldRune maps one look-alike rune; -1 means delete it.
func foldRune(r rune) (rune, bool) {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E: // fullwidth ASCII
		return unicode.ToLower(r - 0xFEE0), true
	case r == 0x3002 || r == 0xFF61: // ideographic, halfwidth full stop
		return '.', true
	case r >= 0x2460 && r <= 0x2468: // circled 1–9
		return '1' + (r - 0x2460), true
	case r == 0x24EA: // circled 0
		return '0', true
	case r >= 0x24B6 && r <= 0x24CF: // circled A–Z
		return 'a' + (r - 0x24B6), true
	case r >= 0x24D0 && r <= 0x24E9: // circled a–z
		return 'a' + (r - 0x24D0), true
	case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits
		return '0' + (r-0x1D7CE)%10, true
	case r >= 0x2080 && r <= 0x2089: // subscript digits
		return '0' + (r - 0x2080), true
	case r == 0x2070:
		return '0', true
	case r == 0xB9:
		return '1', true
	case r == 0xB2 || r == 0xB3:
		return '2' + (r - 0xB2), true
	case r >= 0x2074 && r <= 0x2079:
		return '4' + (r - 0x2074), true
	case r == 0xAD || r == 0x34F || (r >= 0x200B && r <= 0x200D) || r == 0x2060 || r == 0xFEFF || (r >= 0xFE00 && r <= 0xFE0F):
		return -1, true
	}
	return 0, false
}

// Names of metadata endpoints: GCP (metadata.google.internal, metadata,
// metadata.goog), AWS (instance-data, instance-data.ec2.internal), Tencent
// Cloud (metadata.tencentyun.com), Equinix Metal
// (metadata.platformequinix.com).
func metadataName(host string) bool {
	switch host {
	case "metadata.google.internal", "metadata", "metadata.goog", "instance-data", "instance-data.ec2.internal",
		"metadata.tencentyun.com", "metadata.platformequinix.com":
		return true
	}
	return false
}

// Names that mean this machine: RFC 6761 localhost, the Debian/RedHat
// aliases, and public names whose DNS points at 127.0.0.1 (localtest.me,
// lvh.me).
var loopbackNames = []string{"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "localtest.me", "lvh.me",
	"vcap.me", "fuf.me", "lacolhost.com", "localhost.direct", "localho.st", "yoogle.com", "spoofed.burpcollaborator.net"}

// DNS-rebinding services: a name under them answers with an address the
// name chooses, alternating between a public one and an internal one, so
// no check before the connection can trust it (rbndr.us, 1u.ms,
// rebind.network, Singularity's dynamic names).
var rebindServices = []string{"rbndr.us", "1u.ms", "rebind.network", "rebind.it", "dynamic.domain"}

// Suffixes of intranet names: RFC 6762 .local, RFC 8375 .home.arpa, ICANN
// reserved .internal, and the common .lan .home .corp .intranet .private
// .localdomain and Kubernetes .svc.
var privateSuffixes = []string{"internal", "local", "localdomain", "lan", "home", "home.arpa", "corp", "intranet", "private", "svc"}

// Wildcard-DNS services that resolve a name to the address it spells
// (10.0.0.1.nip.io, 10-0-0-1.sslip.io, 7f000001.nip.io).
var wildcardDNS = []string{"nip.io", "sslip.io", "xip.io", "traefik.me", "nip.me"}

// Names only a cluster's DNS answers: Kubernetes (the API server as
// kubernetes, kubernetes.default and their longer forms; services under
// .svc and cluster.local) and Consul's service discovery domain.
var clusterSuffixes = []string{"kubernetes", "kubernetes.default", "svc", "cluster.local", "consul"}

// Admin names of home and office routers, which their DNS answers with
// the router's LAN address (Netgear, TP-Link, ASUS, AVM FRITZ!Box,
// Telekom Speedport, Tenda, Xiaomi, Mercury, Linksys, D-Link, Huawei).
var routerNames = []string{"routerlogin.net", "routerlogin.com", "orbilogin.com", "orbilogin.net", "mywifiext.net",
	"tplinkwifi.net", "tplinklogin.net", "tplinkmodem.net", "tplinkrepeater.net", "tplinkap.net", "tplinkeap.net",
	"router.asus.com", "asusrouter.com", "repeater.asus.com", "fritz.box", "fritz.repeater", "speedport.ip",
	"tendawifi.com", "miwifi.com", "router.miwifi.com", "melogin.cn", "falogin.cn", "myrouter.local",
	"linksyssmartwifi.com", "dlinkrouter.local", "mydlink.local", "homerouter.cpe"}

// internalName says what kind of internal name host is, "" for none.
func internalName(host string) string {
	for _, s := range clusterSuffixes {
		if hasSuffixLabel(host, s) {
			return ClusterName
		}
	}
	for _, n := range routerNames {
		if hasSuffixLabel(host, n) {
			return RouterName
		}
	}
	return ""
}

func hasSuffixLabel(host, suffix string) bool {
	return host == suffix || subdomain(host, suffix)
}

// classifyName classes a host name before DNS.
func classifyName(host string) (Network, netip.Addr, string) {
	if metadataName(host) {
		return Metadata, netip.Addr{}, ""
	}
	for _, n := range loopbackNames {
		if hasSuffixLabel(host, n) {
			return Loopback, netip.Addr{}, ""
		}
	}
	for _, r := range rebindServices {
		if subdomain(host, r) {
			return Private, netip.Addr{}, "DNS-rebinding service name"
		}
	}
	for _, w := range wildcardDNS {
		if subdomain(host, w) {
			if a, ok := wildcardAddr(host[:len(host)-len(w)-1]); ok {
				return NetworkOf(a), a, "wildcard-DNS name that spells an address"
			}
		}
	}
	for _, s := range privateSuffixes {
		if hasSuffixLabel(host, s) {
			return Private, netip.Addr{}, ""
		}
	}
	if internalName(host) != "" {
		return Private, netip.Addr{}, ""
	}
	if !strings.Contains(host, ".") {
		return Private, netip.Addr{}, ""
	}
	return Public, netip.Addr{}, ""
}

// wildcardAddr finds the address a wildcard-DNS prefix spells: its last
// four dot-separated labels, the last four dash-separated fields of its
// last label, or a last label of eight hex digits.
func wildcardAddr(prefix string) (netip.Addr, bool) {
	labels := strings.Split(prefix, ".")
	if len(labels) >= 4 {
		if a, err := netip.ParseAddr(strings.Join(labels[len(labels)-4:], ".")); err == nil {
			return a, true
		}
	}
	last := labels[len(labels)-1]
	if f := strings.Split(last, "-"); len(f) >= 4 {
		if a, err := netip.ParseAddr(strings.Join(f[len(f)-4:], ".")); err == nil {
			return a, true
		}
	}
	if len(last) == 8 {
		if a, _, ok := ParseIPv4("0x" + last); ok {
			return a, true
		}
	}
	return netip.Addr{}, false
}

// quote quotes a URL for a reason, shortened to 120 bytes.
func quote(s string) string {
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// subdomain reports whether host is a subdomain of domain (host ends in
// "." + domain), without building that string.
func subdomain(host, domain string) bool {
	n := len(host) - len(domain)
	return n > 0 && host[n-1] == '.' && host[n:] == domain
}
