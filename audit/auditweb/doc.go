// Package auditweb is the local page over an audit store (`toolwall
// audit serve`): decisions over time, the rules that fired most, the
// sessions, a session's calls with the chain rules that fired, and one
// decision in full. Pages are rendered on the server with html/template
// (no script, no build step).
//
// It is for the user at their own machine: [Listen] refuses any address
// that is not loopback, and every request must carry the random token
// the server prints in its URL (?token=…), so another local user or a
// web page in the browser cannot read the audit (a request without it is
// 403). Records are already redacted by the store's writers.
package auditweb
