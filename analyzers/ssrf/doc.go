// Package ssrf judges URLs before a fetch, without DNS: the pre-DNS half
// of the tool-executor framework's "SSRF Protection in WebScrapeExecutor" (scheme check and
// host blocklist), with the host read the way real URL parsers read it
// ([places.ParseURL] says how, and which networks names and addresses
// belong to).
//
// [Check] is the policy for fetch tools (WebFetch, MCP fetch servers);
// [CheckCommandURL] judges URLs in shell commands by the same reading
// and rules, relaxed where a command is ordinary work (localhost and
// private addresses plainly named pass; metadata endpoints, disguised
// spellings and wildcard-DNS names are refused as for WebFetch). [Analyzer] runs Check on
// WebFetch calls. [IsBlockedAddr] is the post-DNS half: a fetch executor
// calls it on every resolved address and redirect hop.
//
// Limits: the Unicode folding is a subset of IDNA (UTS #46); a public
// name whose DNS points inside (DNS rebinding) is only caught by the
// executor's post-DNS check with IsBlockedAddr.
package ssrf
