package ssrf_test

import (
	"fmt"
	"net/netip"

	"github.com/toolwall/toolwall/analyzers/ssrf"
)

func ExampleCheck() {
	for _, u := range []string{
		"https://go.dev/doc/",
		"http://localhost:8080/admin",
		"http://0x7f000001/",
		"http://169.254.169.254/latest/meta-data/",
	} {
		r := ssrf.Check(u)
		fmt.Println(r.Action, r.Rule, r.Target.Host)
	}
	// Output:
	// allow  go.dev
	// ask ssrf.loopback localhost
	// deny ssrf.obfuscated-host 127.0.0.1
	// deny ssrf.metadata 169.254.169.254
}

func ExampleIsBlockedAddr() {
	fmt.Println(ssrf.IsBlockedAddr(netip.MustParseAddr("10.0.0.7")))
	fmt.Println(ssrf.IsBlockedAddr(netip.MustParseAddr("::ffff:169.254.169.254")))
	fmt.Println(ssrf.IsBlockedAddr(netip.MustParseAddr("140.82.112.3")))
	// Output:
	// true
	// true
	// false
}
