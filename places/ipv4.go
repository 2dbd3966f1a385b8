package places

import (
	"net/netip"
	"strings"
)

// ParseIPv4 parses s the way inet_aton(3) and the WHATWG URL host parser
// read an IPv4 address, which is how curl, browsers and most HTTP stacks
// read a URL host that ends in a number:
//
//   - one to four parts separated by dots, with at most one trailing dot
//     ("127.0.0.1.");
//   - each part is hexadecimal after "0x" or "0X" (an empty "0x" is 0),
//     octal with a leading "0", decimal otherwise;
//   - the last part fills the remaining bytes: "127.1" is 127.0.0.1,
//     "127.0.1" is 127.0.0.1, "2130706433" is 127.0.0.1; every other
//     part must be at most 255.
//
// canonical is true only for the plain dotted-quad form: four decimal
// parts, no leading zeros, no trailing dot. ok is false when s is not an
// IPv4 address in any of these spellings.
func ParseIPv4(s string) (addr netip.Addr, canonical, ok bool) {
	if s == "" || len(s) > 64 {
		return netip.Addr{}, false, false
	}
	trailingDot := strings.HasSuffix(s, ".")
	if trailingDot {
		s = s[:len(s)-1]
	}
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false, false
	}
	canonical = len(parts) == 4 && !trailingDot
	var nums [4]uint64
	for i, p := range parts {
		n, plain, good := parseIPv4Part(p)
		if !good {
			return netip.Addr{}, false, false
		}
		nums[i] = n
		canonical = canonical && plain
	}
	last := len(parts) - 1
	for i := 0; i < last; i++ {
		if nums[i] > 255 {
			return netip.Addr{}, false, false
		}
	}
	if nums[last] >= 1<<(8*(5-len(parts))) {
		return netip.Addr{}, false, false
	}
	v := nums[last]
	for i := 0; i < last; i++ {
		v |= nums[i] << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), canonical, true
}

// parseIPv4Part reads one dot-separated part; plain is set for a decimal
// part without leading zeros.
func parseIPv4Part(p string) (n uint64, plain, ok bool) {
	if p == "" {
		return 0, false, false
	}
	base := uint64(10)
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, p = 16, p[2:]
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	default:
		plain = true
	}
	for i := 0; i < len(p); i++ {
		d, good := digitValue(p[i])
		if !good || d >= base {
			return 0, false, false
		}
		n = n*base + d
		if n > 1<<32 {
			return 0, false, false
		}
	}
	return n, plain, true
}

func digitValue(c byte) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// endsInNumber reports whether the last label of host (ignoring one
// trailing dot) is numeric in the WHATWG sense: all decimal digits, or
// "0x" followed by hex digits. Such a host must parse as IPv4 or the URL
// is invalid (WHATWG URL, "ends in a number checker").
func endsInNumber(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		host = host[i+1:]
	}
	if host == "" {
		return false
	}
	if strings.Trim(host, "0123456789") == "" {
		return true
	}
	if len(host) >= 2 && host[0] == '0' && (host[1] == 'x' || host[1] == 'X') {
		return strings.Trim(host[2:], "0123456789abcdefABCDEF") == ""
	}
	return false
}
