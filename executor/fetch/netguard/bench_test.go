package netguard_test

import (
	"net/netip"
	"testing"

	"github.com/toolwall/toolwall/executor/fetch/netguard"
)

func BenchmarkCheck(b *testing.B) {
	addrs := []netip.Addr{netip.MustParseAddr("140.82.112.3"), netip.MustParseAddr("2606:4700:4700::1111"), netip.MustParseAddr("2001:0:4136:e378:8000:63bf:80ff:fffe")}
	for b.Loop() {
		for _, a := range addrs {
			_ = netguard.Check(a)
		}
	}
}
