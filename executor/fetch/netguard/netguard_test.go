package netguard_test

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/executor/fetch/netguard"
	"github.com/toolwall/toolwall/internal/rows"
)

func TestCheck(t *testing.T) {
	n := 0
	for _, r := range rows.Read(t, "testdata/addrs.tsv", 3) {
		ln := r.Line
		fl := r.Fields
		n++
		a := netip.MustParseAddr(fl[0])
		err := netguard.Check(a)
		switch {
		case fl[1] == "allow" && err != nil:
			t.Errorf("addrs.tsv:%d: Check(%s) = %v, want allowed", ln, a, err)
		case fl[1] == "block" && err == nil:
			t.Errorf("addrs.tsv:%d: Check(%s) allowed, want blocked (%s)", ln, a, fl[2])
		case fl[1] == "block" && !strings.Contains(err.Error(), fl[2]):
			t.Errorf("addrs.tsv:%d: Check(%s) = %q, want it to name %q", ln, a, err, fl[2])
		}
		var be *netguard.BlockedError
		if err != nil && !errors.As(err, &be) {
			t.Errorf("addrs.tsv:%d: error %T is not a *BlockedError", ln, err)
		}
	}
	if n < 60 {
		t.Fatalf("addrs.tsv: %d cases", n)
	}
	if netguard.Check(netip.Addr{}) == nil {
		t.Error("the zero address passed")
	}
}

func TestPolicyAllow(t *testing.T) {
	p := netguard.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}}
	for s, want := range map[string]bool{
		"127.0.0.2": true, "::ffff:127.0.0.2": true, "127.0.0.1": false,
		"64:ff9b::7f00:2": false, "2002:7f00:2::1": false, "::127.0.0.2": false, "8.8.8.8": true,
	} {
		if got := p.Check(netip.MustParseAddr(s)) == nil; got != want {
			t.Errorf("Check(%s) allowed=%v, want %v", s, got, want)
		}
	}
}

func TestBlockedName(t *testing.T) {
	for h, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "a.b.localhost": true, "metadata.google.internal": true,
		"printer.local": true, "nas.lan": true, "x.home.arpa": true, "intranet": true, "": true,
		"go.dev": false, "localhost.example.com": false, "internal.example.com": false, "local.dev": false,
	} {
		if _, got := netguard.BlockedName(h); got != want {
			t.Errorf("BlockedName(%q) = %v, want %v", h, got, want)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range [][]byte{{127, 0, 0, 1}, {8, 8, 8, 8}, {10, 1, 2, 3}, {169, 254, 169, 254}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var a netip.Addr
		switch len(b) {
		case 4:
			a = netip.AddrFrom4([4]byte(b))
		case 16:
			a = netip.AddrFrom16([16]byte(b))
		default:
			return
		}
		err := netguard.Check(a)
		if a.Is4() {
			mapped := netip.AddrFrom16(a.As16())
			if (netguard.Check(mapped) == nil) != (err == nil) {
				t.Fatalf("%s and %s disagree", a, mapped)
			}
		}
		if err == nil && (a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsUnspecified()) {
			t.Fatalf("%s passed although net/netip calls it special", a)
		}
	})
}
