// Package websearch is the web_search executor of the tool-executor framework
// ("WebSearchExecutor — the web_search tool: issues a natural-language
// query to an external search provider (Brave) and returns ranked
// title/url/snippet results without requiring a pre-known URL. Reuses
// scrape's SSRF validation …; result URLs are never auto-fetched.
// Disabled by default").
//
// It is disabled by default: nothing is built until an application calls
// [New], which the [search] table of toolwall's configuration drives
// (policy.Search, checked at load; `toolwall search` builds the executor
// from it). The provider
// is Brave's Web Search API (https://api.search.brave.com/res/v1/web/search,
// the key in the X-Subscription-Token header, q and count in the query;
// see Brave's API documentation at api-dashboard.search.brave.com/docs).
// The key comes from the environment variable the configuration names,
// read once by New and held as an llm.Secret, so it prints as
// [REDACTED] everywhere and is scrubbed from every error.
//
// One web_search call, input {"query": string, "count": integer}:
//
//  1. the input is read strictly: a query of 1 to 400 characters and at
//     most 50 words (Brave's limits) with no control characters, a count
//     of 1 to Options.MaxResults;
//  2. the gate judges the web_search call and its audit record is written
//     (executor.Boundary);
//  3. the gate judges the outbound request too, as a WebFetch of the
//     provider URL with the query in it: a credential in the query is
//     egress to the provider (secrets.token-egress), and a query after a
//     secret read completes the secret-egress chain;
//  4. the request goes through the fetch executor's SSRF defence
//     (fetch.Executor.Get): the provider's host checked before and after
//     DNS, the connection pinned to the checked addresses, redirects
//     followed by hand and checked again — the key is sent to the
//     provider's origin only, never across a redirect —, one egress
//     record per hop; the pinned client is kept and reused while the
//     provider's host resolves to the same address set;
//  5. the provider's answer is read up to Options.MaxBytes (1 MiB): a
//     larger one is cut, and the results read before the cut are kept;
//  6. the results are untrusted text: HTML markup taken out, control and
//     format characters (bidi overrides, zero-width marks) removed, each
//     field and the whole bounded (Options.MaxOutput, 16 KiB), &, < and >
//     escaped, and the whole wrapped in a <tool_output … trust="untrusted">
//     element that says it is data, not instructions. Result URLs are
//     shown, never fetched.
package websearch
