// Package fetch is the fetch executor: the tool-executor framework's WebScrapeExecutor with
// its layered SSRF defence, on toolwall's gate. For one WebFetch call:
//
//  1. the gate judges the call before anything is resolved (the ssrf,
//     secrets and chain analyzers; executor.Boundary), and the audit
//     record is written;
//  2. HTTPS only (http:// only with Options.AllowHTTP); no userinfo;
//  3. pre-DNS host blocklist: localhost, *.localhost, *.internal,
//     *.local and other intranet names (netguard.BlockedName), every name
//     analyzers/ssrf classes as non-public (metadata names, wildcard-DNS
//     names that spell an address, DNS-rebinding services), and literal
//     addresses in every spelling — decimal, hex, octal and short IPv4
//     forms are refused outright, plain literals are judged by the
//     address policy;
//  4. post-DNS: the name is resolved once and every address in the
//     answer must pass netguard.Check (a mixed answer with one internal
//     address is refused whole);
//  5. the connection is pinned to the validated addresses (no second
//     resolution, so DNS rebinding between check and connect has nothing
//     to change), no proxy is used, and the dialer's Control hook refuses
//     any other address;
//  6. redirects are not followed by the HTTP client; up to three are
//     followed by hand, each target going through steps 2–5 and the gate
//     again (a relative Location is resolved against the current URL);
//  7. the body is read up to Options.MaxBytes and the whole fetch is
//     bounded by Options.Timeout;
//  8. every hop writes an egress record (driver "executor:fetch:egress",
//     input {url, hop, addrs, parent}) before it connects, with a deny
//     verdict naming the rule when the hop was refused.
//
// Other executors make their requests through the same defence with
// [Executor.Get] (the web_search executor's request to its provider): a
// header given with the request goes to the URL's origin only, never
// across a redirect to another host, and the egress records name the
// calling tool. With Options.Reuse the executor keeps one pinned client
// per resolved address set and reuses its connections while the host
// keeps resolving to that set (the tool-executor framework's search client).
package fetch
